/**
 * Two-way match of an invoice against its purchase order, by the rules written in RULES.md:
 * 1. read both documents (JSON, UBL XML/JSON, cXML, X12 810 JSON, EDIFACT JSON, CSV reports, printed text);
 *    unreadable → AgentInputError;
 * 2. read the PO's terms (ship complete, freight, tax exemption, price tolerance, substitutions, approved charges);
 * 3. compare the headers: PO number, vendor, currency;
 * 4. check each document's own arithmetic: line totals = billed quantity × unit price, total = lines + charges;
 * 5. pair the lines and compare quantities (in one unit of measure) and prices within tolerance;
 * 6. judge the charges (tax, freight, fees) against the PO's terms and the goods against the PO's goods; any
 *    discrepancy → hold. Each discrepancy keeps the lines it rests on, for its evidence.
 */
import { engineOf } from '../port.js';
import { decimalToNumber, formatDecimal, formatMoney, max, roundDiv, CENT } from './decimal.js';
import { readDocument, type Doc, type DocLine } from './document.js';
import { amountOf, compareLine, label, pairLines, type LineFindings } from './lines.js';
import { normaliseDescription } from './normalise.js';
import type { PoMatchInput, PoMatchResult } from './schema.js';
import { readTerms, type Terms } from './terms.js';
import { checkArithmetic, compareHeaders, judgeCharges, judgeTaxAgainstPo, termSource } from './checks.js';
import { evidenceOf, lineSource, type Finding } from './findings.js';
import { checkBillTo } from './bill-to.js';
import { checkReceipts } from './receipts.js';
import { checkAlreadyPaid } from './paid-status.js';
import { spreadOrderDiscount } from './order-discount.js';

/** Invoice goods over the PO's goods: within 0.5 % of the PO total or $1.00, whichever is larger. */
const TOTAL_PER_MILLE = 5n;
const TOTAL_FLOOR = 100n * CENT;

export const poMatchEngine = engineOf<PoMatchInput, PoMatchResult>('po-match/rules@1', (input) => {
  const po = readDocument(input.purchaseOrder, 'purchaseOrder');
  const invoice = readDocument(input.invoice, 'invoice');
  const terms = { ...readTerms(input.purchaseOrder.normalize('NFKC')), ...po.terms };
  const { result, findings } = match(po, invoice, terms, input.invoice.normalize('NFKC'), input.purchaseOrder.normalize('NFKC'));
  return { result, evidence: evidenceOf(findings, input) };
});

const sum = (lines: DocLine[]) => lines.reduce((a, l) => a + amountOf(l), 0n);

