/**
 * Two-way match of an invoice against its purchase order, by the rules written in RULES.md:
 * 1. read both documents (JSON, UBL XML/JSON, X12 810 JSON, CSV reports, printed text); unreadable → AgentInputError;
 * 2. read the PO's terms (ship complete, freight, tax exemption, price tolerance, substitutions);
 * 3. compare the headers: PO number, vendor, currency;
 * 4. check each document's own arithmetic: line totals = billed quantity × unit price, total = lines + charges;
 * 5. pair the lines and compare quantities (in one unit of measure) and prices within tolerance;
 * 6. judge the charges (tax, freight) against the PO's terms and the goods against the PO's goods; any discrepancy → hold.
 */
import type { AgentEngine } from '../port.js';
import { abs, decimalToNumber, formatDecimal, formatMoney, lineAmount, max, roundDiv, CENT } from './decimal.js';
import { readDocument, type Doc, type DocLine } from './document.js';
import { amountOf, compareLine, label, pairLines, type LineFindings } from './lines.js';
import { normaliseDescription, normalisePo, normaliseVendor } from './normalise.js';
import type { PoMatchInput, PoMatchResult } from './schema.js';
import { readTerms, type Terms } from './terms.js';

const ROUNDING = CENT;
/** Invoice goods over the PO's goods: within 0.5 % of the PO total or $1.00, whichever is larger. */
const TOTAL_PER_MILLE = 5n;
const TOTAL_FLOOR = 100n * CENT;

export const poMatchEngine: AgentEngine<PoMatchInput, PoMatchResult> = {
  id: 'po-match/rules@1',
  analyse(input) {
    const po = readDocument(input.purchaseOrder, 'purchaseOrder');
    const invoice = readDocument(input.invoice, 'invoice');
    const terms = { ...readTerms(input.purchaseOrder.normalize('NFKC')), ...po.terms };
    return match(po, invoice, terms, input.invoice.normalize('NFKC'));
  },
};

const sum = (lines: DocLine[]) => lines.reduce((a, l) => a + amountOf(l), 0n);

function match(po: Doc, invoice: Doc, terms: Terms, invoiceText: string): PoMatchResult {
  const problems: string[] = [];
  const notes: string[] = [];
  compareHeaders(po, invoice, invoiceText, problems, notes);
  const poTotal = checkArithmetic(po, 'purchase order', problems, notes);
  const invoiceTotal = checkArithmetic(invoice, 'invoice', problems, notes);

  const { pairs, extra, unbilled } = pairLines(po.lines, invoice.lines);
  const found: LineFindings = { problems, partial: [], accepted: 0n };
  for (const [p, v] of pairs) {
    compareLine(p, v, terms, found);
    substitution(p, v, terms, problems);
  }
  for (const x of extra) {
    const v = x.line;
    const money = `${formatDecimal(v.quantity)} × ${formatMoney(v.unitPrice ?? amountOf(v))} = ${formatMoney(amountOf(v))}`;
    problems.push(
      x.duplicate
        ? `line ${label(v)}: billed more than once on the invoice (${money}; invoice line ${x.duplicate.index} already bills the same PO line)`
        : `line ${label(v)}: on the invoice but not on the purchase order (${money})`,
    );
  }
  const partialShipped = found.partial.length > 0 || unbilled.length > 0;
  if (partialShipped && terms.shipComplete) {
    problems.push(`partial shipment on a ship-complete PO: ${[...found.partial, ...unbilled.map((u) => `${label(u)} not shipped`)].join('; ')}; the PO says '${terms.shipComplete.quote}'`);
  }
  judgeCharges(po, invoice, terms, problems, notes);

  // Goods against goods: what the invoice asks for its goods (its total less tax and freight, as billed) may exceed
  // the PO's goods only within the total tolerance; the charges were judged above by the PO's terms.
  const poGoods = sum(po.lines);
  const invCharges = invoice.charges.reduce((a, c) => a + c.amount, 0n);
  const invGoods = invoice.total !== undefined ? invoice.total - invCharges : sum(invoice.lines);
  const overBy = invGoods - poGoods;
  const tolerance = max(TOTAL_FLOOR, roundDiv(poGoods * TOTAL_PER_MILLE, 1000n)) + found.accepted;
  if (overBy > tolerance) {
    const what = invCharges === 0n ? `invoice total ${formatMoney(invGoods)}` : `invoice goods ${formatMoney(invGoods)} (total ${formatMoney(invoice.total ?? invGoods + invCharges)} less charges ${formatMoney(invCharges)})`;
    const poWhat = po.charges.length === 0 && (po.total === undefined || po.total === poGoods) ? 'the PO total' : 'the PO goods';
    problems.push(`total: ${what} exceeds ${poWhat} ${formatMoney(poGoods)} by ${formatMoney(overBy)} (tolerance ${formatMoney(tolerance)})`);
  }

  notes.unshift(
    `Compared ${pairs.length} of ${invoice.lines.length} invoice line(s) with ${po.lines.length} PO line(s); ` +
      `invoice total ${formatMoney(invoiceTotal)}, PO total ${formatMoney(poTotal)}.`,
  );
  if (found.partial.length > 0 && !terms.shipComplete) {
    notes.push(`Partial shipment (allowed${terms.partialsAllowed ? `: '${terms.partialsAllowed.quote}'` : ''}): ${found.partial.join('; ')}.`);
  }
  if (unbilled.length > 0) notes.push(`PO lines not billed yet (allowed): ${unbilled.map(label).join(', ')}.`);
  if (po.unread + invoice.unread > 0) {
    notes.push(`Text lines read as neither header nor item: ${po.unread} in the PO, ${invoice.unread} in the invoice.`);
  }
  const pass = problems.length === 0;
  return {
    matched: pass,
    status: pass ? 'pass' : 'hold',
    discrepancies: problems,
    note: notes.join(' '),
    linesCompared: pairs.length,
    invoiceTotal: decimalToNumber(invoiceTotal),
    poTotal: decimalToNumber(poTotal),
  };
}

