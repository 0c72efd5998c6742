/**
 * The x402 `payment-identifier` extension against the embedded service (docs/spec-choices.md), with the package's own client
 * helper (`appendPaymentIdentifierToExtensions` in an @x402/fetch client's onBeforePaymentCreation hook, as its README
 * shows): every 402 declares it; a client that retries with a freshly signed authorization and the same `id` gets the
 * first answer and is charged once, on each surface (a generation job, an agent run, a workspace top-up); the same
 * `id` with another request is 409 `payment_identifier_conflict` and charges nothing; another wallet's `id` is its own;
 * the identical payload resent (a lost answer) gets the answer back; a malformed `id` is refused before anything moves.
 */
import { describe, expect, it } from 'vitest';
import { x402Client } from '@x402/core/client';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import { wrapFetchWithPayment } from '@x402/fetch';
import { ExactEvmScheme } from '@x402/evm';
import { appendPaymentIdentifierToExtensions, generatePaymentId, PAYMENT_IDENTIFIER } from '@x402/extensions/payment-identifier';
import { privateKeyToAccount } from 'viem/accounts';
import type { Hex } from 'viem';
import { fetchFrom, freshBuyer, runtime, transfersFrom, type FetchLike } from '../support/buyer.js';

let sent = 0;
const nextIp = () => `127.0.24.${(sent++ % 250) + 1}`;
const JSON_TYPE = { 'Content-Type': 'application/json' };
const BANK_REC = 'bank-rec-discrepancy-finder-bw0tt';
const RUN_BODY = JSON.stringify({ input: { bankStatement: 'Date,Description,Amount\n11/02/2026,Deposit,100.00', bookEntries: 'Date,Memo,Debit,Credit\n2026-11-02,Deposit,100.00,' } });

/**
 * A buyer's @x402/fetch that names its payment with `id` (the package's helper, in the client's hook) and keeps every
 * PAYMENT-SIGNATURE it sends. Each call signs a new authorization (a new nonce): a retry as a client makes one.
 */
function identifiedFetch(privateKey: Hex, id: string) {
  const signatures: string[] = [];
  const plain = fetchFrom(nextIp());
  const recording: FetchLike = async (input, init) => {
    const request = new Request(input, init);
    const signature = request.headers.get('payment-signature');
    if (signature) signatures.push(signature);
    return plain(request);
  };
  const client = new x402Client().register('eip155:8453', new ExactEvmScheme(privateKeyToAccount(privateKey)));
  // The client's default cap is $1 a payment; a $5 top-up raises it, as a real buyer would.
  client.setSpendControls({ maxAmountPerPayment: '$5' });
  client.onBeforePaymentCreation(async ({ paymentRequired }) => {
    paymentRequired.extensions ??= {};
    appendPaymentIdentifierToExtensions(paymentRequired.extensions, id);
  });
  return { pay: wrapFetchWithPayment(recording as typeof fetch, client) as FetchLike, signatures };
}

function payload(signature: string): any {
  return JSON.parse(Buffer.from(signature, 'base64').toString('utf8'));
}

describe('payment-identifier is declared', () => {
  it('in every 402 (body and PAYMENT-REQUIRED) and in /.well-known/x402, on both surfaces, as the package declares it', async () => {
    const { baseUrl, agentsUrl } = runtime();
    const f = fetchFrom(nextIp());
    const workspace = (await (await f(`${agentsUrl}/api/workspaces`, { method: 'POST' })).json()).workspaceKey;
    const challenges = [
      await f(`${baseUrl}/agent/image`, { method: 'POST', headers: JSON_TYPE, body: '{}' }),
      await f(`${agentsUrl}/api/agents/${BANK_REC}/run`, { method: 'POST', headers: JSON_TYPE, body: RUN_BODY }),
      await f(`${agentsUrl}/api/gateway/topup?tier=5`, { method: 'POST', headers: { Authorization: `Bearer ${workspace}` } }),
    ];
    for (const response of challenges) {
      expect(response.status).toBe(402);
      const header = decodePaymentRequiredHeader(response.headers.get('payment-required')!);
      const body = await response.json();
      for (const challenge of [header, body]) {
        expect(challenge.extensions![PAYMENT_IDENTIFIER]).toMatchObject({ info: { required: false }, schema: { required: ['required'] } });
      }
    }
    for (const url of [baseUrl, agentsUrl]) {
      const index = await (await f(`${url}/.well-known/x402`)).json();
      for (const resource of index.resources) expect(resource.extensions[PAYMENT_IDENTIFIER]).toMatchObject({ info: { required: false } });
    }
  });
});

