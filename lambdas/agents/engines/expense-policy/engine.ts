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
    return check(readExpense(input.expense), policy);
  },
};

type Severity = 'reject' | 'flag';
interface Finding {
  severity: Severity;
  text: string;
}
interface Checked {
  /** What the policy allows now. */
  allowed: bigint;
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
  for (const item of items) {
    const { allowed, findings, withReceipt } = checkItem(item, policy, assumptions);
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
    reject(`${category} is not reimbursable ("${policy.forbiddenCategories.get(category)}")`);
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
  if (policy.caps.length + policy.receipts.length + policy.approvals.length > 0) {
    const currency = item.currency ?? policy.currency;
    if (item.currency === undefined) assumptions.add(`amounts without a currency are in ${policy.currency}`);
    if (currency !== policy.currency) {
      flag(`amount is in ${currency} but the policy limits are in ${policy.currency}; limits not checked, nothing reimbursed`);
      comparable = false;
    }
  }
  const receiptRule = policy.receipts.find((rule) => (comparable || rule.cents === 0n) && applies(rule, item));
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
      flag(`alcohol is not reimbursable ("${policy.alcoholForbidden}"): ${m(deducted)} deducted`);
      eligible -= deducted;
    }
  }
  // With alcohol of unknown amount the part a cap would apply to is unknown too.
  if (comparable && computable) eligible = applyCaps(item, eligible, policy, flag, assumptions);
  if (comparable) {
    for (const rule of policy.approvals) {
      if (!applies(rule, item) || withheld) continue;
      flag(`${rule.approver} required ("${rule.text}"): ${m(item.cents)} withheld until approved`);
      withheld = true;
    }
  }
  if (item.category === 'airfare' && item.fareClass === undefined && policy.allowedClasses) {
    assumptions.add('economy where an airfare names no fare class');
  }
  const rejects = findings.filter((f) => f.severity === 'reject').length;
  const allowed = rejects > 0 || withheld || !comparable ? 0n : eligible;
  const withReceipt = noReceipt && rejects === 1 && comparable && !withheld ? eligible : undefined;
  return { allowed, findings, withReceipt };
}

/** Caps of the item's category on the amount after the alcohol deduction; the lowest allowance wins. */
function applyCaps(item: Item, amount: bigint, policy: Policy, flag: (text: string) => void, assumptions: Set<string>): bigint {
  let eligible = amount;
  for (const cap of policy.caps) {
    if (cap.category !== item.category) continue;
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

const SIGNS: Record<string, string> = { USD: '$', EUR: '€', GBP: '£' };

/** "$12.50", "€12.50", "12.50 CAD". */
function money(cents: bigint, currency: string): string {
  const sign = SIGNS[currency];
  return sign ? `${sign}${formatCents(cents)}` : `${formatCents(cents)} ${currency}`;
}

/** The claim's total per currency: "$1278.00", or "€142.50 and $18.00". */
function totals(items: Item[], fallback: string): string {
  const by = new Map<string, bigint>();
  for (const i of items) by.set(i.currency ?? fallback, (by.get(i.currency ?? fallback) ?? 0n) + i.cents);
  return [...by].map(([c, cents]) => money(cents, c)).join(' and ');
}
