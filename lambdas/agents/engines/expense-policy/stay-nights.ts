/**
 * Nights of a stay the claim itself says were personal: a hotel line claiming the whole folio ("4 nights 14-18 Oct …
 * conference Thu 15 - Fri 16 ends 13:00, stayed on for the weekend, flew home Sun 18") names the stay's first and last
 * day, the day the business ended, and that the employee stayed on for their own reasons. The nights from the day the
 * business ended to the departure are personal: no policy pays a weekend the claimant says was theirs. They are
 * deducted at the folio's rate (a flag), refused where the policy refuses a claim including a personal charge.
 */
import type { Item } from './expense.js';
import type { Finding } from './item.js';
import type { Src } from './evidence.js';
import type { Policy } from './policy.js';

const STAYED_ON = /\b(?:stayed on|stay(?:ed|ing)? (?:on )?for the weekend|stayed over the weekend|extended (?:my|the) stay|weekend stay|personal (?:nights?|days?|reasons)|(?:on )?(?:holiday|vacation|leave) after|bleisure)\b/i;
const MONTH = '(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*';
const ENDED = /(?<![\d.,])(\d{1,2})\s+(?:\(?[a-z]*\)?\s*)?(?:ends|ended|finishes|finished|closes|closed)\b/i;

/** The personal nights a lodging item's own text states, with the words that say so. */
export function personalNights(item: Item): { nights: bigint; text: string } | undefined {
  const text = item.text ?? item.evidence ?? '';
  if (item.category !== 'lodging' || item.nights === undefined || item.nights < 2n) return undefined;
  const said = STAYED_ON.exec(text);
  if (!said) return undefined;
  const stay = new RegExp(`(?<![\\d.,])(\\d{1,2})\\s*[-–]\\s*(\\d{1,2})\\s+${MONTH}\\b`, 'i').exec(text);
  const ended = ENDED.exec(text);
  if (!stay || !ended) return undefined;
  const [from, to, last] = [Number(stay[1]), Number(stay[2]), Number(ended[1])];
  if (!(from < last && last < to) || BigInt(to - from) !== item.nights) return undefined;
  return { nights: BigInt(to - last), text: said[0] };
}

/** The finding on the personal nights, and what is left of the item. */
export function personalNightsFinding(item: Item, policy: Policy, eligible: bigint, cite: (rules: (string | undefined)[], lines?: Src[]) => Src[], m: (c: bigint) => string): { finding?: Finding; eligible: bigint } {
  const personal = personalNights(item);
  if (!personal || item.nights === undefined) return { eligible };
  const cost = (item.cents * personal.nights) / item.nights;
  const deducted = cost > eligible ? eligible : cost;
  const working = `${m(item.cents)} ÷ ${item.nights} nights × ${personal.nights} = ${m(cost)}`;
  const text = `${personal.nights} of the ${item.nights} nights claimed were personal, as the claim says ("${personal.text}" after the business ended): ${working} deducted`;
  const finding: Finding = policy.personalRefused
    ? { severity: 'reject', partial: true, kind: 'personal charge claimed', text: `${text}; a claim including a personal charge is returned ("${policy.personalRefused}")`, sources: cite([policy.personalRefused]), arithmetic: working }
    : { severity: 'flag', kind: 'personal charges', text, sources: cite([]), arithmetic: working };
  return { finding, eligible: eligible - deducted };
}