function compareHeaders(po: Doc, invoice: Doc, invoiceText: string, problems: string[], notes: string[]): void {
  if (po.poNumber === undefined) problems.push('PO number: the purchase order states no PO number');
  if (invoice.poNumber === undefined) problems.push('PO number: the invoice does not name the PO it bills');
  if (po.poNumber !== undefined && invoice.poNumber !== undefined) {
    if (normalisePo(po.poNumber) !== normalisePo(invoice.poNumber)) {
      problems.push(`PO number: the invoice bills "${invoice.poNumber}" but the purchase order is "${po.poNumber}"`);
    }
  }
  if (po.vendor === undefined || invoice.vendor === undefined) {
    const missing = [po.vendor === undefined ? 'purchase order' : '', invoice.vendor === undefined ? 'invoice' : ''].filter(Boolean);
    notes.push(`vendor not compared (not stated on the ${missing.join(' or ')}).`);
  } else if (normaliseVendor(po.vendor) !== normaliseVendor(invoice.vendor)) {
    // A letterhead or sender may be read loosely: the PO's vendor named anywhere on the invoice is the same vendor.
    const named = ` ${normaliseVendor(invoiceText.replace(/\n/g, ' | '))} `.includes(` ${normaliseVendor(po.vendor)} `);
    if (!named) problems.push(`vendor: the invoice says "${invoice.vendor}" but the purchase order says "${po.vendor}"`);
  }
  if (po.currency === undefined || invoice.currency === undefined) {
    const missing = [po.currency === undefined ? 'purchase order' : '', invoice.currency === undefined ? 'invoice' : ''].filter(Boolean);
    notes.push(`currency not compared (not stated on the ${missing.join(' or ')}).`);
  } else if (po.currency.trim().toUpperCase() !== invoice.currency.trim().toUpperCase()) {
    problems.push(`currency: the invoice says "${invoice.currency}" but the purchase order says "${po.currency}"`);
  }
}

