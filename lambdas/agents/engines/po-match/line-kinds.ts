/**
 * Lines that are not "so many at a price": a credit memo's returns, a catch-weight line billed by the weighed total,
 * an amount-based (blanket) PO line that is a budget; and the arithmetic a price finding shows.
 */
import { abs, formatDecimal, formatMoney, lineAmount, max, roundDiv, CENT, SCALE } from './decimal.js';
import type { DocLine } from './document.js';
import { amountOf, label, quote, unitPriceOf, PRICE_PER_MILLE, type LineFindings, type Push } from './line-values.js';

/**
 * A credit memo's line (negative quantity, a return against the PO line): the credit is at the PO price for no more
 * than was ordered; its sign is the memo's, not a discrepancy.
 */
export function creditLine(p: DocLine, v: DocLine, push: Push): void {
  const returned = -v.quantity;
  if (returned > p.quantity) {
    push('quantity over', `line ${label(v)}: credit for ${formatDecimal(returned)} returned, more than the ${formatDecimal(p.quantity)} ordered${quote(v)}`,
      `${formatDecimal(returned)} − ${formatDecimal(p.quantity)} = ${formatDecimal(returned - p.quantity)} over`);
  }
  const pPrice = unitPriceOf(p);
  const vPrice = unitPriceOf(v);
  if (pPrice === undefined || vPrice === undefined) return;
  const credited = abs(vPrice);
  if (abs(credited - pPrice) > max(CENT, roundDiv(pPrice * PRICE_PER_MILLE, 1000n))) {
    push('credit price', `line ${label(v)}: credited at ${formatMoney(credited)} against the PO price ${formatMoney(pPrice)}${quote(v)}`,
      priceArithmetic(returned, credited, pPrice, lineAmount(returned, credited), lineAmount(returned, pPrice), ''));
  }
}

/** "accept 10.0 - 12.0 LB per case": the weight range a catch-weight PO line accepts per case. */
function weightRange(p: DocLine): { min: bigint; max: bigint; text: string } | undefined {
  const m = /accept(?:ed|able)?(?:\s+range)?\s*:?\s*(\d+(?:\.\d+)?)\s*(?:-|–|to)\s*(\d+(?:\.\d+)?)\s*(?:LBS?|KGS?|#)?\s*(?:per|\/)\s*(?:case|cs|box|bx|piece|pc)\b/i.exec(p.description ?? '');
  if (!m) return undefined;
  const dec = (t: string) => BigInt(Math.round(Number(t) * 1000)) * 1000n;
  return { min: dec(m[1]), max: dec(m[2]), text: m[0] };
}

/**
 * A catch-weight invoice line (cases shipped, each weighed, billed by the total weight at a price per LB) against a PO
 * line that states the weight it accepts per case: every case inside the range, no more cases than ordered. The
 * PO's estimated weight is not a quantity limit then. Without a stated range the weight is compared as a quantity.
 */
export function catchWeight(p: DocLine, v: DocLine, prP: bigint | undefined, push: Push, out: LineFindings): boolean {
  const range = v.catchWeights ? weightRange(p) : undefined;
  if (!range || !v.catchWeights) return false;
  const outside = v.catchWeights.filter((w) => w < range.min || w > range.max);
  if (outside.length > 0) {
    push('catch weight', `line ${label(v)}: case weight ${outside.map(formatDecimal).join(', ')} ${v.uom ?? ''} outside the PO's '${range.text}'${quote(v)}`,
      `${outside.map(formatDecimal).join(', ')} not within ${formatDecimal(range.min)}–${formatDecimal(range.max)}`);
  }
  const ordered = /(\d{1,4})\s*(?:CS|cases?)\b/i.exec(p.description ?? '');
  const poCases = ordered ? BigInt(ordered[1]) * SCALE : undefined;
  if (poCases !== undefined && v.cases !== undefined && v.cases > poCases) {
    push('quantity over', `line ${label(v)}: ${formatDecimal(v.cases)} cases billed against ${formatDecimal(poCases)} ordered${quote(v)}`,
      `${formatDecimal(v.cases)} − ${formatDecimal(poCases)} = ${formatDecimal(v.cases - poCases)} cases over`);
  } else if (poCases !== undefined && v.cases !== undefined && v.cases < poCases) out.partial.push(`${label(v)} ${formatDecimal(v.cases)} of ${formatDecimal(poCases)} cases`);
  if (prP !== undefined) {
    const atPo = lineAmount(v.quantity, prP);
    if (atPo > amountOf(p)) out.accepted += atPo - amountOf(p);
  }
  return true;
}

/**
 * A PO line that states only an amount (a blanket or amount-based line: "25 seats … at $120.00/seat/month", total
 * 36,000.00) is a budget: the invoice line's money must fit in it, and a rate the line's text states is its price.
 */
export function budgetLine(p: DocLine, v: DocLine, push: Push): void {
  const billed = amountOf(v);
  const budget = amountOf(p);
  if (billed > budget + CENT) {
    push('over PO line amount', `line ${label(v)}: invoice line ${formatMoney(billed)} exceeds the PO line's amount ${formatMoney(budget)}${quote(v)}`,
      `${formatMoney(billed)} − ${formatMoney(budget)} = ${formatMoney(billed - budget)} over`);
  }
  const rate = /(?:\$|€|£)\s?(\d{1,3}(?:,\d{3})*(?:\.\d{2})?|\d+(?:\.\d{2})?)\s*(?:\/|per\b)\s*[a-z]/i.exec(p.description ?? '');
  const price = rate ? BigInt(Math.round(Number(rate[1].replace(/,/g, '')) * 100)) * CENT : undefined;
  const vPrice = unitPriceOf(v);
  if (price !== undefined && vPrice !== undefined && abs(vPrice - price) > max(CENT, roundDiv(price * PRICE_PER_MILLE, 1000n))) {
    push('price', `line ${label(v)}: invoice unit price ${formatMoney(vPrice)} differs from the rate the PO line states, '${rate![0]}'${quote(v)}`,
      priceArithmetic(v.quantity, vPrice, price, lineAmount(v.quantity, vPrice), lineAmount(v.quantity, price), ''));
  }
}

/** "40 × 12.50 = 500.00 invoiced against 40 × 12.00 = 480.00 ordered: 20.00 over". */
export function priceArithmetic(q: bigint, prV: bigint, prP: bigint, billed: bigint, atPo: bigint, per: string): string {
  const d = billed - atPo;
  const by = per ? ` ${per.replace(' per ', '/ ')}` : '';
  return `${formatDecimal(q)} × ${formatMoney(prV)}${by} = ${formatMoney(billed)} invoiced against ${formatDecimal(q)} × ${formatMoney(prP)}${by} = ${formatMoney(atPo)} ordered: ${formatMoney(abs(d))} ${d >= 0n ? 'over' : 'under'}`;
}

