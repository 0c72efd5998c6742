/**
 * The checks that look at each document as a whole: the headers (PO number, vendor, currency), each document's own
 * arithmetic (line extensions, subtotal, total) and the charges (tax, freight, fees) judged by the PO's terms.
 */
import { abs, formatDecimal, formatMoney, lineAmount, CENT } from './decimal.js';
import type { Charge, Doc, DocLine } from './document.js';
import { amountOf, label } from './lines.js';
import { normalisePo, normaliseVendor } from './normalise.js';
import { lineSource, type Field, type Finding, type Source } from './findings.js';
import type { Terms } from './terms.js';

const ROUNDING = CENT;

const charge = (field: Field, c: Charge): Source => ({ field, cites: c.cite ? [c.cite] : undefined, needle: c.label });
const total = (field: Field, d: Doc): Source => ({ field, cites: d.totalCite ? [d.totalCite] : undefined, needle: d.totalQuote });
/** The PO's own words a finding rests on (a term's sentence): found in the PO's text. */
export const termSource = (quote: string): Source => ({ field: 'purchaseOrder', needle: quote.replace(/…$/, '') });

export function compareHeaders(po: Doc, invoice: Doc, invoiceText: string, problems: Finding[], notes: string[]): void {
  const poSrc: Source = { field: 'purchaseOrder', needle: po.poNumber };
  const invSrc: Source = { field: 'invoice', needle: invoice.poNumber };
  if (po.poNumber === undefined) problems.push({ kind: 'PO number', text: 'PO number: the purchase order states no PO number', sources: [poSrc] });
  if (invoice.poNumber === undefined) problems.push({ kind: 'PO number', text: 'PO number: the invoice does not name the PO it bills', sources: [invSrc, poSrc] });
  if (po.poNumber !== undefined && invoice.poNumber !== undefined && normalisePo(po.poNumber) !== normalisePo(invoice.poNumber)) {
    problems.push({ kind: 'PO number', text: `PO number: the invoice bills "${invoice.poNumber}" but the purchase order is "${po.poNumber}"`, sources: [invSrc, poSrc] });
  }
  if (po.vendor === undefined || invoice.vendor === undefined) {
    const missing = [po.vendor === undefined ? 'purchase order' : '', invoice.vendor === undefined ? 'invoice' : ''].filter(Boolean);
    notes.push(`vendor not compared (not stated on the ${missing.join(' or ')}).`);
  } else if (normaliseVendor(po.vendor) !== normaliseVendor(invoice.vendor)) {
    // A letterhead or sender may be read loosely: the PO's vendor named anywhere on the invoice is the same vendor.
    const named = ` ${normaliseVendor(invoiceText.replace(/\n/g, ' | '))} `.includes(` ${normaliseVendor(po.vendor)} `);
    if (!named) {
      problems.push({
        kind: 'vendor',
        text: `vendor: the invoice says "${invoice.vendor}" but the purchase order says "${po.vendor}"`,
        sources: [{ field: 'invoice', needle: invoice.vendor }, { field: 'purchaseOrder', needle: po.vendor }],
      });
    }
  }
  if (po.currency === undefined || invoice.currency === undefined) {
    const missing = [po.currency === undefined ? 'purchase order' : '', invoice.currency === undefined ? 'invoice' : ''].filter(Boolean);
    notes.push(`currency not compared (not stated on the ${missing.join(' or ')}).`);
  } else if (po.currency.trim().toUpperCase() !== invoice.currency.trim().toUpperCase()) {
    problems.push({
      kind: 'currency',
      text: `currency: the invoice says "${invoice.currency}" but the purchase order says "${po.currency}"`,
      sources: [{ field: 'invoice', needle: invoice.currency }, { field: 'purchaseOrder', needle: po.currency }],
    });
  }
}

