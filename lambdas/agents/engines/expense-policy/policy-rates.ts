/**
 * The policy sentences that set rates rather than limits: a tip cap as a share of the pre-tax amount, per-diem
 * rates (full and partial days), mileage rates per mile or km (tier by tier), the personal charges a folio may carry,
 * and the scope sentence ("expenses not described here are not reimbursable").
 */
import { moneyIn } from './words.js';
import type { Policy } from './policy.js';
import { NOT_ALLOWED } from './policy.js';

const PERSONAL_WORDS = ['minibar', 'mini-bar', 'honor bar', 'honour bar', 'movie', 'pay-per-view', 'pay per view', 'in-room entertainment', 'spa', 'gift shop',
  'laundry', 'dry cleaning', 'room service', 'toiletries', 'clothing', 'newspaper'];

/** Tip caps, per diem rates, mileage rates, personal folio charges and the scope rule; returns how many. */
export function readExtra(s: string, original: string, policy: Policy): number {
  let found = 0;
  const pct = /(\d{1,2}(?:\.\d{1,2})?)\s?%/.exec(s);
  if (/\b(?:tips?|gratuit(?:y|ies))\b/.test(s) && pct && /\b(?:up to|maximum|max|at most|no more than|capped|limit)\b/.test(s)) {
    policy.tipCap = { bp: percentBp(pct[1]), text: original };
    found++;
  }
  if (/\b(?:per diem|m&ie|meal allowance|daily allowance|verpflegungspauschale)\b/.test(s) || (policy.perDiem && /\bper diem\b|\ballowance\b/.test(s))) {
    for (const clause of s.split(/[,;](?=\s*(?:eur|usd|gbp|\$|€|£|\d))|;/)) {
      const money = moneyIn(clause, () => undefined)[0];
      const partialDay = /\b(?:first|last|arrival|departure|travel begins|travel ends|partial|begins|ends)\b/.test(clause);
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
  for (const m of s.matchAll(/(?:(us\$|c\$|\$|€|£)\s?(\d+(?:\.\d{1,4})?)|(\d{1,3}(?:\.\d{1,2})?)\s?(p|c|cents?)\b)\s*(?:per|a|\/|each)\s*(?:business\s+)?(miles?|km|kilomet(?:er|re)s?)\b/g)) {
    const milli = m[2] !== undefined ? decimalMilli(m[2]) : decimalMilli(m[3]) / 100n;
    const unit = m[5].startsWith('mile') ? 'mile' : 'km';
    const upTo = /\b(?:first|up to|below)\s+([\d,]{3,7})\b/.exec(s)?.[1];
    const after = /\b(?:after|above|over|beyond|exceeding)\s+([\d,]{3,7})\b/.exec(s)?.[1];
    policy.mileage.push({
      milli, unit, after: after ? BigInt(after.replace(/,/g, '')) : 0n, upTo: upTo ? BigInt(upTo.replace(/,/g, '')) : undefined, text: original,
    });
    found++;
    break;
  }
  if (NOT_ALLOWED.test(s) || /\bare personal\b|\bpersonal expenses?\b/.test(s)) {
    for (const w of PERSONAL_WORDS) if (new RegExp(`\\b${w.replace(/-/g, '[- ]?')}s?\\b`).test(s)) policy.personal.set(w, original);
    if (/\bnot (?:described|covered|listed|mentioned)\b|\boutside (?:the scope|this policy)\b/.test(s) && NOT_ALLOWED.test(s)) {
      policy.scope = original;
      found++;
    }
  }
  // "A report that claims a personal charge is returned to the employee": claiming one is refused, not just deducted.
  if (/\b(?:report|claim|expense)s? (?:that|which) (?:claims?|includes?|contains?) (?:a |any )?personal (?:charges?|expenses?|items?)\b.*\b(?:returned|rejected|refused|sent back)\b/.test(s)) {
    policy.personalRefused = original;
    found++;
  }
  return found;
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
