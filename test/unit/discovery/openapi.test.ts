import { describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { openApiDocument } from '../../../lambdas/protocols/discovery/openapi.js';
import { paymentChallenge, productInputSchema, REASON_MISSING } from '../../../lambdas/jobs/offers.js';
import { responseJsonSchema } from '../../../lambdas/products/responses.js';
import { ROUTES } from '../../../lambdas/surfaces/routes.js';
import { BASE, IDS, SPEC_PRICES, USDC, PAY_TO, ctx } from './fixtures.js';

const doc = openApiDocument(ctx) as Record<string, any>;
const operations = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, op]) => ({ path, method, op })),
);
const op = (operationId: string) => operations.find((o) => o.op.operationId === operationId)!.op;
const POLLS = { create_music: 'create_music_result', agent_video: 'agent_video_status', agent_image: 'agent_image_status' } as const;
const deref = (value: any): any => (value?.$ref ? value.$ref.split('/').slice(1).reduce((o: any, k: string) => o[k], doc) : value);

describe('OpenAPI document: validity', () => {
  it('is a valid OpenAPI 3.1.0 document whose references all resolve', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(doc.openapi).toBe('3.1.0');
    expect(() => validator.resolveRefs()).not.toThrow();
  });
  it('the validator rejects a broken document (the check above can fail)', async () => {
    const broken = structuredClone(doc);
    delete broken.paths['/create-music'].post.responses['202'].description;
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });
  it('serves the request base URL', () => {
    expect(doc.servers).toEqual([{ url: BASE }]);
  });
});

describe('OpenAPI document: the six operations of the spec, and the three cancels', () => {
  it('lists exactly the three paid POSTs, their three free poll GETs with the spec operationIds, the three cancel POSTs (additive, docs/decisions/0017) and the purchases GET (additive, docs/decisions/0020)', () => {
    expect(operations.map((o) => `${o.method.toUpperCase()} ${o.path} ${o.op.operationId}`).sort()).toEqual(
      [
        'POST /create-music create_music',
        'GET /api/songs/{songId} create_music_result',
        'POST /agent/video agent_video',
        'GET /agent/video/{jobId} agent_video_status',
        'POST /agent/image agent_image',
        'GET /agent/image/{jobId} agent_image_status',
        'POST /api/songs/{songId}/cancel create_music_cancel',
        'POST /agent/video/{jobId}/cancel agent_video_cancel',
        'POST /agent/image/{jobId}/cancel agent_image_cancel',
        'GET /api/purchases list_purchases',
      ].sort(),
    );
  });
  it('takes them from the route table', () => {
    const fromTable = ROUTES.filter((r) => r.surface === 'generation' && r.operationId).map((r) => `${r.method.toLowerCase()} ${r.path} ${r.operationId}`);
    expect(operations.map((o) => `${o.method} ${o.path} ${o.op.operationId}`).sort()).toEqual(fromTable.sort());
  });
});

