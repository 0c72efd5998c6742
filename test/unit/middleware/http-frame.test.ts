/**
 * The frame of every HTTP entry (lambdas/middleware/http-frame.ts): the surface's version policy and its error
 * presenter. Spec: "Versioning" 1 (every generation response carries Service-API-Version, only `1` is supported, a
 * request without it is served, an unsupported value answers 400 `unsupported_api_version`), "Errors" ("Error
 * bodies"), and version header behaviour of the agent-studio surface ("not shown": neither checked nor set).
 */
import { describe, expect, it } from 'vitest';
import { frame } from '../../../lambdas/middleware/http-frame.js';
import { apiVersion, httpErrors } from '../../../lambdas/middleware/surface-frame.js';
import { addResponseHeaders, type HttpMiddleware } from '../../../lambdas/middleware/types.js';
import {
  DependencyError,
  IdempotencyInProgressError,
  IdempotentReplay,
  NotFoundError,
  PaymentRequiredError,
  RateLimitedError,
  ValidationError,
} from '../../../lambdas/shared/errors.js';
import { AGENT_STUDIO, GENERATION } from '../../../lambdas/surfaces/surface.js';
import { bodyOf, chain, headerOf, httpEvent } from '../../support/events.js';

const VERSION = 'Service-API-Version';

/** A middleware that throws `error` before the handler. */
const throwing = (error: unknown): HttpMiddleware => ({
  name: 'throwing',
  before: () => {
    throw error;
  },
});

/** A middleware that leaves headers every response of the request must carry. */
const withResponseHeaders = (headers: Record<string, string>): HttpMiddleware => ({
  name: 'withResponseHeaders',
  before: (request) => addResponseHeaders(request, headers),
});

describe('Versioning 1: a request without Service-API-Version is served the current version', () => {
  it('serves it and answers with Service-API-Version: 1', async () => {
    const c = chain(frame(GENERATION));
    const result = await c.invoke(httpEvent());
    expect(result.statusCode).toBe(200);
    expect(bodyOf(result)).toEqual({ ok: true });
    expect(result.headers[VERSION]).toBe('1');
    expect(c.calls).toBe(1);
  });
});

describe('Versioning 1: Service-API-Version 1 is accepted', () => {
  it('serves a request pinned to 1 (header name in any case, value trimmed)', async () => {
    const c = chain(frame(GENERATION));
    const variants: Record<string, string>[] = [{ 'service-api-version': '1' }, { 'Service-API-Version': '1' }, { 'service-api-version': ' 1 ' }];
    for (const headers of variants) {
      const result = await c.invoke(httpEvent({ headers }));
      expect(result.statusCode).toBe(200);
      expect(result.headers[VERSION]).toBe('1');
    }
    expect(c.calls).toBe(3);
  });
});

describe('Versioning 1: an unsupported Service-API-Version answers 400 unsupported_api_version', () => {
  it('refuses 2 with a detail naming 2 and 1, without running the handler, and still carries the header', async () => {
    const c = chain(frame(GENERATION));
    const result = await c.invoke(httpEvent({ headers: { 'service-api-version': '2' } }));
    expect(result.statusCode).toBe(400);
    expect(result.headers['Content-Type']).toBe('application/json');
    expect(result.headers[VERSION]).toBe('1');
    const body = bodyOf(result);
    expect(Object.keys(body).sort()).toEqual(['code', 'detail']);
    expect(body.code).toBe('unsupported_api_version');
    expect(typeof body.detail).toBe('string');
    expect(body.detail).toContain("'2'");
    expect(body.detail.replace("'2'", '')).toMatch(/\b1\b/);
    expect(c.calls).toBe(0);
  });

  it('refuses other values than 1 (1.0, v1, 0)', async () => {
    const c = chain(frame(GENERATION));
    for (const value of ['1.0', 'v1', '0']) {
      const result = await c.invoke(httpEvent({ headers: { 'service-api-version': value } }));
      expect(result.statusCode).toBe(400);
      expect(bodyOf(result).code).toBe('unsupported_api_version');
    }
    expect(c.calls).toBe(0);
  });
});

