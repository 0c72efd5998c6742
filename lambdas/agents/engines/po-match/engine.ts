/**
 * Two-way match of an invoice against its purchase order, by the rules written in RULES.md:
 * 1. read both documents (JSON text or plain lines); unreadable → AgentInputError naming the field;
 * 2. compare the headers: PO number, vendor, currency;
 * 3. check each document's own arithmetic: line totals = quantity × unit price, total = lines + charges;
 * 4. pair the lines (SKU, else normalised description) and compare quantities and prices within tolerance;
 * 5. compare the invoice total with the PO total; any discrepancy → hold.
 */
import type { AgentEngine } from '../port.js';
import { abs, decimalToNumber, formatDecimal, formatMoney, lineAmount, max, roundDiv, CENT } from './decimal.js';
import { readDocument, type Doc, type DocLine } from './document.js';
import { normaliseDescription, normalisePo, normaliseSku, normaliseVendor } from './normalise.js';
import type { PoMatchInput, PoMatchResult } from './schema.js';

/** One cent of rounding on any arithmetic a document does itself. */
const ROUNDING = CENT;
/** Unit price: within 0.5 % of the PO price or one cent, whichever is larger. */
const PRICE_PER_MILLE = 5n;
const PRICE_FLOOR = CENT;
/** Invoice total over the PO total: within 0.5 % of the PO total or $1.00, whichever is larger. */
const TOTAL_PER_MILLE = 5n;
const TOTAL_FLOOR = 100n * CENT;

export const poMatchEngine: AgentEngine<PoMatchInput, PoMatchResult> = {
  id: 'po-match/rules@1',
  analyse(input) {
    const po = readDocument(input.purchaseOrder, 'purchaseOrder');
    const invoice = readDocument(input.invoice, 'invoice');
    return match(po, invoice);
  },
};

