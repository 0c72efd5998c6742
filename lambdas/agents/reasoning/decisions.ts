/**
 * Two readings, one answer (ADR 0023): the engine's result on the deterministic reading (`rules`) and the same engine's
 * result on the model's grounded reading (`model`). Where they give the same decision the deterministic result
 * answers. Where they differ on a fact that changes the decision, the more conservative result answers, with a
 * sentence in its note naming both readings' decisions and the facts that differ:
 *   vendor-risk     decline > hold > onboard (by `decision`)
 *   bank-rec        not reconciled > reconciled; between two unreconciled readings with different exceptions, the one
 *                   with more exceptions (the deterministic one on a tie)
 *   expense-policy  reject > flag > approve, then the lower reimbursable amount; never more reimbursed than the other
 *                   reading allows
 *   po-match        hold > pass (by `status`)
 */

type Result = Record<string, any>;

export interface Decided {
  result: Result;
  /** Whether the two readings gave the same decision. */
  agreed: boolean;
  /** Which reading's result answers. */
  answered: 'rules' | 'model';
}

interface Family {
  /** The decision in words, for the note. */
  decision(result: Result): string;
  /** Higher is more conservative; compared first. */
  rank(result: Result): number[];
  /** Whether the readings disagree on a fact that changes the decision. */
  differ(rules: Result, model: Result): boolean;
  /** The facts that differ, in words ('' when none worth naming beyond the decisions). */
  facts(rules: Result, model: Result): string;
  /** The answer once chosen, given the other reading's result (expense: never more than the other allows). */
  bound?(chosen: Result, other: Result): Result;
}

const money = (n: number) => (Math.round(n * 100) / 100).toFixed(2);
const cents = (n: unknown) => (typeof n === 'number' ? Math.round(n * 100) : NaN);

/** Items of `a` not in `b` (as a multiset). */
function only(a: string[], b: string[]): string[] {
  const rest = [...b];
  return a.filter((x) => {
    const i = rest.indexOf(x);
    if (i < 0) return true;
    rest.splice(i, 1);
    return false;
  });
}

function both(name: string, rules: string[], model: string[]): string {
  const inRules = only(rules, model);
  const inModel = only(model, rules);
  return [inModel.length && `${name} only in the model's reading: ${inModel.join('; ')}`, inRules.length && `${name} only in the rules reading: ${inRules.join('; ')}`].filter(Boolean).join('; ');
}

const areaOf = (flag: unknown) => (typeof flag === 'string' ? flag.slice(0, Math.max(0, flag.indexOf(':'))).trim() || flag : '');
const exceptionsOf = (r: Result): string[] => (Array.isArray(r.exceptions) ? r.exceptions.map((e: Result) => `${e.type} ${money(e.amount)}`) : []);

export const FAMILIES: Record<string, Family> = {
  'vendor-risk': {
    decision: (r) => `${r.decision} (${r.grade})`,
    rank: (r) => [{ onboard: 0, hold: 1, decline: 2 }[r.decision as string] ?? 2],
    differ: (a, b) => a.decision !== b.decision,
    facts: (a, b) => both('flags', (a.flags ?? []).map(areaOf), (b.flags ?? []).map(areaOf)),
  },
  'bank-rec': {
    decision: (r) => (r.reconciled ? 'reconciled' : `not reconciled (${r.exceptions.length} exception(s), net ${money(r.net_unreconciled)})`),
    rank: (r) => [r.reconciled ? 0 : 1, r.exceptions.length],
    differ: (a, b) => a.reconciled !== b.reconciled || only(exceptionsOf(a), exceptionsOf(b)).length > 0 || only(exceptionsOf(b), exceptionsOf(a)).length > 0,
    facts: (a, b) => both('exceptions', exceptionsOf(a), exceptionsOf(b)),
  },
  'expense-policy': {
    decision: (r) => `${r.verdict}, ${money(r.reimbursable_amount)} reimbursable`,
    rank: (r) => [{ approve: 0, flag: 1, reject: 2 }[r.verdict as string] ?? 2, -cents(r.reimbursable_amount)],
    differ: (a, b) => a.verdict !== b.verdict || cents(a.reimbursable_amount) !== cents(b.reimbursable_amount),
    facts: (a, b) => (a.violations.length !== b.violations.length ? `violations: ${a.violations.length} in the rules reading, ${b.violations.length} in the model's` : ''),
    bound: (chosen, other) =>
      cents(other.reimbursable_amount) < cents(chosen.reimbursable_amount) ? { ...chosen, reimbursable_amount: other.reimbursable_amount } : chosen,
  },
  'po-match': {
    decision: (r) => `${r.status} (${r.discrepancies.length} discrepancy(ies))`,
    rank: (r) => [r.status === 'pass' ? 0 : 1],
    differ: (a, b) => a.status !== b.status,
    facts: (a, b) =>
      [
        cents(a.invoiceTotal) !== cents(b.invoiceTotal) && `invoice total ${money(a.invoiceTotal)} in the rules reading, ${money(b.invoiceTotal)} in the model's`,
        cents(a.poTotal) !== cents(b.poTotal) && `PO total ${money(a.poTotal)} in the rules reading, ${money(b.poTotal)} in the model's`,
        a.linesCompared !== b.linesCompared && `${a.linesCompared} line(s) compared in the rules reading, ${b.linesCompared} in the model's`,
      ]
        .filter(Boolean)
        .join('; '),
  },
};

function compareRanks(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** The answer from both readings' results (see the module comment). */
export function decide(family: string, rules: Result, model: Result): Decided {
  const f = FAMILIES[family];
  if (!f) throw new Error(`no decision rule for engine family ${family}`);
  if (!f.differ(rules, model)) return { result: rules, agreed: true, answered: 'rules' };
  const answered = compareRanks(f.rank(model), f.rank(rules)) > 0 ? 'model' : 'rules';
  const [chosen, other] = answered === 'model' ? [model, rules] : [rules, model];
  const bounded = f.bound ? f.bound(chosen, other) : chosen;
  const facts = f.facts(rules, model);
  const lowered = bounded !== chosen ? `, reimbursing no more than the other reading allows (${money(bounded.reimbursable_amount)})` : '';
  const sentence =
    `Two readings of the documents disagree: the rules engine's reading gives ${f.decision(rules)}; the model's reading gives ${f.decision(model)}` +
    `${facts ? ` (${facts})` : ''}. The more conservative answer, the ${answered === 'model' ? "model's" : "rules engine's"} reading, is given${lowered}; check the documents before relying on it.`;
  return { result: { ...bounded, note: `${String(bounded.note ?? '').trim()} ${sentence}`.trim() }, agreed: false, answered };
}
