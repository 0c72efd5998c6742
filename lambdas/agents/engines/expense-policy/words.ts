/** Vocabulary shared by the policy and expense readers. Word-list regexes only: linear on any input. */
import { parseCents } from '../text/amount.js';

export type Category = 'meals' | 'lodging' | 'airfare' | 'ground' | 'car rental' | 'entertainment';
export type FareClass = 'economy' | 'premium economy' | 'business' | 'first';

const CATEGORIES: [Category, RegExp][] = [
  ['car rental', /\b(?:rental cars?|car rentals?|car hire)\b/],
  ['meals', /\b(?:meals?|food|dining|dinners?|lunch(?:es)?|breakfasts?|restaurants?|catering)\b/],
  ['lodging', /\b(?:hotels?|lodging|accommodations?|motels?)\b/],
  ['airfare', /\b(?:air ?fares?|flights?|air travel|airlines?|plane tickets?)\b/],
  ['ground', /\b(?:taxis?|cabs?|rideshares?|ride-share|uber|lyft|ground transport(?:ation)?)\b/],
  ['entertainment', /\bentertainment\b/],
];

/** Every category a (lower-cased) text names, in list order. */
export function categoriesIn(text: string): Category[] {
  return CATEGORIES.filter(([, re]) => re.test(text)).map(([c]) => c);
}

export const ALCOHOL =
  /\b(?:alcohol|alcoholic|wine|wines|beers?|liquor|spirits|cocktails?|champagne|prosecco|whiske?y|vodka|gin|rum|tequila|sake|bar tab)\b/;

/** The fare class a text names; "business" alone only when `bare` (a class field), never in free text. */
export function fareClassIn(text: string, bare = false): FareClass | undefined {
  if (/\bpremium economy\b/.test(text)) return 'premium economy';
  if (/\bfirst(?: |-)?class\b/.test(text) || (bare && /^\s*first\s*$/.test(text))) return 'first';
  if (/\bbusiness(?: |-)?class\b/.test(text) || (bare && /^\s*business\s*$/.test(text))) return 'business';
  if (/\b(?:economy|coach)\b/.test(text)) return 'economy';
  return undefined;
}

export function fareClassesIn(text: string): FareClass[] {
  const found: FareClass[] = [];
  if (/\bpremium economy\b/.test(text)) found.push('premium economy');
  if (/\bfirst(?: |-)?class\b/.test(text)) found.push('first');
  if (/\bbusiness(?: |-)?class\b/.test(text)) found.push('business');
  if (/\b(?:economy|coach)\b/.test(text.replace(/\bpremium economy\b/g, ''))) found.push('economy');
  return found;
}

const SIGN = /[$€£]|\b(?:usd|eur|gbp|cad|aud)\b/i;

export interface Money {
  cents: bigint;
  currency?: string;
  /** Token position in the text, for clause logic. */
  at: number;
}

/**
 * Amounts written with a currency sign or code ("$320", "$ 320", "320 USD", "75 dollars") in whitespace tokens.
 * A currency-marked token that does not read ("$1e309") is reported through `bad`.
 */
export function moneyIn(text: string, bad: (token: string) => void): Money[] {
  // A token longer than 40 characters is never an amount; skipping it keeps the trimming below linear.
  const tokens = text.split(/\s+/).map((t) => (t.length > 40 ? '' : t.replace(/^[(\[]+|[)\],;:!?]+$|\.$/g, '')));
  const found: Money[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const next = tokens[i + 1]?.toLowerCase() ?? '';
    let candidate: string | undefined;
    if (SIGN.test(t) && /\d/.test(t)) candidate = t.replace(/\/.*$/, "");
    else if (/^(?:\$|€|£|usd|eur|gbp|us\$)$/i.test(t) && /^\d/.test(next)) candidate = `${t}${tokens[++i]}`;
    else if (/^\d[\d,.]*$/.test(t) && /^(?:usd|eur|gbp|dollars?|euros?)$/.test(next)) candidate = `${t}${next.startsWith('d') ? 'USD' : next.startsWith('eur') ? 'EUR' : next}`;
    if (candidate === undefined) continue;
    const cents = parseCents(candidate.replace(/\.$/, ''));
    if (cents === undefined) {
      bad(candidate);
      continue;
    }
    found.push({ cents, currency: currencyOf(candidate), at: i });
  }
  return found;
}

export function currencyOf(text: string): string | undefined {
  if (text.includes('€') || /eur/i.test(text)) return 'EUR';
  if (text.includes('£') || /gbp/i.test(text)) return 'GBP';
  if (/cad/i.test(text)) return 'CAD';
  if (/aud/i.test(text)) return 'AUD';
  if (text.includes('$') || /usd/i.test(text)) return 'USD';
  return undefined;
}

const NUMBER_WORDS: Record<string, number> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
};

/** A small count written as digits or a word ("4", "four"); undefined otherwise. */
export function countOf(token: string | undefined): bigint | undefined {
  if (token === undefined) return undefined;
  if (/^\d{1,4}$/.test(token)) return BigInt(token);
  const n = NUMBER_WORDS[token];
  return n === undefined ? undefined : BigInt(n);
}
