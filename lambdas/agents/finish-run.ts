/**
 * Finishing a paid run that lost its result ("every paid run delivered", docs/decisions/0017): its function died after its
 * transfer landed, so the sweeper recorded it `done` from the chain without a result (RECONCILED_RUN_NOTE). Its input
 * was kept beside it (RunStore.reserveItem, expiring); when the run is first fetched (GET /api/runs/{runId}) the
 * agent's engine runs on it and the result is recorded once (RunStore.finish), the input then dropped.
 *
 * Only when the result can be the one the run sold: the same agent version and engine the run was reserved with, and
 * the kept input the one whose SHA-256 the run recorded. The engine's answer is the result (a model-reasoned agent's
 * run falls back to it, as a paid run does when the model fails, ADR 0023). Otherwise the run stays as recorded.
 */
import type { AgentDefinition } from './definition.js';
import type { Analysis } from './engines/port.js';
import { sha256, type RunRecord, type RunStore } from '../store/runs.js';
import { logger } from '../shared/logger.js';

export interface FinishDeps {
  runs: Pick<RunStore, 'get' | 'keptInput' | 'finish'>;
  agents: readonly AgentDefinition[];
}

export async function finishFromKeptInput(deps: FinishDeps, run: RunRecord): Promise<RunRecord> {
  if (run.status !== 'done' || run.mode !== 'paid' || run.result !== undefined || run.resultSha256 !== undefined) return run;
  const agent = deps.agents.find((a) => a.slug === run.agent);
  if (!agent || agent.engine.id !== run.engine || agent.deployment?.version !== run.agentVersion) return run;
  const text = await deps.runs.keptInput(run.runId);
  if (text === undefined || sha256(text) !== run.inputSha256) return run;
  let analysis: Analysis<unknown>;
  try {
    analysis = (agent.engine.explain as (input: unknown) => Analysis<unknown>)(JSON.parse(text));
  } catch (error) {
    logger.error('a kept input did not analyse again', { runId: run.runId, agent: run.agent, error: (error as Error).name });
    return run;
  }
  await deps.runs.finish(run.runId, analysis.result, analysis.evidence);
  logger.info('run finished from its kept input', { runId: run.runId, agent: run.agent });
  return (await deps.runs.get(run.runId)) ?? run;
}
