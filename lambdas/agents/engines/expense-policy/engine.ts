/**
 * Checks an expense claim against a written policy, by the rules in RULES.md:
 * 1. read the policy into rules; sentences not understood go to the note (none understood → AgentInputError);
 * 2. read the expense items (JSON or text lines);
 * 3. per item: forbidden category, fare class, receipt, alcohol, caps, approval thresholds, each broken rule one
 *    violation of severity reject or flag, and the amount the policy allows now;
 * 4. verdict: any reject → reject, else any flag → flag, else approve; reimbursable = sum of allowed amounts.
 */
import { AgentInputError, type AgentEngine } from '../port.js';
import { centsToNumber, formatCents } from '../text/amount.js';
import { readExpense, type Item } from './expense.js';
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
    const items = readExpense(input.expense);
    return check(items, policy);
  },
};

type Severity = 'reject' | 'flag';
interface Finding {
  severity: Severity;
  text: string;
}

function check(items: Item[], policy: Policy): ExpensePolicyResult {
  const violations: string[] = [];
  const assumptions = new Set<string>();
  let verdict: ExpensePolicyResult['verdict'] = 'approve';
  let reimbursable = 0n;
  for (const item of items) {
    const { allowed, findings } = checkItem(item, policy, assumptions);
    reimbursable += allowed;
    for (const f of findings) {
      violations.push(items.length > 1 ? `item ${item.index} (${item.label}): ${f.text}` : f.text);
      if (f.severity === 'reject') verdict = 'reject';
      else if (verdict === 'approve') verdict = 'flag';
    }
  }
  const notes = [
    `Checked ${items.length} item(s) totalling ${money(items.reduce((a, i) => a + i.cents, 0n))} against ` +
      `${policy.understood} policy rule(s); reimbursable ${money(reimbursable)}.`,
  ];
  if (assumptions.size > 0) notes.push(`Assumed: ${[...assumptions].join('; ')}.`);
  if (policy.notUnderstood.length > 0) {
    const listed = policy.notUnderstood.slice(0, 20).map((s) => `"${s.slice(0, 200)}"`);
    const more = policy.notUnderstood.length > 20 ? ` and ${policy.notUnderstood.length - 20} more` : '';
    notes.push(`Policy sentences not understood, not applied: ${listed.join('; ')}${more}.`);
  }
  return { verdict, reimbursable_amount: centsToNumber(reimbursable), violations, note: notes.join(' ') };
}

function checkItem(item: Item, policy: Policy, assumptions: Set<string>): { allowed: bigint; findings: Finding[] } {
  const findings: Finding[] = [];
  const reject = (text: string) => findings.push({ severity: 'reject', text });
  const flag = (text: string) => findings.push({ severity: 'flag', text });
  const category = item.category;
  if (category === undefined && policy.caps.length > 0) {
    assumptions.add(`no category recognised for "${item.label}", so no category cap applied to it`);
  }

  if (category !== undefined && policy.forbiddenCategories.has(category)) {
    reject(`${category} is not reimbursable ("${policy.forbiddenCategories.get(category)}")`);
    return { allowed: 0n, findings };
  }
  let withheld = false;
  if (item.fareClass !== undefined && item.fareClass !== 'economy') {
    const c = item.fareClass;
    if (policy.forbiddenClasses.has(c)) {
      reject(`${c} class is not allowed ("${policy.forbiddenClasses.get(c)}")`);
      return { allowed: 0n, findings };
    }
    if (policy.approvalClasses.has(c)) {
      flag(`${c} class requires ${policy.approvalClasses.get(c)}; ${money(item.cents)} withheld until approved`);
      withheld = true;
    } else if (policy.allowedClasses && !policy.allowedClasses.classes.has(c)) {
      reject(`${c} class breaks "${policy.allowedClasses.text}"`);
      return { allowed: 0n, findings };
    }
  }
  if (policy.caps.length + policy.receipts.length + policy.approvals.length > 0) {
    const currency = item.currency ?? policy.currency;
    if (item.currency === undefined) assumptions.add(`amounts without a currency are in ${policy.currency}`);
    if (currency !== policy.currency) {
      flag(`amount is in ${currency} but the policy limits are in ${policy.currency}; limits not checked, nothing reimbursed`);
      return { allowed: 0n, findings };
    }
  }
  for (const rule of policy.receipts) {
    if (!applies(rule, item)) continue;
    if (item.receipt !== true) {
      const why = item.receipt === false ? 'no receipt' : 'no receipt indicated';
      reject(`receipt required ("${rule.text}"): ${money(item.cents)} with ${why}`);
      return { allowed: 0n, findings };
    }
  }
  let eligible = item.cents;
  if (policy.alcoholForbidden !== undefined && item.alcohol !== undefined) {
    if (item.alcohol === 'unknown') {
      reject(`alcohol is not reimbursable ("${policy.alcoholForbidden}") and its amount is not itemised`);
      return { allowed: 0n, findings };
    }
    const deducted = item.alcohol > eligible ? eligible : item.alcohol;
    flag(`alcohol is not reimbursable ("${policy.alcoholForbidden}"): ${money(deducted)} deducted`);
    eligible -= deducted;
  }
  for (const cap of policy.caps) {
    if (cap.category !== category) continue;
    let allowance = cap.cents;
    let working = money(cap.cents);
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
      flag(`${category} over the cap ("${cap.text}"): ${money(eligible)} > ${working} = ${money(allowance)}; ` +
        `${money(eligible - allowance)} not reimbursed`);
      eligible = allowance;
    }
  }
  for (const rule of policy.approvals) {
    if (!applies(rule, item) || withheld) continue;
    flag(`${rule.approver} required ("${rule.text}"): ${money(item.cents)} withheld until approved`);
    withheld = true;
  }
  if (item.category === 'airfare' && item.fareClass === undefined && policy.allowedClasses) {
    assumptions.add('economy where an airfare names no fare class');
  }
  return { allowed: withheld ? 0n : eligible, findings };
}

/** Whether a threshold rule (receipt, approval) covers the item: its category and its amount. */
function applies(rule: Threshold, item: Item): boolean {
  if (rule.categories.length > 0 && (item.category === undefined || !rule.categories.includes(item.category))) return false;
  return rule.inclusive ? item.cents >= rule.cents : item.cents > rule.cents;
}

function money(cents: bigint): string {
  return `$${formatCents(cents)}`;
}