/** Line totals and the document total; returns the total reported (stated, else computed). */
function checkArithmetic(doc: Doc, name: string, problems: string[], notes: string[]): bigint {
  let lines = 0n;
  for (const line of doc.lines) {
    if (line.amount !== undefined && line.unitPrice !== undefined) {
      const expected = lineAmount(line.quantity, line.unitPrice, line.priceBase);
      if (abs(expected - line.amount) > ROUNDING) problems.push(extensionProblem(line, name, expected));
    }
    lines += amountOf(line);
  }
  if (doc.subtotal !== undefined && abs(doc.subtotal - lines) > ROUNDING) {
    problems.push(`${name} subtotal ${formatMoney(doc.subtotal)} is not the sum of its lines ${formatMoney(lines)}`);
  }
  const charges = doc.charges.reduce((acc, c) => acc + c.amount, 0n);
  const computed = lines + charges;
  const withCharges = doc.charges.length > 0 ? ` plus ${doc.charges.map((c) => `${c.label} ${formatMoney(c.amount)}`).join(', ')}` : '';
  if (doc.total === undefined) {
    notes.push(`The ${name} states no total; its lines${withCharges} sum to ${formatMoney(computed)}.`);
    return computed;
  }
  // A PO's total may be its net (goods) total while a tax line is only informative; either reading that adds up is fine.
  if (abs(doc.total - computed) > ROUNDING && !(name === 'purchase order' && abs(doc.total - lines) <= ROUNDING)) {
    problems.push(`${name} total ${formatMoney(doc.total)} is not the sum of its lines${withCharges} ${formatMoney(computed)}`);
  }
  return doc.total;
}

function extensionProblem(line: DocLine, name: string, expected: bigint): string {
  const per = line.priceBase ? ` per ${formatDecimal(line.priceBase)}` : '';
  const head = `${name} line ${label(line)}: line total ${formatMoney(line.amount!)} is not quantity ${formatDecimal(line.quantity)} × unit price ${formatMoney(line.unitPrice!)}${per} = ${formatMoney(expected)}`;
  const q = line.quote ? ` ('${line.quote.slice(0, 140)}')` : '';
  if (line.ordered !== undefined && line.ordered > line.quantity) {
    const atOrdered = lineAmount(line.ordered, line.unitPrice!, line.priceBase);
    if (abs(atOrdered - line.amount!) <= ROUNDING) {
      return `${head}: it bills the ordered ${formatDecimal(line.ordered)} although only ${formatDecimal(line.quantity)} shipped and ` +
        `${formatDecimal(line.ordered - line.quantity)} are back-ordered, ${formatMoney(line.amount! - expected)} billed before shipping${q}`;
    }
  }
  return `${head}, ${formatMoney(abs(line.amount! - expected))} ${line.amount! > expected ? 'over' : 'under'}${q}`;
}

/** Tax and freight on the invoice, judged by the PO's own terms and charges. */
function judgeCharges(po: Doc, invoice: Doc, terms: Terms, problems: string[], notes: string[]): void {
  const poHas = (kind: string) => po.charges.filter((c) => c.kind === kind).reduce((a, c) => a + c.amount, 0n);
  for (const c of invoice.charges) {
    if (c.amount <= 0n) continue;
    if (c.kind === 'tax') {
      if (terms.taxExempt) problems.push(`tax: ${c.label} ${formatMoney(c.amount)} billed although the PO is tax-exempt ('${terms.taxExempt.quote}')`);
      else notes.push(`Tax ${c.label} ${formatMoney(c.amount)} billed on top of the goods; the PO claims no exemption.`);
    } else if (c.kind === 'freight') {
      if (terms.freightNotBillable) problems.push(`freight: ${c.label} ${formatMoney(c.amount)} billed but the PO says '${terms.freightNotBillable.quote}'`);
      else if (terms.freightBillable) notes.push(`Freight ${c.label} ${formatMoney(c.amount)} billed as the PO allows ('${terms.freightBillable.quote}').`);
      else if (poHas('freight') < c.amount) problems.push(`freight: ${c.label} ${formatMoney(c.amount)} billed; the PO carries no such charge and says nothing allowing it`);
    } else if (poHas(c.kind ?? 'other') < c.amount) {
      problems.push(`charge: ${c.label} ${formatMoney(c.amount)} billed; the PO carries no such charge`);
    }
  }
}

/** An invoice line that declares itself a substitute is not the ordered item, whatever item number it echoes. */
function substitution(p: DocLine, v: DocLine, terms: Terms, problems: string[]): void {
  const d = normaliseDescription(v.description);
  if (!/\b(?:sub|subst|substitute|substituted|substitution|replaces|in lieu of)\s+(?:for\s+)?/.test(d) || /\bsub\s*total/.test(d)) return;
  if (!/\b(?:sub(?:stitute[ds]?)?\s+for|substitut\w*|in lieu of|replaces)\b/.test(d)) return;
  const ban = terms.noSubstitutions ? `; the PO says '${terms.noSubstitutions.quote}'` : '';
  problems.push(`line ${label(v)}: the invoice bills a substitute ("${v.description}") on the PO line for ${label(p)} ("${p.description ?? ''}")${ban}`);
}
