/**
 * The local Step Functions endpoint running the state machines CDK synthesises (lib/local/asl.ts), driven by a real
 * SFNClient. Task handlers are fakes whose behaviour is chosen by the jobId prefix.
 */
import path from 'node:path';
import {
  DescribeExecutionCommand,
  ExecutionAlreadyExists,
  ExecutionDoesNotExist,
  ListExecutionsCommand,
  SFNClient,
  StartExecutionCommand,
  type DescribeExecutionCommandOutput,
} from '@aws-sdk/client-sfn';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { synthesizeForLocal, type LocalDefinitions } from '../../lib/local/asl.js';
import { startLocalStepFunctions, type LocalStepFunctions } from '../../lib/local/stepfunctions.js';
import { WORKFLOW_TASKS } from '../../lambdas/surfaces/routes.js';
import { renderFunctionId, renderStateName } from '../../lambdas/workflow/render-functions.js';
import { providersFor } from '../../lambdas/render/providers.js';
import { PRODUCT_IDS } from '../../lambdas/products/catalog.js';
import { METRICS_NAMESPACE_ENV } from '../../lambdas/shared/metric-names.js';
import { functionEnvironment } from '../../lib/local/functions/environment.js';
import { localSfnClient } from '../support/sfn.js';

const CACHE_DIR = path.resolve(import.meta.dirname, '../../.local/test-cache/synth');

type Call = { state: string; input: any; provider?: string };
const calls = new Map<string, Call[]>();
const record = (state: string, input: any, provider?: string) => {
  const list = calls.get(input.jobId) ?? [];
  list.push({ state, input, ...(provider ? { provider } : {}) });
  calls.set(input.jobId, list);
};
const callsOf = (jobId: string) => calls.get(jobId) ?? [];

class TransientRenderError extends Error {
  override name = 'TransientRenderError';
}

/** Behaviour by jobId prefix: ok- | failed- | failednoreason- | refused- | refusedatsubmit- | throw- | slow- | transient- | hold- */
const handlers: Record<string, (input: any, provider?: string) => Promise<unknown>> = {
  'Submit render': async (input, provider) => {
    record('Submit render', input, provider);
    if (input.jobId.startsWith('transient-') && callsOf(input.jobId).filter((c) => c.state === 'Submit render').length < 3) {
      throw new TransientRenderError('provider busy');
    }
    // A synchronous model refuses at once: Submit render answers the refusal (lambdas/workflow/tasks.ts).
    if (input.jobId.startsWith('refusedatsubmit-')) return { renderId: input.jobId, provider, state: 'failed', attempts: 0, error: 'content filter', refusal: 'content' };
    return { renderId: `r-${input.jobId}`, provider, state: 'running', attempts: 0 };
  },
  'Check render': async (input, provider) => {
    record('Check render', input, provider);
    const attempts = (input.render.attempts ?? 0) + 1;
    const base = { renderId: input.render.renderId, provider, attempts };
    const id: string = input.jobId;
    if (id.startsWith('hold-')) await new Promise((r) => setTimeout(r, 300));
    if (id.startsWith('failednoreason-')) return { ...base, state: 'failed' };
    if (id.startsWith('refused-')) return { ...base, state: 'failed', error: 'content filter', refusal: 'content' };
    if (id.startsWith('failed-')) return { ...base, state: 'failed', error: 'content policy' };
    if (id.startsWith('slow-')) return { ...base, state: 'running' };
    return attempts >= 2
      ? { ...base, state: 'done', outputs: [{ role: 'image', contentType: 'image/png', key: `${id}.png` }] }
      : { ...base, state: 'running' };
  },
  'Store asset': async (input) => {
    record('Store asset', input);
    if (input.jobId.startsWith('throw-')) throw new RangeError('disk full');
    return { assets: input.render.outputs.map((o: any) => o.key) };
  },
  'Mark completed': async (input) => {
    record('Mark completed', input);
    return { ok: true };
  },
  'Mark failed': async (input) => {
    record('Mark failed', input);
    return { ok: true };
  },
  'Refund payment': async (input) => {
    record('Refund payment', input);
    return { refund: 'refunded' };
  },
};

