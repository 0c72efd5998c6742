/**
 * The amount limits one item is held to (item.ts applies them in RULES.md order): its category's caps on the amount
 * after the alcohol deduction, each times the people, nights or days it is stated per (the lowest allowance wins), and
 * whether a threshold rule (a receipt, an approval) covers it.
 */
import { capsFor } from './scope.js';
import type { Item } from './expense.js';
import type { Policy, Threshold } from './policy.js';
import { linesOfKind, namesKind, roomAmount } from './folio-lines.js';
import { money } from './item.js';

/** Caps of the item's category on the amount after the alcohol deduction; the lowest allowance wins. */
export function applyCaps(item: Item, amount: bigint, policy: Policy, flag: (text: string, rule: string, working: string) => void, assumptions: Set<string>, pooled: boolean): bigint {
  let eligible = amount;
  const caps = capsFor(item, policy);
  for (const cap of caps) {
    if (pooled && cap.period === 'day' && !cap.perPerson) continue;
    // A cap on one kind of folio line holds those lines only (folio-lines.ts); the room's cap the rest.
    const held = cap.kind !== undefined && !namesKind(item, cap.kind) ? linesOfKind(item, cap.kind) : undefined;
    if (cap.kind !== undefined && held === undefined && !namesKind(item, cap.kind)) continue;
    const compared = held ? held.cents : roomAmount(item, eligible, policy, caps);
    let allowance = cap.cents;
    const m = (cents: bigint) => money(cents, policy.currency);
    let working = m(cap.cents);
    if (cap.perPerson) {
      if (item.people === undefined) assumptions.add('1 person where the expense names no attendees');
      const people = item.people ?? 1n;
      allowance *= people;
      working += ` × ${people} person(s)`;
    }
    if (cap.period !== undefined) {
      const periods = (cap.period === 'night' ? item.nights ?? item.days : item.days ?? item.nights) ?? 1n;
      if ((item.nights ?? item.days) === undefined) assumptions.add(`1 ${cap.period} where the expense names none`);
      allowance *= periods;
      working += ` × ${periods} ${cap.period}(s)`;
    }
    if (compared > allowance) {
      const what = held ? `its ${cap.kind} lines ("${held.texts.join('" + "')}") total ${m(compared)}` : compared < eligible ? `${m(compared)} of it held to the cap` : m(compared);
      flag(`${cap.category} over the cap ("${cap.text}"): ${what} > ${working} = ${m(allowance)}; ` +
        `${m(compared - allowance)} not reimbursed`, cap.text, `${working} = ${m(allowance)} cap; claimed ${m(compared)} → ${m(compared - allowance)} over`);
      eligible -= compared - allowance;
    }
  }
  return eligible;
}

/** Whether a threshold rule (receipt, approval) covers the item: its category and its amount. */
export function applies(rule: Threshold, item: Item): boolean {
  if (rule.categories.length > 0 && (item.category === undefined || !rule.categories.includes(item.category))) return false;
  return rule.inclusive ? item.cents >= rule.cents : item.cents > rule.cents;
}
