/**
 * Operability: "`injectLambdaContext` so every log line has the request id and cold-start flag". A line
 * logged during an HTTP invocation (through the frame every entry uses), by the shared logger or by a use case's
 * child logger, carries `function_request_id` and `cold_start`; so does a line of a non-Middy task handler.
 *
 * The modules are loaded fresh under the environment Lambda gives an on-demand function
 * (AWS_LAMBDA_INITIALIZATION_TYPE, which Powertools reads when the logger is built), with LOG_LEVEL=INFO.
 */
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HttpEvent, HttpResult } from '../../../lambdas/shared/http.js';
import { httpEvent } from '../../support/events.js';

const context = (awsRequestId: string) =>
  ({ awsRequestId, functionName: 'AgentImage', functionVersion: '$LATEST', memoryLimitInMB: '1024', getRemainingTimeInMillis: () => 10_000 }) as unknown as Context;

// Powertools writes INFO to stdout and WARN and above to stderr, as Lambda's log pipeline reads both.
let written: string[] = [];
const lines = () =>
  written
    .map((chunk) => chunk.trim())
    .filter((text) => text.startsWith('{') && text.includes('"message"'))
    .map((text) => JSON.parse(text) as Record<string, unknown>);

beforeEach(() => {
  vi.resetModules();
  vi.stubEnv('LOG_LEVEL', 'INFO');
  vi.stubEnv('AWS_LAMBDA_INITIALIZATION_TYPE', 'on-demand');
  written = [];
  for (const stream of [process.stdout, process.stderr]) {
    vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => (written.push(String(chunk)), true));
  }
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe('Operability: every log line of an HTTP invocation has the request id and the cold-start flag', () => {
  it('lines of the shared logger and of a child logger, on the cold and on a warm invocation', async () => {
    const { frame } = await import('../../../lambdas/middleware/http-frame.js');
    const { GENERATION } = await import('../../../lambdas/surfaces/surface.js');
    const { logger } = await import('../../../lambdas/shared/logger.js');
    const handler = middy<HttpEvent, HttpResult>()
      .use(frame(GENERATION))
      .handler(async () => {
        logger.info('in the handler');
        // What a use case does (purchase.ts, run.ts): a child logger with its own keys.
        logger.createChild({ persistentKeys: { jobId: 'job-1' } }).info('in the use case');
        return { statusCode: 200, headers: {}, body: '{}' };
      });

    const first = await handler(httpEvent(), context('req-cold'));
    const second = await handler(httpEvent(), context('req-warm'));
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);

    expect(lines().map((line) => [line.message, line.function_request_id, line.cold_start, line.jobId])).toEqual([
      ['in the handler', 'req-cold', true, undefined],
      ['in the use case', 'req-cold', true, 'job-1'],
      ['in the handler', 'req-warm', false, undefined],
      // Powertools alone would say true here: every new child counted itself cold (lambdas/shared/logger.ts).
      ['in the use case', 'req-warm', false, 'job-1'],
    ]);
  });

  it('an error answered by the frame still logs with the request id (the context is in place before any middleware)', async () => {
    const { frame } = await import('../../../lambdas/middleware/http-frame.js');
    const { GENERATION } = await import('../../../lambdas/surfaces/surface.js');
    const { logger } = await import('../../../lambdas/shared/logger.js');
    const handler = middy<HttpEvent, HttpResult>()
      .use(frame(GENERATION))
      .use({ before: () => logger.warn('from a middleware') })
      .handler(async () => {
        throw new Error('boom');
      });
    const result = await handler(httpEvent(), context('req-1'));
    expect(result.statusCode).toBe(500);
    expect(lines().find((line) => line.message === 'from a middleware')).toMatchObject({ function_request_id: 'req-1', cold_start: true, function_name: 'AgentImage' });
  });
});

describe('Operability: a workflow task\'s log lines have the request id and the cold-start flag', () => {
  it('traced() gives the logger the invocation\'s context', async () => {
    const { traced } = await import('../../../lambdas/shared/tracing.js');
    const { logger } = await import('../../../lambdas/shared/logger.js');
    const handler = traced(async (input: { jobId: string }) => {
      logger.warn('job failed', { jobId: input.jobId });
      return 'ok';
    });
    await handler({ jobId: 'job-9' }, context('task-1'));
    await handler({ jobId: 'job-9' }, context('task-2'));
    expect(lines().map((line) => [line.function_request_id, line.cold_start, line.jobId])).toEqual([
      ['task-1', true, 'job-9'],
      ['task-2', false, 'job-9'],
    ]);
  });
});
