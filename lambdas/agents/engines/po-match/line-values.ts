/**
 * What a read line is worth in the comparison: its label in a finding, its quote, its per-unit price (the price ÷ its
 * price unit) and its amount (as written, else quantity × price), and the findings a line comparison collects.
 */
import { lineAmount, SCALE } from './decimal.js';
import type { DocLine } from './document.js';
import type { Finding } from './findings.js';

/** A unit price may differ by 0.5 % of the PO's (at least a cent) before it is a discrepancy. */
export const PRICE_PER_MILLE = 5n;

export function label(line: DocLine): string {
  if (line.sku !== undefined) return line.sku;
  if (line.altSkus?.length) return line.altSkus[0];
  if (line.description !== undefined) return `"${line.description.slice(0, 60)}"`;
  return `#${line.index}`;
}
export const quote = (l: DocLine) => (l.quote ? ` ('${l.quote.slice(0, 140)}')` : '');

/** Per-unit price in millionths (the price ÷ its price unit), unrounded enough for comparison. */
export function unitPriceOf(l: DocLine): bigint | undefined {
  if (l.unitPrice === undefined) return l.amount !== undefined && l.quantity !== 0n ? (l.amount * SCALE) / l.quantity : undefined;
  return l.priceBase ? (l.unitPrice * SCALE) / l.priceBase : l.unitPrice;
}
export function amountOf(l: DocLine): bigint {
  return l.amount ?? lineAmount(l.quantity, l.unitPrice as bigint, l.priceBase);
}


export interface LineFindings {
  problems: Finding[];
  partial: string[];
  /** Price variances the PO's own stated tolerance accepts: the goods total may carry them too. */
  accepted: bigint;
  /** Those variances as the note names them ("VDL-SF500-23 14.48 against 14.20, 14.00 over"). */
  tolerated?: string[];
  /** Quantities above the PO's that its stated delivery tolerance accepts, as the note names them. */
  overDelivered?: string[];
  /** Price variances held against a tolerance the PO states on its total, judged together once every line is read. */
  variances?: { finding: Finding; diff: bigint }[];
}


/** Records one finding of the line being compared. */
export type Push = (kind: string, text: string, arithmetic?: string) => void;