describe('Versioning 1: every response carries Service-API-Version, error responses included', () => {
  it('sets it on a handler error (500), a typed error (404) and a handler answer that set other headers', async () => {
    const failing = chain(frame(GENERATION), () => {
      throw new Error('boom');
    });
    expect((await failing.invoke(httpEvent())).headers[VERSION]).toBe('1');

    const notFound = chain([...frame(GENERATION), throwing(new NotFoundError('Song not found'))]);
    const result = await notFound.invoke(httpEvent({ method: 'GET', path: '/api/songs/x' }));
    expect(result.statusCode).toBe(404);
    expect(result.headers[VERSION]).toBe('1');

    const custom = chain(frame(GENERATION), () => ({ statusCode: 202, headers: { 'X-Custom': 'yes' }, body: '{}' }));
    const accepted = await custom.invoke(httpEvent());
    expect(accepted.headers).toEqual({ 'X-Custom': 'yes', [VERSION]: '1' });
  });

  it('the frame decides the version header even when the handler sets another value', async () => {
    const c = chain(frame(GENERATION), () => ({ statusCode: 200, headers: { [VERSION]: '9' }, body: '{}' }));
    expect((await c.invoke(httpEvent())).headers[VERSION]).toBe('1');
  });
});

describe('The frame merges the headers the middlewares left for every response (request.internal.responseHeaders)', () => {
  it('adds them to a successful answer', async () => {
    const c = chain([...frame(GENERATION), withResponseHeaders({ 'X-RateLimit-Limit': '20', RateLimit: '"probe";r=19;t=45' })]);
    const result = await c.invoke(httpEvent());
    expect(result.statusCode).toBe(200);
    expect(result.headers).toEqual({
      'Content-Type': 'application/json',
      'X-RateLimit-Limit': '20',
      RateLimit: '"probe";r=19;t=45',
      [VERSION]: '1',
    });
  });

  it('adds them to an error answer', async () => {
    const c = chain([...frame(GENERATION), withResponseHeaders({ 'X-RateLimit-Limit': '20' }), throwing(new RateLimitedError(7))]);
    const result = await c.invoke(httpEvent());
    expect(result.statusCode).toBe(429);
    expect(result.headers['X-RateLimit-Limit']).toBe('20');
    expect(result.headers['Retry-After']).toBe('7');
    expect(result.headers[VERSION]).toBe('1');
  });
});

describe('Versioning 7: the agent-studio surface neither checks nor sets a version header', () => {
  it('serves Service-API-Version: 2 and answers without the header', async () => {
    const c = chain(frame(AGENT_STUDIO));
    const result = await c.invoke(httpEvent({ path: '/agents/x/run', headers: { 'service-api-version': '2' } }));
    expect(result.statusCode).toBe(200);
    expect(headerOf(result, VERSION)).toBeUndefined();
    expect(c.calls).toBe(1);
  });

  it('answers its errors with the Error body and no version header, still merging the response headers', async () => {
    const c = chain([...frame(AGENT_STUDIO), withResponseHeaders({ 'X-Extra': '1' }), throwing(new RateLimitedError(3))]);
    const result = await c.invoke(httpEvent());
    expect(result.statusCode).toBe(429);
    expect(bodyOf(result)).toMatchObject({ code: 'rate_limited' });
    expect(result.headers['X-Extra']).toBe('1');
    expect(headerOf(result, VERSION)).toBeUndefined();
  });
});

