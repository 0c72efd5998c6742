/**
 * Run a published agent (spec "Agent run"; issue: the price is per *successful* paid call). Returns what happened,
 * never an HTTP answer; the run route's presenter (and, next, A2A and MCP) turn it into their shapes.
 *
 * A priced live run, with a payment the core verified, on the payment core's purchase skeleton
 * (lambdas/payments/core/purchase.ts, docs/decisions/0011) with the run as its item and the analysis as its work:
 *  1. lock the authorization and write the run `running`: one ledger transaction, before anything else;
 *  2. run the engine. Input it cannot read (AgentInputError) or a failure of ours: close the run `failed` and
 *     release the lock in one transaction (nothing moved) → `invalid-input` (400) or the error is rethrown (500);
 *  3. settle through the payment core. For an agent with model reasoning (ADR 0023) the model reads the documents
 *     too, asked once the transfer is sent so that it works while the block is awaited; the engine grounds its reading
 *     and decides on it, and a different decision answers the more conservative result; any model failure answers the
 *     engine's result, so the model never fails a paid run:
 *     - refused / unavailable: nothing moved; close the run `failed`, release the lock → 402 / 503, no result;
 *     - unknown outcome (broadcast, no receipt): keep the lock, mark the run `settlement-unknown`, withhold the
 *       result → 503 naming the run; an operator (or the chain) decides;
 *  4. settled: record the receipt and the result with the run `done` in one transaction → the result.
 * A free run or a dry run moves no money: the engine runs, the run is recorded, and the answer says settled: false.
 */
import { randomUUID } from 'node:crypto';
import type { AcceptedPayment } from '../payments/core/types.js';
import { purchase, type PurchasedItem, type PurchaseOutcome, type PurchaseSkeletonDeps, type PurchaseWork } from '../payments/core/purchase.js';
import type { PaymentReceipt } from '../payments/types.js';
import { sha256, type RunMode, type RunRecord, type RunStore } from '../store/runs.js';
import { logger } from '../shared/logger.js';
import type { Logger } from '@aws-lambda-powertools/logger';
import { annotate } from '../shared/tracing.js';
import { AgentInputError, type Analysis, type Evidence } from './engines/port.js';
import { agentExample, type AgentDefinition } from './definition.js';
import type { AgentReasoner } from './reasoning/converse.js';
import { runAnswer, type RunAnswer } from './run-answer.js';

export interface RunDeps extends PurchaseSkeletonDeps {
  runs: Pick<RunStore, 'reserveItem' | 'doneItem' | 'failItem' | 'unknownItem' | 'recordUnpaid'>;
  now?: () => Date;
  newId?: () => string;
  /** Model reasoning for the agents it covers (paid live runs only); absent: the engines answer alone. */
  reasoner?: AgentReasoner;
}

export interface RunInput {
  agent: AgentDefinition;
  /** The validated `input` member of the body. */
  input: Record<string, unknown>;
  dryRun: boolean;
  /** Present for a priced live run (the payment core verified it). */
  payment?: AcceptedPayment;
  deadline?: number;
}

export type { RunAnswer } from './run-answer.js';

export type RunOutcome =
  | { type: 'done'; answer: RunAnswer; receipt?: PaymentReceipt }
  | { type: 'invalid-input'; field: string; message: string }
  /** Nothing was charged: answer the offer's 402 with the reason. */
  | { type: 'refused'; reason: string; retryAfterSeconds?: number }
  | { type: 'unavailable'; reason: string }
  /** The transfer was broadcast without a receipt: the lock stays, the result is withheld. */
  | { type: 'settlement-unknown'; runId: string; reason: string };