describe('OpenAPI document: paid operations', () => {
  it.each(IDS)('%s: request body is the catalog schema the endpoint validates with', (id) => {
    const body = op(id).requestBody;
    expect(body.required).toBe(true);
    expect(Object.keys(body.content)).toEqual(['application/json']);
    expect(body.description).toContain('Content-Type: application/json');
    expect(deref(body.content['application/json'].schema)).toEqual(productInputSchema(id));
    expect(deref(body.content['application/json'].schema).required).toEqual(['prompt']);
  });

  it.each(IDS)('%s: takes PAYMENT-SIGNATURE, X-Idempotency-Key (max 200), Service-API-Version (enum 1) and ?async', (id) => {
    const params = op(id).parameters.map(deref);
    expect(params.map((p: any) => `${p.in}:${p.name}`)).toEqual(['header:PAYMENT-SIGNATURE', 'header:X-Idempotency-Key', 'header:Service-API-Version', 'query:async']);
    expect(params.every((p: any) => p.required === false)).toBe(true);
    expect(params[1].schema).toMatchObject({ type: 'string', maxLength: 200 });
    expect(params[2].schema).toEqual({ type: 'string', enum: ['1'] });
  });

  it.each(IDS)('%s: answers 200, 202, 400, 402, 409, 422, 429 and 5XX with the spec bodies', (id) => {
    const responses = op(id).responses;
    expect(Object.keys(responses).sort()).toEqual(['200', '202', '400', '402', '409', '422', '429', '5XX']);
    const schemaOf = (status: string) => deref(deref(responses[status]).content['application/json'].schema);
    const accepted = { create_music: 'MusicAccepted', agent_video: 'VideoJob', agent_image: 'ImageJob' }[id];
    const blocking = { create_music: 'MusicBlockingResult', agent_video: 'VideoJob', agent_image: 'ImageJob' }[id];
    expect(schemaOf('202')).toEqual(responseJsonSchema(accepted as never));
    expect(schemaOf('200')).toEqual(responseJsonSchema(blocking as never));
    expect(schemaOf('402')).toEqual(responseJsonSchema('PaymentChallenge'));
    expect(schemaOf('422')).toEqual(responseJsonSchema('ValidationError'));
    for (const status of ['400', '409', '429', '5XX']) expect(schemaOf(status)).toEqual(responseJsonSchema('Error'));
  });

  it.each(IDS)('%s: the 402 example is the challenge the endpoint answers, with its headers', (id) => {
    const r402 = op(id).responses['402'];
    expect(r402.content['application/json'].example).toEqual(paymentChallenge(id, BASE, ctx.terms, REASON_MISSING));
    expect(Object.keys(r402.headers)).toEqual(expect.arrayContaining(['PAYMENT-REQUIRED', 'Service-API-Version', 'RateLimit-Policy', 'RateLimit']));
  });

  it.each(IDS)('%s: 2xx carry PAYMENT-RESPONSE and Service-API-Version; 429 carries Retry-After and the RateLimit headers', (id) => {
    for (const status of ['200', '202']) expect(Object.keys(op(id).responses[status].headers)).toEqual(['Service-API-Version', 'PAYMENT-RESPONSE']);
    expect(Object.keys(deref(op(id).responses['429']).headers)).toEqual([
      'Service-API-Version', 'Retry-After', 'RateLimit-Policy', 'RateLimit', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset',
    ]);
  });

  it.each(IDS)('%s: x-payment states the price and terms of the 402', (id) => {
    expect(op(id)['x-payment']).toEqual({
      protocol: 'x402',
      x402Version: 2,
      scheme: 'exact',
      network: 'eip155:8453',
      asset: USDC,
      payTo: PAY_TO,
      amount: SPEC_PRICES[id].amount,
      priceUsd: SPEC_PRICES[id].priceUsd,
      maxTimeoutSeconds: 300,
      discovery: `${BASE}/.well-known/x402`,
    });
  });
});

describe('OpenAPI document: poll operations', () => {
  it.each(IDS)('%s poll: free GET with a path id, answering the poll shape', (id) => {
    const poll = op(POLLS[id]);
    expect(poll.requestBody).toBeUndefined();
    expect(poll['x-payment']).toBeUndefined();
    expect(poll.parameters[0]).toMatchObject({ in: 'path', required: true, schema: { type: 'string' } });
    const shape = { create_music: 'SongRow', agent_video: 'VideoJob', agent_image: 'ImageJob' }[id];
    expect(deref(poll.responses['200'].content['application/json'].schema)).toEqual(responseJsonSchema(shape as never));
  });
  it('only the music poll answers 404, with { error }', () => {
    expect(deref(op('create_music_result').responses['404'].content['application/json'].schema)).toEqual(responseJsonSchema('NotFound'));
    expect(op('agent_video_status').responses['404']).toBeUndefined();
    expect(op('agent_image_status').responses['404']).toBeUndefined();
  });
});

describe('OpenAPI document: info.x-api-versioning', () => {
  it('states the header, the only version, the default, the 400 code and the deprecation policy', () => {
    const v = doc.info['x-api-versioning'];
    expect(v).toMatchObject({ header: 'Service-API-Version', current: '1', supported: ['1'], minimumNoticeDays: 90, deprecationHeaders: ['Deprecation', 'Sunset', 'Link'] });
    expect(v.unsupported).toContain('unsupported_api_version');
    expect(v.deprecation).toMatch(/RFC 9745/);
    expect(v.deprecation).toMatch(/RFC 8594/);
    expect(v.compatibility).toMatch(/Additive/);
  });
});