/** Line totals and the document total; returns the total reported (stated, else computed). */
export function checkArithmetic(doc: Doc, field: Field, problems: Finding[], notes: string[]): bigint {
  const name = field === 'invoice' ? 'invoice' : 'purchase order';
  let lines = 0n;
  for (const line of doc.lines) {
    if (line.amount !== undefined && line.unitPrice !== undefined) {
      const expected = lineAmount(line.quantity, line.unitPrice, line.priceBase);
      if (abs(expected - line.amount) > ROUNDING) problems.push(extensionProblem(line, field, expected));
    }
    lines += amountOf(line);
  }
  const sumText = doc.lines.length <= 8 ? `${doc.lines.map((l) => formatMoney(amountOf(l))).join(' + ')} = ${formatMoney(lines)}` : `lines sum to ${formatMoney(lines)}`;
  // A fee printed above the subtotal (a restocking charge on a credit memo) may be inside it.
  const fees = doc.charges.filter((c) => c.kind === 'other' || c.inLines).reduce((a, c) => a + c.amount, 0n);
  if (doc.subtotal !== undefined && abs(doc.subtotal - lines) > ROUNDING && abs(doc.subtotal - lines - fees) > ROUNDING) {
    problems.push({
      kind: 'subtotal',
      text: `${name} subtotal ${formatMoney(doc.subtotal)} is not the sum of its lines ${formatMoney(lines)}`,
      sources: [{ field, needle: formatMoney(doc.subtotal) }, ...doc.lines.slice(0, 3).map((l) => lineSource(field, l))],
      arithmetic: `${sumText}, not ${formatMoney(doc.subtotal)}`,
    });
  }
  const charges = doc.charges.reduce((acc, c) => acc + c.amount, 0n);
  const computed = lines + charges;
  const withCharges = doc.charges.length > 0 ? ` plus ${doc.charges.map((c) => `${c.label} ${formatMoney(c.amount)}`).join(', ')}` : '';
  if (doc.total === undefined) {
    notes.push(`The ${name} states no total; its lines${withCharges} sum to ${formatMoney(computed)}.`);
    return computed;
  }
  // A PO's total may be its net (goods) total while a tax line is only informative; either reading that adds up is fine.
  if (abs(doc.total - computed) > ROUNDING && !(field === 'purchaseOrder' && abs(doc.total - lines) <= ROUNDING)) {
    problems.push({
      kind: 'total',
      text: `${name} total ${formatMoney(doc.total)} is not the sum of its lines${withCharges} ${formatMoney(computed)}`,
      sources: [total(field, doc), ...doc.charges.map((c) => charge(field, c))],
      arithmetic: `${formatMoney(lines)} lines${doc.charges.map((c) => ` ${c.amount < 0n ? '−' : '+'} ${formatMoney(abs(c.amount))} ${c.label}`).join('')} = ${formatMoney(computed)}, stated ${formatMoney(doc.total)}: ${formatMoney(abs(doc.total - computed))} apart`,
    });
  }
  return doc.total;
}

function extensionProblem(line: DocLine, field: Field, expected: bigint): Finding {
  const name = field === 'invoice' ? 'invoice' : 'purchase order';
  const per = line.priceBase ? ` per ${formatDecimal(line.priceBase)}` : '';
  const head = `${name} line ${label(line)}: line total ${formatMoney(line.amount!)} is not quantity ${formatDecimal(line.quantity)} × unit price ${formatMoney(line.unitPrice!)}${per} = ${formatMoney(expected)}`;
  const q = line.quote ? ` ('${line.quote.slice(0, 140)}')` : '';
  const arithmetic = `${formatDecimal(line.quantity)} × ${formatMoney(line.unitPrice!)}${per} = ${formatMoney(expected)}, line total ${formatMoney(line.amount!)}: ${formatMoney(abs(line.amount! - expected))} ${line.amount! > expected ? 'over' : 'under'}`;
  const sources = [lineSource(field, line)];
  if (line.ordered !== undefined && line.ordered > line.quantity) {
    const atOrdered = lineAmount(line.ordered, line.unitPrice!, line.priceBase);
    if (abs(atOrdered - line.amount!) <= ROUNDING) {
      return {
        kind: 'back-order billed',
        text: `${head}: it bills the ordered ${formatDecimal(line.ordered)} although only ${formatDecimal(line.quantity)} shipped and ` +
          `${formatDecimal(line.ordered - line.quantity)} are back-ordered, ${formatMoney(line.amount! - expected)} billed before shipping${q}`,
        sources,
        arithmetic: `${formatDecimal(line.ordered)} ordered × ${formatMoney(line.unitPrice!)} = ${formatMoney(atOrdered)} billed; ${formatDecimal(line.quantity)} shipped × ${formatMoney(line.unitPrice!)} = ${formatMoney(expected)}`,
      };
    }
  }
  return { kind: 'extension', text: `${head}, ${formatMoney(abs(line.amount! - expected))} ${line.amount! > expected ? 'over' : 'under'}${q}`, sources, arithmetic };
}

