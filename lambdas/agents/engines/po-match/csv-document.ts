/**
 * Report-style CSV (QuickBooks "Transaction Detail", ERP exports): title rows above the header (the first is the
 * issuing company), a header row named like a printed table's (Item, Memo, Qty, Sales Price, Amount, P. O. #), item
 * rows, charge rows (an item called Freight, Fuel Surcharge, Sales Tax) and a TOTAL row that is never an item.
 */
import { chargeKind, completeLine, type Doc, type RawLine } from './document.js';
import { detectDecimal, readNumber } from './number.js';
import { columnRole } from './text-columns.js';
import { readSummary } from './text-summary.js';
import { packSize, priceBasis, unitCode } from './units.js';
import { MAX_ROWS, readRecords } from '../text/table.js';

const PO_COLUMN = /^(?:p\.?\s?o\.?\s*(?:#|no\.?|number)?|po number|purchase order(?: no\.?| number)?|customer po)$/i;

/** A CSV document when some row names a quantity and a price or amount column; otherwise undefined. */
export function readCsvDocument(text: string, field: string): Doc | undefined {
  const firstLine = text.split(/\r?\n/).find((l) => l.trim() !== '') ?? '';
  const delimiter = [',', ';', '\t'].find((d) => text.split(d).length > 4 && (firstLine.includes(d) || text.includes(`"${d}"`)));
  if (!delimiter) return undefined;
  // The shared reader's records (quoted cells, doubled quotes, any line ending), each with the line it starts on.
  const rows = readRecords(text, field, MAX_ROWS, delimiter);
  const records = rows.map((r) => r.cells.map((c) => c.trim()));
  const headerAt = records.findIndex((r) => {
    const roles = r.map(columnRole);
    // A distributor export names its quantities "Qty Ordered" / "Qty Shipped" rather than "Qty".
    return ['qty', 'shipped', 'ordered'].some((q) => roles.includes(q as never)) && (roles.includes('price') || roles.includes('amount'));
  });
  if (headerAt < 0) return undefined;
  const header = records[headerAt];
  const roles = header.map(columnRole);
  const poCol = header.findIndex((h) => PO_COLUMN.test(h.trim()));
  const decimal = detectDecimal(records.slice(headerAt + 1).flat().join(' '));
  const doc: Doc = { lines: [], charges: [], unread: 0 };
  // The report's title rows: the first single-cell row is the company that issued it.
  const title = records.slice(0, headerAt).find((r) => r.filter(Boolean).length === 1);
  if (title && field === 'invoice') doc.vendor = title.find(Boolean);
  const at = (r: string[], role: string) => r.filter((_c, i) => roles[i] === role && _c !== '');
  const num = (s: string | undefined) => (s === undefined ? undefined : readNumber(s, decimal));
  for (const [k, r] of records.entries()) {
    if (k <= headerAt) continue;
    const cite = { line: rows[k].line };
    const firstCell = r.find((c) => c !== '') ?? '';
    if (/^total\b/i.test(firstCell) || /^total\b/i.test(r[0] ?? '')) {
      const last = [...r].reverse().find((c) => num(c) !== undefined);
      if (last !== undefined) {
        doc.total = num(last);
        doc.totalQuote = r.filter(Boolean).join(' ');
        doc.totalCite = cite;
      }
      continue;
    }
    // A totals row of a flat export (",,,,Merchandise,4796.00", ",,,,Invoice Total,4796.00"): a label and an
    // amount only, read by the label as the printed summary lines are.
    const filled = r.filter((c) => c !== '');
    const sm = filled.length === 2 && num(filled[0]) === undefined && at(r, 'qty').length + at(r, 'shipped').length + at(r, 'ordered').length === 0
      ? readSummary(`${filled[0]}  ${filled[1]}`, decimal)
      : undefined;
    if (sm) {
      if (sm.kind === 'net') doc.subtotal ??= sm.amount;
      // Exempt or zero-rated sales beside the net are goods already in the lines.
      else if (sm.kind === 'netPart') continue;
      else if (sm.kind === 'total') {
        doc.total ??= sm.amount;
        doc.totalQuote ??= filled.join(' ');
        doc.totalCite ??= cite;
      } else if (sm.amount !== 0n) doc.charges.push({ label: sm.label, amount: sm.amount, kind: sm.kind, cite });
      continue;
    }
    const shipped = num(at(r, 'shipped')[0]);
    const ordered = num(at(r, 'ordered')[0]);
    const backOrdered = num(at(r, 'bo')[0]);
    // On an invoice the billed quantity is the shipped one; on a PO the ordered one.
    const quantity = num(at(r, 'qty')[0]) ?? (field === 'invoice' ? (shipped ?? ordered) : (ordered ?? shipped));
    const priceCell = at(r, 'price')[0];
    const unitPrice = priceCell && !priceCell.includes('%') ? num(priceCell) : undefined;
    const amount = num(at(r, 'amount').pop());
    if (poCol >= 0 && r[poCol]) doc.poNumber ??= r[poCol];
    if (amount === undefined && unitPrice === undefined) {
      if (r.length > 1) doc.unread++;
      continue;
    }
    const sku = at(r, 'sku')[0];
    const description = at(r, 'desc').join(' ') || undefined;
    // An item row that is a charge: named Freight / Fuel Surcharge / Sales Tax, one unit or a rate.
    const name = sku ?? '';
    if (name && chargeKind(name) !== 'other' && !/\d/.test(name) && (quantity === undefined || quantity === 1_000_000n)) {
      doc.charges.push({ label: `${name}${description ? ` (${description})` : ''}`, amount: amount ?? unitPrice!, kind: chargeKind(name), cite });
      continue;
    }
    // A PER column (E / C / M, 100 / 1000) is the quantity the price is for.
    const per = priceBasis(at(r, 'per')[0]);
    const raw: RawLine = { sku, description, quantity, unitPrice, amount, quote: r.filter(Boolean).join(', '), cites: [cite] };
    if (per !== undefined && per > 1) raw.priceBase = BigInt(per) * 1_000_000n;
    if (ordered !== undefined) raw.ordered = ordered;
    if (shipped !== undefined) raw.shipped = shipped;
    if (backOrdered !== undefined) raw.backOrdered = backOrdered;
    const uom = unitCode(at(r, 'uom')[0]);
    if (uom) raw.uom = uom;
    const pack = packSize(at(r, 'pack')[0]);
    if (pack) raw.pack = pack;
    doc.lines.push(completeLine(raw, doc.lines.length + 1, field));
  }
  return doc;
}