describe('payment-identifier: a retry with a new authorization and the same id is charged once', () => {
  it('a generation job: the retry gets the first 202 (same job), one transfer; another body with that id is 409', async () => {
    const { baseUrl, payTo } = runtime();
    const buyer = await freshBuyer();
    const id = generatePaymentId();
    const { pay, signatures } = identifiedFetch(buyer.privateKey, id);
    const body = JSON.stringify({ prompt: 'a lighthouse at dusk, identified' });

    const first = await pay(`${baseUrl}/agent/image`, { method: 'POST', headers: JSON_TYPE, body });
    expect(first.status).toBe(202);
    const job = await first.json();
    const retry = await pay(`${baseUrl}/agent/image`, { method: 'POST', headers: JSON_TYPE, body });
    expect(retry.status).toBe(202);
    expect(await retry.json()).toEqual(job);
    // Two authorizations were signed (two nonces), both naming the id; one was settled.
    expect(signatures).toHaveLength(2);
    expect(new Set(signatures.map((s) => payload(s).payload.authorization.nonce)).size).toBe(2);
    for (const s of signatures) expect(payload(s).extensions[PAYMENT_IDENTIFIER].info.id).toBe(id);
    expect(await transfersFrom(buyer.address)).toEqual([{ to: payTo, value: 150_000n }]);

    // The identical payload resent (the answer was lost): the answer again, nothing more charged.
    const resent = await fetchFrom(nextIp())(`${baseUrl}/agent/image`, { method: 'POST', headers: { ...JSON_TYPE, 'PAYMENT-SIGNATURE': signatures[0] }, body });
    expect(resent.status).toBe(202);
    expect((await resent.json()).jobId).toBe(job.jobId);

    // The same id for another question: the extension's 409, nothing processed or charged.
    const other = await pay(`${baseUrl}/agent/image`, { method: 'POST', headers: JSON_TYPE, body: JSON.stringify({ prompt: 'something else' }) });
    expect(other.status).toBe(409);
    expect(await other.json()).toMatchObject({ code: 'payment_identifier_conflict', detail: expect.any(String) });
    expect(await transfersFrom(buyer.address)).toEqual([{ to: payTo, value: 150_000n }]);
  });

  it("another wallet's id is its own: the same id from a second payer buys its own job", async () => {
    const { baseUrl, payTo } = runtime();
    const id = generatePaymentId();
    const body = JSON.stringify({ prompt: 'two payers, one id' });
    const [a, b] = [await freshBuyer(), await freshBuyer()];
    const first = await identifiedFetch(a.privateKey, id).pay(`${baseUrl}/agent/image`, { method: 'POST', headers: JSON_TYPE, body });
    const second = await identifiedFetch(b.privateKey, id).pay(`${baseUrl}/agent/image`, { method: 'POST', headers: JSON_TYPE, body });
    expect([first.status, second.status]).toEqual([202, 202]);
    expect((await first.json()).jobId).not.toBe((await second.json()).jobId);
    expect(await transfersFrom(a.address)).toEqual([{ to: payTo, value: 150_000n }]);
    expect(await transfersFrom(b.address)).toEqual([{ to: payTo, value: 150_000n }]);
  });

  it('concurrent retries with one id: one charge, every answer the same job', async () => {
    const { baseUrl, payTo } = runtime();
    const buyer = await freshBuyer();
    const id = generatePaymentId();
    const body = JSON.stringify({ prompt: 'three at once' });
    const answers = await Promise.all([0, 1, 2].map(() => identifiedFetch(buyer.privateKey, id).pay(`${baseUrl}/agent/image`, { method: 'POST', headers: JSON_TYPE, body })));
    expect(answers.map((r) => r.status)).toEqual([202, 202, 202]);
    expect(new Set((await Promise.all(answers.map((r) => r.json()))).map((j) => j.jobId)).size).toBe(1);
    expect(await transfersFrom(buyer.address)).toEqual([{ to: payTo, value: 150_000n }]);
  });

  it('an agent run: the retry gets the first 200 (same run, same receipt), one transfer', async () => {
    const { agentsUrl, payTo } = runtime();
    const buyer = await freshBuyer();
    const { pay } = identifiedFetch(buyer.privateKey, generatePaymentId());
    const url = `${agentsUrl}/api/agents/${BANK_REC}/run`;
    const first = await pay(url, { method: 'POST', headers: JSON_TYPE, body: RUN_BODY });
    expect(first.status).toBe(200);
    const run = await first.json();
    const retry = await pay(url, { method: 'POST', headers: JSON_TYPE, body: RUN_BODY });
    expect(retry.status).toBe(200);
    expect(await retry.json()).toEqual(run);
    expect(decodePaymentResponseHeader(retry.headers.get('payment-response')!)).toEqual(decodePaymentResponseHeader(first.headers.get('payment-response')!));
    expect(await transfersFrom(buyer.address)).toEqual([{ to: payTo, value: 60_000n }]);
  });

  it('a workspace top-up: the retry credits once; the same id for another tier is 409', async () => {
    const { agentsUrl, payTo } = runtime();
    const buyer = await freshBuyer();
    const f = fetchFrom(nextIp());
    const key = (await (await f(`${agentsUrl}/api/workspaces`, { method: 'POST' })).json()).workspaceKey;
    const headers = { Authorization: `Bearer ${key}` };
    const { pay } = identifiedFetch(buyer.privateKey, generatePaymentId());
    const first = await pay(`${agentsUrl}/api/gateway/topup?tier=1`, { method: 'POST', headers });
    expect(first.status).toBe(200);
    const credited = await first.json();
    const retry = await pay(`${agentsUrl}/api/gateway/topup?tier=1`, { method: 'POST', headers });
    expect(retry.status).toBe(200);
    expect(await retry.json()).toEqual(credited);
    const otherTier = await pay(`${agentsUrl}/api/gateway/topup?tier=5`, { method: 'POST', headers });
    expect(otherTier.status).toBe(409);
    expect(await otherTier.json()).toMatchObject({ code: 'payment_identifier_conflict' });
    const balance = await (await f(`${agentsUrl}/api/gateway/balance`, { headers })).json();
    expect(balance.credits).toBe(1);
    expect(await transfersFrom(buyer.address)).toEqual([{ to: payTo, value: 1_000_000n }]);
  });
});

