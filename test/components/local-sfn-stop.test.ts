/**
 * StopExecution on the local Step Functions endpoint (cancel a job, docs/decisions/0017), driven by a real SFNClient on small
 * hand-written machines: a long Wait, a task still in flight when the stop comes, a retry pending at the stop, and
 * one that ends at once. AWS's documented behaviour: API_StopExecution (ExecutionDoesNotExist / InvalidArn /
 * ValidationException, `{ stopDate }`), DescribeExecution of an ABORTED execution with the stop's error and cause.
 */
import {
  DescribeExecutionCommand,
  ExecutionDoesNotExist,
  InvalidArn,
  SFNClient,
  StartExecutionCommand,
  StopExecutionCommand,
} from '@aws-sdk/client-sfn';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalStepFunctions, type LocalStepFunctions } from '../../lib/local/stepfunctions.js';
import { localSfnClient } from '../support/sfn.js';

const ARN = (name: string) => `arn:aws:states:local:000000000000:stateMachine:${name}`;
const LAMBDA = 'arn:aws:lambda:local:000000000000:function:Fake';

const called: string[] = [];
let releaseSlow: () => void = () => {};
const slowStarted = () => called.includes('Slow task');

let sfnLocal: LocalStepFunctions;
let client: SFNClient;

beforeAll(async () => {
  sfnLocal = await startLocalStepFunctions({
    definitions: [
      {
        stateMachineArn: ARN('Waiter'),
        name: 'Waiter',
        definition: {
          StartAt: 'Long wait',
          States: {
            'Long wait': { Type: 'Wait', Seconds: 3600, Next: 'After wait' },
            'After wait': { Type: 'Task', Resource: LAMBDA, Next: 'Done' },
            Done: { Type: 'Succeed' },
          },
        },
        taskHandlers: { 'After wait': () => called.push('After wait') },
      },
      {
        stateMachineArn: ARN('InFlight'),
        name: 'InFlight',
        definition: {
          StartAt: 'Slow task',
          States: {
            'Slow task': { Type: 'Task', Resource: LAMBDA, Next: 'Next task' },
            'Next task': { Type: 'Task', Resource: LAMBDA, End: true },
          },
        },
        taskHandlers: {
          'Slow task': async () => {
            called.push('Slow task');
            await new Promise<void>((resolve) => (releaseSlow = resolve));
            return { slow: 'done' };
          },
          'Next task': () => called.push('Next task'),
        },
      },
      {
        stateMachineArn: ARN('Retrying'),
        name: 'Retrying',
        definition: {
          StartAt: 'Flaky',
          States: {
            Flaky: { Type: 'Task', Resource: LAMBDA, Retry: [{ ErrorEquals: ['States.ALL'], IntervalSeconds: 3600, MaxAttempts: 3 }], End: true },
          },
        },
        taskHandlers: {
          Flaky: () => {
            called.push('Flaky');
            throw new Error('busy');
          },
        },
      },
      {
        stateMachineArn: ARN('Quick'),
        name: 'Quick',
        definition: { StartAt: 'Only', States: { Only: { Type: 'Pass', Result: { ok: true }, End: true } } },
        taskHandlers: {},
      },
    ],
    logger: {},
  });
  client = localSfnClient(sfnLocal.endpoint);
});

afterAll(async () => {
  releaseSlow();
  client?.destroy();
  await sfnLocal?.stop();
});

