/**
 * The policy sentences that set rates rather than limits: a tip cap as a share of the pre-tax amount, per-diem
 * rates (full and partial days), mileage rates per mile or km (tier by tier), the personal charges a folio may carry,
 * and the scope sentence ("expenses not described here are not reimbursable").
 */
import { categoriesIn, moneyIn } from './words.js';
import type { Policy } from './policy.js';
import { NOT_ALLOWED, type TipCap } from './policy-types.js';

const PERSONAL_WORDS = ['minibar', 'mini-bar', 'honor bar', 'honour bar', 'movie', 'pay-per-view', 'pay per view', 'in-room entertainment', 'spa', 'gift shop',
  'laundry', 'dry cleaning', 'room service', 'toiletries', 'clothing', 'newspaper'];

/** Tip caps, per diem rates, mileage rates, personal folio charges and the scope rule; returns how many. */
export function readExtra(s: string, original: string, policy: Policy): number {
  let found = 0;
  const pct = /(\d{1,2}(?:\.\d{1,2})?)\s?%/.exec(s);
  if (/\b(?:tips?|gratuit(?:y|ies))\b/.test(s) && pct && /\b(?:up to|maximum|max|at most|no more than|capped|limit)\b/.test(s)) {
    // "Taxis are reimbursed at cost, including a reasonable tip (up to 15%)" caps a taxi's tip, not a dinner's; a
    // policy with a cap for meals and another for rideshare keeps both, each its own category's.
    policy.tipCaps ??= [];
    policy.tipCaps.push(...tipCapsIn(s, original));
    found++;
  }
  if (/\b(?:per diem|m&ie|meal allowance|daily allowance|verpflegungspauschale)\b/.test(s) || (policy.perDiem && /\bper diem\b|\ballowance\b/.test(s))) {
    for (const clause of s.split(/[,;](?=\s*(?:eur|usd|gbp|\$|€|£|\d))|;/)) {
      const money = moneyIn(clause, () => undefined)[0];
      // "counting the day of departure and the day of return": the travel days are paid the full rate.
      const travelCounted = /\b(?:counting|including|incl\.?) (?:both )?(?:the )?(?:days? of )?(?:departure|arrival|travel)\b/.test(clause);
      const partialDay = !travelCounted && /\b(?:first|last|arrival|departure|travel begins|travel ends|partial|begins|ends)\b/.test(clause);
      const fullDay = /\b(?:full day|full-day|each day|per day|each full|for each)\b/.test(clause);
      if (partialDay && (money || pct)) {
        policy.perDiem ??= { text: [] };
        if (money) policy.perDiem.partial = money.cents;
        else if (pct) policy.perDiem.partialBp = percentBp(pct[1]);
        policy.perDiem.text.push(original);
        found = 1;
      } else if (money && (fullDay || !partialDay)) {
        policy.perDiem ??= { text: [] };
        policy.perDiem.full ??= money.cents;
        policy.perDiem.text.push(original);
        found = 1;
      }
    }
  }
  found += readRates(s, original, policy);
  // "When a meal is furnished to you … deduct that meal's amount from that day's M&IE".
  if (/\b(?:furnished|provided)\b/.test(s) && /\bdeduct(?:ed)?\b/.test(s) && /\bmeals?\b|\bm&ie\b|\bper diem\b/.test(s) && !/\bnot (?:be )?deducted\b/.test(s)) {
    policy.mealDeduction = original;
    found++;
  }
  if (NOT_ALLOWED.test(s) || /\bare personal\b|\bpersonal expenses?\b/.test(s)) {
    for (const w of PERSONAL_WORDS) if (new RegExp(`\\b${w.replace(/-/g, '[- ]?')}s?\\b`).test(s)) policy.personal.set(w, original);
    if (/\bnot (?:described|covered|listed|mentioned)\b|\boutside (?:the scope|this policy)\b/.test(s) && NOT_ALLOWED.test(s)) {
      policy.scope = original;
      found++;
    }
  }
  // "Normal commuting between your home and your regular office is never reimbursed", "claim the miles driven less
  // your normal round-trip commute": a mileage log is paid less the commute.
  if (/\bcommut|\bwohnung und (?:der )?(?:erster? )?tätigkeitsstätte/.test(s) && (NOT_ALLOWED.test(s) || /\b(?:less|minus|deduct(?:ed|ing)?|subtract(?:ed)?)\b/.test(s))) {
    policy.commute ??= original;
    found++;
  }
  // "A report that claims a personal charge is returned to the employee": claiming one is refused, not just deducted.
  if (/\b(?:report|claim|expense)s? (?:that|which) (?:claims?|includes?|contains?) (?:a |any )?personal (?:charges?|expenses?|items?)\b.*\b(?:returned|rejected|refused|sent back)\b/.test(s)) {
    policy.personalRefused = original;
    found++;
  }
  return found;
}

