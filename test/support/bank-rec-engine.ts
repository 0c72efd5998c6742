/**
 * The bank-rec engine as its unit tests call it: the published input schema, the engine, the result schema, and the
 * invariant every answer keeps (the exceptions' amounts add up to net_unreconciled).
 */
import { expect } from 'vitest';
import { bankRecEngine } from '../../lambdas/agents/engines/bank-rec/engine.js';
import { inputSchema, resultSchema, type BankRecResult } from '../../lambdas/agents/engines/bank-rec/schema.js';

export function rec(bankStatement: string, bookEntries: string): BankRecResult {
  const result = resultSchema.parse(bankRecEngine.analyse(inputSchema.parse({ bankStatement, bookEntries })));
  const cents = (n: number) => Math.round(n * 100);
  expect(result.exceptions.reduce((s, e) => s + cents(e.amount), 0)).toBe(cents(result.net_unreconciled));
  return result;
}

/** Each exception as [type, amount]. */
export const shape = (r: BankRecResult) => r.exceptions.map((e) => [e.type, e.amount]);