const statesOf = (executionArn: string | undefined) => sfnLocal.executions().find((e) => e.executionArn === executionArn)?.states ?? [];

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 300 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('StopExecution on the local Step Functions endpoint', () => {
  it('stops a RUNNING execution in a Wait state: ABORTED with the error, cause and stopDate, nothing after the wait', async () => {
    const { executionArn } = await client.send(new StartExecutionCommand({ stateMachineArn: ARN('Waiter'), name: 'job-wait', input: '{}' }));
    await until(() => statesOf(executionArn).includes('Long wait'));
    expect((await client.send(new DescribeExecutionCommand({ executionArn }))).status).toBe('RUNNING');

    const before = Date.now();
    const stopped = await client.send(new StopExecutionCommand({ executionArn, error: 'JobCancelled', cause: 'cancelled by its owner' }));
    expect(stopped.stopDate).toBeInstanceOf(Date);
    expect(stopped.stopDate!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(stopped.stopDate!.getTime()).toBeLessThanOrEqual(Date.now() + 1000);

    const d = await client.send(new DescribeExecutionCommand({ executionArn }));
    expect(d).toMatchObject({ status: 'ABORTED', error: 'JobCancelled', cause: 'cancelled by its owner' });
    expect(d.stopDate?.getTime()).toBe(stopped.stopDate!.getTime());
    expect(d.output).toBeUndefined();

    await sfnLocal.drain();
    await pause(50);
    expect(statesOf(executionArn)).toEqual(['Long wait']);
    expect(called).not.toContain('After wait');
    expect((await client.send(new DescribeExecutionCommand({ executionArn }))).status).toBe('ABORTED');
  });

  it('a task in flight at the stop may finish, but its result moves the machine on no more', async () => {
    const { executionArn } = await client.send(new StartExecutionCommand({ stateMachineArn: ARN('InFlight'), name: 'job-inflight' }));
    await until(slowStarted);
    await client.send(new StopExecutionCommand({ executionArn }));
    releaseSlow();
    await sfnLocal.drain();
    await pause(50);

    const d = await client.send(new DescribeExecutionCommand({ executionArn }));
    expect(d.status).toBe('ABORTED');
    // No error or cause given: none recorded.
    expect(d.error).toBeUndefined();
    expect(d.cause).toBeUndefined();
    expect(d.output).toBeUndefined();
    expect(statesOf(executionArn)).toEqual(['Slow task']);
    expect(called).not.toContain('Next task');
  });

  it('a Retry pending at the stop invokes the task no more', async () => {
    const { executionArn } = await client.send(new StartExecutionCommand({ stateMachineArn: ARN('Retrying'), name: 'job-retry' }));
    await until(() => called.includes('Flaky'));
    await client.send(new StopExecutionCommand({ executionArn, error: 'JobCancelled' }));
    await sfnLocal.drain();
    await pause(50);
    expect(called.filter((c) => c === 'Flaky')).toHaveLength(1);
    expect(await client.send(new DescribeExecutionCommand({ executionArn }))).toMatchObject({ status: 'ABORTED', error: 'JobCancelled' });
  });

  it('an execution that already ended: 200 with the date it ended, its status, output and dates unchanged', async () => {
    const { executionArn } = await client.send(new StartExecutionCommand({ stateMachineArn: ARN('Quick'), name: 'job-done' }));
    await sfnLocal.drain();
    const done = await client.send(new DescribeExecutionCommand({ executionArn }));
    expect(done.status).toBe('SUCCEEDED');

    const stopped = await client.send(new StopExecutionCommand({ executionArn, error: 'JobCancelled', cause: 'too late' }));
    expect(stopped.$metadata.httpStatusCode).toBe(200);
    expect(stopped.stopDate?.getTime()).toBe(done.stopDate!.getTime());

    const after = await client.send(new DescribeExecutionCommand({ executionArn }));
    expect(after.status).toBe('SUCCEEDED');
    expect(after.output).toBe(done.output);
    expect(after.stopDate?.getTime()).toBe(done.stopDate!.getTime());
    expect(after.error).toBeUndefined();
    expect(after.cause).toBeUndefined();

    // A second stop of an aborted execution changes nothing either.
    const first = await client.send(new DescribeExecutionCommand({ executionArn: sfnLocal.executions().find((e) => e.name === 'job-wait')!.executionArn }));
    const again = await client.send(new StopExecutionCommand({ executionArn: first.executionArn, error: 'Other', cause: 'other' }));
    expect(again.stopDate?.getTime()).toBe(first.stopDate!.getTime());
    expect(await client.send(new DescribeExecutionCommand({ executionArn: first.executionArn }))).toMatchObject({
      status: 'ABORTED',
      error: 'JobCancelled',
      cause: 'cancelled by its owner',
    });
  });

  it('answers an unknown execution with ExecutionDoesNotExist (400), a malformed ARN with InvalidArn (400)', async () => {
    const unknown = client.send(new StopExecutionCommand({ executionArn: 'arn:aws:states:local:000000000000:execution:Waiter:nope' }));
    await expect(unknown).rejects.toBeInstanceOf(ExecutionDoesNotExist);
    await expect(unknown).rejects.toMatchObject({ name: 'ExecutionDoesNotExist', $metadata: { httpStatusCode: 400 } });

    for (const executionArn of ['not-an-arn', ARN('Waiter'), 'arn:aws:lambda:local:000000000000:function:Fake']) {
      const malformed = client.send(new StopExecutionCommand({ executionArn }));
      await expect(malformed, executionArn).rejects.toBeInstanceOf(InvalidArn);
      await expect(malformed, executionArn).rejects.toMatchObject({ $metadata: { httpStatusCode: 400 } });
    }
  });

  it('refuses an error over 256 characters or a cause over 32768 with ValidationException, stopping nothing', async () => {
    const { executionArn } = await client.send(new StartExecutionCommand({ stateMachineArn: ARN('Waiter'), name: 'job-validation' }));
    await expect(client.send(new StopExecutionCommand({ executionArn, error: 'e'.repeat(257) }))).rejects.toMatchObject({
      name: 'ValidationException',
      $metadata: { httpStatusCode: 400 },
    });
    await expect(client.send(new StopExecutionCommand({ executionArn, cause: 'c'.repeat(32769) }))).rejects.toMatchObject({
      name: 'ValidationException',
    });
    expect((await client.send(new DescribeExecutionCommand({ executionArn }))).status).toBe('RUNNING');
    // The limits themselves are accepted.
    await client.send(new StopExecutionCommand({ executionArn, error: 'e'.repeat(256), cause: 'c'.repeat(32768) }));
    const d = await client.send(new DescribeExecutionCommand({ executionArn }));
    expect(d.status).toBe('ABORTED');
    expect(d.error).toHaveLength(256);
    expect(d.cause).toHaveLength(32768);
  });
});
