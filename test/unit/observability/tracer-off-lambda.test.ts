/**
 * Operability, on the embedded default and in tests: the Tracer is off outside a Lambda execution
 * environment (no AWS_EXECUTION_ENV) and wherever POWERTOOLS_TRACE_ENABLED=false, so nothing reaches for an X-Ray
 * daemon, nothing extra is written and an SDK client is left exactly as built. On Lambda it is on, and a captured
 * client's calls still go through the HTTP handler the embedded runtime's IAM enforcement patches.
 */
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import middy from '@middy/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { asFunction, installIamEnforcement } from '../../../lib/local/iam/enforce.js';
import type { HttpEvent, HttpResult } from '../../../lambdas/shared/http.js';
import { httpEvent, lambdaContext } from '../../support/events.js';

const tracing = () => import('../../../lambdas/shared/tracing.js');

let written: string[];
beforeEach(() => {
  vi.resetModules();
  written = [];
  for (const stream of [process.stdout, process.stderr]) {
    vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => (written.push(String(chunk)), true));
  }
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

const client = () => new DynamoDBClient({ endpoint: 'http://127.0.0.1:9', region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 1 });

describe('Operability: outside Lambda the tracer is disabled and silent', () => {
  it('is off without AWS_EXECUTION_ENV (the embedded default, the tests)', async () => {
    vi.stubEnv('AWS_EXECUTION_ENV', undefined as unknown as string);
    const { tracer } = await tracing();
    expect(tracer.isTracingEnabled()).toBe(false);
  });

  it('is off on Lambda with POWERTOOLS_TRACE_ENABLED=false', async () => {
    vi.stubEnv('AWS_EXECUTION_ENV', 'AWS_Lambda_nodejs22.x');
    vi.stubEnv('POWERTOOLS_TRACE_ENABLED', 'false');
    const { tracer } = await tracing();
    expect(tracer.isTracingEnabled()).toBe(false);
  });

  it('is on in a Lambda execution environment (so the two above are not vacuous)', async () => {
    vi.stubEnv('AWS_EXECUTION_ENV', 'AWS_Lambda_nodejs22.x');
    const { tracer } = await tracing();
    expect(tracer.isTracingEnabled()).toBe(true);
  });

  it('off, an HTTP invocation, an annotation and a traced task write nothing and answer as before; a client is untouched', async () => {
    vi.stubEnv('AWS_EXECUTION_ENV', undefined as unknown as string);
    const { annotate, traced, traceClient } = await tracing();
    const { frame } = await import('../../../lambdas/middleware/http-frame.js');
    const { GENERATION } = await import('../../../lambdas/surfaces/surface.js');
    const warn = vi.spyOn(console, 'warn');
    const error = vi.spyOn(console, 'error');

    const handler = middy<HttpEvent, HttpResult>()
      .use(frame(GENERATION))
      .handler(async () => {
        annotate({ jobId: 'job-1', payer: '0xabc', product: 'agent_image' });
        return { statusCode: 202, headers: { 'Content-Type': 'application/json' }, body: '{"jobId":"job-1"}' };
      });
    const result = await handler(httpEvent(), lambdaContext);
    expect(result).toEqual({ statusCode: 202, headers: { 'Content-Type': 'application/json', 'Service-API-Version': '1' }, body: '{"jobId":"job-1"}' });
    await expect(traced(async (input: { jobId: string }) => input.jobId, (input) => ({ jobId: input.jobId }))({ jobId: 'j' }, lambdaContext)).resolves.toBe('j');

    const plain = client();
    const before = plain.middlewareStack.identify();
    expect(traceClient(plain)).toBe(plain);
    expect(plain.middlewareStack.identify()).toEqual(before);

    expect(written).toEqual([]);
    expect(warn).not.toHaveBeenCalled();
    expect(error).not.toHaveBeenCalled();
  });
});

describe('Operability: on Lambda a captured AWS SDK client still meets the embedded runtime\'s IAM enforcement', () => {
  it('the X-Ray middleware is added and a call the policy does not allow is still refused as AWS refuses it', async () => {
    vi.stubEnv('AWS_EXECUTION_ENV', 'AWS_Lambda_nodejs22.x');
    const { tracer, traceClient } = await tracing();
    expect(tracer.isTracingEnabled()).toBe(true);
    const captured = traceClient(client());
    expect(captured.middlewareStack.identify().some((name) => /xray/i.test(name))).toBe(true);

    // No Lambda facade segment off Lambda: the X-Ray middleware finds none and only says so.
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const enforcement = installIamEnforcement({ Caller: [] });
    try {
      const call = asFunction('Caller', () => captured.send(new GetItemCommand({ TableName: 'jobs', Key: { jobId: { S: 'j' } } })));
      await expect(call).rejects.toMatchObject({ name: 'AccessDeniedException' });
      expect(enforcement.denials.map((d) => d.action)).toEqual(['dynamodb:GetItem']);
    } finally {
      enforcement.uninstall();
    }
  });
});
