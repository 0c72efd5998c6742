/**
 * What a route that takes a sign-in makes of the sign-in authorizer's answer (lambdas/sign-in/context.ts), and the
 * authorizer's own answers (lambdas/http/sign-in-authorizer.ts) for what it can decide without a wallet: the route's
 * URL on each surface, a fresh declaration from the package, a refused header, and a nonce store that does not answer.
 */
import { describe, expect, it } from 'vitest';
import { SIGN_IN_WITH_X } from '@x402/extensions/sign-in-with-x';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createSIWxPayload, encodeSIWxHeader } from '@x402/extensions/sign-in-with-x';
import { SIGN_IN_EXTENSION, signedIn, type SignInContext } from '../../../lambdas/sign-in/context.js';
import { DependencyError, PaymentRequiredError } from '../../../lambdas/shared/errors.js';
import type { HttpEvent } from '../../../lambdas/shared/http.js';
import type { SignInNonceStore } from '../../../lambdas/store/sign-in-nonces.js';

process.env.X402_NETWORK = 'eip155:8453';
// What the authorizer checks at cold start (the stack gives it every table's name; it uses the idempotency table's).
process.env.JOBS_TABLE ??= 'jobs';
process.env.IDEMPOTENCY_TABLE ??= 'idempotency';
const { authorize } = await import('../../../lambdas/http/sign-in-authorizer.js');

const ASK = { description: 'Purchases', missing: 'SIGN-IN-WITH-X header is required' };
const withContext = (lambda?: Partial<SignInContext>) => ({ requestContext: lambda ? { authorizer: { lambda } } : {} }) as unknown as HttpEvent;

describe('a route reads the authorizer answer', () => {
  it('names the same extension key as the package', () => {
    expect(SIGN_IN_EXTENSION).toBe(SIGN_IN_WITH_X);
  });

  it('accepted: the address; none or refused: a 402 with the declaration and no accepts; unavailable: a dependency error; no answer at all: a deployment error', () => {
    expect(signedIn(withContext({ signIn: 'accepted', address: '0xAbC' }), ASK)).toBe('0xAbC');
    const declaration = { info: { nonce: 'n1' } };
    for (const [context, error] of [
      [{ signIn: 'none', url: 'https://api.example.com/api/purchases', declaration: JSON.stringify(declaration) }, ASK.missing],
      [{ signIn: 'refused', reason: 'invalid_siwx_nonce', url: 'https://api.example.com/api/purchases', declaration: JSON.stringify(declaration) }, 'Sign-in refused: invalid_siwx_nonce'],
    ] as const) {
      try {
        signedIn(withContext(context), ASK, { 'WWW-Authenticate': 'Bearer' });
        expect.unreachable();
      } catch (e) {
        expect(e).toBeInstanceOf(PaymentRequiredError);
        expect((e as PaymentRequiredError).challenge).toEqual({
          x402Version: 2,
          error,
          resource: { url: 'https://api.example.com/api/purchases', description: ASK.description, mimeType: 'application/json' },
          accepts: [],
          extensions: { 'sign-in-with-x': declaration },
        });
        expect((e as PaymentRequiredError).extraHeaders).toEqual({ 'WWW-Authenticate': 'Bearer' });
      }
    }
    expect(() => signedIn(withContext({ signIn: 'unavailable' }), ASK)).toThrow(DependencyError);
    expect(() => signedIn(withContext(), ASK)).toThrow(/no sign-in authorizer answer/);
  });
});

/** An authorizer event for `path` on `surface`, with `headers`. */
const authorizerEvent = (surface: string | undefined, path: string, headers: Record<string, string> = {}) =>
  ({ version: '2.0', type: 'REQUEST', rawPath: path, headers: { host: 'api.example.com', 'x-forwarded-proto': 'https', ...headers }, requestContext: { domainName: 'api.example.com' }, stageVariables: surface ? { surface } : undefined }) as never;

const usedNonces: string[] = [];
const store = { use: async (nonce: string) => (usedNonces.includes(nonce) ? false : (usedNonces.push(nonce), true)) } as unknown as SignInNonceStore;
const down = { use: async () => { throw new Error('ProvisionedThroughputExceededException'); } } as unknown as SignInNonceStore;

describe('the sign-in authorizer', () => {
  it('lets every request through: no header is `none` with the package declaration for this route (fresh nonce each time)', async () => {
    const first = await authorize(authorizerEvent('agents', '/api/purchases'), store);
    const second = await authorize(authorizerEvent('agents', '/api/purchases'), store);
    expect(first).toMatchObject({ isAuthorized: true, context: { signIn: 'none', url: 'https://api.example.com/api/purchases' } });
    const declared = JSON.parse((first.context as { declaration: string }).declaration);
    expect(declared.info).toMatchObject({ domain: 'api.example.com', uri: 'https://api.example.com/api/purchases', statement: expect.any(String) });
    expect(declared.supportedChains).toEqual([{ chainId: 'eip155:8453', type: 'eip191' }]);
    expect(JSON.parse((second.context as { declaration: string }).declaration).info.nonce).not.toBe(declared.info.nonce);
  });

  it('a valid sign-in is accepted once (its nonce used), a garbled one refused with a fresh declaration; a store that does not answer is `unavailable`, never refused', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const url = 'https://api.example.com/api/purchases';
    const sign = async () => {
      const declared = JSON.parse(((await authorize(authorizerEvent('generation', '/api/purchases'), store)).context as { declaration: string }).declaration);
      return encodeSIWxHeader(await createSIWxPayload({ ...declared.info, chainId: 'eip155:8453', type: 'eip191' }, account, url));
    };
    const header = await sign();
    const accepted = await authorize(authorizerEvent('generation', '/api/purchases', { 'sign-in-with-x': header }), store);
    expect(accepted).toEqual({ isAuthorized: true, context: { signIn: 'accepted', address: account.address } });
    const replayed = await authorize(authorizerEvent('generation', '/api/purchases', { 'sign-in-with-x': header }), store);
    expect(replayed).toMatchObject({ isAuthorized: true, context: { signIn: 'refused', reason: 'invalid_siwx_nonce', url } });
    expect(await authorize(authorizerEvent('generation', '/api/purchases', { 'sign-in-with-x': 'bm90IGpzb24' }), store)).toMatchObject({ context: { signIn: 'refused', reason: 'invalid_siwx_header' } });
    expect(await authorize(authorizerEvent('generation', '/api/purchases', { 'sign-in-with-x': await sign() }), down)).toEqual({ isAuthorized: true, context: { signIn: 'unavailable' } });
  });

  it('an API whose stage names no surface is a deployment error (API Gateway answers 500)', async () => {
    await expect(authorize(authorizerEvent(undefined, '/api/purchases'), store)).rejects.toThrow(/stage variable/);
    await expect(authorize(authorizerEvent('elsewhere', '/api/purchases'), store)).rejects.toThrow(/stage variable/);
  });
});
