/**
 * Finishing a paid run that lost its result from its kept input (lambdas/agents/finish-run.ts): only the result the
 * run sold — the same agent version and engine, the input whose SHA-256 the run recorded — is ever recorded.
 */
import { describe, expect, it, vi } from 'vitest';
import { finishFromKeptInput } from '../../../lambdas/agents/finish-run.js';
import { AGENTS, agentExample } from '../../../lambdas/agents/registry.js';
import { sha256, type RunRecord } from '../../../lambdas/store/runs.js';

const BANK_REC = AGENTS.find((a) => a.slug.startsWith('bank-rec-discrepancy-finder'))!;
const input = agentExample(BANK_REC).input;
const text = JSON.stringify(input);
const run = (over: Partial<RunRecord> = {}): RunRecord => ({
  runId: 'run_1',
  agent: BANK_REC.slug,
  agentVersion: BANK_REC.deployment!.version,
  engine: BANK_REC.engine.id,
  mode: 'paid',
  status: 'done',
  inputSha256: sha256(text),
  cost: BANK_REC.price.toString(),
  transaction: '0xtx',
  note: 'settled; result not recorded',
  createdAt: 'c',
  updatedAt: 'u',
  ...over,
});

function deps(kept: { text?: string } = { text }) {
  return {
    agents: AGENTS,
    runs: {
      keptInput: vi.fn(async () => kept.text),
      finish: vi.fn(async () => true),
      get: vi.fn(async () => run({ result: 'finished' })),
    },
  };
}

describe('finishFromKeptInput', () => {
  it('runs the engine on the kept input and records its result once', async () => {
    const d = deps();
    expect(await finishFromKeptInput(d, run())).toMatchObject({ result: 'finished' });
    const { result, evidence } = (BANK_REC.engine.explain as (i: unknown) => { result: unknown; evidence: unknown[] })(input);
    expect(d.runs.finish).toHaveBeenCalledWith('run_1', result, evidence);
  });

  it.each([
    ['a run that has its result', run({ result: '{}' })],
    ['a run whose result was too large to keep', run({ resultSha256: 'ab' })],
    ['an open run', run({ status: 'settlement-unknown' })],
    ['a failed run', run({ status: 'failed' })],
    ['a credit run', run({ mode: 'credit' })],
    ['another agent version', run({ agentVersion: '0' })],
    ['another engine', run({ engine: 'bank-rec/rules@0' })],
    ['an unknown agent', run({ agent: 'gone' })],
  ])('leaves %s as it is', async (_what, record) => {
    const d = deps();
    expect(await finishFromKeptInput(d, record)).toBe(record);
    expect(d.runs.finish).not.toHaveBeenCalled();
  });

  it('leaves a run whose input is gone (expired) or is not the one it recorded', async () => {
    for (const kept of [undefined, JSON.stringify({ ...input, extra: 1 })]) {
      const d = deps({ text: kept });
      const record = run();
      expect(await finishFromKeptInput(d, record)).toBe(record);
      expect(d.runs.finish).not.toHaveBeenCalled();
    }
  });
});
