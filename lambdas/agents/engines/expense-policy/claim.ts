/**
 * The rules a practitioner applies across a claim's items rather than to one item:
 * 1. the same expense claimed twice (same amount, same merchant or category, and the same reference number or date)
 *    is paid once; the repeat is flagged and not reimbursed;
 * 2. a per diem is the policy's rate per day, the partial rate on the first and last day of the trip where the policy
 *    says so; a day claimed above its rate is flagged and paid at the rate;
 * 3. a per-day cap ("up to $85 per calendar day") applies to the day's items of the category together.
 */
import { capsFor } from './scope.js';
import type { Src } from './evidence.js';
import type { Checked, Finding } from './item.js';
import type { Item } from './expense.js';
import { policySource, type Policy } from './policy.js';
import { mileageAllowance, units } from './mileage.js';
import { furnishedMeal, placeRate } from './per-diem.js';
import { gradeRates } from './grades.js';

export type ItemResult = Checked & { item: Item; withReceipt?: bigint };

export function claimChecks(results: ItemResult[], policy: Policy, m: (cents: bigint) => string, claimText = ''): void {
  duplicates(results, m);
  repeatedLegs(results, policy, m);
  perDiem(results, policy, m, claimText);
  pooledCaps(results, policy, m);
}

const flag = (r: ItemResult, kind: string, text: string, sources: Src[], arithmetic?: string) =>
  r.findings.push({ severity: 'flag', kind, text, sources, arithmetic } satisfies Finding);
const name = (r: ItemResult) => `item ${r.item.index} (${r.item.label})`;

/** The merchant as named in its own field, compared without case, accents or punctuation. */
const merchantOf = (i: ItemResult['item']) => (i.merchant ?? '').normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

function duplicates(results: ItemResult[], m: (cents: bigint) => string): void {
  results.forEach((r, j) => {
    const a = r.item;
    const first = results.slice(0, j).find(({ item: b }) => {
      if (b.cents !== a.cents || (b.currency ?? '') !== (a.currency ?? '')) return false;
      const sameWho = (a.merchant && b.merchant && a.merchant === b.merchant) || (a.category !== undefined && a.category === b.category);
      const sharedRef = (a.refs ?? []).find((x) => (b.refs ?? []).includes(x));
      const sameDay = a.date !== undefined && a.date === b.date;
      // One restaurant's meal or one hotel's stay on one day at one amount, filed twice under other words (the bill
      // and the card slip of the same dinner): one expense. Rides and tickets of one fare may well be two.
      const oneSitting = sameDay && a.category === b.category && (a.category === 'meals' || a.category === 'lodging') &&
        merchantOf(a) !== '' && merchantOf(a) === merchantOf(b);
      return (sameWho && (sharedRef !== undefined || (sameDay && a.label === b.label))) || oneSitting;
    });
    if (!first) return;
    const ref = (a.refs ?? []).find((x) => (first.item.refs ?? []).includes(x));
    flag(r, 'duplicate claim', `duplicate claim: the same ${m(a.cents)} as ${name(first)}${ref ? `, same reference ${ref}` : ', same date and merchant'} ` +
      `("${(a.evidence ?? a.label).slice(0, 160)}"); paid once, ${m(r.allowed)} not reimbursed`, [...a.at, ...first.item.at]);
    r.allowed = 0n;
    r.open = false;
  });
}

/**
 * A journey a mileage log lists twice, word for word (same date, route, purpose and distance), is paid once: the log
 * is worth what its other legs are worth at the policy's rates, and the repeat is flagged with both lines.
 */
function repeatedLegs(results: ItemResult[], policy: Policy, m: (cents: bigint) => string): void {
  for (const r of results) {
    const mileage = r.item.mileage;
    if (!mileage?.allowance || mileage.trip.repeats.length === 0 || !r.open) continue;
    const { trip, allowance } = mileage;
    const once = mileageAllowance({ ...trip, tenths: trip.tenths - trip.repeats.reduce((a, x) => a + x.tenths, 0n) }, policy.mileage);
    if (!once) continue;
    const worth = allowance.cents - once.cents;
    const cut = worth < r.allowed ? worth : r.allowed;
    const legs = trip.repeats.map((x) => `"${x.text}" (${units(x.tenths)} ${trip.unit}s) repeats line ${x.first + 1}`).join('; ');
    flag(r, 'duplicate claim', `duplicate claim: the same journey listed twice in the mileage log: ${legs}; paid once, ${m(cut)} not reimbursed`,
      trip.repeats.flatMap((x) => [{ field: 'expense' as const, line: x.line + 1, quote: x.text }, { field: 'expense' as const, line: x.first + 1, quote: x.firstText }]),
      `${units(trip.tenths)} ${trip.unit}s claimed − ${trip.repeats.map((x) => units(x.tenths)).join(' − ')} repeated: ${once.tiers.map((t) => `${t.text} = ${m(t.cents)}`).join(' + ')}; ${m(cut)} not reimbursed`);
    r.allowed -= cut;
  }
}

/**
 * Each per-diem day is held to its rate: the rate of the place the claim names where the policy lists rates per place
 * (else its one full-day rate), the partial rate on the first and last per-diem dates, less the meal the day's line
 * says was furnished where the policy says to deduct it (that meal's amount from the policy's breakdown of the rate).
 */
