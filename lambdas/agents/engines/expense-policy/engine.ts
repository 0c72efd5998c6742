/**
 * Checks an expense claim against a written policy, by the rules in RULES.md:
 * 1. read the policy into rules; sentences not understood go to the note (none understood → AgentInputError);
 * 2. read the expense items (JSON, a CSV export with a header row, or free-text lines);
 * 3. per item: forbidden category, fare class, currency, receipt, alcohol, caps, approval thresholds, each broken
 *    rule one violation of severity reject or flag (all of them: no rule stops the others), and the amount the
 *    policy allows now, worked through all of them;
 * 4. verdict: any reject → reject, else any flag → flag, else approve; reimbursable = sum of allowed amounts.
 */
import { AgentInputError, engineOf, type AgentEngine, type Analysis, type Evidence } from '../port.js';
import { centsToNumber } from '../text/amount.js';
import { lateItems } from './age.js';
import { claimChecks, type ItemResult } from './claim.js';
import { cite } from './evidence.js';
import { classFromAttachments, illegibleReceipts } from './attached.js';
import { vouchedInReport } from './vouched.js';
import { placeCaps } from './places.js';
import { tripLengthCheck } from './trip-length.js';
import { claimAbout } from './scope.js';
import { approvalThingCheck } from './named.js';
import { unreadCheck } from './unread.js';
import { outsideAttendeeCheck } from './attendees.js';
import { absenceCheck } from './absence-rates.js';
import { gradeLineCheck } from './grade-line.js';
import { mealCutCheck, mealsCoveredCheck, returnDayCheck } from './allowance-rates.js';
import { readExpense, type Claim, type Item } from './expense.js';
import { checkItem, money } from './item.js';
import { commuteCheck, mileageAllowance, readMileage, statedTrip, units } from './mileage.js';
import { forCategory } from './fare-classes.js';
import { readPolicy, type Policy } from './policy.js';
import { claimedTotal } from './claimed-total.js';
import type { ExpensePolicyInput, ExpensePolicyResult } from './schema.js';

/** The analysis with the evidence of each violation: the expense line and the policy sentence it rests on. */
function explain(input: ExpensePolicyInput): Analysis<ExpensePolicyResult> {
  if (input.expensePolicy.trim().length === 0) throw new AgentInputError('expensePolicy', 'is empty');
  const policy = readPolicy(input.expensePolicy.normalize('NFKC'));
  if (policy.understood === 0) {
    throw new AgentInputError('expensePolicy', 'no sentence states a rule this agent reads (see RULES.md)');
  }
  return check(readClaim(input.expense, policy), policy, input);
}

export const expensePolicyEngine: AgentEngine<ExpensePolicyInput, ExpensePolicyResult> = engineOf('expense-policy/rules@1', explain);

