/**
 * x402 `sign-in-with-x` against the embedded service (docs/decisions/0020): `GET /api/purchases` on each surface answers 402 with
 * the package's declaration (no `accepts`: nothing to pay), so the official client hook (`createSIWxClientHook` in
 * @x402/fetch) signs in from the paying wallet and retries by itself; the signed-in wallet gets its own purchases —
 * jobs on the generation surface, paid runs on the agent studio — newest first, paged, each with its URL, price and
 * transaction, and a run's result is fetched again from its URL. Refused: a signature from another wallet, a replayed
 * nonce (also when three copies race), a message for another origin or another route, a cursor of another wallet.
 */
import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import { SIGN_IN_WITH_X } from '@x402/extensions/sign-in-with-x';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { fetchFrom, freshBuyer, payingFetch, runtime, type FetchLike } from '../support/buyer.js';
import { signInHeader, signInInfo, signingFetch } from '../support/sign-in.js';

let sent = 0;
const nextIp = () => `127.0.26.${(sent++ % 250) + 1}`;
const JSON_TYPE = { 'Content-Type': 'application/json' };
const BANK_REC = 'bank-rec-discrepancy-finder-bw0tt';
const IMAGE_PRICE = '150000';

function runBody(amount: string) {
  return JSON.stringify({ input: { bankStatement: `Date,Description,Amount\n11/02/2026,Deposit,${amount}`, bookEntries: `Date,Memo,Debit,Credit\n2026-11-02,Deposit,${amount},` } });
}

/** A funded wallet and its paying client. */
async function buyer() {
  const { address, privateKey } = await freshBuyer();
  return { address, account: privateKeyToAccount(privateKey), pay: payingFetch(privateKey, nextIp()) };
}

