/**
 * Workspaces and prepaid credit against the embedded service, with the official clients (docs/decisions/0013; spec:
 * agent-studio endpoints `/api/gateway/topup`, Authentication 5, Limits "Top-up tier"): a workspace is created, its
 * balance read, topped up through @x402/fetch (v2, PAYMENT-SIGNATURE) and x402-fetch 1.x (v1, X-PAYMENT); a replayed
 * payment credits once; a bad key is a 401 before anything is verified or charged; tier 7 is a 400; the ledger lists
 * every top-up with its transaction, newest first, a page at a time.
 */
import { describe, expect, it } from 'vitest';
import { x402Client } from '@x402/core/client';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import { wrapFetchWithPaymentFromConfig } from '@x402/fetch';
import { ExactEvmScheme } from '@x402/evm';
import { wrapFetchWithPayment as wrapFetchV1, decodeXPaymentResponse } from 'x402-fetch';
import { privateKeyToAccount } from 'viem/accounts';
import { fetchFrom, freshBuyer, payingFetch, runtime, transfersFrom, type FetchLike } from '../support/buyer.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

async function newWorkspace(f: FetchLike): Promise<string> {
  const response = await f(`${runtime().agentsUrl}/api/workspaces`, { method: 'POST' });
  expect(response.status).toBe(201);
  const { workspaceKey } = await response.json();
  return workspaceKey;
}

async function credits(f: FetchLike, key: string): Promise<number> {
  const response = await f(`${runtime().agentsUrl}/api/gateway/balance`, { headers: bearer(key) });
  expect(response.status).toBe(200);
  return (await response.json()).credits;
}

/** @x402/fetch over a fetch that keeps every PAYMENT-SIGNATURE it sends (to replay one by hand). */
function recordingPayingFetch(privateKey: `0x${string}`, ip: string) {
  const sent: string[] = [];
  const plain = fetchFrom(ip);
  const recording: FetchLike = async (input, init) => {
    const request = new Request(input, init);
    const signature = request.headers.get('payment-signature');
    if (signature) sent.push(signature);
    return plain(request);
  };
  const pay = wrapFetchWithPaymentFromConfig(recording as typeof fetch, {
    schemes: [{ network: 'eip155:8453', client: new ExactEvmScheme(privateKeyToAccount(privateKey)) }],
    spendControls: { maxAmountPerPayment: '$5' },
  }) as FetchLike;
  return { sent, pay };
}