/** Tax and freight on the invoice, judged by the PO's own terms and charges. */
export function judgeCharges(po: Doc, invoice: Doc, terms: Terms, problems: Finding[], notes: string[]): void {
  const poHas = (kind: string) => po.charges.filter((c) => c.kind === kind).reduce((a, c) => a + c.amount, 0n);
  const freightBilled = invoice.charges.filter((c) => c.kind === 'freight' && c.amount > 0n).reduce((a, c) => a + c.amount, 0n);
  let capHeld = false;
  for (const c of invoice.charges) {
    if (c.amount <= 0n) continue;
    const src = charge('invoice', c);
    // A fee the PO's notes approve by name (a drop-ship or handling fee) is judged by that approval, whatever its kind.
    const approved = c.kind === 'tax' ? undefined : terms.approvedCharges?.find((a) => chargeMatches(a.label, c.label));
    if (approved && c.amount <= approved.amount) {
      notes.push(`${c.label} ${formatMoney(c.amount)} billed as the PO approves ('${approved.quote}').`);
    } else if (approved) {
      problems.push({ kind: 'charge', text: `charge: ${c.label} ${formatMoney(c.amount)} billed; the PO approves ${formatMoney(approved.amount)} ('${approved.quote}')`, sources: [src, termSource(approved.quote)], arithmetic: `${formatMoney(c.amount)} − ${formatMoney(approved.amount)} = ${formatMoney(c.amount - approved.amount)} over the approved amount` });
    } else if (refusedCharge(terms, c) && poHas(c.kind ?? 'other') < c.amount) {
      const refused = refusedCharge(terms, c)!;
      problems.push({ kind: 'charge', text: `charge: ${c.label} ${formatMoney(c.amount)} ${invoice.lines.some((l) => amountOf(l) < 0n) ? 'deducted from the credit' : 'billed'}; the PO says '${refused.quote}'`, sources: [src, termSource(refused.quote)] });
    } else if (c.kind === 'tax') {
      if (terms.taxExempt) {
        problems.push({ kind: 'tax', text: `tax: ${c.label} ${formatMoney(c.amount)} billed although the PO is tax-exempt ('${terms.taxExempt.quote}')`, sources: [src, termSource(terms.taxExempt.quote)] });
      } else notes.push(`Tax ${c.label} ${formatMoney(c.amount)} billed on top of the goods; the PO claims no exemption.`);
    } else if (c.kind === 'freight') {
      if (terms.freightNotBillable) {
        problems.push({ kind: 'freight', text: `freight: ${c.label} ${formatMoney(c.amount)} billed but the PO says '${terms.freightNotBillable.quote}'`, sources: [src, termSource(terms.freightNotBillable.quote)] });
      } else if (terms.freightCap && freightBilled > terms.freightCap.amount) {
        // One finding for the freight over the cap, however many freight lines make it up.
        if (capHeld) continue;
        capHeld = true;
        problems.push({ kind: 'freight', text: `freight: ${c.label} ${formatMoney(c.amount)} billed, ${formatMoney(freightBilled)} freight in all, over the PO's cap of ${formatMoney(terms.freightCap.amount)} ('${terms.freightCap.quote}')`, sources: [src, termSource(terms.freightCap.quote)], arithmetic: `${formatMoney(freightBilled)} − ${formatMoney(terms.freightCap.amount)} = ${formatMoney(freightBilled - terms.freightCap.amount)} over the cap` });
      } else if (terms.freightBillable && flatFreight(po, terms) !== undefined && freightBilled > poHas('freight') + CENT) {
        // "Prepay & add (flat $35.00 agreed)" with the PO's own freight line: the freight is that agreed amount.
        if (capHeld) continue;
        capHeld = true;
        const flat = flatFreight(po, terms)!;
        problems.push({ kind: 'freight', text: `freight: ${c.label} ${formatMoney(c.amount)} billed, ${formatMoney(freightBilled)} freight in all, over the flat freight the PO agrees (${formatMoney(poHas('freight'))}: '${flat}')`, sources: [src, termSource(flat)], arithmetic: `${formatMoney(freightBilled)} − ${formatMoney(poHas('freight'))} = ${formatMoney(freightBilled - poHas('freight'))} over the agreed freight` });
      } else if (terms.freightBillable) {
        const cap = terms.freightCap ? `, within its cap of ${formatMoney(terms.freightCap.amount)} ('${terms.freightCap.quote}')` : '';
        notes.push(`Freight ${c.label} ${formatMoney(c.amount)} billed as the PO allows ('${terms.freightBillable.quote}')${cap}.`);
      }
      else if (poHas('freight') < c.amount) {
        problems.push({ kind: 'freight', text: `freight: ${c.label} ${formatMoney(c.amount)} billed; the PO carries no such charge and says nothing allowing it`, sources: [src], arithmetic: `${formatMoney(c.amount)} billed against ${formatMoney(poHas('freight'))} on the PO` });
      }
    } else if (poHas(c.kind ?? 'other') < c.amount) {
      problems.push({ kind: 'charge', text: `charge: ${c.label} ${formatMoney(c.amount)} billed; the PO carries no such charge`, sources: [src] });
    } else notes.push(`${c.label} ${formatMoney(c.amount)} billed as the PO itself carries it (${po.charges.filter((p) => p.kind === (c.kind ?? 'other')).map((p) => `${p.label} ${formatMoney(p.amount)}`).join(', ')}).`);
  }
}

