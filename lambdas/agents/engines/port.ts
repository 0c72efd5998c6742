/**
 * The engine port of a published agent: a deterministic analyser today (one folder per agent under
 * lambdas/agents/engines/, its rules written down beside it in RULES.md); a model-backed engine can sit behind the
 * same port later. An engine is a pure function of its validated input: no I/O, no clock, no randomness, so the
 * same input always gives the same result and the run route can record and replay it.
 *
 * Input the engine cannot read (a CSV without an amount column, a number that is not a number) is the buyer's
 * error: the engine throws AgentInputError naming the input field, which the run route answers 400 before any
 * payment settles. Any other throw is our bug (500, nothing settled).
 */
export { AgentInputError } from '../../shared/errors.js';

export interface AgentEngine<Input, Result> {
  /** Identifies the engine and its rule version in run records, e.g. "bank-rec/rules@1". */
  readonly id: string;
  analyse(input: Input): Result;
}
