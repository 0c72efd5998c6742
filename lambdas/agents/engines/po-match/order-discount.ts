/**
 * A discount stated once for the whole document in percent ("Desconto comercial 3,00 %", "Trade discount 3%",
 * "Korting 5 %", "Rabatt 2,5 %") that is exactly that share of the document's lines is a discount on every line: the
 * price agreed for each unit is net of it. A supplier may print it either way (on each line, as a "Desc.%" column, or
 * once under the lines), so both documents' lines are compared net of their own order discount; an invoice that
 * leaves the PO's discount out then bills each line above the price agreed. A discount whose amount is not that share
 * of the lines (a fixed allowance, a discount on some lines only) is left as it is printed.
 */
import { abs, formatMoney, roundDiv, CENT, SCALE } from './decimal.js';
import type { Doc } from './document.js';
import { amountOf } from './line-values.js';

const DISCOUNT = /discount|desconto|descuento|dto\b|sconto|remise|rabatt|rabat\b|korting|alennus|indirim|sleva|kedvezm[ée]ny|reducere|upust|allowance/i;
const PERCENT = /(\d{1,2}(?:[.,]\d{1,4})?)\s*%/;

/** Spreads the document's order discount over its lines (new line objects); returns the note saying so, if any. */
export function spreadOrderDiscount(doc: Doc, name: string): string | undefined {
  const candidates = doc.charges.filter((c) => c.amount < 0n && c.kind !== 'tax' && c.kind !== 'freight' && DISCOUNT.test(c.label) && PERCENT.test(c.label));
  if (candidates.length !== 1 || doc.lines.length === 0) return undefined;
  const c = candidates[0];
  const rate = toMillionths(PERCENT.exec(c.label)![1]);
  if (rate === undefined || rate <= 0n || rate >= 100n * SCALE) return undefined;
  const gross = doc.lines.reduce((a, l) => a + amountOf(l), 0n);
  const expected = roundDiv(gross * rate, 100n * SCALE);
  if (abs(expected + c.amount) > CENT) return undefined;
  const keep = 100n * SCALE - rate;
  const net = (v: bigint) => roundDiv(v * keep, 100n * SCALE);
  doc.lines = doc.lines.map((l) => ({ ...l, unitPrice: l.unitPrice === undefined ? undefined : net(l.unitPrice), amount: l.amount === undefined ? undefined : net(l.amount) }));
  doc.charges = doc.charges.filter((x) => x !== c);
  return `The ${name}'s discount '${c.label}' (${formatMoney(c.amount)}, ${formatMoney(expected)} = ${c.label.match(PERCENT)![0]} of its lines ${formatMoney(gross)}) is a discount on every line: its prices are compared net of it.`;
}

function toMillionths(text: string): bigint | undefined {
  const m = /^(\d+)(?:[.,](\d{1,6}))?$/.exec(text);
  if (!m) return undefined;
  return BigInt(m[1]) * SCALE + BigInt((m[2] ?? '').padEnd(6, '0'));
}
