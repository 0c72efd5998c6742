/**
 * Agent-payment tokens (spec: Authentication item 3) against the embedded service and its local token issuer:
 * a pay+jwt / kya-pay+jwt token in PAYMENT-SIGNATURE pays any generation endpoint; every bad token gets a 402,
 * is not charged and queues nothing; the agent studio, whose offers take x402 alone, refuses even a good one.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { SignJWT, generateKeyPair, importJWK, type JWK } from 'jose';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import { fetchFrom, pollUntil, runtime } from '../support/buyer.js';

const IP = '127.0.0.14';
const f = fetchFrom(IP);
const issuer = () => runtime().tokenIssuerUrl;

async function tool(path: string, body: Record<string, unknown>) {
  const response = await f(`${issuer()}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const json = (await response.json()) as Record<string, any>;
  if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}
const newBuyer = async (usd = '5') => {
  const buyer = `buyer-${randomUUID()}`;
  await tool('/fund', { buyer, usd });
  return buyer;
};
const mint = async (buyer: string, usd: string, extra: Record<string, unknown> = {}) => (await tool('/mint', { buyer, usd, ...extra })).token as string;
const balance = async (buyer: string) => ((await (await f(`${issuer()}/balance?buyer=${buyer}`)).json()) as { balanceBaseUnits: string }).balanceBaseUnits;

/** Signs claims the way the issuer does, with the issuer's own key (for tokens its mint endpoint will not make). */
async function issuerSigned(claims: Record<string, unknown>, header: Record<string, unknown> = {}) {
  const stored = JSON.parse(readFileSync(join(inject('stateDir'), 'token-issuer', 'signing-key.json'), 'utf8')) as { privateJwk: JWK };
  const key = await importJWK(stored.privateJwk, 'ES256');
  const jwks = (await (await f(`${issuer()}/.well-known/jwks.json`)).json()) as { keys: { kid: string }[] };
  return new SignJWT(claims).setProtectedHeader({ alg: 'ES256', typ: 'pay+jwt', kid: jwks.keys[0].kid, ...header }).sign(key);
}
function claimsOf(token: string) {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>;
}

