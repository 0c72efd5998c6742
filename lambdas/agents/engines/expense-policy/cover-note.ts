/**
 * A cover note vouching for the receipts with an exception: "Receipts are attached for everything except the taxi
 * from the airport on the 3rd". A reviewer takes every expense listed as having its receipt but the one the exception
 * names: the expense sharing the most of its words (the day it names settling a tie). When the words cannot tell one
 * expense from another, every one they fit is taken as without a receipt (the conservative reading).
 */
import type { Item } from './expense.js';

const EXCEPT = /\breceipts?\b[^.]{0,40}\b(?:attached|enclosed|included|uploaded)\b[^.]{0,30}?\b(?:for )?(?:everything|all(?: items| expenses)?|every (?:item|expense))\s+(?:except|apart from|but(?: not)?|other than)\s+(?:for\s+)?([^.;]{3,120})/i;
const STOP = new Set(['the', 'a', 'an', 'my', 'from', 'to', 'on', 'of', 'at', 'in', 'for', 'and', 'one', 'which', 'that']);

/** Marks the items of a claim with their receipt as a cover note with an exception says; false when none says so. */
export function vouchedExcept(text: string, items: Item[]): boolean {
  const m = EXCEPT.exec(text.replace(/\s+/g, ' '));
  if (!m || items.length < 2) return false;
  // "the taxi from the airport on the 3rd - the driver's card machine was down": the exception ends at its dash.
  const phrase = m[1].split(/\s[-–—]\s|,/)[0].toLowerCase();
  const day = /\b(\d{1,2})(?:st|nd|rd|th)\b/.exec(phrase)?.[1];
  const words = (phrase.match(/[\p{L}]{3,}/gu) ?? []).filter((w) => !STOP.has(w));
  if (words.length === 0) return false;
  const own = (i: Item) => `${i.evidence ?? ''} ${i.label}`.toLowerCase();
  const score = (i: Item) => words.filter((w) => new RegExp(`(?<![\\p{L}])${w}`, 'u').test(own(i))).length;
  const best = Math.max(...items.map(score));
  if (best === 0) return false;
  let named = items.filter((i) => score(i) === best);
  if (named.length > 1 && day !== undefined) {
    const onDay = named.filter((i) => new RegExp(`(?<!\\d)0?${day}(?!\\d)`).test((i.dateText ?? own(i).slice(0, 16))));
    if (onDay.length > 0) named = onDay;
  }
  for (const i of items) {
    if (named.includes(i)) i.receipt = false;
    else i.receipt ??= true;
  }
  return true;
}
