/**
 * A payment in a foreign currency, as both sides write it: the bank converts at the rate of the day it books the
 * money (MT940 /OCMT/USD48600,00//EXCH/1,1640, "FX RATE 0.8561"), the books often at the invoice's rate ("USD
 * 48.600,00 (koers 1,1525)"). When the two quote the same foreign amount, they are one receipt or payment whose home
 * amounts differ by an exchange difference nobody has booked yet: one `amount_mismatch`, not a line missing on each
 * side.
 */
import { TIMING_DAYS, type Line, type Pair } from './match.js';

const CURRENCIES = 'USD|EUR|GBP|CHF|JPY|CAD|AUD|NZD|SEK|NOK|DKK|PLN|CZK|HUF|CNY|HKD|SGD|ZAR|INR|MXN|BRL|AED|SAR|TRY|KRW';
// The code, then the figure (grouped with . , or a space, a decimal part of one or two digits), or the figure first.
const FIGURE = String.raw`(\d{1,3}(?:[.,' ]\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?)(?![\d])`;
const CODE_FIRST = new RegExp(String.raw`\b(?:OCMT\s*/?\s*)?(${CURRENCIES})\s?${FIGURE}`, 'gi');
const FIGURE_FIRST = new RegExp(String.raw`(?<![\w.,\-/])${FIGURE}\s?(${CURRENCIES})\b`, 'gi');
/** A rate the text states: EXCH, koers, rate, Kurs, taux, cambio, tipo de cambio, or "@ 1.0920". */
const RATE = /(?:\bEXCH\b|\bkoers\b|\bwisselkoers\b|\b(?:fx\s+|exchange\s+)?rate\b|\bkurs\b|\btaux(?:\s+de\s+change)?\b|\bcambio\b|@)\s*[:=/]?\s*(\d+[.,]\d{2,8})/i;

export interface Foreign {
  currency: string;
  cents: bigint;
  /** The figure as written. */
  text: string;
  rate?: string;
}

/** A figure's cents whatever its marks: the last . or , followed by one or two digits is the decimal mark. */
function centsOf(figure: string): bigint {
  const m = /^(.*?)[.,](\d{1,2})$/.exec(figure);
  const [whole, frac] = m && !/[.,' ]\d{3}$/.test(figure) ? [m[1], m[2].padEnd(2, '0')] : [figure, '00'];
  return BigInt(whole.replace(/[.,' ]/g, '') || '0') * 100n + BigInt(frac);
}

/** The one foreign amount a line's text quotes (none when it quotes none or several different ones). */
export function foreignOf(l: Line): Foreign | undefined {
  const text = `${l.description} ${l.reference ?? ''}`;
  const found: Foreign[] = [];
  for (const m of text.matchAll(CODE_FIRST)) found.push({ currency: m[1].toUpperCase(), cents: centsOf(m[2]), text: `${m[1].toUpperCase()} ${m[2]}` });
  for (const m of text.matchAll(FIGURE_FIRST)) found.push({ currency: m[2].toUpperCase(), cents: centsOf(m[1]), text: `${m[1]} ${m[2].toUpperCase()}` });
  const distinct = new Set(found.filter((f) => f.cents > 0n).map((f) => `${f.currency}|${f.cents}`));
  if (distinct.size !== 1) return undefined;
  const rate = RATE.exec(text)?.[1];
  return { ...found.find((f) => f.cents > 0n)!, ...(rate ? { rate } : {}) };
}

const same = (a: Foreign, b: Foreign) => a.currency === b.currency && a.cents === b.cents;

/**
 * An open bank line and an open book entry of the same direction, within TIMING_DAYS, quoting the same foreign
 * amount, each the only such open line of its side, their home amounts different → one pair, the difference the
 * exchange difference.
 */
export function pairByForeignAmount(bank: Line[], books: Line[]): Pair[] {
  const fx = new Map<Line, Foreign>();
  for (const l of [...bank, ...books]) {
    const f = l.paired ? undefined : foreignOf(l);
    if (f) fx.set(l, f);
  }
  const fits = (b: Line, k: Line) =>
    !b.paired && !k.paired && b.amountCents !== k.amountCents && (b.amountCents < 0n) === (k.amountCents < 0n) &&
    Math.abs(b.date - k.date) <= TIMING_DAYS && fx.has(b) && fx.has(k) && same(fx.get(b)!, fx.get(k)!);
  const pairs: Pair[] = [];
  for (const b of bank) {
    const mine = books.filter((k) => fits(b, k));
    if (mine.length !== 1 || bank.filter((o) => fits(o, mine[0])).length !== 1) continue;
    b.paired = mine[0].paired = true;
    pairs.push({ bank: b, book: mine[0], kind: 'mismatch', by: 'foreign amount', days: b.date - mine[0].date });
  }
  return pairs;
}

/** What a pair's two lines say of the foreign amount they share, for the detail; '' when they share none. */
export function exchangeNote(bank: Line, book: Line): string {
  const [b, k] = [foreignOf(bank), foreignOf(book)];
  if (!b || !k || !same(b, k)) return '';
  const rates = b.rate && k.rate && b.rate !== k.rate ? ` at different rates (bank ${b.rate}, books ${k.rate})` : '';
  return ` Both quote ${b.text}${rates ? ' converted' : ''}${rates}: the difference is an exchange difference not yet booked.`;
}