function perDiem(results: ItemResult[], policy: Policy, m: (cents: bigint) => string, claimText: string): void {
  const rates = policy.perDiem;
  // A grade's daily allowance by city tier is a rate per place too (grades.ts).
  const places = [...policy.schedules.places, ...gradeRates(policy.grades, claimText)];
  const { meals } = policy.schedules;
  if (!rates && places.length === 0) return;
  const days = results.filter((r) => r.item.category === 'per diem' && r.open);
  const dates = days.map((r) => r.item.date).filter((d): d is string => d !== undefined).sort();
  const [firstDay, lastDay] = [dates[0], dates[dates.length - 1]];
  const over: string[] = [];
  const overItems: ItemResult[] = [];
  const rules = new Set(rates?.text ?? []);
  const rows: Src[] = [];
  let excessTotal = 0n;
  let anchor: ItemResult | undefined;
  for (const r of days) {
    const at = placeRate(places, [r.item.text, r.item.label].filter(Boolean).join(' '), claimText);
    const full = at?.place.full ?? rates?.full;
    if (full === undefined) continue;
    const partial = at === undefined && rates?.partial !== undefined ? rates.partial : rates?.partialBp !== undefined ? (full * rates.partialBp + 5000n) / 10000n : rates?.partial;
    const edge = partial !== undefined && dates.length > 1 && (r.item.date === firstDay || r.item.date === lastDay);
    let rate = edge ? partial! : full;
    // "Outstation meal allowance, 2 days x 80": one line for several days is held to the rate × its days (the only
    // per-diem line of a trip spans it, its first and last days at the partial rate where there is one).
    const count = r.item.days !== undefined && r.item.days > 1n ? r.item.days : 1n;
    if (count > 1n) rate = partial !== undefined && days.length === 1 ? 2n * partial + (count - 2n) * full : count * full;
    const meal = policy.mealDeduction ? furnishedMeal(r.item.text ?? r.item.label) : undefined;
    const share = meal ? meals.find((x) => x.full === full)?.meals.get(meal) : undefined;
    const less = share !== undefined ? ` less the furnished ${meal} (${m(share)})` : '';
    if (less) rate -= share!;
    if (r.eligible <= rate) continue;
    const excess = r.eligible - rate;
    overItems.push(r);
    const which = count > 1n ? `the rate for its ${count} days` : edge ? `the ${r.item.date === firstDay ? 'first' : 'last'} travel day's rate` : 'the full-day rate';
    over.push(`${r.item.date ?? r.item.label} claimed ${m(r.eligible)} where ${which}${at ? ` (${at.how})` : ''}${less} is ${m(rate)}`);
    if (at) rows.push({ field: 'expensePolicy', line: at.place.line, quote: at.place.text });
    if (less) {
      rules.add(policy.mealDeduction!);
      const row = meals.find((x) => x.full === full)!;
      rows.push({ field: 'expensePolicy', line: row.line, quote: row.text });
    }
    r.allowed -= excess;
    excessTotal += excess;
    anchor ??= r;
  }
  if (anchor) {
    flag(anchor, 'per diem over rate', `per diem above the allowance${rules.size > 0 ? ` ("${[...rules].join('"; "')}")` : ''}: ${over.join('; ')}; ${m(excessTotal)} over the allowance not reimbursed`,
      [...overItems.flatMap((r) => r.item.at), ...[...rules].map((t) => policySource(policy, t)), ...rows], `${over.join('; ')}; ${m(excessTotal)} over`);
  }
}

function pooledCaps(results: ItemResult[], policy: Policy, m: (cents: bigint) => string): void {
  for (const cap of policy.caps) {
    if (cap.period !== 'day' || cap.perPerson) continue;
    const byDay = new Map<string, ItemResult[]>();
    for (const r of results) {
      if (!r.pooled || r.item.category !== cap.category || r.item.date === undefined || !capsFor(r.item, policy).includes(cap)) continue;
      byDay.set(r.item.date, [...(byDay.get(r.item.date) ?? []), r]);
    }
    for (const [day, group] of byDay) {
      const counted = group.filter((r) => r.open);
      const total = counted.reduce((a, r) => a + r.allowed, 0n);
      if (total <= cap.cents) continue;
      let excess = total - cap.cents;
      const parts = counted.map((r) => `${r.item.merchant || r.item.label} ${m(r.allowed)}`).join(' + ');
      flag(counted[counted.length - 1], 'daily cap', `${cap.category} on ${day} total ${m(total)} (${parts}), over the ${m(cap.cents)} daily cap ("${cap.text}"); ${m(excess)} not reimbursed`,
        [...counted.flatMap((r) => r.item.at), policySource(policy, cap.text)], `${counted.map((r) => m(r.allowed)).join(' + ')} = ${m(total)}; cap ${m(cap.cents)} → ${m(excess)} over`);
      for (const r of [...counted].reverse()) {
        const cut = excess < r.allowed ? excess : r.allowed;
        r.allowed -= cut;
        excess -= cut;
        if (excess === 0n) break;
      }
    }
  }
}