export async function runAgent(deps: RunDeps, request: RunInput): Promise<RunOutcome> {
  const { agent, payment } = request;
  const run = newRun(deps, request);
  annotate({ runId: run.runId, agent: agent.slug, payer: payment?.payer });
  if (!payment) {
    // The entry asks for a payment before a priced live run gets here; the use case holds the rule too.
    if (agent.price > 0n && !request.dryRun) throw new Error(`a live run of priced agent ${agent.slug} needs a verified payment`);
    return runUnpaid(deps, request, run);
  }
  const log = logger.createChild({ persistentKeys: { runId: run.runId, agent: agent.slug, payer: payment.payer } });

  // The engine reads the input before money moves (input it cannot read is the 400); the model, for an agent with
  // reasoning, reads while the transfer's block is awaited (it cannot fail the run: ADR 0023).
  const how = { deadline: request.deadline, runId: run.runId, log };
  const work: PurchaseWork<Worked> = {
    run: () => engineWork(agent, request.input),
    reasonOf: (error) => (error instanceof AgentInputError ? `input rejected: ${error.message}` : 'the agent failed'),
    ...(deps.reasoner?.covers(agent) ? { whileSettling: (rules: Worked) => reasoned(deps.reasoner!, agent, request.input, rules, how) } : {}),
  };

  let outcome: PurchaseOutcome<Worked>;
  try {
    outcome = await purchase(deps, payment, runItem(deps, run, request.input), { log, deadline: request.deadline, work });
  } catch (error) {
    if (error instanceof AgentInputError) return { type: 'invalid-input', field: error.field, message: error.message };
    log.error('agent failed; nothing settled', { error: (error as Error).message });
    throw error;
  }
  switch (outcome.type) {
    case 'refused':
    case 'unavailable':
      return outcome;
    case 'unknown':
      // Money may have moved: the lock stays (the authorization can never pay twice) and the result is withheld.
      return { type: 'settlement-unknown', runId: run.runId, reason: outcome.reason };
    case 'settled':
      // Money has moved: the buyer gets the result whatever the record did.
      log.info('run settled', { transaction: outcome.receipt.transaction });
      return { type: 'done', answer: answer(run, agent, outcome.work.result, { settled: true, engine: outcome.work.engine, evidence: outcome.work.evidence }), receipt: outcome.receipt };
  }
}

/**
 * A paid run as the skeleton's purchased item: `running` with the lock, `failed` when nothing moved (no result kept),
 * `settlement-unknown` when money may have moved (the result withheld), `done` with the receipt and the result.
 */
function runItem(deps: RunDeps, run: RunRecord, input: Record<string, unknown>): PurchasedItem<Worked> {
  return {
    ref: `run#${run.runId}`,
    sold: run.agent,
    // The input is kept beside the run until it ends (expiring), so a run that dies after its transfer can be finished.
    reserve: deps.runs.reserveItem(run, input),
    refused: (reason, when) => deps.runs.failItem(run.runId, when === 'work' ? reason : `Payment not settled: ${reason}`, undefined, true),
    // The result is kept, withheld, with the run: if the chain shows the transfer landed, the run is recorded with it.
    unknown: (reason, work) => deps.runs.unknownItem(run.runId, reason, work.result, work.evidence),
    settled: (transaction, work) => deps.runs.doneItem(run.runId, transaction, work.result, work.engine, work.evidence),
  };
}

/**
 * What a paid run's work produced, what produced it (`outputs.engine`, the run record's `engine`) and what each of its
 * findings rests on (`outputs.evidence`).
 */
type Worked = { result: unknown; engine: string; evidence?: Evidence[] };

/** The engine's analysis with its evidence; input it cannot read throws AgentInputError. */
function engineWork(agent: AgentDefinition, input: Record<string, unknown>): Worked {
  const { result, evidence } = explain(agent, input);
  return { result, engine: agent.engine.id, evidence };
}

/** The engine's decision on the model's grounded reading beside its own `rules` (ADR 0023); any failure answers the engine's. */
async function reasoned(reasoner: AgentReasoner, agent: AgentDefinition, input: Record<string, unknown>, rules: Worked, how: { deadline?: number; runId: string; log: Logger }): Promise<Worked> {
  try {
    // The reasoner answers the evidence of whichever reading its result rests on (the rules' is passed in, not redone).
    const reasoned = await reasoner.reason(agent, input, rules.result, { deadline: how.deadline, runId: how.runId, evidence: rules.evidence });
    return { result: reasoned.result, engine: reasoned.engine, ...(reasoned.evidence ? { evidence: reasoned.evidence } : {}) };
  } catch (error) {
    how.log.error('agent reasoning threw; the rules engine answers', { error: (error as Error).name });
    return rules;
  }
}

