/**
 * Grounding a model's reading in the buyer's documents (ADR 0023): every item of the reading cites the line of an
 * input field it was read from (`sourceLine`, 1-based, the field's text split on line breaks) and quotes it; each
 * amount, date, identifier and figure it carries must be written on that line, and where the document states a total
 * the items must add up to it. A reading with one item that fails is not used at all: the deterministic reading
 * answers. Failures are reported by check and item path (`invoice.lines[2].amount`), never with the buyer's values.
 */
import { parseCents, parseMoney } from '../engines/text/amount.js';
import { isoDate, readDate } from '../engines/text/dates.js';

/** What one item of a reading asserts about its line. */
export interface Claim {
  /** The input field the item was read from. */
  field: string;
  /** Where the item is in the reading, for the logs: `bankStatement.transactions[1]`. */
  at: string;
  sourceLine: number;
  /** The item's last line when it spans several (at most MAX_SPAN lines are read): its facts may be on any of them. */
  lastLine?: number | null;
  quote: string;
  /** Money, sign aside (a debit column, parentheses): each must be a figure written on the line. */
  amounts?: (number | null | undefined)[];
  /** Quantities and counts that must be a figure written on the line. */
  numbers?: (number | null | undefined)[];
  /** Money that must be written somewhere in the field (an itemised part read beside the line's claim). */
  fieldAmounts?: (number | null | undefined)[];
  /**
   * Counts that must be written somewhere in the field, as a figure or a number word (attendees named on the next line,
   * nights in a stay header). A count of 1 needs nothing: it is what the engine assumes when nothing is said, and the
   * least any count can allow.
   */
  fieldCounts?: (number | null | undefined)[];
  /** ISO currency codes that the field must name: the code itself, a sign that means it, or its name. */
  currencies?: (string | null | undefined)[];
  /** ISO dates (YYYY-MM-DD): each must be a date written on the line, in either numeric order. */
  dates?: (string | null | undefined)[];
  /** Identifiers (references, SKUs, PO numbers, names): letters and digits, in order, on the line (case aside). */
  identifiers?: (string | null | undefined)[];
  /** Free text (descriptions, labels, values): every word of it holding a digit must be on the line. */
  texts?: (string | null | undefined)[];
  /**
   * Text whose names decide (a place, a person, a bank): every capitalised word of four letters or more must also be
   * on the line, so a reading cannot put the vendor in a country the profile does not name.
   */
  names?: (string | null | undefined)[];
}

/** Where a document states a total: the parts must add up to it (in cents, within `toleranceCents`). */
export interface Sum {
  at: string;
  parts: number[];
  total: number;
  toleranceCents?: number;
}

export type Grounding = { grounded: true } | { grounded: false; check: string; at: string };

