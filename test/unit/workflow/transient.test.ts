import { describe, expect, it } from 'vitest';
import { isTransient, retryingTransient } from '../../../lambdas/workflow/transient.js';
import { RenderError, TransientRenderError } from '../../../lambdas/render/provider.js';
import { DependencyError } from '../../../lambdas/shared/errors.js';

const named = (name: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(name), { name, ...extra });

describe('Render task failures: transient ones are retried by the state machine, the rest go to its Catch', () => {
  it('throttling, 5xx, 429, SDK-retryable errors, network errors and DependencyError are transient', () => {
    for (const error of [
      new DependencyError('dynamo down'),
      named('SlowDown'),
      named('ThrottlingException'),
      named('Whatever', { $metadata: { httpStatusCode: 503 } }),
      named('Whatever', { $metadata: { httpStatusCode: 429 } }),
      named('Whatever', { $retryable: { throttling: true } }),
      named('Error', { code: 'ECONNRESET' }),
      named('TypeError', { cause: { code: 'UND_ERR_CONNECT_TIMEOUT' } }),
    ]) {
      expect(isTransient(error), error.name).toBe(true);
    }
  });

  it('a RenderError, a 4xx and a plain bug are not', () => {
    for (const error of [new RenderError('content policy'), named('AccessDenied', { $metadata: { httpStatusCode: 403 } }), new TypeError('x is undefined')]) {
      expect(isTransient(error)).toBe(false);
    }
  });

  it('wraps a transient failure as TransientRenderError (the name the ASL retries) with the original as cause', async () => {
    const original = named('SlowDown', { $metadata: { httpStatusCode: 503 } });
    const thrown = await retryingTransient(async () => Promise.reject(original)).catch((e: unknown) => e as Error);
    expect(thrown).toBeInstanceOf(TransientRenderError);
    expect(thrown.name).toBe('TransientRenderError');
    expect(thrown.cause).toBe(original);
    const final = new RenderError('bad prompt');
    await expect(retryingTransient(async () => Promise.reject(final))).rejects.toBe(final);
    await expect(retryingTransient(async () => 42)).resolves.toBe(42);
  });
});