describe('payment-identifier: a malformed id', () => {
  it('is refused before anything moves (422 on generation, 400 on the agent studio); unpaid, the 402 comes first', async () => {
    const { baseUrl, agentsUrl } = runtime();
    const buyer = await freshBuyer();
    // The helper itself refuses a malformed id, so the payload is edited after signing (the id is not signed).
    const { pay, signatures } = identifiedFetch(buyer.privateKey, generatePaymentId());
    await pay(`${baseUrl}/agent/image`, { method: 'POST', headers: JSON_TYPE, body: '{"prompt":"x"}' });
    const edited = payload(signatures[0]);
    edited.extensions[PAYMENT_IDENTIFIER].info.id = 'short';
    const header = Buffer.from(JSON.stringify(edited)).toString('base64');
    const before = await transfersFrom(buyer.address);

    const generation = await fetchFrom(nextIp())(`${baseUrl}/agent/image`, { method: 'POST', headers: { ...JSON_TYPE, 'PAYMENT-SIGNATURE': header }, body: '{"prompt":"y"}' });
    expect(generation.status).toBe(422);
    expect((await generation.json()).detail[0]).toMatchObject({ loc: ['header', 'PAYMENT-SIGNATURE', 'extensions', PAYMENT_IDENTIFIER, 'info', 'id'], type: 'payment_identifier_invalid' });
    const agent = await fetchFrom(nextIp())(`${agentsUrl}/api/agents/${BANK_REC}/run`, { method: 'POST', headers: { ...JSON_TYPE, 'PAYMENT-SIGNATURE': header }, body: RUN_BODY });
    expect(agent.status).toBe(400);
    expect(await agent.json()).toMatchObject({ code: 'invalid_request', issues: [{ type: 'payment_identifier_invalid' }] });
    expect(await transfersFrom(buyer.address)).toEqual(before);
  });
});
