/**
 * Where the agent studio reads AP2 mandates on A2A send (docs/protocols.md "AP2"): the extension's metadata only when the
 * extension is activated (message.extensions, A2A-Extensions, deprecated X-A2A-Extensions), the AP2 samples' data
 * parts always; those parts never count as the input part.
 */
import { describe, expect, it } from 'vitest';
import * as z from '../../../lambdas/shared/zod.js';
import { activatesAp2, isAp2Part, sendMandates } from '../../../lambdas/http/agents/ap2.js';
import { validSend, type SendRequest } from '../../../lambdas/http/agents/a2a-request.js';
import { ValidationError } from '../../../lambdas/shared/errors.js';
import type { HttpRequest } from '../../../lambdas/middleware/types.js';

const URI = 'https://github.com/google-agentic-commerce/ap2/v1';
const MANDATES = { 'ap2.mandates.CheckoutMandateSdJwt': 'c~~k', 'ap2.mandates.PaymentMandateSdJwt': 'p~~k' };
const request = (headers: Record<string, string> = {}) => ({ event: { headers } }) as unknown as HttpRequest;
const send = (message: Record<string, unknown>): SendRequest => ({ message: { messageId: 'm', role: 'ROLE_USER', ...message } });
const input = { data: { text: 'x' } };

describe('A2A message send: AP2 extension metadata', () => {
  it('is read when the URI is in message.extensions, A2A-Extensions or X-A2A-Extensions', () => {
    const withMetadata = (extra: Record<string, unknown> = {}) => send({ parts: [input], metadata: { [URI]: MANDATES }, ...extra });
    expect(sendMandates(request(), withMetadata({ extensions: [URI] }))).toMatchObject({ checkoutMandate: 'c~~k', paymentMandate: 'p~~k' });
    expect(sendMandates(request({ 'a2a-extensions': `https://example.com/other, ${URI}` }), withMetadata())).toMatchObject({ checkoutMandate: 'c~~k' });
    expect(sendMandates(request({ 'X-A2A-Extensions': URI }), withMetadata())).toMatchObject({ paymentMandate: 'p~~k' });
  });

  it('is ignored when the extension is not activated (A2A: data of an unrequested extension is not read)', () => {
    expect(activatesAp2(request(), send({ parts: [input] }))).toBe(false);
    expect(sendMandates(request(), send({ parts: [input], metadata: { [URI]: MANDATES } }))).toBeUndefined();
  });
});

describe('A2A message send: AP2 data parts', () => {
  it('are read without activation and are not the input part', () => {
    const parts = [{ data: { 'ap2.mandates.CheckoutMandateSdJwt': 'c~~k' } }, input, { data: { 'ap2.mandates.PaymentMandateSdJwt': 'p~~k' } }, { data: { risk_data: 'r' } }];
    expect(sendMandates(request(), send({ parts }))).toEqual({ checkoutMandate: 'c~~k', paymentMandate: 'p~~k', riskData: 'r' });
    expect(validSend('application/json', send({ parts }), z.object({ text: z.string() })).input).toEqual({ text: 'x' });
  });

  it('a data part with other keys beside AP2 ones is an input part, so two inputs are still refused', () => {
    expect(isAp2Part({ data: { risk_data: 'r', text: 'x' } })).toBe(false);
    expect(() => validSend('application/json', send({ parts: [input, { data: { risk_data: 'r', text: 'y' } }] }), z.object({ text: z.string() }))).toThrow(ValidationError);
  });

  it('an input error names the input part at its own index', () => {
    try {
      validSend('application/json', send({ parts: [{ data: MANDATES }, { data: { text: 1 } }] }), z.object({ text: z.string() }));
      expect.unreachable();
    } catch (error) {
      expect((error as ValidationError).issues[0].loc).toEqual(['message', 'parts', 1, 'data', 'text']);
    }
  });
});