function match(po: Doc, invoice: Doc, terms: Terms, invoiceText: string, poText: string): { result: PoMatchResult; findings: Finding[] } {
  const problems: Finding[] = [];
  const notes: string[] = [];
  compareHeaders(po, invoice, invoiceText, problems, notes);
  checkBillTo(poText, invoiceText, invoice.buyerIds, problems, notes);
  const poTotal = checkArithmetic(po, 'purchaseOrder', problems, notes);
  const invoiceTotal = checkArithmetic(invoice, 'invoice', problems, notes);
  // Each document's arithmetic is checked as printed; its lines are then compared net of an order discount.
  for (const [doc, name] of [[po, 'purchase order'], [invoice, 'invoice']] as const) {
    const spread = spreadOrderDiscount(doc, name);
    if (spread) notes.push(spread);
  }

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
        ? {
            kind: 'billed twice',
            text: `line ${label(v)}: billed more than once on the invoice (${money}; invoice line ${x.duplicate.index} already bills the same PO line)`,
            sources: [lineSource('invoice', v), lineSource('invoice', x.duplicate)],
            arithmetic: money,
          }
        : { kind: 'not on PO', text: `line ${label(v)}: on the invoice but not on the purchase order (${money})`, sources: [lineSource('invoice', v)], arithmetic: money },
    );
  }
  overTotalTolerance(found, terms, sum(po.lines), notes);
  checkReceipts(poText, pairs, problems, notes);
  checkAlreadyPaid(poText, invoiceText, invoice.total ?? invoiceTotal, problems, notes);
  const partialShipped = found.partial.length > 0 || unbilled.length > 0;
  if (partialShipped && terms.shipComplete) {
    const shortLines = pairs.filter(([p, v]) => v.quantity < p.quantity).flatMap(([p, v]) => [lineSource('invoice', v), lineSource('purchaseOrder', p)]);
    problems.push({
      kind: 'partial shipment',
      text: `partial shipment on a ship-complete PO: ${[...found.partial, ...unbilled.map((u) => `${label(u)} not shipped`)].join('; ')}; the PO says '${terms.shipComplete.quote}'`,
      sources: [...shortLines, ...unbilled.map((u) => lineSource('purchaseOrder', u)), termSource(terms.shipComplete.quote)],
    });
  }
  judgeCharges(po, invoice, terms, problems, notes);
  if (!terms.taxExempt) judgeTaxAgainstPo(po, invoice, problems);

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
    problems.push({
      kind: 'total over PO',
      text: `total: ${what} exceeds ${poWhat} ${formatMoney(poGoods)} by ${formatMoney(overBy)} (tolerance ${formatMoney(tolerance)})`,
      sources: [
        { field: 'invoice', cites: invoice.totalCite ? [invoice.totalCite] : undefined, needle: invoice.totalQuote },
        ...(po.totalCite ? [{ field: 'purchaseOrder' as const, cites: [po.totalCite] }] : po.lines.slice(0, 4).map((l) => lineSource('purchaseOrder', l))),
      ],
      arithmetic: `${formatMoney(invGoods)} − ${formatMoney(poGoods)} = ${formatMoney(overBy)} over, tolerance ${formatMoney(tolerance)}`,
    });
  }

  if (terms.remaining && invGoods > terms.remaining.amount) {
    problems.push({
      kind: 'over remaining',
      text: `total: invoice goods ${formatMoney(invGoods)} exceed what the PO has left, '${terms.remaining.quote}'`,
      sources: [{ field: 'invoice', cites: invoice.totalCite ? [invoice.totalCite] : undefined, needle: invoice.totalQuote }, termSource(terms.remaining.quote)],
      arithmetic: `${formatMoney(invGoods)} − ${formatMoney(terms.remaining.amount)} = ${formatMoney(invGoods - terms.remaining.amount)} over`,
    });
  } else if (terms.remaining) notes.push(`The invoice's goods ${formatMoney(invGoods)} fit in the PO's remaining amount ('${terms.remaining.quote}').`);

  notes.unshift(
    `Compared ${pairs.length} of ${invoice.lines.length} invoice line(s) with ${po.lines.length} PO line(s); ` +
      `invoice total ${formatMoney(invoiceTotal)}, PO total ${formatMoney(poTotal)}.`,
  );
  if (found.partial.length > 0 && !terms.shipComplete) {
    notes.push(`Partial shipment (allowed${terms.partialsAllowed ? `: '${terms.partialsAllowed.quote}'` : ''}): ${found.partial.join('; ')}.`);
  }
  if (found.overDelivered?.length && terms.quantityTolerance) notes.push(`Quantities within the PO's delivery tolerance: ${found.overDelivered.join('; ')}.`);
  if (found.tolerated?.length && terms.tolerance) notes.push(`Prices within the PO's tolerance ('${terms.tolerance.quote}'): ${found.tolerated.join('; ')}.`);
  if (unbilled.length > 0) notes.push(`PO lines not billed yet (allowed): ${unbilled.map(label).join(', ')}.`);
  if (po.unread + invoice.unread > 0) {
    notes.push(`Text lines read as neither header nor item: ${po.unread} in the PO, ${invoice.unread} in the invoice.`);
  }
  const pass = problems.length === 0;
  return {
    findings: problems,
    result: {
      matched: pass,
      status: pass ? 'pass' : 'hold',
      discrepancies: problems.map((p) => p.text),
      note: notes.join(' '),
      linesCompared: pairs.length,
      invoiceTotal: decimalToNumber(invoiceTotal),
      poTotal: decimalToNumber(poTotal),
    },
  };
}

/** An invoice line that declares itself a substitute is not the ordered item, whatever item number it echoes. */
function substitution(p: DocLine, v: DocLine, terms: Terms, problems: Finding[]): void {
  const d = normaliseDescription(v.description);
  if (!/\b(?:sub|subst|substitute|substituted|substitution|replaces|in lieu of)\s+(?:for\s+)?/.test(d) || /\bsub\s*total/.test(d)) return;
  if (!/\b(?:sub(?:stitute[ds]?)?\s+for|substitut\w*|in lieu of|replaces)\b/.test(d)) return;
  const ban = terms.noSubstitutions ? `; the PO says '${terms.noSubstitutions.quote}'` : '';
  problems.push({
    kind: 'substitution',
    text: `line ${label(v)}: the invoice bills a substitute ("${v.description}") on the PO line for ${label(p)} ("${p.description ?? ''}")${ban}`,
    sources: [lineSource('invoice', v), lineSource('purchaseOrder', p), ...(terms.noSubstitutions ? [termSource(terms.noSubstitutions.quote)] : [])],
  });
}

/**
 * A price tolerance the PO states on its total ("prices may vary within 2% of the order total"): the lines' price
 * variances together must fit in it; when they do not, each line over its PO price is held.
 */
function overTotalTolerance(found: LineFindings, terms: Terms, poGoods: bigint, notes: string[]): void {
  const t = terms.tolerance;
  if (!t?.onTotal || !found.variances?.length) return;
  const over = found.variances.reduce((a, x) => a + x.diff, 0n);
  const pct = roundDiv(poGoods * t.percent, 100_000n);
  const limit = t.amount === undefined ? pct : t.lesser ? (pct < t.amount ? pct : t.amount) : max(pct, t.amount);
  if (over <= limit) {
    notes.push(`Price variances ${formatMoney(over)} in all fit the PO's tolerance on its total, ${formatMoney(limit)} ('${t.quote}').`);
    return;
  }
  for (const x of found.variances) {
    found.problems.push({ ...x.finding, text: `${x.finding.text}; the lines' price variances ${formatMoney(over)} exceed the PO's tolerance on its total ${formatMoney(limit)} ('${t.quote}')` });
  }
}