/** Every page of a wallet's purchases at `url`, signing in for each (each sign-in's nonce is used once). */
async function allPages(f: FetchLike, url: string, limit: number) {
  const pages: any[] = [];
  let cursor: string | null = null;
  do {
    const response = await f(`${url}?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(response.status).toBe(200);
    const page: any = await response.json();
    pages.push(page);
    cursor = page.nextCursor;
  } while (cursor && pages.length < 10);
  return pages;
}

describe('sign-in-with-x is declared where it grants something', () => {
  it('GET /api/purchases on both surfaces: 402 with the package declaration for this origin and route (fresh nonce, 5 min), no accepts; /.well-known/x402 lists the routes', async () => {
    const { baseUrl, agentsUrl } = runtime();
    const f = fetchFrom(nextIp());
    for (const base of [baseUrl, agentsUrl]) {
      const url = `${base}/api/purchases`;
      const response = await f(url);
      expect(response.status).toBe(402);
      const header = decodePaymentRequiredHeader(response.headers.get('payment-required')!);
      const body = await response.json();
      for (const challenge of [header, body]) {
        expect(challenge).toMatchObject({ x402Version: 2, accepts: [], resource: { url } });
        const declared = challenge.extensions![SIGN_IN_WITH_X] as any;
        expect(declared.info).toMatchObject({ domain: new URL(base).host, uri: url, version: '1', resources: [url] });
        expect(declared.info.nonce).toMatch(/^[0-9a-f]{32}$/);
        // Five minutes: the package reads the clock once for issuedAt and again for expirationTime, so a busy
        // machine can put a millisecond or a few between them.
        const lifetime = Date.parse(declared.info.expirationTime) - Date.parse(declared.info.issuedAt);
        expect(lifetime).toBeGreaterThanOrEqual(300_000);
        expect(lifetime).toBeLessThan(301_000);
        expect(declared.supportedChains).toEqual([{ chainId: 'eip155:8453', type: 'eip191' }]);
        expect(declared.schema.required).toContain('signature');
      }
      const again = decodePaymentRequiredHeader((await f(url)).headers.get('payment-required')!);
      expect((again.extensions![SIGN_IN_WITH_X] as any).info.nonce).not.toBe((header.extensions![SIGN_IN_WITH_X] as any).info.nonce);
      const index = await (await f(`${base}/.well-known/x402`)).json();
      expect(index.signIn).toMatchObject({ extension: SIGN_IN_WITH_X, routes: expect.arrayContaining([url]) });
    }
  });
});

describe('a wallet signs in with the official client hook and gets its own purchases', () => {
  it('generation: the job it paid for, with its poll URL, price and transaction; another wallet sees none of it', async () => {
    const { baseUrl } = runtime();
    const b = await buyer();
    const paid = await b.pay(`${baseUrl}/agent/image`, { method: 'POST', headers: JSON_TYPE, body: JSON.stringify({ prompt: 'a quiet harbour', aspect_ratio: '1:1' }) });
    expect(paid.status).toBe(202);
    const job = await paid.json();
    const transaction = decodePaymentResponseHeader(paid.headers.get('payment-response')!).transaction;

    const list = await signingFetch(b.account, fetchFrom(nextIp()))(`${baseUrl}/api/purchases`);
    expect(list.status).toBe(200);
    expect(list.headers.get('cache-control')).toBe('no-store');
    const body = await list.json();
    expect(body.address.toLowerCase()).toBe(b.address.toLowerCase());
    expect(body.purchases).toEqual([
      { kind: 'job', id: job.jobId, item: 'agent_image', status: expect.any(String), amount: IMAGE_PRICE, priceUsd: '$0.15', transaction, url: job.pollUrl, createdAt: expect.any(String) },
    ]);
    expect(body.nextCursor).toBeNull();

    const stranger = privateKeyToAccount(generatePrivateKey());
    const theirs = await (await signingFetch(stranger, fetchFrom(nextIp()))(`${baseUrl}/api/purchases`)).json();
    expect(theirs).toEqual({ address: stranger.address, purchases: [], nextCursor: null });
  });

  it('an attempt the chain refused (402: the wallet could not pay) is not a purchase on either surface', async () => {
    const { baseUrl, agentsUrl } = runtime();
    const { privateKey } = await freshBuyer(0n);
    const account = privateKeyToAccount(privateKey);
    const pay = payingFetch(privateKey, nextIp());
    const job = await pay(`${baseUrl}/agent/image`, { method: 'POST', headers: JSON_TYPE, body: JSON.stringify({ prompt: 'a quiet harbour' }) });
    expect(job.status).toBe(402);
    expect((await job.json()).error).toBe(`Insufficient USDC balance: ${account.address} holds 0, needs ${IMAGE_PRICE}`);
    const run = await pay(`${agentsUrl}/api/agents/${BANK_REC}/run`, { method: 'POST', headers: JSON_TYPE, body: runBody('12.00') });
    expect(run.status).toBe(402);
    for (const base of [baseUrl, agentsUrl]) {
      const list = await (await signingFetch(account, fetchFrom(nextIp()))(`${base}/api/purchases`)).json();
      expect(list).toEqual({ address: account.address, purchases: [], nextCursor: null });
    }
  });

  it("agent studio: its paid runs newest first, a page at a time; a run's result is fetched again from its URL; another wallet's cursor is refused", async () => {
    const { agentsUrl } = runtime();
    const b = await buyer();
    const answers: any[] = [];
    for (const amount of ['100.00', '250.00']) {
      const response = await b.pay(`${agentsUrl}/api/agents/${BANK_REC}/run`, { method: 'POST', headers: JSON_TYPE, body: runBody(amount) });
      expect(response.status).toBe(200);
      answers.push({ ...(await response.json()), transaction: decodePaymentResponseHeader(response.headers.get('payment-response')!).transaction });
    }
    const signedIn = signingFetch(b.account, fetchFrom(nextIp()));
    const pages = await allPages(signedIn, `${agentsUrl}/api/purchases`, 1);
    const listed = pages.flatMap((page) => page.purchases);
    expect(listed.map((p: any) => p.id)).toEqual([answers[1].runId, answers[0].runId]);
    expect(pages[0].purchases).toHaveLength(1);
    expect(listed[0]).toEqual({
      kind: 'run',
      id: answers[1].runId,
      item: BANK_REC,
      status: 'done',
      amount: expect.stringMatching(/^[1-9]\d*$/),
      priceUsd: expect.any(String),
      transaction: answers[1].transaction,
      url: `${agentsUrl}/api/runs/${answers[1].runId}`,
      createdAt: expect.any(String),
    });

    // The run's result, again, from the URL the signed-in list gave, through the same signing client (the run's URL
    // is the buyer's capability: it asks for no sign-in, so the hook passes the answer through).
    const fetched = await signedIn(listed[1].url);
    expect(fetched.status).toBe(200);
    expect((await fetched.json()).result).toEqual(answers[0].result);

    // A cursor is this wallet's: another wallet signed in with it is refused (400), before any of it is read.
    const stranger = signingFetch(privateKeyToAccount(generatePrivateKey()), fetchFrom(nextIp()));
    const refused = await stranger(`${agentsUrl}/api/purchases?limit=1&cursor=${pages[0].nextCursor}`);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: 'invalid_request', issues: [{ loc: ['query', 'cursor'] }] });
  });
});

describe('a sign-in that does not prove the paying wallet, for this origin and route, once, is refused with a fresh 402', () => {
  it('a signature from another wallet, a replayed nonce (three racing copies: one 200), another origin, another route', async () => {
    const { baseUrl, agentsUrl } = runtime();
    const f = fetchFrom(nextIp());
    const url = `${agentsUrl}/api/purchases`;
    const owner = privateKeyToAccount(generatePrivateKey());
    const other = privateKeyToAccount(generatePrivateKey());
    const refusal = async (header: string, at = url) => {
      const response = await f(at, { headers: { 'SIGN-IN-WITH-X': header } });
      expect(response.status).toBe(402);
      const body = await response.json();
      expect(body.extensions[SIGN_IN_WITH_X].info.uri).toBe(at);
      return body.error as string;
    };

    // Signed by another wallet, claiming the owner's address.
    const forged = await signInHeader(await signInInfo(url, {}, f), other, url, (p) => ({ ...p, address: owner.address }));
    expect(await refusal(forged)).toBe('Sign-in refused: invalid_siwx_signature');

    // The same signed message three times at once: one is accepted, the others are replays.
    const header = await signInHeader(await signInInfo(url, {}, f), owner, url);
    const raced = await Promise.all([0, 1, 2].map(() => f(url, { headers: { 'SIGN-IN-WITH-X': header } })));
    expect(raced.map((r) => r.status).sort()).toEqual([200, 402, 402]);
    expect(await refusal(header)).toBe('Sign-in refused: invalid_siwx_nonce');

    // A message made for another origin (the package's client signs only a challenge bound to the URL it asked).
    const declared = await signInInfo(url, {}, f);
    const elsewhere = 'https://shop.example.net/api/purchases';
    const phished = await signInHeader({ ...declared, info: { ...declared.info, domain: 'shop.example.net', uri: elsewhere, resources: [elsewhere] } }, owner, elsewhere);
    expect(await refusal(phished)).toBe('Sign-in refused: invalid_siwx_domain_mismatch');

    // The generation surface's purchases sign-in, presented to the agent studio's (another origin here), and a sign-in
    // for this origin's purchases presented to a cancel route (another route).
    const generation = await signInHeader(await signInInfo(`${baseUrl}/api/purchases`, {}, f), owner, `${baseUrl}/api/purchases`);
    expect(await refusal(generation)).toBe('Sign-in refused: invalid_siwx_domain_mismatch');
    const purchasesSignIn = await signInHeader(await signInInfo(`${baseUrl}/api/purchases`, {}, f), owner, `${baseUrl}/api/purchases`);
    const cancelUrl = `${baseUrl}/agent/image/00000000-0000-4000-8000-000000000000/cancel`;
    const wrongRoute = await f(cancelUrl, { method: 'POST', headers: { 'SIGN-IN-WITH-X': purchasesSignIn } });
    expect(wrongRoute.status).toBe(402);
    expect((await wrongRoute.json()).error).toBe('Sign-in refused: invalid_siwx_uri_mismatch');

    // Not a sign-in at all.
    expect(await refusal('bm90IGpzb24')).toBe('Sign-in refused: invalid_siwx_header');
  });
});

/** A GET with headers a browser's fetch may not set (`Host`), from `sourceIp`: what another site's server can send. */
function rawGet(url: string, headers: Record<string, string>, sourceIp: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method: 'GET', headers, localAddress: sourceIp }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    request.on('error', reject);
    request.end();
  });
}

describe('the sign-in origin is the service’s own, never a request header', () => {
  it('a wallet’s sign-in for another site (evil.example) is refused with Host: evil.example and X-Forwarded-Proto: https, on both surfaces; the 402 declares our origin whatever Host says', async () => {
    const { baseUrl, agentsUrl } = runtime();
    const ip = nextIp();
    const f = fetchFrom(ip);
    const owner = await buyer();
    // The owner has something to lose on both surfaces: a paid image job and a paid run.
    const image = await owner.pay(`${baseUrl}/agent/image`, { method: 'POST', headers: JSON_TYPE, body: JSON.stringify({ prompt: 'a lighthouse at dawn' }) });
    expect(image.status).toBe(202);
    const run = await owner.pay(`${agentsUrl}/api/agents/${BANK_REC}/run`, { method: 'POST', headers: JSON_TYPE, body: runBody('12.34') });
    expect(run.status).toBe(200);

    const forged = { Host: 'evil.example', 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'evil.example' };
    for (const base of [baseUrl, agentsUrl]) {
      const ours = `${base}/api/purchases`;
      const theirs = 'https://evil.example/api/purchases';
      // Asked with the other site's Host, the 402 still declares this origin and route.
      const asked = await rawGet(ours, forged, ip);
      expect(asked.status).toBe(402);
      const declared = decodePaymentRequiredHeader(asked.headers['payment-required'] as string).extensions![SIGN_IN_WITH_X] as Awaited<ReturnType<typeof signInInfo>>;
      expect(declared.info).toMatchObject({ domain: new URL(base).host, uri: ours, resources: [ours] });

      // The wallet signs in on evil.example, with a nonce of ours the other site relayed: refused here, whatever Host says.
      const elsewhere = { ...declared, info: { ...declared.info, domain: 'evil.example', uri: theirs, resources: [theirs] } };
      const signed = await signInHeader(elsewhere, owner.account, theirs);
      const refused = await rawGet(ours, { ...forged, 'SIGN-IN-WITH-X': signed }, ip);
      expect(refused.status).toBe(402);
      expect(JSON.parse(refused.body).error).toBe('Sign-in refused: invalid_siwx_domain_mismatch');
      expect(refused.body).not.toContain(owner.address.toLowerCase().slice(2, 12));

      // The same wallet signing in for this origin sees its purchase, with any Host.
      const own = await signInHeader(await signInInfo(ours, {}, f), owner.account, ours);
      const mine = await rawGet(ours, { ...forged, 'SIGN-IN-WITH-X': own }, ip);
      expect(mine.status).toBe(200);
      expect(JSON.parse(mine.body).purchases).toHaveLength(1);
    }
  });
});

