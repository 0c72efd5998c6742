import { describe, expect, it } from 'vitest';
import { wantsBlocking } from '../../../lambdas/shared/http.js';
import type { HttpEvent } from '../../../lambdas/shared/http.js';

const event = (query?: Record<string, string>) => ({ queryStringParameters: query }) as unknown as HttpEvent;

describe('Asynchronous mode rules', () => {
  it('1. a paid call is asynchronous by default', () => {
    expect(wantsBlocking(event(), {})).toBe(false);
  });
  it('2. ?async=false forces a blocking call', () => {
    expect(wantsBlocking(event({ async: 'false' }), {})).toBe(true);
  });
  it('3. only the literal true selects async; 1, yes, on and empty count as false', () => {
    expect(wantsBlocking(event({ async: 'true' }), {})).toBe(false);
    for (const value of ['1', 'yes', 'on', '', 'TRUE']) expect(wantsBlocking(event({ async: value }), {})).toBe(true);
  });
  it('4. asyncMode: true switches async on; asyncMode: false never switches it off', () => {
    expect(wantsBlocking(event({ async: 'false' }), { asyncMode: true })).toBe(false);
    expect(wantsBlocking(event(), { asyncMode: false })).toBe(false);
    expect(wantsBlocking(event({ async: 'true' }), { asyncMode: false })).toBe(false);
  });
});
