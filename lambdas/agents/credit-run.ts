/**
 * A run billed from a workspace's prepaid credit (the agent studio's MCP tools; docs/decisions/0015). Returns what
 * happened, never an answer; the MCP tools present it.
 *
 * A credit debit is one conditional DynamoDB transaction: nothing is locked, nothing settles later, and no outcome is
 * unknown for long. So the purchase is the transaction itself, written *after* the work, never before:
 *  1. no workspace (no key) or a balance read below the price: refused, no work done;
 *  2. the work (the engine, and the model where it reasons for the agent): input it cannot read is the buyer's error,
 *     anything else ours, and neither is billed (nothing has been written);
 *  3. one TransactWriteItems: the ledger entry `debit#<runId>`, the balance decremented on condition it covers the
 *     price, and the run written `done` with its result. Either all of it applied (billed, and the result recorded
 *     and returned) or none (not billed, no result given). Under concurrency the balance condition decides: the calls
 *     it does not cover are refused after their work, which is then thrown away; they are never billed.
 * A crash anywhere leaves either nothing or a finished, billed run with its result: no open state for a sweeper,
 * and no credit-back. Free agents run as on the run route (no key needed, nothing billed).
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import type { RunStore } from '../store/runs.js';
import { debitKey, InsufficientCreditError, type CreditStore, type Workspace } from '../store/credits.js';
import { logger } from '../shared/logger.js';
import { annotate } from '../shared/tracing.js';
import { AgentInputError } from './engines/port.js';
import type { AgentDefinition } from './registry.js';
import type { AgentReasoner } from './reasoning/converse.js';
import { answer, newRun, paidWork, runUnpaid, type RunAnswer } from './run.js';

export interface CreditRunDeps {
  runs: Pick<RunStore, 'creditDoneItem' | 'recordUnpaid'>;
  credits: Pick<CreditStore, 'debit' | 'getEntry'>;
  reasoner?: AgentReasoner;
  now?: () => Date;
  newId?: () => string;
}

export interface CreditRunInput {
  agent: AgentDefinition;
  /** The input, valid against the agent's input schema. */
  input: Record<string, unknown>;
  /** The workspace the bearer named, with its balance as read then; absent: no key was sent. */
  workspace?: Workspace;
  deadline?: number;
}

export type CreditRunOutcome =
  /** `charged`: base units taken from the balance (0 for a free agent). */
  | { type: 'done'; answer: RunAnswer; charged: bigint }
  /** A priced agent and no workspace key: nothing done. */
  | { type: 'no-workspace'; price: bigint }
  /** The balance does not cover the price: nothing billed (`balance` as last read). */
  | { type: 'insufficient-credit'; balance: bigint; price: bigint }
  | { type: 'invalid-input'; field: string; message: string };

export async function runOnCredit(deps: CreditRunDeps, request: CreditRunInput): Promise<CreditRunOutcome> {
  const { agent, workspace } = request;
  const price = agent.price;
  if (price === 0n) {
    const outcome = await runUnpaid(deps, { agent, input: request.input, dryRun: false });
    if (outcome.type === 'done') return { type: 'done', answer: outcome.answer, charged: 0n };
    if (outcome.type === 'invalid-input') return outcome;
    throw new Error(`a free run cannot end ${outcome.type}`);
  }
  if (!workspace) return { type: 'no-workspace', price };
  // The balance the bearer's lookup read: a call it does not cover does no work (a concurrent top-up is seen next call).
  if (workspace.balance < price) return { type: 'insufficient-credit', balance: workspace.balance, price };

  const run = newRun(deps, { agent, input: request.input, dryRun: false, workspaceId: workspace.workspaceId });
  annotate({ runId: run.runId, agent: agent.slug, workspaceId: workspace.workspaceId });
  const log = logger.createChild({ persistentKeys: { runId: run.runId, agent: agent.slug, workspace: workspace.workspaceId } });

  let done: Awaited<ReturnType<typeof paidWork>>;
  try {
    done = await paidWork(deps, agent, request.input, { deadline: request.deadline, runId: run.runId, log });
  } catch (error) {
    if (error instanceof AgentInputError) return { type: 'invalid-input', field: error.field, message: error.message };
    log.error('agent failed; nothing billed', { error: (error as Error).message });
    throw error;
  }

  try {
    await deps.credits.debit(workspace, run.runId, price, { agent: agent.slug, items: [deps.runs.creditDoneItem(run, done.result, engineIfOther(agent, done.engine), done.evidence)] });
  } catch (error) {
    if (error instanceof InsufficientCreditError) {
      log.info('credit spent by concurrent calls; the work is not delivered and nothing billed', { balance: error.balance.toString() });
      return { type: 'insufficient-credit', balance: error.balance, price };
    }
    if (!(await debited(deps, workspace, run.runId, log))) throw error;
  }
  log.info('run billed from credit', { price: price.toString() });
  return { type: 'done', answer: answer(run, agent, done.result, { settled: true, engine: done.engine, evidence: done.evidence }), charged: price };
}

/** The engine to record when it is not the one the run was created with (a model-reasoned run, ADR 0023). */
function engineIfOther(agent: AgentDefinition, engine: string): string | undefined {
  return engine === agent.engine.id ? undefined : engine;
}

/**
 * Whether a debit whose write threw applied anyway (a time-out after DynamoDB committed it): its entry, read
 * consistently, decides. Billed → the result is the buyer's; not billed → the caller reports our failure. A read that
 * fails too leaves it open: the error propagates, and the ledger shows the debit (and the run its result) if it applied.
 */
async function debited(deps: CreditRunDeps, workspace: Workspace, runId: string, log: Logger): Promise<boolean> {
  const entry = await deps.credits.getEntry(workspace.workspaceId, debitKey(runId));
  log.warn('debit write failed; its entry decides', { applied: entry !== undefined });
  return entry !== undefined;
}