function match(po: Doc, invoice: Doc): PoMatchResult {
  const problems: string[] = [];
  const notes: string[] = [];
  compareHeaders(po, invoice, problems, notes);
  const poTotal = checkArithmetic(po, 'purchase order', problems, notes);
  const invoiceTotal = checkArithmetic(invoice, 'invoice', problems, notes);

  const { pairs, extra, unbilled } = pairLines(po.lines, invoice.lines);
  const partial: string[] = [];
  for (const [p, v] of pairs) compareLine(p, v, problems, partial);
  for (const v of extra) {
    problems.push(
      v.duplicate
        ? `line ${label(v.line)}: billed more than once on the invoice`
        : `line ${label(v.line)}: on the invoice but not on the purchase order`,
    );
  }

  const overBy = invoiceTotal - poTotal;
  const tolerance = max(TOTAL_FLOOR, roundDiv(poTotal * TOTAL_PER_MILLE, 1000n));
  if (overBy > tolerance) {
    problems.push(
      `total: invoice total ${formatMoney(invoiceTotal)} exceeds the PO total ${formatMoney(poTotal)} by ` +
        `${formatMoney(overBy)} (tolerance ${formatMoney(tolerance)})`,
    );
  }

  notes.unshift(
    `Compared ${pairs.length} of ${invoice.lines.length} invoice line(s) with ${po.lines.length} PO line(s); ` +
      `invoice total ${formatMoney(invoiceTotal)}, PO total ${formatMoney(poTotal)}.`,
  );
  if (partial.length > 0) notes.push(`Partial shipment (allowed): ${partial.join('; ')}.`);
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

function compareHeaders(po: Doc, invoice: Doc, problems: string[], notes: string[]): void {
  if (po.poNumber === undefined) problems.push('PO number: the purchase order states no PO number');
  if (invoice.poNumber === undefined) problems.push('PO number: the invoice does not name the PO it bills');
  if (po.poNumber !== undefined && invoice.poNumber !== undefined) {
    if (normalisePo(po.poNumber) !== normalisePo(invoice.poNumber)) {
      problems.push(`PO number: the invoice bills "${invoice.poNumber}" but the purchase order is "${po.poNumber}"`);
    }
  }
  const headers = [
    ['vendor', po.vendor, invoice.vendor, normaliseVendor],
    ['currency', po.currency, invoice.currency, (s: string) => s.trim().toUpperCase()],
  ] as const;
  for (const [name, a, b, norm] of headers) {
    if (a === undefined || b === undefined) {
      const missing = [a === undefined ? 'purchase order' : '', b === undefined ? 'invoice' : ''].filter(Boolean);
      notes.push(`${name} not compared (not stated on the ${missing.join(' or ')}).`);
    } else if (norm(a) !== norm(b)) {
      problems.push(`${name}: the invoice says "${b}" but the purchase order says "${a}"`);
    }
  }
}

/** Line totals and the document total; returns the total used for the PO comparison (stated, else computed). */
function checkArithmetic(doc: Doc, name: string, problems: string[], notes: string[]): bigint {
  let sum = 0n;
  for (const line of doc.lines) {
    if (line.amount !== undefined && line.unitPrice !== undefined) {
      const expected = lineAmount(line.quantity, line.unitPrice);
      if (abs(expected - line.amount) > ROUNDING) {
        problems.push(
          `${name} line ${label(line)}: line total ${formatMoney(line.amount)} is not quantity ` +
            `${formatDecimal(line.quantity)} × unit price ${formatMoney(line.unitPrice)} = ${formatMoney(expected)}`,
        );
      }
    }
    sum += effectiveAmount(line);
  }
  if (doc.subtotal !== undefined && abs(doc.subtotal - sum) > ROUNDING) {
    problems.push(`${name} subtotal ${formatMoney(doc.subtotal)} is not the sum of its lines ${formatMoney(sum)}`);
  }
  const charges = doc.charges.reduce((acc, c) => acc + c.amount, 0n);
  const computed = sum + charges;
  const withCharges = doc.charges.length > 0 ? ` plus ${doc.charges.map((c) => c.label).join(', ')}` : '';
  if (doc.total === undefined) {
    notes.push(`The ${name} states no total; its lines${withCharges} sum to ${formatMoney(computed)}.`);
    return computed;
  }
  if (abs(doc.total - computed) > ROUNDING) {
    problems.push(
      `${name} total ${formatMoney(doc.total)} is not the sum of its lines${withCharges} ${formatMoney(computed)}`,
    );
  }
  return doc.total;
}

function effectiveAmount(line: DocLine): bigint {
  return line.amount ?? lineAmount(line.quantity, line.unitPrice as bigint);
}

interface Extra {
  line: DocLine;
  duplicate: boolean;
}

/** SKU to SKU first; then description to description, only where one side has no SKU. */
function pairLines(poLines: DocLine[], invoiceLines: DocLine[]) {
  const used = new Set<DocLine>();
  const pairs: [DocLine, DocLine][] = [];
  const pending: DocLine[] = [];
  const extra: Extra[] = [];
  const bySku = new Map<string, DocLine>();
  for (const p of poLines) if (p.sku !== undefined && !bySku.has(normaliseSku(p.sku))) bySku.set(normaliseSku(p.sku), p);
  for (const v of invoiceLines) {
    const p = v.sku === undefined ? undefined : bySku.get(normaliseSku(v.sku));
    if (p === undefined) pending.push(v);
    else if (used.has(p)) extra.push({ line: v, duplicate: true });
    else {
      used.add(p);
      pairs.push([p, v]);
    }
  }
  for (const v of pending) {
    const key = normaliseDescription(v.description);
    const candidates = poLines.filter(
      (p) => (p.sku === undefined || v.sku === undefined) && key !== '' && normaliseDescription(p.description) === key,
    );
    const free = candidates.find((p) => !used.has(p));
    if (free) {
      used.add(free);
      pairs.push([free, v]);
    } else extra.push({ line: v, duplicate: candidates.length > 0 });
  }
  return { pairs, extra, unbilled: poLines.filter((p) => !used.has(p)) };
}

function compareLine(p: DocLine, v: DocLine, problems: string[], partial: string[]): void {
  const name = `line ${label(v)}`;
  if (p.quantity <= 0n) {
    problems.push(`${name}: PO quantity ${formatDecimal(p.quantity)} is not positive`);
    return;
  }
  if (v.quantity <= 0n) {
    problems.push(`${name}: invoice quantity ${formatDecimal(v.quantity)} is not positive`);
    return;
  }
  if (v.quantity > p.quantity) {
    problems.push(
      `${name}: invoice quantity ${formatDecimal(v.quantity)} exceeds the PO quantity ${formatDecimal(p.quantity)}`,
    );
  } else if (v.quantity < p.quantity) {
    partial.push(`${label(v)} ${formatDecimal(v.quantity)} of ${formatDecimal(p.quantity)}`);
  }
  if (p.unitPrice !== undefined && v.unitPrice !== undefined) {
    const diff = v.unitPrice - p.unitPrice;
    const tolerance = max(PRICE_FLOOR, roundDiv(abs(p.unitPrice) * PRICE_PER_MILLE, 1000n));
    if (abs(diff) > tolerance) {
      problems.push(
        `${name}: invoice unit price ${formatMoney(v.unitPrice)} differs from the PO unit price ` +
          `${formatMoney(p.unitPrice)} by ${formatMoney(abs(diff))} (tolerance ${formatMoney(tolerance)})`,
      );
    }
    return;
  }
  // A side without a unit price: compare the invoice line amount with the PO price for the billed quantity.
  const expected =
    p.unitPrice !== undefined
      ? lineAmount(v.quantity, p.unitPrice)
      : roundDiv(effectiveAmount(p) * v.quantity, p.quantity * CENT) * CENT;
  const actual = effectiveAmount(v);
  const tolerance = max(PRICE_FLOOR, roundDiv(abs(expected) * PRICE_PER_MILLE, 1000n));
  if (abs(actual - expected) > tolerance) {
    problems.push(
      `${name}: invoice amount ${formatMoney(actual)} differs from the PO price for ${formatDecimal(v.quantity)} ` +
        `unit(s) ${formatMoney(expected)} by ${formatMoney(abs(actual - expected))} (tolerance ${formatMoney(tolerance)})`,
    );
  }
}

function label(line: DocLine): string {
  if (line.sku !== undefined) return line.sku;
  if (line.description !== undefined) return `"${line.description.slice(0, 60)}"`;
  return `#${line.index}`;
}
