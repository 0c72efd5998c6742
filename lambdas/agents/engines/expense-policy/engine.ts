/**
 * Checks an expense claim against a written policy, by the rules in RULES.md:
 * 1. read the policy into rules; sentences not understood go to the note (none understood → AgentInputError);
 * 2. read the expense items (JSON, a CSV export with a header row, or free-text lines);
 * 3. per item: forbidden category, fare class, currency, receipt, alcohol, caps, approval thresholds, each broken
 *    rule one violation of severity reject or flag (all of them: no rule stops the others), and the amount the
 *    policy allows now, worked through all of them;
 * 4. verdict: any reject → reject, else any flag → flag, else approve; reimbursable = sum of allowed amounts.
 */
import { AgentInputError, type AgentEngine } from '../port.js';
import { centsToNumber, formatCents } from '../text/amount.js';
import { readExpense, type Claim, type Item } from './expense.js';
import { claimChecks, type ItemResult } from './claim.js';
import { mileageAllowance, rateText, readMileage, units } from './mileage.js';
import { readPolicy, type Policy, type Threshold } from './policy.js';
import type { ExpensePolicyInput, ExpensePolicyResult } from './schema.js';

export const expensePolicyEngine: AgentEngine<ExpensePolicyInput, ExpensePolicyResult> = {
  id: 'expense-policy/rules@1',
  analyse(input) {
    if (input.expensePolicy.trim().length === 0) throw new AgentInputError('expensePolicy', 'is empty');
    const policy = readPolicy(input.expensePolicy.normalize('NFKC'));
    if (policy.understood === 0) {
      throw new AgentInputError('expensePolicy', 'no sentence states a rule this agent reads (see RULES.md)');
    }
    return check(readClaim(input.expense, policy), policy);
  },
};