describe('Errors, error bodies: each typed error answers its status and body', () => {
  const answer = async (error: unknown) => {
    const c = chain([...frame(GENERATION), throwing(error)]);
    const result = await c.invoke(httpEvent());
    expect(c.calls).toBe(0);
    expect(result.headers[VERSION]).toBe('1');
    return result;
  };

  it('402: the challenge in the body and, base64, in PAYMENT-REQUIRED (identical), with its extra headers', async () => {
    const challenge = {
      x402Version: 2,
      error: 'Payment authorization missing',
      resource: { url: 'https://api.test/create-music' },
      accepts: [{ scheme: 'exact', amount: '500000' }],
      extensions: {},
    };
    const result = await answer(new PaymentRequiredError(challenge, { 'PAYMENT-REFERENCE': 'ref-42' }));
    expect(result.statusCode).toBe(402);
    expect(bodyOf(result)).toEqual(challenge);
    const required = result.headers['PAYMENT-REQUIRED'];
    expect(JSON.parse(Buffer.from(required, 'base64').toString('utf8'))).toEqual(bodyOf(result));
    expect(Buffer.from(required, 'base64').toString('utf8')).toBe(result.body);
    expect(result.headers['PAYMENT-REFERENCE']).toBe('ref-42');
  });

  it('422: detail is the array of {loc, msg, type} issues', async () => {
    const issues = [
      { loc: ['body', 'prompt'], msg: 'Field required', type: 'missing' },
      { loc: ['header', 'Content-Type'], msg: 'Content-Type must be application/json', type: 'content_type' },
    ];
    const result = await answer(new ValidationError(issues));
    expect(result.statusCode).toBe(422);
    expect(bodyOf(result)).toEqual({ detail: issues });
  });

  it('429: code rate_limited and Retry-After always set', async () => {
    const result = await answer(new RateLimitedError(12));
    expect(result.statusCode).toBe(429);
    expect(result.headers['Retry-After']).toBe('12');
    const body = bodyOf(result);
    expect(body.code).toBe('rate_limited');
    expect(typeof body.detail).toBe('string');
    expect(Object.keys(body).sort()).toEqual(['code', 'detail']);
  });

  it('404: the music poll body {error} (not the Error shape)', async () => {
    const result = await answer(new NotFoundError('Song not found'));
    expect(result.statusCode).toBe(404);
    expect(bodyOf(result)).toEqual({ error: 'Song not found' });
  });

  it('409: idempotency_in_progress with Retry-After', async () => {
    const result = await answer(new IdempotencyInProgressError());
    expect(result.statusCode).toBe(409);
    expect(result.headers['Retry-After']).toBe('2');
    expect(bodyOf(result)).toEqual({ detail: expect.any(String), code: 'idempotency_in_progress' });
  });

  it('DependencyError: 503 unavailable with Retry-After, and the cause is not shown', async () => {
    const result = await answer(new DependencyError('DynamoDB TransactWriteItems failed: secret-table-name', { cause: new Error('ECONNREFUSED') }));
    expect(result.statusCode).toBe(503);
    expect(result.headers['Retry-After']).toBe('2');
    const body = bodyOf(result);
    expect(body).toEqual({ detail: expect.any(String), code: 'unavailable' });
    expect(body.detail).not.toContain('secret-table-name');
  });

  it('an unknown Error: 500 internal_error, message not shown', async () => {
    const result = await answer(new Error('database password is hunter2'));
    expect(result.statusCode).toBe(500);
    const body = bodyOf(result);
    expect(body).toEqual({ detail: expect.any(String), code: 'internal_error' });
    expect(body.detail).not.toContain('hunter2');
  });

  it('an idempotent replay answers the stored response as it was', async () => {
    const stored = { statusCode: 202, headers: { 'Content-Type': 'application/json', 'PAYMENT-RESPONSE': 'abc' }, body: '{"jobId":"j1"}' };
    const result = await answer(new IdempotentReplay(stored));
    expect(result.statusCode).toBe(202);
    expect(result.body).toBe(stored.body);
    expect(result.headers).toEqual({ ...stored.headers, [VERSION]: '1' });
    // The stored response itself is not mutated by the frame's decoration.
    expect(stored.headers).toEqual({ 'Content-Type': 'application/json', 'PAYMENT-RESPONSE': 'abc' });
  });
});

describe('The frame is two middlewares, outermost first: apiVersion then httpErrors', () => {
  it('apiVersion alone does not answer an error (no presenter): the error propagates', async () => {
    const c = chain([apiVersion(GENERATION), throwing(new NotFoundError('x'))]);
    await expect(c.invoke(httpEvent())).rejects.toBeInstanceOf(NotFoundError);
  });

  it('httpErrors alone answers with the presenter but sets no version header', async () => {
    const c = chain([httpErrors(GENERATION), throwing(new NotFoundError('x'))]);
    const result = await c.invoke(httpEvent());
    expect(result.statusCode).toBe(404);
    expect(headerOf(result, VERSION)).toBeUndefined();
  });
});