describe('POST /api/workspaces', () => {
  it('answers 201 with a new workspace key (a UUID), shown once, not cached; its balance starts at 0', async () => {
    const f = fetchFrom('127.0.0.161');
    const response = await f(`${runtime().agentsUrl}/api/workspaces`, { method: 'POST' });
    expect(response.status).toBe(201);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = await response.json();
    expect(Object.keys(body)).toEqual(['workspaceKey']);
    expect(body.workspaceKey).toMatch(UUID);
    expect(await credits(f, body.workspaceKey)).toBe(0);
    expect(await newWorkspace(f)).not.toBe(body.workspaceKey);
  });

  it('is rate-limited per client address (10 an hour), with the rate-limit headers and 429 Retry-After', async () => {
    const f = fetchFrom('127.0.0.162');
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 11; i++) {
      last = await f(`${runtime().agentsUrl}/api/workspaces`, { method: 'POST' });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([...Array(10).fill(201), 429]);
    expect(last!.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(last!.headers.get('ratelimit-policy')).toBe('"workspaces";q=10;w=3600');
    // another address is not limited by it
    expect((await fetchFrom('127.0.0.163')(`${runtime().agentsUrl}/api/workspaces`, { method: 'POST' })).status).toBe(201);
    // A header that reads as a payment (a token-shaped one here) buys no way around the limit: every creation counts.
    const g = fetchFrom('127.0.0.170');
    const tokenShaped = { 'PAYMENT-SIGNATURE': 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln' };
    const withHeader: number[] = [];
    for (let i = 0; i < 11; i++) withHeader.push((await g(`${runtime().agentsUrl}/api/workspaces`, { method: 'POST', headers: tokenShaped })).status);
    expect(withHeader).toEqual([...Array(10).fill(201), 429]);
  });
});

describe('The workspace bearer (Authentication 5): 401 for a missing, malformed or unknown key', () => {
  const f = fetchFrom('127.0.0.164');
  const cases: [string, Record<string, string>, RegExp][] = [
    ['missing', {}, /^Bearer$/],
    ['malformed', { Authorization: 'Bearer not-a-uuid' }, /^Bearer error="invalid_token"/],
    ['not a bearer', { Authorization: 'Basic dXNlcjpwYXNz' }, /^Bearer error="invalid_token"/],
    ['unknown', bearer('00000000-0000-4000-8000-000000000000'), /^Bearer error="invalid_token"/],
  ];
  for (const [name, headers, challenge] of cases) {
    it(`${name}: balance, ledger and top-up answer 401 with WWW-Authenticate`, async () => {
      const { agentsUrl } = runtime();
      for (const [method, path] of [['GET', '/api/gateway/balance'], ['GET', '/api/gateway/ledger'], ['POST', '/api/gateway/topup']]) {
        const response = await f(`${agentsUrl}${path}`, { method, headers });
        expect(response.status, `${method} ${path}`).toBe(401);
        expect(response.headers.get('www-authenticate'), path).toMatch(challenge);
        expect(await response.json()).toMatchObject({ code: 'invalid_token', detail: expect.any(String) });
      }
    });
  }
});

describe('POST /api/gateway/topup', () => {
  it('without payment answers 402 with the tier\'s terms (default 1 USDC; 5 and 20 by ?tier); other tiers 400', async () => {
    const f = fetchFrom('127.0.0.165');
    const key = await newWorkspace(f);
    const { agentsUrl, payTo } = runtime();
    for (const [query, amount] of [['', '1000000'], ['?tier=1', '1000000'], ['?tier=5', '5000000'], ['?tier=20', '20000000']]) {
      const response = await f(`${agentsUrl}/api/gateway/topup${query}`, { method: 'POST', headers: bearer(key) });
      expect(response.status, query).toBe(402);
      const challenge = decodePaymentRequiredHeader(response.headers.get('payment-required')!);
      expect(challenge.accepts).toHaveLength(1);
      expect(challenge.accepts[0]).toMatchObject({ scheme: 'exact', network: 'eip155:8453', amount, payTo });
      expect((await response.json()).accepts[0]).toMatchObject({ network: 'base', maxAmountRequired: amount }); // v1 readers
    }
    for (const tier of ['7', '0', '2', 'one', '1.0', '']) {
      const response = await f(`${agentsUrl}/api/gateway/topup?tier=${tier}`, { method: 'POST', headers: bearer(key) });
      expect(response.status, tier).toBe(400);
      expect(await response.json()).toMatchObject({ code: 'invalid_request', issues: [{ loc: ['query', 'tier'] }] });
    }
  });

  it('@x402/fetch pays tier 1: 200 { creditsAdded, transaction, payer } with PAYMENT-RESPONSE; the same payment replayed credits nothing', async () => {
    const { agentsUrl, payTo } = runtime();
    const buyer = await freshBuyer();
    const f = fetchFrom('127.0.0.166');
    const key = await newWorkspace(f);
    const { sent, pay } = recordingPayingFetch(buyer.privateKey, '127.0.0.166');
    const response = await pay(`${agentsUrl}/api/gateway/topup`, { method: 'POST', headers: bearer(key) });
    const body = await response.json();
    expect(response.status, JSON.stringify(body)).toBe(200);
    expect(body).toEqual({ creditsAdded: 1, transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/), payer: buyer.address });
    expect(decodePaymentResponseHeader(response.headers.get('payment-response')!)).toMatchObject({ success: true, transaction: body.transaction, payer: buyer.address });
    expect(await credits(f, key)).toBe(1);
    expect(sent).toHaveLength(1);

    // The same PAYMENT-SIGNATURE again, to this workspace and to another: nothing more is credited or charged.
    const other = await newWorkspace(f);
    for (const to of [key, other]) {
      const replay = await f(`${agentsUrl}/api/gateway/topup`, { method: 'POST', headers: { ...bearer(to), 'PAYMENT-SIGNATURE': sent[0] } });
      expect(replay.status).toBe(402);
    }
    expect(await credits(f, key)).toBe(1);
    expect(await credits(f, other)).toBe(0);
    expect(await transfersFrom(buyer.address)).toEqual([{ to: payTo, value: 1_000_000n }]);

    // tier 5 adds 5
    const five = await pay(`${agentsUrl}/api/gateway/topup?tier=5`, { method: 'POST', headers: bearer(key) });
    expect(five.status).toBe(200);
    expect(await five.json()).toMatchObject({ creditsAdded: 5 });
    expect(await credits(f, key)).toBe(6);
  });

  it('x402-fetch 1.x (X-PAYMENT) tops up too, with X-PAYMENT-RESPONSE', async () => {
    const { agentsUrl, payTo } = runtime();
    const buyer = await freshBuyer();
    const f = fetchFrom('127.0.0.167');
    const key = await newWorkspace(f);
    const pay = wrapFetchV1(f as typeof fetch, privateKeyToAccount(buyer.privateKey) as never, 1_000_000n);
    const response = await pay(`${agentsUrl}/api/gateway/topup?tier=1`, { method: 'POST', headers: bearer(key) });
    const body = await response.json();
    expect(response.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ creditsAdded: 1, payer: buyer.address });
    expect(response.headers.get('payment-response')).toBeNull();
    expect(decodeXPaymentResponse(response.headers.get('x-payment-response')!)).toMatchObject({ success: true, payer: buyer.address });
    expect(await credits(f, key)).toBe(1);
    expect(await transfersFrom(buyer.address)).toEqual([{ to: payTo, value: 1_000_000n }]);
  });

  it('a bad key with a valid payment is a 401 before the payment is verified or charged', async () => {
    const { agentsUrl } = runtime();
    const buyer = await freshBuyer();
    const f = fetchFrom('127.0.0.168');
    const key = await newWorkspace(f);
    // A real signed payment for this route (made by the client for a good key, never sent with it)...
    const { sent, pay } = recordingPayingFetch(buyer.privateKey, '127.0.0.168');
    const unknown = '00000000-0000-4000-8000-000000000000';
    const refused = await pay(`${agentsUrl}/api/gateway/topup`, { method: 'POST', headers: bearer(unknown) });
    expect(refused.status).toBe(401); // the client never reached a 402, so it never signed
    expect(sent).toHaveLength(0);
    const probe = await f(`${agentsUrl}/api/gateway/topup`, { method: 'POST', headers: bearer(key) });
    const challenge = decodePaymentRequiredHeader(probe.headers.get('payment-required')!);
    const client = new x402Client().register('eip155:8453', new ExactEvmScheme(privateKeyToAccount(buyer.privateKey)));
    const signature = encodePaymentSignatureHeader(await client.createPaymentPayload(challenge));
    // ...sent with an unknown key and with a malformed one: 401, and no transfer.
    for (const headers of [bearer(unknown), { Authorization: 'Bearer nope' }]) {
      const response = await f(`${agentsUrl}/api/gateway/topup`, { method: 'POST', headers: { ...headers, 'PAYMENT-SIGNATURE': signature } });
      expect(response.status).toBe(401);
    }
    expect(await transfersFrom(buyer.address)).toEqual([]);
    // The same payment with the good key still pays (it was never used).
    const paid = await f(`${agentsUrl}/api/gateway/topup`, { method: 'POST', headers: { ...bearer(key), 'PAYMENT-SIGNATURE': signature } });
    expect(paid.status).toBe(200);
    expect(await credits(f, key)).toBe(1);
  });
});

