/**
 * Body validation (lambdas/middleware/validation.ts) with the catalog's real schemas, behind the generation frame.
 * Spec: "Request headers of the paid endpoints" (Content-Type is required and is application/json), "Errors" (422:
 * `detail` is an array of `{loc, msg, type}`; a request failing validation is never charged), and the request body
 * sections of the three products (required `prompt`; video `durationSeconds` 3 to 15, default 8).
 */
import { describe, expect, it } from 'vitest';
import { frame } from '../../../lambdas/middleware/http-frame.js';
import { validateBody } from '../../../lambdas/middleware/validation.js';
import { imageRequestSchema, MAX_PROMPT_CHARS, musicRequestSchema, videoRequestSchema } from '../../../lambdas/products/catalog.js';
import type { z } from 'zod';
import { GENERATION } from '../../../lambdas/surfaces/surface.js';
import { bodyOf, chain, httpEvent } from '../../support/events.js';

function setup(schema: z.core.$ZodType = musicRequestSchema) {
  return chain([...frame(GENERATION), validateBody(schema)]);
}

/** `contentType` null: no Content-Type header at all. */
const post = (body: string | undefined, contentType: string | null = 'application/json', extra: { isBase64Encoded?: boolean } = {}) =>
  httpEvent({ headers: contentType === null ? {} : { 'content-type': contentType }, body, ...extra });

async function issues(c: ReturnType<typeof setup>, event: ReturnType<typeof post>) {
  const result = await c.invoke(event);
  expect(result.statusCode).toBe(422);
  expect(result.headers['Service-API-Version']).toBe('1');
  expect(c.calls).toBe(0);
  const body = bodyOf(result);
  expect(Object.keys(body)).toEqual(['detail']);
  for (const issue of body.detail) {
    expect(Object.keys(issue).sort()).toEqual(['loc', 'msg', 'type']);
    expect(typeof issue.msg).toBe('string');
  }
  return body.detail as { loc: (string | number)[]; msg: string; type: string }[];
}

describe('Request headers: Content-Type is required and is application/json', () => {
  it.each<[string, string | null]>([
    ['missing', null],
    ['empty', ''],
    ['text/plain', 'text/plain'],
    ['form encoded', 'application/x-www-form-urlencoded'],
    ['a lookalike', 'application/jsonx'],
  ])('answers 422 content_type on loc [header, Content-Type] when %s', async (_what, contentType) => {
    const c = setup();
    expect(await issues(c, post('{"prompt":"x"}', contentType))).toEqual([
      { loc: ['header', 'Content-Type'], msg: expect.any(String), type: 'content_type' },
    ]);
  });

  it('accepts application/json with parameters and in any case', async () => {
    const c = setup();
    for (const contentType of ['application/json', 'application/json; charset=utf-8', 'Application/JSON']) {
      expect((await c.invoke(post('{"prompt":"x"}', contentType))).statusCode).toBe(200);
    }
    expect(c.calls).toBe(3);
  });
});

describe('Errors, 422: a body that is not JSON answers json_invalid', () => {
  it.each([
    ['truncated JSON', '{"prompt":'],
    ['an empty body', undefined],
    ['plain text', 'prompt=x'],
  ])('refuses %s', async (_what, body) => {
    expect(await issues(setup(), post(body))).toEqual([{ loc: ['body'], msg: expect.any(String), type: 'json_invalid' }]);
  });
});

describe('Errors, 422: a JSON body that is not an object answers model_attributes_type', () => {
  it.each([
    ['an array', '[{"prompt":"x"}]'],
    ['a string', '"x"'],
    ['null', 'null'],
    ['a number', '42'],
  ])('refuses %s', async (_what, body) => {
    expect(await issues(setup(), post(body))).toEqual([{ loc: ['body'], msg: expect.any(String), type: 'model_attributes_type' }]);
  });
});