/** "$0.70 per mile", "45p per mile", "0.30 € per km", "EUR 0.30/km": an amount per unit of distance. */
const RATE = /(?:(us\$|c\$|\$|€|£|eur|usd|gbp|cad|brl|pln|chf|mxn|aud|nzd|sek|nok|dkk|czk|huf|ron)\s?(\d+(?:\.\d{1,4})?)|(?<![\d.])(\d{1,6}(?:\.\d{1,4})?)\s?(€|eur|euros?|usd|\$|gbp|cad|brl|pln|zł|chf|mxn|aud|nzd|sek|nok|dkk|czk|huf|ron|p|c|cents?)(?![a-z]))\s*(?:per|a|\/|each)\s*(?:business\s+)?(miles?|km|kilomet(?:er|re)s?)\b/g;
/** A rate for another vehicle than a car ("Motorcycles: 24p per mile", "Bicycles: 20p per mile"). */
const OTHER_VEHICLE = /\b(?:motor ?cycles?|motorbikes?|mopeds?|bicycles?|bikes?|cycles?|e-?bikes?|scooters?|passengers?)\b/;

/**
 * Mileage rates, several in one sentence where it gives the tiers ("45p per mile for the first 10,000 business
 * miles …, 25p per mile after that"): each rate is read with its own clause, up to the next rate. "After that" starts
 * where the tier before it ends. A rate for a motorcycle or a bicycle is kept apart: a car's log is never paid at it.
 */
function readRates(s: string, original: string, policy: Policy): number {
  const found = [...s.matchAll(RATE)];
  found.forEach((m, k) => {
    const from = k === 0 ? 0 : m.index!;
    const clause = s.slice(from, found[k + 1]?.index ?? s.length);
    const pence = m[4] !== undefined && /^(?:p|c|cents?)$/.test(m[4]);
    const milli = m[2] !== undefined ? decimalMilli(m[2]) : pence ? decimalMilli(m[3]) / 100n : decimalMilli(m[3]);
    const unit = m[5].startsWith('mile') ? 'mile' : 'km';
    const upTo = /\b(?:first|up to|below)\s+([\d,]{3,7})\b/.exec(clause)?.[1];
    let after = /\b(?:after|above|over|beyond|exceeding)\s+([\d,]{3,7})\b/.exec(clause)?.[1];
    const before = policy.mileage[policy.mileage.length - 1];
    if (after === undefined && /\b(?:after that|thereafter|after this|above that|beyond that)\b/.test(clause) && before?.upTo !== undefined && before.text === original) {
      after = String(before.upTo);
    }
    const vehicle = OTHER_VEHICLE.exec(clause)?.[0];
    policy.mileage.push({
      milli, unit, after: after ? BigInt(after.replace(/,/g, '')) : 0n, upTo: upTo ? BigInt(upTo.replace(/,/g, '')) : undefined, text: original,
      ...(vehicle ? { vehicle } : {}),
    });
  });
  return found.length > 0 ? 1 : 0;
}

function percentBp(p: string): bigint {
  const [w, f = ''] = p.split('.');
  return BigInt(w) * 100n + BigInt((f + '00').slice(0, 2));
}

/** "0.725" → 7250 (cents × 100). */
function decimalMilli(d: string): bigint {
  const [w, f = ''] = d.split('.');
  return BigInt(w) * 10000n + BigInt((f + '0000').slice(0, 4));
}

/**
 * The tip caps of one sentence: one per percentage. With two or more ("tips up to 20% on meals and 15% on taxis"),
 * each is its own clause's (split at ",", ";" and "and"), with the categories that clause names (none: the sentence's).
 */
function tipCapsIn(s: string, original: string): TipCap[] {
  const all = [...s.matchAll(/(\d{1,2}(?:\.\d{1,2})?)\s?%/g)];
  const whole = categoriesIn(s);
  if (all.length <= 1) return [{ bp: percentBp(all[0][1]), text: original, categories: whole }];
  const clauses = s.split(/[,;]|\band\b/);
  const out: TipCap[] = [];
  for (const clause of clauses) {
    const p = /(\d{1,2}(?:\.\d{1,2})?)\s?%/.exec(clause);
    if (!p) continue;
    const own = categoriesIn(clause);
    out.push({ bp: percentBp(p[1]), text: original, categories: own.length > 0 ? own : whole });
  }
  return out.length > 0 ? out : [{ bp: percentBp(all[0][1]), text: original, categories: whole }];
}