describe('GET /api/gateway/ledger', () => {
  it('lists every top-up with its transaction, newest first, a page at a time (limit, nextCursor)', async () => {
    const { agentsUrl } = runtime();
    const buyer = await freshBuyer();
    const f = fetchFrom('127.0.0.169');
    const key = await newWorkspace(f);
    const pay = payingFetch(buyer.privateKey, '127.0.0.169');
    const transactions: string[] = [];
    for (const tier of [1, 5, 1]) {
      const response = await pay(`${agentsUrl}/api/gateway/topup?tier=${tier}`, { method: 'POST', headers: bearer(key) });
      expect(response.status).toBe(200);
      transactions.push((await response.json()).transaction);
    }
    expect(await credits(f, key)).toBe(7);

    const first = await f(`${agentsUrl}/api/gateway/ledger?limit=2`, { headers: bearer(key) });
    expect(first.status).toBe(200);
    const page1 = await first.json();
    expect(page1.entries).toHaveLength(2);
    expect(page1.nextCursor).toEqual(expect.any(String));
    const second = await (await f(`${agentsUrl}/api/gateway/ledger?limit=2&cursor=${encodeURIComponent(page1.nextCursor)}`, { headers: bearer(key) })).json();
    const entries = [...page1.entries, ...second.entries];
    expect(entries.map((e: any) => e.transaction)).toEqual([...transactions].reverse());
    expect(entries.map((e: any) => e.credits)).toEqual([1, 5, 1]);
    for (const e of entries) expect(e).toMatchObject({ type: 'topup', status: 'credited', payer: buyer.address, entryId: expect.stringMatching(/^topup#/), at: expect.any(String) });
    const times = entries.map((e: any) => e.at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(second.nextCursor === null || (await (await f(`${agentsUrl}/api/gateway/ledger?cursor=${encodeURIComponent(second.nextCursor)}`, { headers: bearer(key) })).json()).entries.length === 0).toBe(true);

    // Another workspace sees none of it, and cannot page with this workspace's cursor.
    const other = await newWorkspace(f);
    expect(await (await f(`${agentsUrl}/api/gateway/ledger`, { headers: bearer(other) })).json()).toEqual({ entries: [], nextCursor: null });
    const stolen = await f(`${agentsUrl}/api/gateway/ledger?cursor=${encodeURIComponent(page1.nextCursor)}`, { headers: bearer(other) });
    expect(stolen.status).toBe(400);
    for (const limit of ['0', '101', 'x']) expect((await f(`${agentsUrl}/api/gateway/ledger?limit=${limit}`, { headers: bearer(key) })).status, limit).toBe(400);
  });
});