describe('Errors, 422: schema issues are listed with their body path and type', () => {
  it('a missing prompt is type missing, msg Field required', async () => {
    expect(await issues(setup(), post('{}'))).toEqual([{ loc: ['body', 'prompt'], msg: 'Field required', type: 'missing' }]);
  });

  it('a prompt over the maximum is string_too_long', async () => {
    const body = JSON.stringify({ prompt: 'x'.repeat(MAX_PROMPT_CHARS + 1) });
    expect(await issues(setup(), post(body))).toEqual([{ loc: ['body', 'prompt'], msg: expect.any(String), type: 'string_too_long' }]);
  });

  it('a blank prompt is string_too_short (trimmed first)', async () => {
    expect(await issues(setup(), post('{"prompt":"   "}'))).toEqual([{ loc: ['body', 'prompt'], msg: expect.any(String), type: 'string_too_short' }]);
  });

  it('a value outside an enum is type enum, msg naming the allowed values', async () => {
    const [issue] = await issues(setup(imageRequestSchema), post('{"prompt":"x","aspectRatio":"7:7"}'));
    expect(issue).toMatchObject({ loc: ['body', 'aspectRatio'], type: 'enum' });
    expect(issue.msg).toContain("'1:1'");
    expect(issue.msg).toContain("'21:9'");
  });

  it('a video duration out of 3..15 is a range issue', async () => {
    const c = setup(videoRequestSchema);
    expect(await issues(c, post('{"prompt":"x","durationSeconds":2}'))).toEqual([
      { loc: ['body', 'durationSeconds'], msg: expect.any(String), type: 'greater_than_equal' },
    ]);
    expect(await issues(c, post('{"prompt":"x","durationSeconds":16}'))).toEqual([
      { loc: ['body', 'durationSeconds'], msg: expect.any(String), type: 'less_than_equal' },
    ]);
  });

  // zod 4 reports an issue's input only with reportInput: without it a wrong type would read as "missing".
  it('a present value of the wrong type is a <type>_type issue, not "Field required"', async () => {
    expect(await issues(setup(), post('{"prompt":"x","custom_mode":"yes"}'))).toEqual([
      { loc: ['body', 'custom_mode'], msg: 'Input should be a valid boolean', type: 'bool_type' },
    ]);
    expect(await issues(setup(), post('{"prompt":123}'))).toEqual([
      { loc: ['body', 'prompt'], msg: 'Input should be a valid string', type: 'string_type' },
    ]);
  });

  it('lists every issue, and the catalog refinement (lyrics required in custom mode) as missing', async () => {
    const detail = await issues(setup(), post('{"prompt":"","vocal_gender":"x"}'));
    expect(detail.map((i) => [i.loc.join('.'), i.type]).sort()).toEqual([
      ['body.prompt', 'string_too_short'],
      ['body.vocal_gender', 'enum'],
    ]);
    expect(await issues(setup(), post('{"prompt":"x","custom_mode":true}'))).toEqual([
      { loc: ['body', 'lyrics'], msg: expect.any(String), type: 'missing' },
    ]);
  });
});

describe('A valid body is parsed into request.internal.body with the schema applied', () => {
  it('applies the image defaults and trims the prompt', async () => {
    const c = setup(imageRequestSchema);
    const result = await c.invoke(post('{"prompt":"  a lighthouse at dusk  "}'));
    expect(result.statusCode).toBe(200);
    expect(c.internals[0].body).toEqual({ prompt: 'a lighthouse at dusk', aspectRatio: '1:1', outputFormat: 'png' });
  });

  it('applies the video defaults (durationSeconds 8, 16:9)', async () => {
    const c = setup(videoRequestSchema);
    await c.invoke(post('{"prompt":"waves","asyncMode":true}'));
    expect(c.internals[0].body).toEqual({ prompt: 'waves', durationSeconds: 8, aspectRatio: '16:9', asyncMode: true });
  });

  it('decodes a base64 body (API Gateway isBase64Encoded)', async () => {
    const c = setup();
    const body = Buffer.from(JSON.stringify({ prompt: 'lo-fi', style: 'chill' })).toString('base64');
    const result = await c.invoke(post(body, 'application/json', { isBase64Encoded: true }));
    expect(result.statusCode).toBe(200);
    expect(c.internals[0].body).toEqual({ prompt: 'lo-fi', style: 'chill' });
  });
});
