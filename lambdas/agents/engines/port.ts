/**
 * The engine port of a published agent: a deterministic analyser (one folder per agent under
 * lambdas/agents/engines/, its rules written down beside it in RULES.md). An engine is a pure function of its
 * validated input: no I/O, no clock, no randomness, so the same input always gives the same result and the run route
 * can record and replay it.
 *
 * Input the engine cannot read (a CSV without an amount column, a number that is not a number) is the buyer's
 * error: the engine throws AgentInputError naming the input field, which the run route answers 400 before any
 * payment settles. Any other throw is our bug (500, nothing settled).
 */
export { AgentInputError } from '../../shared/errors.js';

/** Where a finding was read: an input field's line (1-based, as the buyer's text splits on line breaks), quoted. */
export interface EvidenceSource {
  field: string;
  /** 1-based line of the field's text; absent only when the field has no lines to point at (a JSON value). */
  line?: number;
  /** The text the finding rests on, verbatim from that line (or the JSON value as written). */
  quote: string;
}

/**
 * What one finding of a result (a flag, an exception, a violation, a discrepancy) rests on, so an auditor can check it
 * without re-reading the documents: the lines it was read from and, where there is some, the arithmetic.
 */
export interface Evidence {
  /** The finding as the result names it: its list and position and its kind, e.g. `exceptions[2] amount_mismatch`. */
  finding: string;
  sources: EvidenceSource[];
  /** e.g. `1,254.00 − 1,236.00 = 18.00`. */
  arithmetic?: string;
}

/** An engine's answer with its evidence: one entry per finding of the result, in the result's order. */
export interface Analysis<Result> {
  result: Result;
  evidence: Evidence[];
}

export interface AgentEngine<Input, Result> {
  /** Identifies the engine and its rule version in run records, e.g. "bank-rec/rules@1". */
  readonly id: string;
  analyse(input: Input): Result;
  /** The same analysis with the evidence of each finding (the run's `outputs.evidence`). */
  explain(input: Input): Analysis<Result>;
}

/** An engine from its explaining analysis: `analyse` is `explain` without the evidence. */
export function engineOf<Input, Result>(id: string, explain: (input: Input) => Analysis<Result>): AgentEngine<Input, Result> {
  return { id, explain, analyse: (input) => explain(input).result };
}