/**
 * The work a run billed from credit sells, in one go: the engine's analysis, then, for an agent with model reasoning
 * (ADR 0023), the engine's decision on the model's grounded reading beside it. Input the engine cannot read throws
 * AgentInputError.
 */
export async function paidWork(
  deps: Pick<RunDeps, 'reasoner'>,
  agent: AgentDefinition,
  input: Record<string, unknown>,
  how: { deadline?: number; runId: string; log: Logger },
): Promise<Worked> {
  const rules = engineWork(agent, input);
  return deps.reasoner?.covers(agent) ? reasoned(deps.reasoner, agent, input, rules, how) : rules;
}

/** A free run or a dry run: no money moves; the run is recorded finished. */
export async function runUnpaid(deps: { runs: Pick<RunStore, 'recordUnpaid'> } & Pick<RunDeps, 'now' | 'newId'>, request: RunInput, run = newRun(deps, request)): Promise<RunOutcome> {
  const { agent } = request;
  let analysis: Analysis<unknown>;
  try {
    analysis = explain(agent, request.input);
  } catch (error) {
    if (error instanceof AgentInputError) return { type: 'invalid-input', field: error.field, message: error.message };
    throw error;
  }
  // A dry run shows what the run would cost and the shape of its result, on the agent's own example: the buyer's
  // input is fully checked (the engine read it), and none of the paid work on it is given away.
  const shown = request.dryRun ? preview(agent) : analysis.result;
  const evidence = request.dryRun ? undefined : analysis.evidence;
  await deps.runs.recordUnpaid({ ...run, status: 'done' }, shown, evidence);
  return { type: 'done', answer: answer(run, agent, shown, { settled: false, dryRun: request.dryRun, evidence }) };
}

function explain(agent: AgentDefinition, input: Record<string, unknown>): Analysis<unknown> {
  return (agent.engine.explain as (input: unknown) => Analysis<unknown>)(input);
}

/** What a dry run answers instead of the result. */
export function preview(agent: AgentDefinition): Record<string, unknown> {
  return {
    preview: true,
    inputAccepted: true,
    note: 'Dry run: the input was read and validated in full; nothing was charged. This is the result of the agent\'s own example, not of your input; a paid live run returns yours.',
    example: agentExample(agent),
  };
}

/** A new run's record, `running`; a credit-billed run names its workspace (lambdas/agents/credit-run.ts). */
export function newRun(deps: Pick<RunDeps, 'now' | 'newId'>, request: RunInput & { workspaceId?: string }): RunRecord {
  const at = (deps.now ?? (() => new Date()))().toISOString();
  const { agent, payment, workspaceId } = request;
  const mode: RunMode = request.dryRun ? 'dry-run' : payment ? 'paid' : workspaceId ? 'credit' : 'free';
  return {
    runId: `run_${(deps.newId ?? randomUUID)()}`,
    agent: agent.slug,
    agentVersion: agent.deployment!.version,
    engine: agent.engine.id,
    mode,
    status: 'running',
    inputSha256: sha256(JSON.stringify(request.input)),
    cost: mode === 'paid' || mode === 'credit' ? agent.price.toString() : '0',
    ...(payment ? { payer: payment.payer, buyer: payment.payer.toLowerCase(), nonceKey: payment.nonceKey } : {}),
    ...(workspaceId ? { workspaceId } : {}),
    createdAt: at,
    updatedAt: at,
  };
}

export function answer(run: RunRecord, agent: AgentDefinition, result: unknown, how: { settled: boolean; dryRun?: boolean; engine?: string; evidence?: Evidence[] }): RunAnswer {
  return runAnswer({ run: { ...run, engine: how.engine ?? agent.engine.id }, price: agent.price, result, evidence: how.evidence, settled: how.settled, dryRun: how.dryRun });
}