const pay = (path: string, token: string, body: Record<string, unknown> = { prompt: 'a lighthouse at dusk' }) =>
  f(`${runtime().baseUrl}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'PAYMENT-SIGNATURE': token }, body: JSON.stringify(body) });

describe('Agent-payment token pays a generation endpoint', () => {
  it.each(['pay+jwt', 'kya-pay+jwt'])('a %s token pays /agent/image once: 202, charged the price, the job completes', async (typ) => {
    const buyer = await newBuyer('1');
    const token = typ === 'pay+jwt' ? await mint(buyer, '0.15') : await issuerSigned(claimsOf(await mint(buyer, '0.15')), { typ });
    const response = await pay('/agent/image', token);
    expect(response.status).toBe(202);
    const accepted = (await response.json()) as { pollUrl: string };
    const receipt = JSON.parse(Buffer.from(response.headers.get('payment-response')!, 'base64').toString('utf8'));
    expect(receipt).toMatchObject({ success: true, network: 'token', payer: buyer, transaction: expect.any(String) });
    expect(await balance(buyer)).toBe('850000');
    const done = await pollUntil(f, accepted.pollUrl, (b) => b.status === 'completed' || b.status === 'failed');
    expect(done.status).toBe('completed');
  });

  it('a token whose limit covers the price pays /create-music (only the price is charged)', async () => {
    const buyer = await newBuyer('2');
    const response = await pay('/create-music', await mint(buyer, '1.00'), { prompt: 'sea shanty', make_instrumental: true });
    expect(response.status).toBe(202);
    expect(await balance(buyer)).toBe('1500000');
  });
});

describe('Bad tokens are refused with 402, not charged, nothing queued', () => {
  async function refused(token: string, buyer: string, reason: RegExp, path = '/agent/image') {
    const before = await balance(buyer);
    const response = await pay(path, token);
    expect(response.status).toBe(402);
    const body = (await response.json()) as { error: string; accepts: unknown[] };
    expect(body.error).toMatch(reason);
    expect(body.accepts).toHaveLength(1);
    expect(await balance(buyer)).toBe(before);
  }

  it('a forged token (signed with another key)', async () => {
    const buyer = await newBuyer();
    const { privateKey } = await generateKeyPair('ES256');
    const jwks = (await (await f(`${issuer()}/.well-known/jwks.json`)).json()) as { keys: { kid: string }[] };
    const forged = await new SignJWT(claimsOf(await mint(buyer, '0.15'))).setProtectedHeader({ alg: 'ES256', typ: 'pay+jwt', kid: jwks.keys[0].kid }).sign(privateKey);
    await refused(forged, buyer, /signature/);
  });

  it('a token with the wrong alg (HS256, none)', async () => {
    const buyer = await newBuyer();
    const claims = claimsOf(await mint(buyer, '0.15'));
    const hs = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'pay+jwt' }).sign(new TextEncoder().encode('x'.repeat(32)));
    await refused(hs, buyer, /alg "HS256"/);
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'pay+jwt' })).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;
    await refused(none, buyer, /alg "none"/);
  });

  it('an expired token', async () => {
    const buyer = await newBuyer();
    const now = Math.floor(Date.now() / 1000);
    const expired = await issuerSigned({ ...claimsOf(await mint(buyer, '0.15')), iat: now - 600, exp: now - 120 });
    await refused(expired, buyer, /expired/);
  });

  it('a token for another seller', async () => {
    const buyer = await newBuyer();
    await refused(await mint(buyer, '0.15', { sellerId: 'another-seller' }), buyer, /seller/);
  });

  it('a token whose amount does not cover the price, and a token whose buyer cannot pay', async () => {
    const buyer = await newBuyer();
    await refused(await mint(buyer, '0.10'), buyer, /does not cover the price/);
    const poor = await newBuyer('0.05');
    await refused(await mint(poor, '0.50'), poor, /insufficient_balance/);
  });

  it('a replayed token, also when the replays race: exactly one job, one charge', async () => {
    const buyer = await newBuyer('1');
    const token = await mint(buyer, '0.15');
    const statuses = (await Promise.all(Array.from({ length: 5 }, () => pay('/agent/image', token)))).map((r) => r.status).sort();
    expect(statuses).toEqual([202, 402, 402, 402, 402]);
    expect(await balance(buyer)).toBe('850000');
    await refused(token, buyer, /already used/);
  });
});

describe('The agent studio takes x402 alone: a good token is refused there, not charged', () => {
  it('a priced agent run and an A2A send answer 402 "not accepted here" to a token that would pay /agent/image', async () => {
    const { agentsUrl } = runtime();
    const buyer = await newBuyer('1');
    const token = await mint(buyer, '0.50');
    const run = await f(`${agentsUrl}/api/agents/bank-rec-discrepancy-finder-bw0tt/run`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'PAYMENT-SIGNATURE': token },
      body: JSON.stringify({ input: { bankStatement: 'Date,Description,Amount\n11/02/2026,Deposit,1.00', bookEntries: 'Date,Description,Amount\n11/02/2026,Deposit,1.00' } }),
    });
    expect(run.status).toBe(402);
    expect(decodePaymentRequiredHeader(run.headers.get('payment-required')!)).toMatchObject({ error: 'Agent-payment tokens are not accepted here' });
    const send = await f(`${agentsUrl}/api/agents/bank-rec-discrepancy-finder-bw0tt/a2a/message:send`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/a2a+json', 'A2A-Version': '1.0', 'PAYMENT-SIGNATURE': token },
      body: JSON.stringify({ message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ data: { bankStatement: 'Date,Description,Amount', bookEntries: 'Date,Description,Amount' } }] } }),
    });
    expect(send.status).toBe(402);
    expect(decodePaymentRequiredHeader(send.headers.get('payment-required')!)).toMatchObject({ error: 'Agent-payment tokens are not accepted here' });
    expect(await balance(buyer)).toBe('1000000');
    // The same token still pays where tokens are taken: nothing was spent on the refusals.
    expect((await pay('/agent/image', token)).status).toBe(202);
  });
});
