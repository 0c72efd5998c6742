/** JSON body validation with the catalog's zod schema → 422 `detail[]` of `{loc, msg, type}` (FastAPI style). */
import * as z from '../shared/zod.js';
import { ValidationError, type ValidationIssue } from '../shared/errors.js';
import { header, rawBody } from '../shared/http.js';
import type { HttpMiddleware, HttpRequest } from './types.js';

/** `application/json`, with or without parameters (`; charset=utf-8`). */
export function isJsonContentType(value: string | undefined): boolean {
  return value !== undefined && /^\s*application\/json\s*(;|$)/i.test(value);
}

/** `schema`: any zod schema, built with `zod` or `zod/mini` (they share the parser). */
export function validateBody(schema: z.core.$ZodType): HttpMiddleware {
  const before = (request: HttpRequest) => {
    // Spec, request headers of the paid endpoints: Content-Type is required and is application/json. Checked here,
    // after the payment check, so a wrong one is a 422 that charges nothing.
    if (!isJsonContentType(header(request.event, 'content-type'))) {
      throw new ValidationError([{ loc: ['header', 'Content-Type'], msg: 'Content-Type must be application/json', type: 'content_type' }]);
    }
    const text = rawBody(request.event);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new ValidationError([{ loc: ['body'], msg: 'Request body must be valid JSON', type: 'json_invalid' }]);
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new ValidationError([{ loc: ['body'], msg: 'Request body must be a JSON object', type: 'model_attributes_type' }]);
    }
    // reportInput: zod 4 leaves `input` out of issues otherwise, and toIssue tells "missing" from "wrong type" by it.
    const parsed = z.safeParse(schema, value, { reportInput: true });
    if (!parsed.success) throw new ValidationError(parsed.error.issues.map(toIssue));
    request.internal.body = parsed.data;
  };
  return { name: 'validateBody', before };
}

const TYPE_NAMES: Record<string, string> = { string: 'string', number: 'float', int: 'int', boolean: 'bool', object: 'dict', array: 'list' };

export function toIssue(issue: z.core.$ZodIssue): ValidationIssue {
  const loc = ['body', ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))];
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.input === undefined) return { loc, msg: 'Field required', type: 'missing' };
      const expected = TYPE_NAMES[issue.expected] ?? issue.expected;
      return { loc, msg: `Input should be a valid ${issue.expected}`, type: `${expected}_type` };
    }
    case 'too_small':
      return {
        loc,
        msg: issue.message,
        type: issue.origin === 'string' ? 'string_too_short' : 'greater_than_equal',
      };
    case 'too_big':
      return { loc, msg: issue.message, type: issue.origin === 'string' ? 'string_too_long' : 'less_than_equal' };
    case 'invalid_value':
      return { loc, msg: `Input should be ${issue.values.map((v) => `'${String(v)}'`).join(', ')}`, type: 'enum' };
    case 'custom':
      return { loc, msg: issue.message, type: (issue.params?.type as string | undefined) ?? 'value_error' };
    default:
      return { loc, msg: issue.message, type: 'value_error' };
  }
}
