/** The po-match reading the model is asked for (see ../readings.ts): its schema, its grounding claims and sums, its rendering. */
import { SOURCE, SPAN, array, number, object, oneOf, string } from '../schema.js';
import type { Claim, Sum } from '../grounding.js';
import { laidOut, money, at, sumCents, present, type Cited, type Money, type Reading } from '../reading.js';

interface Fact {
  value: string;
  sourceLine: number;
  quote: string;
}
interface PoLine {
  sku?: string | null;
  description: string;
  quantity: number;
  unit?: string | null;
  unitPrice?: number | null;
  amount?: number | null;
  sourceLine: number;
  lastLine?: number | null;
  quote: string;
}
interface PoDocument {
  poNumber?: Fact | null;
  vendor?: Fact | null;
  currency?: string | null;
  lines: PoLine[];
  charges?: { kind: 'tax' | 'freight'; amount: number; sourceLine: number; quote: string }[] | null;
  subtotal?: Money | null;
  total?: Money | null;
}

const fact = (description: string) => object({ value: string(description, 1), ...SOURCE });
const poDocument = (which: string) =>
  object(
    {
      lines: array(
        object(
          { description: string('The item description as written.'), quantity: number('The quantity billed or ordered.', 0), ...SOURCE },
          {
            sku: string('The item number or SKU, exactly as written.'),
            unit: string('The unit of measure as written (EA, CS, box…).'),
            unitPrice: number('The unit price, in currency units.'),
            amount: number('The line total (extension), in currency units.'),
            ...SPAN,
          },
        ),
        `Every item line of the ${which}, in order.`,
        1,
      ),
    },
    {
      poNumber: fact(`The purchase order number the ${which} states, exactly as written.`),
      vendor: fact('The vendor (supplier) name as written.'),
      currency: string('The ISO currency code the document names, else null ($ alone names none).'),
      charges: array(object({ kind: oneOf(['tax', 'freight']), amount: number('In currency units.'), ...SOURCE }), 'Tax and freight (shipping, delivery) lines.'),
      subtotal: money('The subtotal the document states, else null.'),
      total: money('The total the document states, else null.'),
    },
  );
const lineAmount = (line: PoLine) => line.amount ?? Math.round(line.quantity * (line.unitPrice ?? 0) * 100) / 100;

export const PO_MATCH: Reading = {
  shape: object({ purchaseOrder: poDocument('purchase order'), invoice: poDocument('invoice') }),
  fields: ['purchaseOrder', 'invoice'],
  instructions: [
    'Read the purchase order and the invoice (JSON, XML, EDI, CSV or text) into each document\'s PO number, vendor, currency, item lines, charges, subtotal and total.',
    'Do not compare them: record what each document says.',
  ].join(' '),
  claims: (reading: Record<string, PoDocument>) =>
    PO_MATCH.fields.flatMap((field) => {
      const doc = reading[field];
      const facts: Claim[] = (['poNumber', 'vendor'] as const).flatMap((name) => {
        const f = doc[name];
        return f ? [{ field, at: `${field}.${name}`, sourceLine: f.sourceLine, quote: f.quote, identifiers: [f.value] }] : [];
      });
      const money = (['subtotal', 'total'] as const).flatMap((name) => {
        const m = doc[name];
        return m ? [{ field, at: `${field}.${name}`, sourceLine: m.sourceLine, quote: m.quote, amounts: [m.amount] }] : [];
      });
      return [
        ...facts,
        // The unit decides a pack conversion and the currency a comparison: both must be written, like the figures.
        ...doc.lines.map((l, i) => ({
          field,
          at: at(field, 'lines', i),
          sourceLine: l.sourceLine,
          lastLine: l.lastLine,
          quote: l.quote,
          numbers: [l.quantity],
          amounts: [l.unitPrice, l.amount],
          identifiers: [l.sku, l.unit],
          texts: [l.description],
          currencies: i === 0 ? [doc.currency] : [],
        })),
        ...(doc.charges ?? []).map((c, i) => ({ field, at: at(field, 'charges', i), sourceLine: c.sourceLine, quote: c.quote, amounts: [c.amount] })),
        ...money,
      ];
    }),
  sums: (reading: Record<string, PoDocument>) =>
    PO_MATCH.fields.flatMap((field) => {
      const doc = reading[field];
      const sums: Sum[] = doc.lines.flatMap((l, i) =>
        l.unitPrice != null && l.amount != null ? [{ at: `${at(field, 'lines', i)}.amount`, parts: [l.quantity * l.unitPrice], total: l.amount, toleranceCents: 1 }] : [],
      );
      const lines = doc.lines.map(lineAmount);
      const tolerance = doc.lines.length;
      if (doc.subtotal) sums.push({ at: `${field}.subtotal`, parts: lines, total: doc.subtotal.amount, toleranceCents: tolerance });
      if (doc.total) sums.push({ at: `${field}.total`, parts: [...lines, ...(doc.charges ?? []).map((c) => c.amount)], total: doc.total.amount, toleranceCents: tolerance });
      return sums;
    }),
  render: (reading: Record<string, PoDocument>) => Object.fromEntries(PO_MATCH.fields.map((field) => [field, laid(reading[field]).text])),
  sourceOf: (reading: Record<string, PoDocument>, field, line) => (reading[field] ? laid(reading[field]).from[line - 1] : undefined),
};

/** One document as the engine reads it, one member and one item line a line (see `laidOut`). */
function laid(doc: PoDocument) {
  const charges = (kind: string) => (doc.charges ?? []).filter((c) => c.kind === kind);
  const charge = (kind: string) => {
    const of = charges(kind);
    return { key: kind, value: of.length ? sumCents(of.map((c) => c.amount)) : undefined, from: of[0] as Cited | undefined };
  };
  return laidOut([
    { key: 'poNumber', value: doc.poNumber?.value, from: doc.poNumber },
    { key: 'vendor', value: doc.vendor?.value, from: doc.vendor },
    { key: 'currency', value: doc.currency },
    { key: 'lines', items: doc.lines.map((l) => ({ value: present({ sku: l.sku, description: l.description, quantity: l.quantity, uom: l.unit, unitPrice: l.unitPrice, amount: l.amount }), from: l })) },
    charge('tax'),
    charge('freight'),
    { key: 'subtotal', value: doc.subtotal?.amount, from: doc.subtotal },
    { key: 'total', value: doc.total?.amount, from: doc.total },
  ]);
}
