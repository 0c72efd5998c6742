/**
 * The summary block under a printed table told apart and confirmed by arithmetic: which stated figure is the net
 * (the lines' sum), which are charges (tax, freight, fees) and which is the gross (net plus charges). Labels decide
 * first; where the labels leave two readings, the one the document's own arithmetic confirms is kept, so a "Total"
 * that is the net above a "Total incl. VAT", or a "VATable Sales" figure that is the lines' sum, is never taken for
 * the gross or for a tax.
 */
import type { Cite } from '../text/json-positions.js';
import { abs, CENT } from './decimal.js';
import type { Doc } from './document.js';
import { amountOf } from './line-values.js';
import type { Summary } from './text-summary.js';

export interface SummaryLine extends Summary {
  cite: Cite;
  quote: string;
}

const near = (a: bigint, b: bigint) => abs(a - b) <= CENT;

/** Sets the document's subtotal, charges and total from its summary lines, in print order. */
export function settleSummary(doc: Doc, summary: SummaryLine[]): void {
  const seen = new Set<string>();
  const totals: SummaryLine[] = [];
  const lines = doc.lines.reduce((a, l) => a + amountOf(l), 0n);
  const goods = lines + doc.charges.filter((c) => c.inLines).reduce((a, c) => a + c.amount, 0n);
  // A figure read as tax that is the lines' own sum ("Bemessungsgrundlage USt 150,00"): no tax is the whole of the
  // goods, so it is the net once a stated total confirms it (below); until then it is kept aside.
  let taxAsNet: SummaryLine | undefined;
  let parts = 0n;
  let partsOfTax = 0n;
  let partCount = 0;
  for (const s of summary) {
    if (s.kind === 'net') doc.subtotal ??= s.amount;
    else if (s.kind === 'netPart') parts += s.amount;
    else if (s.kind === 'total') totals.push(s);
    else if (s.kind === 'tax' && !taxAsNet && goods > 0n && near(s.amount, goods)) taxAsNet = s;
    else {
      // One tax however often it is printed ("VAT 23%" and "Total VAT"); a line at nothing states no charge. Two
      // sales taxes on one total are each added: India's central and state GST (CGST and SGST, or IGST, and cess),
      // Canada's federal GST (TPS) beside a provincial PST, RST or QST (TVQ); a total of them printed after them is
      // not added again.
      const named = s.kind === 'tax' ? /\b(cgst|sgst|utgst|igst|cess|gst|hst|pst|rst|qst|tps|tvq)\b/i.exec(s.label)?.[1].toLowerCase() : undefined;
      const part = named === 'tps' ? 'gst' : named === 'tvq' ? 'qst' : named;
      const key = s.kind === 'tax' ? part ?? 'tax' : s.label.toLowerCase();
      if (s.amount === 0n || seen.has(key)) continue;
      // The sum of two or more taxes already read ("Total GST" after CGST and SGST) is none of its own; a second tax
      // equal to the first (CGST 9% and SGST 9%) is.
      if (partsOfTax > 0n && near(s.amount, partsOfTax) && (key === 'tax' || partCount >= 2 || /\btotal\b/i.test(s.label))) continue;
      if (part) {
        partsOfTax += s.amount;
        partCount++;
      }
      seen.add(key);
      doc.charges.push({ label: s.label, amount: s.amount, kind: s.kind, cite: s.cite });
    }
  }
  // Exempt and zero-rated sales are goods beside the taxable net: the net of all the lines is their sum.
  if (parts !== 0n && doc.subtotal !== undefined) doc.subtotal += parts;
  const charges = doc.charges.reduce((a, c) => a + c.amount, 0n);
  if (taxAsNet) {
    if (totals.some((t) => near(t.amount, lines + charges)) && (doc.subtotal === undefined || near(doc.subtotal, goods))) doc.subtotal ??= taxAsNet.amount;
    else doc.charges.push({ label: taxAsNet.label, amount: taxAsNet.amount, kind: 'tax', cite: taxAsNet.cite });
  }
  if (totals.length === 0) return;
  // The gross is the stated total that equals the lines plus the charges; a "Total" above it equal to the lines is
  // the net. Without such a total the first one stands, and the document's arithmetic check reports the difference.
  const gross = lines + doc.charges.reduce((a, c) => a + c.amount, 0n);
  const confirmed = totals.findIndex((t) => near(t.amount, gross));
  let chosen = totals[confirmed >= 0 ? confirmed : 0];
  if (confirmed > 0) for (const t of totals.slice(0, confirmed)) if (near(t.amount, goods)) doc.subtotal ??= t.amount;
  // A stated total above the confirmed gross that is not the net ("Amount due 1,500.00" beside a "Total 1,467.14") is
  // what the document asks: it stands, so the arithmetic check holds the difference rather than pay the smaller one.
  const above = totals.find((t) => t.amount > chosen.amount + CENT && !near(t.amount, goods));
  if (confirmed >= 0 && above) chosen = above;
  doc.total = chosen.amount;
  doc.totalCite = chosen.cite;
  doc.totalQuote = chosen.quote;
}