let defs: LocalDefinitions;
let sfnLocal: LocalStepFunctions;
let client: SFNClient;
let musicArn: string;
let imageArn: string;

beforeAll(async () => {
  const started = performance.now();
  defs = await synthesizeForLocal({ cacheDir: CACHE_DIR });
  console.info(`synthesizeForLocal: ${Math.round(performance.now() - started)} ms (original synth ${defs.synthMs} ms)`);
  sfnLocal = await startLocalStepFunctions({
    port: 0,
    definitions: Object.values(defs.stateMachines).map((m) => ({
      stateMachineArn: m.stateMachineArn,
      name: m.name,
      definition: m.definition,
      // `Submit render (<provider>)` and `Check render (<provider>)`: the fake of the step, told whose state it runs.
      taskHandlers: Object.fromEntries(Object.keys(m.taskStates).map((s) => {
        const [, step, provider] = /^(.+?)(?: \((.+)\))?$/.exec(s)!;
        return [s, (input: any) => handlers[step](input, provider)];
      })),
    })),
    waitTimeMs: 5,
    retryIntervalMs: 5,
    logger: {},
  });
  client = localSfnClient(sfnLocal.endpoint);
  musicArn = defs.stateMachines.create_music.stateMachineArn;
  imageArn = defs.stateMachines.agent_image.stateMachineArn;
});

afterAll(async () => {
  client?.destroy();
  await sfnLocal?.stop();
});

async function runToEnd(stateMachineArn: string, jobId: string, product: string, provider: string | null = 'local'): Promise<DescribeExecutionCommandOutput> {
  const { executionArn } = await client.send(
    new StartExecutionCommand({ stateMachineArn, name: jobId, input: JSON.stringify({ jobId, product, ...(provider ? { provider } : {}) }) }),
  );
  for (let i = 0; i < 500; i++) {
    const d = await client.send(new DescribeExecutionCommand({ executionArn }));
    if (d.status !== 'RUNNING') return d;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`execution ${jobId} did not finish`);
}

const statesOf = (executionArn: string | undefined) =>
  sfnLocal.executions().find((e) => e.executionArn === executionArn)?.states ?? [];

describe('synthesised definitions', () => {
  it('has one machine per product with the WORKFLOW_TASKS task states, a render pair per provider of the product, and the tables', () => {
    expect(Object.keys(defs.stateMachines).sort()).toEqual([...PRODUCT_IDS].sort());
    for (const m of Object.values(defs.stateMachines)) {
      const providers = providersFor(m.product);
      expect(Object.keys(m.taskStates).sort()).toEqual(
        [
          ...WORKFLOW_TASKS.filter((t) => t.id !== 'DeliverWebhook').map((t) => t.stateName),
          ...providers.flatMap((p) => [renderStateName('submit', p), renderStateName('check', p)]),
        ].sort(),
      );
      expect(m.definition.StartAt).toBe('Render with which provider?');
      for (const p of providers) {
        expect(m.definition.States[renderStateName('submit', p)].Resource).toBe(`arn:aws:lambda:local:000000000000:function:${renderFunctionId(p)}`);
        expect(m.definition.States[renderStateName('check', p)].Resource).toBe(`arn:aws:lambda:local:000000000000:function:${renderFunctionId(p)}`);
      }
      expect(m.envVar).toMatch(/_STATE_MACHINE_ARN$/);
      expect(JSON.stringify(m.definition)).not.toContain('JSONata');
    }
    // The webhook machine (docs/decisions/0018): its one task, run by DeliverWebhook, its ARN under its own variable.
    expect(Object.keys(defs.webhookMachine.taskStates)).toEqual(['Deliver webhook']);
    expect(defs.webhookMachine.definition.States['Deliver webhook'].Resource).toBe('arn:aws:lambda:local:000000000000:function:DeliverWebhook');
    expect(defs.webhookMachine.envVar).toBe('WEBHOOK_STATE_MACHINE_ARN');
    const byEnv = Object.fromEntries(defs.tables.map((t) => [t.envName, t]));
    expect(Object.keys(byEnv).sort()).toEqual([
      'CREDIT_LEDGER_TABLE',
      'IDEMPOTENCY_TABLE',
      'JOBS_TABLE',
      'PAYMENTS_TABLE',
      'RATE_LIMIT_TABLE',
      'RUNS_TABLE',
      'SETTLER_LEASES_TABLE',
      'WORKSPACES_TABLE',
    ]);
    expect(byEnv.JOBS_TABLE.keySchema).toEqual([{ AttributeName: 'jobId', KeyType: 'HASH' }]);
    expect(byEnv.PAYMENTS_TABLE.keySchema).toEqual([{ AttributeName: 'pk', KeyType: 'HASH' }]);
    for (const t of defs.tables) expect(t.ttlAttribute).toBe('expiresAt');
  });
});