/** The claim; under a policy with a mileage rate, a mileage log in it is one claim of distance × rate. */
function readClaim(text: string, policy: Policy): Claim {
  const t = text.normalize('NFKC');
  const trip = policy.mileage.length > 0 && !/^\s*[[{]/.test(t) ? readMileage(t) : undefined;
  if (!trip) {
    const claim = readExpense(text, policy.currency);
    vouchedInReport(claim.items, t);
    classFromAttachments(claim.items, t);
    illegibleReceipts(claim.items, t);
    claimAbout(claim.items, t);
    // A report's mileage entry stating its distance is paid at distance × the policy's rate, like a log.
    for (const item of claim.items) {
      if (policy.mileage.length === 0 || item.category !== 'mileage' || item.mileage || item.text === undefined) continue;
      const stated = statedTrip(item.text, item.cents);
      if (stated) item.mileage = { trip: stated, allowance: mileageAllowance(stated, policy.mileage) };
    }
    return claim;
  }
  const all = t.split(/\r?\n/);
  // An export's rows that are not legs are read with its header row, as the export's other expenses.
  const kept = trip.others.length > 0 ? [Math.min(...trip.lines), ...trip.others] : all.map((_, k) => k).filter((k) => !trip.lines.has(k));
  const rest = kept.map((k) => all[k]).join('\n');
  let others: Item[] = [];
  try {
    others = readExpense(rest, policy.currency).items;
  } catch {
    others = [];
  }
  // The other items were read from the text without the log's lines: their line numbers are put back.
  for (const o of others) for (const a of o.at) if (a.line !== undefined) a.line = (kept[a.line - 1] ?? a.line - 1) + 1;
  const allowance = mileageAllowance(trip, policy.mileage);
  const claimedCents = trip.claimed ?? allowance?.cents ?? 0n;
  const item: Item = {
    index: 1, label: `mileage ${units(trip.tenths)} ${trip.unit}s`, category: 'mileage', cents: claimedCents, currency: policy.currency,
    alcohol: undefined, receipt: true, evidence: trip.evidence, mileage: { trip, allowance },
    // The log's own lines (header, legs, total) are what the distance was read from.
    at: [...trip.lines].slice(0, 12).map((k) => ({ field: 'expense' as const, line: k + 1, quote: all[k].trim() })),
  };
  const items = [item, ...others.map((o, k) => ({ ...o, index: k + 2 }))];
  return { items };
}

function check(claim: Claim, policy: Policy, input: ExpensePolicyInput): Analysis<ExpensePolicyResult> {
  const { items } = claim;
  const violations: string[] = [];
  const evidence: Evidence[] = [];
  const assumptions = new Set<string>();
  const resubmit: string[] = [];
  let verdict: ExpensePolicyResult['verdict'] = 'approve';
  let reimbursable = 0n;
  const results: ItemResult[] = items.map((item) => ({ item, ...checkItem(item, forCategory(policy, item.category), assumptions) }));
  claimChecks(results, policy, (c) => money(c, policy.currency), input.expense.normalize('NFKC'));
  absenceCheck(results, policy, (c) => money(c, policy.currency));
  mealCutCheck(results, policy, input.expense.normalize('NFKC'), (c) => money(c, policy.currency));
  returnDayCheck(results, policy, input.expense.normalize('NFKC'), (c) => money(c, policy.currency));
  mealsCoveredCheck(results, policy, (c) => money(c, policy.currency));
  gradeLineCheck(results, policy, input.expense.normalize('NFKC'), (c) => money(c, policy.currency));
  lateItems(results, policy, input.expense, assumptions);
  placeCaps(results, policy, (c) => money(c, policy.currency), input.expense.normalize('NFKC'), assumptions);
  commuteCheck(results, policy, (c) => money(c, policy.currency));
  tripLengthCheck(results, policy, (c) => money(c, policy.currency), input.expense.normalize('NFKC'));
  approvalThingCheck(results, policy, (c) => money(c, policy.currency));
  outsideAttendeeCheck(results, policy, input.expense.normalize('NFKC'), (c) => money(c, policy.currency));
  // Last: an unread rule about an item still to be paid holds it for a reviewer.
  unreadCheck(results, policy, input.expensePolicy.normalize('NFKC'), (c) => money(c, policy.currency));
  for (const { item, allowed, findings, withReceipt } of results) {
    const name = items.length > 1 ? `item ${item.index} (${item.label})` : 'the expense';
    reimbursable += allowed;
    for (const f of findings) {
      const sources = cite(input, f.sources);
      evidence.push({ finding: `violations[${violations.length}] ${f.kind}`, sources, ...(f.arithmetic ? { arithmetic: f.arithmetic } : {}) });
      violations.push(items.length > 1 ? `${name}: ${f.text}` : f.text);
      if (f.severity === 'reject') verdict = 'reject';
      else if (verdict === 'approve') verdict = 'flag';
    }
    if (withReceipt !== undefined) resubmit.push(`${name} would be reimbursable at ${money(withReceipt, policy.currency)}`);
  }
  // Never more than the claimant asked for: a reading that would pay more has misread the claim (./claimed-total.ts).
  const stated = claimedTotal(input.expense.normalize('NFKC'));
  if (stated && reimbursable > stated.cents) {
    const text = `the items read come to ${money(reimbursable, policy.currency)}, more than the claim's own total ` +
      `${money(stated.cents, policy.currency)} ("${stated.quote.replace(/\s+/g, ' ')}"): held for review, no more than the claim's total reimbursable`;
    evidence.push({ finding: `violations[${violations.length}] claim_total_exceeded`, sources: [{ field: 'expense', line: stated.line, quote: stated.quote }], arithmetic: `${money(reimbursable, policy.currency)} > ${money(stated.cents, policy.currency)}` });
    violations.push(text);
    reimbursable = stated.cents;
    if (verdict === 'approve') verdict = 'flag';
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
  return { result: { verdict, reimbursable_amount: centsToNumber(reimbursable), violations, note: notes.join(' ') }, evidence };
}

/** The claim's total per currency: "$1278.00", or "€142.50 and $18.00". */
function totals(items: Item[], fallback: string): string {
  const by = new Map<string, bigint>();
  for (const i of items) by.set(i.currency ?? fallback, (by.get(i.currency ?? fallback) ?? 0n) + i.cents);
  return [...by].map(([c, cents]) => money(cents, c)).join(' and ');
}