/** A field's lines, as the buyer's text splits on line breaks (line 1 is index 0). */
export function linesOf(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

/** The most lines one item may span (an invoice line of UBL XML is about twenty). */
const MAX_SPAN = 40;

const squash = (s: string) => s.normalize('NFKC').replace(/\s+/g, ' ').trim();
const alnum = (s: string) => s.normalize('NFKC').toUpperCase().replace(/[^\p{L}\p{N}]/gu, '');
const cents = (n: number) => Math.round(Math.abs(n) * 100);

/** Every figure written on a line, read every way a document may write it (decimal comma or point), in millionths. */
function figuresOf(line: string): Set<number> {
  const figures = new Set<number>();
  const add = (value: bigint | number | undefined) => {
    if (value === undefined) return;
    const units = typeof value === 'bigint' ? Number(value) / 100 : value;
    if (Number.isFinite(units)) figures.add(Math.round(Math.abs(units) * 1e6));
  };
  const cores = line.normalize('NFKC').match(/\d(?:[\d.,'\u00a0\u202f ]*\d)?/g) ?? [];
  for (const core of cores) {
    // A run such as "10 2.50 25.00" (a table row) or "850.00,3101" (CSV cells) is several figures; "1 234.56" and
    // "2,400.00" are one: read every way.
    for (const piece of new Set([core, ...core.split(/[\s\u00a0\u202f]+/), ...core.split(/[\s\u00a0\u202f]*[,;][\s\u00a0\u202f]*/)])) {
      add(parseMoney(piece, '.'));
      add(parseMoney(piece, ','));
      add(parseCents(piece));
      if (/^\d+(?:\.\d+)?$/.test(piece)) add(Number(piece));
      if (/^\d+(?:,\d+)?$/.test(piece)) add(Number(piece.replace(',', '.')));
    }
  }
  return figures;
}

const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];

/** Whether a count is written in a field's text, as a figure or (up to twelve) an English word. */
function countIn(text: string, count: number): boolean {
  if (count === 1) return true;
  if (new RegExp(`(?<![\\d.,])${count}(?![\\d]|[.,]\\d)`).test(text)) return true;
  const word = NUMBER_WORDS[count];
  return word !== undefined && new RegExp(`\\b${word}\\b`, 'i').test(text);
}

/**
 * How a document may name a currency besides its ISO code. `$` alone is the US dollar (a claim in another dollar names
 * it: `A$`, `CAD`); `¥` is the yen or the yuan.
 */
const CURRENCY_MARKS: Record<string, RegExp> = {
  USD: /\$|\bdollars?\b/i,
  EUR: /€|\beuros?\b/i,
  GBP: /£|\bpounds? sterling\b|\bsterling\b/i,
  JPY: /¥|\byen\b/i,
  CNY: /¥|\byuan\b|\brmb\b/i,
  INR: /₹|\brupees?\b|\bRs\.?\s?\d/i,
  AUD: /\bA\$|\bAU\$/,
  CAD: /\bC\$|\bCA\$/,
  NZD: /\bNZ\$/,
  CHF: /\bFr\.\s?\d|\bSFr\b/,
  KRW: /₩/,
};

const ANY_CURRENCY = new RegExp(
  `[$€£¥₹₩]|(?<![A-Za-z])(?:${[...Object.keys(CURRENCY_MARKS), 'SEK', 'NOK', 'DKK', 'PLN', 'CZK', 'HUF', 'MXN', 'BRL', 'ZAR', 'SGD', 'HKD', 'AED', 'SAR'].join('|')})(?![A-Za-z])`,
);

/**
 * Whether a field's text names a currency: its ISO code as a word, or a sign or name of it. USD is also what a text
 * naming no currency at all is read in (the engines assume it and say so), so a reading may say USD there.
 */
function currencyIn(text: string, code: string): boolean {
  const iso = code.trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(iso)) return false;
  if (new RegExp(`(?<![A-Za-z])${iso}(?![A-Za-z])`).test(text) || (CURRENCY_MARKS[iso]?.test(text) ?? false)) return true;
  return iso === 'USD' && !ANY_CURRENCY.test(text);
}

const DATE_TOKENS = [
  /\d{4}[-/.]\d{1,2}[-/.]\d{1,2}/g,
  /\d{1,2}([/.-])\d{1,2}\1\d{2,4}/g,
  /[A-Za-z]{3,9}\.? \d{1,2}(?:st|nd|rd|th)?,? \d{4}/g,
  /\d{1,2}(?:st|nd|rd|th)?[ -][A-Za-z]{3,9}\.?,?[ -]\d{2,4}/g,
  /(?<!\d)\d{8}(?!\d)/g,
];

/** Every date written on a line, as ISO dates, both numeric orders allowed (the document's order is the engine's job). */
function datesOf(line: string): Set<string> {
  const dates = new Set<string>();
  for (const pattern of DATE_TOKENS) {
    for (const match of line.matchAll(pattern)) {
      const token = /^\d{8}$/.test(match[0]) ? match[0].replace(/^(\d{4})(\d{2})(\d{2})$/, '$1-$2-$3') : match[0];
      for (const order of ['mdy', 'dmy'] as const) {
        const day = readDate(token, order);
        if (day !== undefined) dates.add(isoDate(day));
      }
    }
  }
  return dates;
}

/** Checks a reading's claims and sums against the input fields; the first failure is the answer. */
export function ground(input: Record<string, unknown>, claims: Claim[], sums: Sum[] = []): Grounding {
  const lines = new Map<string, string[]>();
  const fail = (check: string, at: string): Grounding => ({ grounded: false, check, at });
  for (const claim of claims) {
    const text = input[claim.field];
    if (typeof text !== 'string') return fail('cites a field that is not in the input', claim.at);
    if (!lines.has(claim.field)) lines.set(claim.field, linesOf(text));
    const fieldLines = lines.get(claim.field)!;
    if (!Number.isInteger(claim.sourceLine) || claim.sourceLine < 1 || claim.sourceLine > fieldLines.length) return fail('cites a line the field does not have', `${claim.at}.sourceLine`);
    const quote = squash(claim.quote);
    if (!quote || !squash(fieldLines[claim.sourceLine - 1]).includes(quote)) return fail('quote not on its line', `${claim.at}.quote`);
    const last = claim.lastLine ?? claim.sourceLine;
    if (!Number.isInteger(last) || last < claim.sourceLine || last > fieldLines.length || last - claim.sourceLine >= MAX_SPAN) return fail('spans lines the field does not have', `${claim.at}.lastLine`);
    // The item's lines: its facts are checked against them, one line or an element's several.
    const line = fieldLines.slice(claim.sourceLine - 1, last).join('\n');

    const figures = figuresOf(line);
    const onLine = (n: number) => figures.has(Math.round(Math.abs(n) * 1e6));
    for (const amount of claim.amounts ?? []) {
      if (amount === null || amount === undefined) continue;
      if (!onLine(cents(amount) / 100)) return fail('amount not on its line', `${claim.at}.amount`);
    }
    for (const number of claim.numbers ?? []) {
      if (number === null || number === undefined) continue;
      if (!onLine(number)) return fail('figure not on its line', `${claim.at}.quantity`);
    }
    for (const amount of claim.fieldAmounts ?? []) {
      if (amount === null || amount === undefined || amount === 0) continue;
      if (!fieldLines.some((l) => figuresOf(l).has(cents(amount) * 1e4))) return fail('amount not in its field', `${claim.at}.amount`);
    }
    for (const count of claim.fieldCounts ?? []) {
      if (count === null || count === undefined) continue;
      if (!countIn(text, count)) return fail('count not in its field', `${claim.at}.count`);
    }
    for (const currency of claim.currencies ?? []) {
      if (!currency) continue;
      if (!currencyIn(text, currency)) return fail('currency not named in its field', `${claim.at}.currency`);
    }
    const dates = claim.dates?.some((d) => d) ? datesOf(line) : undefined;
    for (const date of claim.dates ?? []) {
      if (!date) continue;
      if (!dates!.has(date)) return fail('date not on its line', `${claim.at}.date`);
    }
    const written = alnum(line);
    for (const id of claim.identifiers ?? []) {
      if (!id) continue;
      const norm = alnum(id);
      if (!norm || !written.includes(norm)) return fail('identifier not on its line', `${claim.at}.identifier`);
    }
    for (const text of claim.texts ?? []) {
      if (!text) continue;
      for (const word of text.split(/\s+/).filter((w) => /\d/.test(w))) {
        const norm = alnum(word);
        if (norm && !written.includes(norm)) return fail('figure in text not on its line', `${claim.at}.text`);
      }
    }
    for (const text of claim.names ?? []) {
      if (!text) continue;
      for (const word of text.match(/\p{Lu}[\p{L}'’-]{3,}/gu) ?? []) {
        const norm = alnum(word);
        if (norm && !written.includes(norm)) return fail('name not on its line', `${claim.at}.name`);
      }
    }
  }
  for (const sum of sums) {
    const added = sum.parts.reduce((total, part) => total + Math.round(part * 100), 0);
    if (Math.abs(added - Math.round(sum.total * 100)) > (sum.toleranceCents ?? 0)) return fail('items do not add up to the stated total', sum.at);
  }
  return { grounded: true };
}
