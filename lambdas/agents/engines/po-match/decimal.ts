/**
 * Exact decimals as bigint millionths: quantities like 2.5 hours and unit prices like $0.125 need more than the two
 * places of parseCents, and a float must never touch a price.
 */
import { parseScaled } from '../text/amount.js';

export const SCALE = 1_000_000n;
export const CENT = 10_000n;

/**
 * "2.5", "$0.125", "1,200.5", "$2.50", "(4.00)" → millionths; undefined when unreadable or beyond 6 decimals. The
 * shared money reader (text/amount.ts) to six places: the same signs, currencies and separators as every agent reads.
 */
export function parseDecimal(text: string): bigint | undefined {
  return parseScaled(text, 6);
}

/** A JSON number through its shortest decimal text; Infinity (1e309), NaN and exponent forms are refused. */
export function decimalFromNumber(n: number): bigint | undefined {
  if (!Number.isFinite(n)) return undefined;
  const text = String(n);
  return /e/i.test(text) ? undefined : parseDecimal(text);
}

/** Rounds n / d half away from zero. */
export function roundDiv(n: bigint, d: bigint): bigint {
  const negative = n < 0n !== d < 0n;
  const a = n < 0n ? -n : n;
  const b = d < 0n ? -d : d;
  const q = (a + b / 2n) / b;
  return negative ? -q : q;
}

export function abs(n: bigint): bigint {
  return n < 0n ? -n : n;
}

export function max(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}

/** a × b, both millionths, rounded to the cent (how an invoice line total is written); the price may be per
 * `base` units (millionths, SAP price unit / UBL BaseQuantity). */
export function lineAmount(quantity: bigint, unitPrice: bigint, base: bigint = SCALE): bigint {
  return roundDiv(quantity * unitPrice, base * CENT) * CENT;
}

/** 2500000n → "2.5"; 100000000n → "100". */
export function formatDecimal(n: bigint): string {
  const sign = n < 0n ? '-' : '';
  const a = abs(n);
  const frac = (a % SCALE).toString().padStart(6, '0').replace(/0+$/, '');
  return `${sign}${a / SCALE}${frac ? `.${frac}` : ''}`;
}

/** Money with at least two decimals: 2500000n → "2.50", 125000n → "0.125". */
export function formatMoney(n: bigint): string {
  const text = formatDecimal(n);
  const dot = text.indexOf('.');
  if (dot < 0) return `${text}.00`;
  return text.length - dot === 2 ? `${text}0` : text;
}

/** Only at the very end, to put a number into the JSON result. */
export function decimalToNumber(n: bigint): number {
  return Number(formatDecimal(n));
}