describe("the embedded runtime's metrics namespace", () => {
  it("every function is given the local stack's own namespace, and gets it as on Lambda", () => {
    expect(Object.keys(defs.environments).length).toBeGreaterThan(10);
    for (const [id, template] of Object.entries(defs.environments)) {
      expect(template[METRICS_NAMESPACE_ENV], id).toBe('Paycall/PaycallLocal');
      expect(functionEnvironment(template, {})[METRICS_NAMESPACE_ENV], id).toBe('Paycall/PaycallLocal');
    }
  });
});

describe('local Step Functions via SFNClient', () => {
  it('runs the success path: submit → check running → check done → store → mark completed', async () => {
    const d = await runToEnd(musicArn, 'ok-1', 'create_music');
    expect(d.status).toBe('SUCCEEDED');
    expect(callsOf('ok-1').map((c) => c.state)).toEqual([
      'Submit render',
      'Check render',
      'Check render',
      'Store asset',
      'Mark completed',
    ]);
    const [submit, check1, check2, store, completed] = callsOf('ok-1').map((c) => c.input);
    expect(submit).toEqual({ step: 'submit', jobId: 'ok-1', product: 'create_music' });
    expect(check1).toEqual({
      step: 'check',
      jobId: 'ok-1',
      product: 'create_music',
      render: { renderId: 'r-ok-1', provider: 'local', state: 'running', attempts: 0 },
    });
    expect(callsOf('ok-1').filter((c) => c.provider).map((c) => c.provider)).toEqual(['local', 'local', 'local']);
    expect(check2.render.attempts).toBe(1);
    expect(store.render.state).toBe('done');
    expect(completed.stored).toEqual({ assets: ['ok-1.png'] });
    expect(completed.render.state).toBe('done');
    expect(JSON.parse(d.output!)).toMatchObject({ jobId: 'ok-1', product: 'create_music', stored: { assets: ['ok-1.png'] } });
    expect(d.executionArn).toBe('arn:aws:states:local:000000000000:execution:MusicWorkflow:ok-1');
    expect(statesOf(d.executionArn)).toEqual([
      'Render with which provider?',
      'Submit render (local)',
      'Render finished?',
      'Wait for render',
      'Check with which provider?',
      'Check render (local)',
      'Render finished?',
      'Wait for render',
      'Check with which provider?',
      'Check render (local)',
      'Render finished?',
      'Store asset',
      'Mark completed',
      'Job completed',
    ]);
  });

  it('fails the job when the render fails: Render failed → Mark failed → FAILED', async () => {
    const d = await runToEnd(imageArn, 'failed-1', 'agent_image');
    expect(d.status).toBe('FAILED');
    expect(d.error).toBe('RenderError');
    expect(d.cause).toBe('content policy');
    const marked = callsOf('failed-1').find((c) => c.state === 'Mark failed')!.input;
    expect(marked).toEqual({ jobId: 'failed-1', product: 'agent_image', error: { Error: 'RenderError', Cause: 'content policy' } });
    expect(callsOf('failed-1').some((c) => c.state === 'Store asset')).toBe(false);
    // The refund follows the mark, with the job's reference only; the execution still ends with the render's error.
    expect(callsOf('failed-1').find((c) => c.state === 'Refund payment')!.input).toEqual({ jobId: 'failed-1', product: 'agent_image' });
    expect(statesOf(d.executionArn).slice(-5)).toEqual(['Render failed', 'Mark failed', 'Refund payment', 'Refused for content?', 'Job failed']);
  });

  it('a render refused for its content fails and refunds the job, and the execution SUCCEEDS (pages nobody)', async () => {
    const d = await runToEnd(imageArn, 'refused-1', 'agent_image');
    expect(d.status).toBe('SUCCEEDED');
    const marked = callsOf('refused-1').find((c) => c.state === 'Mark failed')!.input;
    expect(marked).toEqual({ jobId: 'refused-1', product: 'agent_image', error: { Error: 'ContentRefused', Cause: 'content filter' } });
    expect(callsOf('refused-1').find((c) => c.state === 'Refund payment')!.input).toEqual({ jobId: 'refused-1', product: 'agent_image' });
    expect(statesOf(d.executionArn).slice(-5)).toEqual(['Render refused', 'Mark failed', 'Refund payment', 'Refused for content?', 'Job refused']);

    const atSubmit = await runToEnd(musicArn, 'refusedatsubmit-1', 'create_music');
    expect(atSubmit.status).toBe('SUCCEEDED');
    expect(callsOf('refusedatsubmit-1').map((c) => c.state)).toEqual(['Submit render', 'Mark failed', 'Refund payment']);
    expect(statesOf(atSubmit.executionArn)).toEqual([
      'Render with which provider?',
      'Submit render (local)',
      'Render finished?',
      'Render refused',
      'Mark failed',
      'Refund payment',
      'Refused for content?',
      'Job refused',
    ]);
  });

  it("a render function per provider (docs/decisions/0016): renders with the job's own provider, submit and checks alike, whatever else the product could use", async () => {
    const d = await runToEnd(musicArn, 'ok-lyria', 'create_music', 'google-lyria');
    expect(d.status).toBe('SUCCEEDED');
    expect(callsOf('ok-lyria').filter((c) => c.provider).map((c) => `${c.state} by ${c.provider}`)).toEqual([
      'Submit render by google-lyria',
      'Check render by google-lyria',
      'Check render by google-lyria',
    ]);
    expect(statesOf(d.executionArn)).toContain('Check render (google-lyria)');
    expect(statesOf(d.executionArn)).not.toContain('Submit render (local)');
  });

  it.each([
    ['a provider the product has no render branch for', 'ok-wrong', 'fal-veo'],
    ['no provider in the input (an execution from before it was there)', 'ok-none', null],
  ])('a render function per provider (docs/decisions/0016): %s fails and refunds the job without rendering', async (_, jobId, provider) => {
    const d = await runToEnd(musicArn, jobId, 'create_music', provider);
    expect(d.status).toBe('FAILED');
    expect(d.error).toBe('UnknownRenderProvider');
    expect(callsOf(jobId).map((c) => c.state)).toEqual(['Mark failed', 'Refund payment']);
    expect(statesOf(d.executionArn).slice(0, 2)).toEqual(['Render with which provider?', 'Unknown render provider']);
  });

  it('fails the job when a failed render carries no reason', async () => {
    const d = await runToEnd(imageArn, 'failednoreason-1', 'agent_image');
    expect(d.status).toBe('FAILED');
    expect(d.error).toBe('RenderError');
    expect(statesOf(d.executionArn)).toContain('Render failed without reason');
  });

  it('catches a throwing task: Catch → Mark failed with a Lambda-shaped error', async () => {
    const d = await runToEnd(musicArn, 'throw-1', 'create_music');
    expect(d.status).toBe('FAILED');
    expect(d.error).toBe('RangeError');
    const marked = callsOf('throw-1').find((c) => c.state === 'Mark failed')!.input;
    expect(marked.jobId).toBe('throw-1');
    expect(marked.product).toBe('create_music');
    expect(marked.error.Error).toBe('RangeError');
    expect(JSON.parse(marked.error.Cause)).toMatchObject({ errorType: 'RangeError', errorMessage: 'disk full' });
    expect(callsOf('throw-1').some((c) => c.state === 'Mark completed')).toBe(false);
  });

  it('retries TransientRenderError before going on', async () => {
    const d = await runToEnd(musicArn, 'transient-1', 'create_music');
    expect(d.status).toBe('SUCCEEDED');
    expect(callsOf('transient-1').filter((c) => c.state === 'Submit render')).toHaveLength(3);
  });

  it('times out a render that keeps running: attempts > maxChecks → Render timed out → Mark failed', async () => {
    const maxChecks = defs.stateMachines.create_music.definition.States['Render finished?'] as any;
    const limit = maxChecks.Choices.find((c: any) => c.NumericGreaterThan !== undefined).NumericGreaterThan as number;
    const d = await runToEnd(musicArn, 'slow-1', 'create_music');
    expect(d.status).toBe('FAILED');
    expect(d.error).toBe('RenderTimeout');
    expect(callsOf('slow-1').filter((c) => c.state === 'Check render')).toHaveLength(limit + 1);
    const marked = callsOf('slow-1').find((c) => c.state === 'Mark failed')!.input;
    expect(marked.error.Error).toBe('RenderTimeout');
    expect(statesOf(d.executionArn).slice(-5)).toEqual(['Render timed out', 'Mark failed', 'Refund payment', 'Refused for content?', 'Job failed']);
  });

  it('applies Standard name semantics: same name+input while running is idempotent, otherwise ExecutionAlreadyExists', async () => {
    const input = JSON.stringify({ jobId: 'hold-1', product: 'agent_image', provider: 'local' });
    const first = await client.send(new StartExecutionCommand({ stateMachineArn: imageArn, name: 'hold-1', input }));
    const again = await client.send(new StartExecutionCommand({ stateMachineArn: imageArn, name: 'hold-1', input }));
    expect(again.executionArn).toBe(first.executionArn);
    expect(again.startDate?.getTime()).toBe(first.startDate?.getTime());

    await expect(
      client.send(
        new StartExecutionCommand({
          stateMachineArn: imageArn,
          name: 'hold-1',
          input: JSON.stringify({ jobId: 'hold-1', product: 'other' }),
        }),
      ),
    ).rejects.toMatchObject({ name: 'ExecutionAlreadyExists', $metadata: { httpStatusCode: 400 } });

    // The same name on another machine is a different execution.
    const other = await client.send(new StartExecutionCommand({ stateMachineArn: musicArn, name: 'hold-1', input }));
    expect(other.executionArn).not.toBe(first.executionArn);

    await sfnLocal.drain();
    const done = await client.send(new DescribeExecutionCommand({ executionArn: first.executionArn }));
    expect(done.status).toBe('SUCCEEDED');
    // Closed: the same name and input no longer start or return anything.
    await expect(
      client.send(new StartExecutionCommand({ stateMachineArn: imageArn, name: 'hold-1', input })),
    ).rejects.toMatchObject({ name: 'ExecutionAlreadyExists' });
  });

  it("raises the SDK's modelled exception classes, which the WorkflowStarter matches by class", async () => {
    await expect(client.send(new StartExecutionCommand({ stateMachineArn: imageArn, name: 'hold-1', input: '{}' }))).rejects.toBeInstanceOf(
      ExecutionAlreadyExists,
    );
    await expect(
      client.send(new DescribeExecutionCommand({ executionArn: 'arn:aws:states:local:000000000000:execution:Nope:x' })),
    ).rejects.toBeInstanceOf(ExecutionDoesNotExist);
  });

  it('answers unknown machines and executions with the AWS error types', async () => {
    await expect(
      client.send(
        new StartExecutionCommand({ stateMachineArn: 'arn:aws:states:local:000000000000:stateMachine:Nope', input: '{}' }),
      ),
    ).rejects.toMatchObject({ name: 'StateMachineDoesNotExist' });
    await expect(
      client.send(new DescribeExecutionCommand({ executionArn: 'arn:aws:states:local:000000000000:execution:Nope:x' })),
    ).rejects.toMatchObject({ name: 'ExecutionDoesNotExist' });
  });

  it('lists executions of a machine, newest first, with a status filter', async () => {
    const all = await client.send(new ListExecutionsCommand({ stateMachineArn: imageArn }));
    const names = all.executions!.map((e) => e.name);
    expect(names).toContain('failed-1');
    expect(names).toContain('hold-1');
    expect(all.executions![0].startDate).toBeInstanceOf(Date);
    const failed = await client.send(new ListExecutionsCommand({ stateMachineArn: imageArn, statusFilter: 'FAILED' }));
    expect(failed.executions!.every((e) => e.status === 'FAILED')).toBe(true);
    expect(failed.executions!.map((e) => e.name)).toContain('failed-1');
  });
});