/**
 * Tax above the PO's own: where the PO states its tax and the invoice bills the same goods (its lines the same money
 * as the PO's), the invoice's tax may exceed the PO's by no more than a cent a line. More is tax at a rate the PO does
 * not apply to some line (GST on a GST-free food, VAT at the standard rate on a reduced-rate item): money not owed.
 * A partial invoice is not judged this way: with mixed rates its share of the PO's tax is not known.
 */
export function judgeTaxAgainstPo(po: Doc, invoice: Doc, problems: Finding[]): void {
  const taxes = (d: Doc) => d.charges.filter((c) => c.kind === 'tax');
  const sum = (cs: Charge[]) => cs.reduce((a, c) => a + c.amount, 0n);
  const poTaxes = taxes(po);
  const invoiceTaxes = taxes(invoice);
  if (poTaxes.length === 0 || invoiceTaxes.length === 0) return;
  const goods = (d: Doc) => d.lines.reduce((a, l) => a + amountOf(l), 0n);
  if (abs(goods(po) - goods(invoice)) > CENT) return;
  // A PO whose own total is not its lines plus its charges (check 4 holds it) states no tax to hold the invoice to.
  if (po.total !== undefined && abs(po.total - goods(po) - sum(po.charges)) > CENT) return;
  // Freight or a fee the PO does not carry brings its own tax: that charge is judged on its own (judgeCharges).
  const others = (d: Doc) => d.charges.filter((c) => c.kind !== 'tax' && c.amount > 0n).reduce((a, c) => a + c.amount, 0n);
  if (others(invoice) > others(po) + CENT) return;
  const over = sum(invoiceTaxes) - sum(poTaxes);
  if (over <= BigInt(Math.max(1, invoice.lines.length)) * CENT) return;
  const list = (cs: Charge[]) => cs.map((c) => `${c.label} ${formatMoney(c.amount)}`).join(' + ');
  problems.push({
    kind: 'tax',
    text: `tax: the invoice bills ${formatMoney(sum(invoiceTaxes))} of tax (${list(invoiceTaxes)}) on the same goods, ${formatMoney(goods(invoice))}, that the PO taxes at ${formatMoney(sum(poTaxes))} (${list(poTaxes)}): ${formatMoney(over)} over, tax at a rate the PO does not apply to some line`,
    sources: [charge('invoice', invoiceTaxes[0]), charge('purchaseOrder', poTaxes[0])],
    arithmetic: `${formatMoney(sum(invoiceTaxes))} − ${formatMoney(sum(poTaxes))} = ${formatMoney(over)} over the PO's tax`,
  });
}

/**
 * The PO's words that its freight is a fixed amount ("prepay & add (flat $35.00 agreed)", a freight line "flat rate
 * per quote Q-8842"), where the PO carries that freight itself: the quote (the PO's sentence, else its freight line).
 */
function flatFreight(po: Doc, terms: Terms): string | undefined {
  const flat = /\bflat\b|\bagreed\b|\bfixed\b|\bper\s+quote\b|\bquoted\b/i;
  const lines = po.charges.filter((c) => c.kind === 'freight' && c.amount > 0n);
  if (lines.length === 0) return undefined;
  if (terms.freightBillable && flat.test(terms.freightBillable.quote)) return terms.freightBillable.quote;
  return lines.find((c) => flat.test(c.label))?.label;
}

/** A fee the PO says it never pays, by name ("no restocking fee applies", "no surcharges or fees (fuel, handling …)"). */
const refusedCharge = (terms: Terms, c: Charge) => (c.kind === 'tax' ? undefined : terms.refusedCharges?.find((r) => chargeMatches(r.label, c.label)));

/** "DROP SHIP FEE" is the PO's "drop-ship fee": the charge's own words, at least one beyond fee/charge, appear in it. */
function chargeMatches(approved: string, billed: string): boolean {
  const words = (t: string) => t.toLowerCase().replace(/-/g, ' ').split(/[^a-z]+/).filter((w) => w.length >= 3 && !['fee', 'fees', 'charge', 'charges', 'the', 'and', 'per'].includes(w));
  const a = new Set(words(approved));
  const b = words(billed);
  return b.length > 0 && b.every((w) => a.has(w));
}