/** The claim; under a policy with a mileage rate, a mileage log in it is one claim of distance × rate. */
function readClaim(text: string, policy: Policy): Claim {
  const t = text.normalize('NFKC');
  const trip = policy.mileage.length > 0 && !/^\s*[[{]/.test(t) ? readMileage(t) : undefined;
  if (!trip) return readExpense(text, policy.currency);
  const rest = t.split(/\r?\n/).filter((_, k) => !trip.lines.has(k)).join('\n');
  let others: Item[] = [];
  try {
    others = readExpense(rest, policy.currency).items;
  } catch {
    others = [];
  }
  const allowance = mileageAllowance(trip, policy.mileage);
  const claimedCents = trip.claimed ?? allowance?.cents ?? 0n;
  const item: Item = {
    index: 1, label: `mileage ${units(trip.tenths)} ${trip.unit}s`, category: 'mileage', cents: claimedCents, currency: policy.currency,
    alcohol: undefined, receipt: true, evidence: trip.evidence, mileage: { trip, allowance },
  };
  const items = [item, ...others.map((o, k) => ({ ...o, index: k + 2 }))];
  return { items };
}

type Severity = 'reject' | 'flag';
export interface Finding {
  severity: Severity;
  text: string;
}
export interface Checked {
  /** What the policy allows now. */
  allowed: bigint;
  /** What the item is worth after its own rules, before the claim-level ones (pooled day caps, per diem, duplicates). */
  eligible: bigint;
  /** Whether the claim-level rules may still change `allowed` (no reject, nothing withheld, comparable currency). */
  open: boolean;
  /** Day caps left for the claim-level pass to pool across the day's items. */
  pooled: boolean;
  findings: Finding[];
  /** Set when a missing receipt is the item's only reject reason: what it would be worth with the receipt. */
  withReceipt?: bigint;
}

function check(claim: Claim, policy: Policy): ExpensePolicyResult {
  const { items } = claim;
  const violations: string[] = [];
  const assumptions = new Set<string>();
  const resubmit: string[] = [];
  let verdict: ExpensePolicyResult['verdict'] = 'approve';
  let reimbursable = 0n;
  const results: ItemResult[] = items.map((item) => ({ item, ...checkItem(item, policy, assumptions) }));
  claimChecks(results, policy, (c) => money(c, policy.currency));
  for (const { item, allowed, findings, withReceipt } of results) {
    const name = items.length > 1 ? `item ${item.index} (${item.label})` : 'the expense';
    reimbursable += allowed;
    for (const f of findings) {
      violations.push(items.length > 1 ? `${name}: ${f.text}` : f.text);
      if (f.severity === 'reject') verdict = 'reject';
      else if (verdict === 'approve') verdict = 'flag';
    }
    if (withReceipt !== undefined) resubmit.push(`${name} would be reimbursable at ${money(withReceipt, policy.currency)}`);
  }
  if (claim.ambiguousDate) assumptions.add(`numeric dates are month first (${claim.ambiguousDate})`);
  const notes = [
    `Checked ${items.length} item(s) totalling ${totals(items, policy.currency)} against ` +
      `${policy.understood} policy rule(s); reimbursable ${money(reimbursable, policy.currency)}.`,
  ];
  if (resubmit.length > 0) notes.push(`Once its receipt is provided, ${resubmit.join('; ')}.`);
  if (assumptions.size > 0) notes.push(`Assumed: ${[...assumptions].join('; ')}.`);
  if (policy.notUnderstood.length > 0) {
    const listed = policy.notUnderstood.slice(0, 20).map((s) => `"${s.slice(0, 200)}"`);
    const more = policy.notUnderstood.length > 20 ? ` and ${policy.notUnderstood.length - 20} more` : '';
    notes.push(`Policy sentences not understood, not applied: ${listed.join('; ')}${more}.`);
  }
  return { verdict, reimbursable_amount: centsToNumber(reimbursable), violations, note: notes.join(' ') };
}

/**
 * Every rule the item breaks, in RULES.md order; no rule stops the others, so a reviewer sees all of them. The
 * allowed amount is worked through all of them: alcohol deducted, then the caps, then nothing if any rule rejects,
 * an approval is pending or the currency differs from the policy's.
 */
function checkItem(item: Item, policy: Policy, assumptions: Set<string>): Checked {
  const findings: Finding[] = [];
  const reject = (text: string) => findings.push({ severity: 'reject', text });
  const flag = (text: string) => findings.push({ severity: 'flag', text });
  const m = (cents: bigint) => money(cents, item.currency ?? policy.currency);
  const category = item.category;
  if (category === undefined && policy.caps.length > 0) {
    assumptions.add(`no category recognised for "${item.label}", so no category cap applied to it`);
  }

  if (category !== undefined && policy.forbiddenCategories.has(category)) {
    const quoted = item.evidence && category === 'fines' ? ` ("${item.evidence.slice(0, 160)}" is a fine)` : '';
    reject(`${category} is not reimbursable ("${policy.forbiddenCategories.get(category)}")${quoted}`);
  }
  if (policy.scope && category === undefined) {
    reject(`not covered by this policy ("${policy.scope}"): "${(item.evidence ?? item.label).slice(0, 160)}" is none of the expenses it describes`);
  }
  if (item.unreconciled) {
    reject(`receipt does not reconcile: ${item.unreconciled}; the amount spent cannot be determined, so nothing is reimbursed until a corrected receipt is provided`);
  }
  let withheld = false;
  if (item.fareClass !== undefined && item.fareClass !== 'economy') {
    const c = item.fareClass;
    if (policy.forbiddenClasses.has(c)) {
      reject(`${c} class is not allowed ("${policy.forbiddenClasses.get(c)}")`);
    } else if (policy.approvalClasses.has(c)) {
      flag(`${c} class requires ${policy.approvalClasses.get(c)}; ${m(item.cents)} withheld until approved`);
      withheld = true;
    } else if (policy.allowedClasses && !policy.allowedClasses.classes.has(c)) {
      reject(`${c} class breaks "${policy.allowedClasses.text}"`);
    }
  }
  // Amount limits need the policy's currency; without a conversion they are not checked (a receipt rule with no
  // amount still is).
  let comparable = true;
  const currency = item.currency ?? policy.currency;
  if (item.foreign?.own && currency !== policy.currency) {
    flag(`${item.foreign.currency} ${formatCents(item.foreign.cents)} converted by the employee ("${item.foreign.text.slice(0, 160)}"); ` +
      `the amount charged in ${policy.currency} is not shown, so the conversion cannot be checked and the expense is held until it is provided`);
    comparable = false;
  } else if (policy.caps.length + policy.receipts.length + policy.approvals.length > 0 || currency !== policy.currency) {
    if (item.currency === undefined) assumptions.add(`amounts without a currency are in ${policy.currency}`);
    if (currency !== policy.currency) {
      flag(`amount is in ${currency} but the policy limits are in ${policy.currency}; limits not checked, nothing reimbursed`);
      comparable = false;
    }
  }
  if (item.foreign && !item.foreign.own && comparable) {
    assumptions.add(`${item.label}: the ${policy.currency} amount charged to the card ("${item.foreign.text.slice(0, 120)}") is the claim, not the ${item.foreign.currency} receipt figure`);
  }
  // A per diem or a mileage log is claimed without receipts unless a rule names it.
  const receiptRule = policy.receipts.find((rule) => (comparable || rule.cents === 0n) && applies(rule, item) &&
    !(item.category !== undefined && rule.except.includes(item.category)) &&
    !((item.category === 'per diem' || item.category === 'mileage') && !rule.categories.includes(item.category)));
  const noReceipt = receiptRule !== undefined && item.receipt !== true;
  if (noReceipt) {
    const why = item.receipt === false ? 'no receipt' : 'no receipt indicated';
    reject(`receipt required ("${receiptRule.text}"): ${m(item.cents)} with ${why}`);
  }
  let eligible = item.cents;
  let computable = true;
  if (policy.alcoholForbidden !== undefined && item.alcohol !== undefined) {
    if (item.alcohol === 'unknown') {
      reject(`alcohol is not reimbursable ("${policy.alcoholForbidden}") and its amount is not itemised`);
      computable = false;
    } else {
      const deducted = item.alcohol > eligible ? eligible : item.alcohol;
      const lines = item.alcoholLines ? ` (${item.alcoholLines.map((l) => `"${l}"`).join(' + ')})` : '';
      flag(`alcohol is not reimbursable ("${policy.alcoholForbidden}")${lines}: ${m(deducted)} deducted`);
      eligible -= deducted;
    }
  }
  if (policy.personal.size > 0 && item.parts) {
    const personal = item.parts.filter((p) => p.kind === 'item' && [...policy.personal.keys()].some((w) => personalWord(w).test(p.text.toLowerCase())));
    if (personal.length > 0) {
      const sum = personal.reduce((a, p) => a + p.cents, 0n);
      const rule = policy.personal.get([...policy.personal.keys()].find((w) => personal.some((p) => personalWord(w).test(p.text.toLowerCase())))!)!;
      flag(`personal charges are not reimbursable ("${rule}"): ${personal.map((p) => `"${p.text}"`).join(' + ')} = ${m(sum)} deducted`);
      eligible -= sum > eligible ? eligible : sum;
    }
  }
  if (policy.tipCap && item.tip && item.tip.base > 0n) {
    const max = (item.tip.base * policy.tipCap.bp + 5000n) / 10000n;
    if (item.tip.cents > max) {
      const excess = item.tip.cents - max;
      flag(`tip ${m(item.tip.cents)} exceeds ${pct(policy.tipCap.bp)} of the ${m(item.tip.base)} pre-tax subtotal ` +
        `("${policy.tipCap.text}"): ${pct(policy.tipCap.bp)} × ${m(item.tip.base)} = ${m(max)}; ${m(excess)} deducted`);
      eligible -= excess > eligible ? eligible : excess;
    }
  }
  if (item.mileage) {
    const { trip, allowance } = item.mileage;
    if (!allowance) {
      reject(`mileage in ${trip.unit}s but the policy states no rate per ${trip.unit}; the amount cannot be worked out`);
      computable = false;
    } else {
      const tiers = allowance.tiers.map((t) => `${units(t.tenths)} ${trip.unit}s × ${rateText(t.milli)} = ${m(t.cents)}`).join(' + ');
      const ytd = trip.ytd !== undefined ? ` (${trip.ytd} ${trip.unit}s already claimed this year)` : '';
      const stated = trip.statedTotal !== undefined && trip.statedTotal !== trip.tenths
        ? `; the log's total ${units(trip.statedTotal)} differs from its legs' ${units(trip.tenths)}` : '';
      if (stated) {
        reject(`mileage log does not reconcile ("${trip.evidence}")${stated}; the distance cannot be worked out`);
        computable = false;
      } else if (trip.claimed !== undefined && trip.claimed > allowance.cents) {
        const rate = trip.claimedRate ? ` at ${trip.claimedRate} per ${trip.unit}` : '';
        flag(`mileage claimed${rate} (${m(trip.claimed)}, "${trip.evidence}"); the policy pays ${tiers}${ytd} ` +
          `("${policy.mileage.map((r) => r.text).join('"; "')}"): ${m(trip.claimed - allowance.cents)} not reimbursed`);
        eligible = allowance.cents;
      } else {
        eligible = trip.claimed !== undefined && trip.claimed < allowance.cents ? trip.claimed : allowance.cents;
        assumptions.add(`mileage ${tiers}${ytd}`);
      }
    }
  }
  // With alcohol of unknown amount the part a cap would apply to is unknown too. Day caps on a dated item are pooled
  // with the day's other items of the category by the claim-level pass.
  const pooled = item.date !== undefined && policy.caps.some((c) => c.category === item.category && c.period === 'day' && !c.perPerson);
  if (comparable && computable) eligible = applyCaps(item, eligible, policy, flag, assumptions, pooled);
  if (comparable) {
    for (const rule of policy.approvals) {
      if (!applies(rule, item) || withheld) continue;
      const pre = item.preapproval;
      if (pre?.approved && (pre.limit === undefined || item.cents <= pre.limit)) {
        assumptions.add(`${item.label}: pre-approval ${pre.id} is recorded (${pre.text}), so "${rule.text}" is met`);
        continue;
      }
      flag(`${rule.approver} required ("${rule.text}"): ${m(item.cents)} withheld until approved`);
      withheld = true;
    }
  }
  if (item.category === 'airfare' && item.fareClass === undefined && policy.allowedClasses) {
    assumptions.add('economy where an airfare names no fare class');
  }
  const rejects = findings.filter((f) => f.severity === 'reject').length;
  const open = !(rejects > 0 || withheld || !comparable);
  const allowed = open ? eligible : 0n;
  const withReceipt = noReceipt && rejects === 1 && comparable && !withheld ? eligible : undefined;
  return { allowed, eligible, open, pooled: pooled && comparable && computable, findings, withReceipt };
}

function personalWord(w: string): RegExp {
  return new RegExp(`\\b${w.replace(/-/g, '[- ]?')}s?\\b`);
}

/** 1800n → "18%", 1850n → "18.5%". */
function pct(bp: bigint): string {
  return `${bp / 100n}${bp % 100n === 0n ? '' : `.${(bp % 100n).toString().padStart(2, '0').replace(/0$/, '')}`}%`;
}

/** Caps of the item's category on the amount after the alcohol deduction; the lowest allowance wins. */
function applyCaps(item: Item, amount: bigint, policy: Policy, flag: (text: string) => void, assumptions: Set<string>, pooled: boolean): bigint {
  let eligible = amount;
  for (const cap of policy.caps) {
    if (cap.category !== item.category) continue;
    if (pooled && cap.period === 'day' && !cap.perPerson) continue;
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
    if (eligible > allowance) {
      flag(`${cap.category} over the cap ("${cap.text}"): ${m(eligible)} > ${working} = ${m(allowance)}; ` +
        `${m(eligible - allowance)} not reimbursed`);
      eligible = allowance;
    }
  }
  return eligible;
}

/** Whether a threshold rule (receipt, approval) covers the item: its category and its amount. */
function applies(rule: Threshold, item: Item): boolean {
  if (rule.categories.length > 0 && (item.category === undefined || !rule.categories.includes(item.category))) return false;
  return rule.inclusive ? item.cents >= rule.cents : item.cents > rule.cents;
}

const SIGNS: Record<string, string> = { USD: '$', EUR: '€', GBP: '£', JPY: '¥' };

/** "$12.50", "€12.50", "12.50 CAD". */
export function money(cents: bigint, currency: string): string {
  const sign = SIGNS[currency];
  return sign ? `${sign}${formatCents(cents)}` : `${formatCents(cents)} ${currency}`;
}

/** The claim's total per currency: "$1278.00", or "€142.50 and $18.00". */
function totals(items: Item[], fallback: string): string {
  const by = new Map<string, bigint>();
  for (const i of items) by.set(i.currency ?? fallback, (by.get(i.currency ?? fallback) ?? 0n) + i.cents);
  return [...by].map(([c, cents]) => money(cents, c)).join(' and ');
}
