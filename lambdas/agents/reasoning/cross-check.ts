/**
 * The model's result against the deterministic engine's, field by field. The engine is the authority on every hard
 * fact (counts, amounts, statuses, verdicts, which flags/exceptions exist); the model contributes wording only
 * (notes, details, sentences), and only where its structure lines up with the engine's (the same exceptions, the
 * same flag areas, as many violations). The merged result therefore always carries the engine's facts: a
 * disagreement is reported by field name for the logs, never with the buyer's values.
 */

type Result = Record<string, unknown>;
export interface CrossChecked {
  result: Result;
  /** Field names where the model said something else than the engine (the engine's value was kept). */
  disagreements: string[];
}

type Check = (model: Result, rules: Result) => CrossChecked;

/** Money and counts compare to the cent: the engine rounds to cents, a model may write 310 for 310.00. */
function same(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) < 0.005;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => same((a as Result)[k], (b as Result)[k]));
  }
  return a === b;
}

function sameSet(a: unknown, b: unknown): boolean {
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  const left = a.map((x) => JSON.stringify(x)).sort();
  const right = b.map((x) => JSON.stringify(x)).sort();
  return left.every((x, i) => x === right[i]);
}

/**
 * Pairs each engine item with an unused model item of the same key (order-insensitive); undefined unless every item
 * pairs and there are as many on both sides. The pairing keeps the engine's order.
 */
function pairByKey<T>(rules: T[], model: unknown, key: (item: T) => string): T[] | undefined {
  if (!Array.isArray(model) || model.length !== rules.length) return undefined;
  const unused = [...(model as T[])];
  const paired: T[] = [];
  for (const item of rules) {
    const at = unused.findIndex((candidate) => key(candidate) === key(item));
    if (at < 0) return undefined;
    paired.push(unused.splice(at, 1)[0]);
  }
  return paired;
}

class Merge {
  readonly result: Result;
  readonly disagreements: string[] = [];
  constructor(
    private readonly model: Result,
    rules: Result,
  ) {
    this.result = { ...rules };
  }
  /** Hard facts: the engine's value stays; a different model value is a disagreement. */
  facts(names: string[], equal: (a: unknown, b: unknown) => boolean = same): this {
    for (const name of names) if (!equal(this.model[name], this.result[name])) this.disagreements.push(name);
    return this;
  }
  /** Model wording of a whole field. */
  text(names: string[]): this {
    for (const name of names) if (typeof this.model[name] === 'string' && (this.model[name] as string).trim()) this.result[name] = this.model[name];
    return this;
  }
  /** A list of sentences whose count is the fact: the model's sentences when it found as many problems. */
  sentences(name: string): this {
    const model = this.model[name];
    const rules = this.result[name] as string[];
    if (Array.isArray(model) && model.length === rules.length && model.every((s) => typeof s === 'string' && s.trim())) this.result[name] = model;
    else this.disagreements.push(name);
    return this;
  }
  /** A list of items whose `key` is the fact: the model's `wording` fields when every item pairs. */
  items<T extends Result>(name: string, key: (item: T) => string, wording: string[]): this {
    const rules = this.result[name] as T[];
    const paired = pairByKey(rules, this.model[name], key);
    if (!paired) {
      this.disagreements.push(name);
      return this;
    }
    this.result[name] = rules.map((item, i) => {
      const words = Object.fromEntries(wording.filter((w) => typeof paired[i][w] === 'string').map((w) => [w, paired[i][w]]));
      return { ...item, ...words };
    });
    return this;
  }
  done(): CrossChecked {
    return { result: this.result, disagreements: this.disagreements };
  }
}

const cents = (n: unknown) => (typeof n === 'number' ? Math.round(n * 100) : NaN);
const areaOf = (flag: unknown) => (typeof flag === 'string' ? flag.slice(0, Math.max(0, flag.indexOf(':'))).trim().toLowerCase() : '');

/** Per engine family (the engine id before '/'). */
export const CROSS_CHECKS: Record<string, Check> = {
  'bank-rec': (model, rules) =>
    new Merge(model, rules)
      .facts(['reconciled', 'matched', 'net_unreconciled'])
      .items<{ type: string; amount: number }>('exceptions', (e) => `${e?.type}|${cents(e?.amount)}`, ['detail'])
      .text(['note'])
      .done(),
  'vendor-risk': (model, rules) => {
    const merge = new Merge(model, rules).facts(['grade', 'decision']).facts(['collect'], sameSet).text(['note']);
    // A flag's area is the fact; its detail is wording. Flags keep the engine's order (the order of RULES.md).
    const flags = rules.flags as string[];
    const paired = pairByKey(flags, model.flags, areaOf);
    if (paired && paired.every((f) => typeof f === 'string')) merge.result.flags = paired;
    else merge.disagreements.push('flags');
    return merge.done();
  },
  'po-match': (model, rules) =>
    new Merge(model, rules).facts(['matched', 'status', 'linesCompared', 'invoiceTotal', 'poTotal']).sentences('discrepancies').text(['note']).done(),
  'expense-policy': (model, rules) =>
    new Merge(model, rules).facts(['verdict', 'reimbursable_amount']).sentences('violations').text(['note']).done(),
  'export-to-transactions': (model, rules) =>
    new Merge(model, rules)
      .facts(['count', 'total_in', 'total_out', 'net', 'currency_hint'])
      .items<{ date: string; amount: number; reference: string | null }>('transactions', (t) => `${t?.date}|${cents(t?.amount)}|${t?.reference}`, ['description'])
      .text(['note'])
      .done(),
};

export function crossCheck(family: string, model: Result, rules: Result): CrossChecked {
  const check = CROSS_CHECKS[family];
  if (!check) throw new Error(`no cross-check for engine family ${family}`);
  return check(model, rules);
}
