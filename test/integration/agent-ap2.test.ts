/**
 * AP2 v0.2 merchant authorization (experimental; spec Authentication item 6, A2A message send "AP2 required mode";
 * docs/protocols.md "AP2") against the embedded service: a dry run offers the merchant-signed checkout, the local test issuer
 * (lib/local/ap2-issuer.ts, trusted by the service) mints mandates on it, and a paid live run presents them in the
 * run body's `ap2` member, in A2A's extension metadata or as the AP2 samples' data parts. Valid mandates run and
 * settle with a signed Success receipt; forged, expired, wrong-amount, wrong-payee, wrong-checkout and replayed
 * ones are refused with a signed error receipt before any money moves (x402 verified the payment, nothing settled).
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLocalJWKSet, decodeJwt, jwtVerify, type JSONWebKeySet } from 'jose';
import { inject } from 'vitest';
import { fetchFrom, freshBuyer, payingFetch, runtime, transfersFrom, type FetchLike } from '../support/buyer.js';
import { localAp2Keys, Ap2TestIssuer, type CheckoutOffer, type MintOptions } from '../../lib/local/ap2-issuer.js';
import { agentExample, findAgent } from '../../lambdas/agents/registry.js';

const AP2_URI = 'https://github.com/google-agentic-commerce/ap2/v1';
const CHECKOUT_KEY = 'ap2.mandates.CheckoutMandateSdJwt';
const PAYMENT_KEY = 'ap2.mandates.PaymentMandateSdJwt';
const VENDOR_RISK = 'vendor-risk-read-q0jjq'; // $0.08, AP2 optional
const PILOT = 'expense-policy-draft-p9w2m'; // $0.04, AP2 required (registry)
/** Each test its own loopback source address: its unpaid probes (dry runs, first 402s) never reach the rate limit. */
let address = 0;
const nextIp = () => `127.0.117.${++address}`;
const A2A_HEADERS = { 'A2A-Version': '1.0', 'Content-Type': 'application/json' };

const agentsUrl = () => runtime().agentsUrl as string;
const inputOf = (slug: string) => agentExample(findAgent(slug)!).input;
let issuer: Ap2TestIssuer;
let buyer: { address: `0x${string}`; privateKey: `0x${string}` };
let paying: FetchLike;
let plain: FetchLike;

beforeAll(async () => {
  issuer = (await localAp2Keys(inject('stateDir'))).issuer;
  buyer = await freshBuyer();
});

beforeEach(() => {
  const ip = nextIp();
  plain = fetchFrom(ip);
  paying = payingFetch(buyer.privateKey, ip);
});

type Mandates = { checkoutMandate: string; paymentMandate: string };

/** How a client presents mandates, and reads the answers, on one entry. */
interface Carriage {
  name: string;
  dryRun(slug: string): Promise<CheckoutOffer>;
  live(f: FetchLike, slug: string, mandates?: Mandates): Promise<{ status: number; body: any; headers: Headers }>;
  receiptOf(answer: { body: any }): string;
  refusalOf(answer: { body: any }): { code: string; ap2Error: string; receipt?: string };
}

const runRoute: Carriage = {
  name: 'run route (body member ap2)',
  async dryRun(slug) {
    const response = await plain(`${agentsUrl()}/api/agents/${slug}/run`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ input: inputOf(slug), dryRun: true }) });
    const body = await response.json();
    expect(response.status).toBe(200);
    return body.ap2.checkout;
  },
  async live(f, slug, mandates) {
    const ap2 = mandates ? { ap2: { [CHECKOUT_KEY]: mandates.checkoutMandate, [PAYMENT_KEY]: mandates.paymentMandate, risk_data: { device: 'test' } } } : {};
    const response = await f(`${agentsUrl()}/api/agents/${slug}/run`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ input: inputOf(slug), ...ap2 }) });
    return { status: response.status, body: await response.json(), headers: response.headers };
  },
  receiptOf: ({ body }) => body.ap2.checkoutReceipt,
  refusalOf: ({ body }) => ({ code: body.code, ap2Error: body.ap2.error, receipt: body.ap2.checkoutReceipt }),
};

function a2aCarriage(name: string, style: 'metadata' | 'parts'): Carriage {
  const send = async (f: FetchLike, slug: string, message: Record<string, unknown>, headers: Record<string, string> = {}) => {
    const response = await f(`${agentsUrl()}/api/agents/${slug}/a2a/message:send`, { method: 'POST', headers: { ...A2A_HEADERS, ...headers }, body: JSON.stringify({ message: { messageId: randomUUID(), role: 'ROLE_USER', ...message } }) });
    return { status: response.status, body: await response.json(), headers: response.headers };
  };
  return {
    name,
    async dryRun(slug) {
      const answer = await send(plain, slug, { parts: [{ data: inputOf(slug) }], metadata: { 'x-service': { dryRun: true } } });
      expect(answer.status).toBe(200);
      return answer.body.message.metadata[AP2_URI]['ap2.checkout'];
    },
    async live(f, slug, mandates) {
      const input = { data: inputOf(slug), mediaType: 'application/json' };
      if (!mandates) return send(f, slug, { parts: [input] });
      if (style === 'metadata') {
        return send(f, slug, { parts: [input], metadata: { [AP2_URI]: { [CHECKOUT_KEY]: mandates.checkoutMandate, [PAYMENT_KEY]: mandates.paymentMandate } } }, { 'A2A-Extensions': AP2_URI });
      }
      // The AP2 samples: one data part per mandate and one for risk data, the deprecated header.
      const parts = [{ data: { [CHECKOUT_KEY]: mandates.checkoutMandate } }, input, { data: { [PAYMENT_KEY]: mandates.paymentMandate } }, { data: { risk_data: 'opaque' } }];
      return send(f, slug, { parts }, { 'X-A2A-Extensions': AP2_URI });
    },
    receiptOf: ({ body }) => body.message.metadata[AP2_URI]['ap2.CheckoutReceipt'],
    refusalOf: ({ body }) => {
      const info = body.error.details.find((d: any) => d['@type'] === 'type.googleapis.com/google.rpc.ErrorInfo');
      return { code: info.reason.toLowerCase(), ap2Error: info.metadata.ap2Error, receipt: info.metadata.checkoutReceipt };
    },
  };
}

const CARRIAGES = [runRoute, a2aCarriage('A2A send (extension metadata, A2A-Extensions)', 'metadata'), a2aCarriage('A2A send (AP2 data parts, X-A2A-Extensions)', 'parts')];

const stranger = () => Ap2TestIssuer.strangerKey();
const SPOILED: [string, (offer: CheckoutOffer) => Promise<MintOptions | { checkoutJwt: string }>, RegExp, string][] = [
  ['forged (root signed by an untrusted key)', async () => ({ rootKey: await stranger() }), /signature does not verify/, 'invalid_credential'],
  ['expired', async () => ({ expiresIn: -3600 }), /expired/, 'invalid_mandate'],
  ['wrong amount', async (offer) => ({ paymentAmount: offer.amount.amount + 1 }), /payment_amount must be/, 'invalid_mandate'],
  ['wrong payee', async () => ({ payeeId: '0x000000000000000000000000000000000000dEaD' }), /payee\.id must be our payTo/, 'invalid_mandate'],
  ['wrong checkout (another agent\'s)', async () => ({ checkoutJwt: (await runRoute.dryRun(PILOT)).checkout_jwt }), /checkout is for agent/, 'invalid_mandate'],
];

/** A JWT we signed, verified against the merchant key set the service publishes (GET /.well-known/jwks.json). */
async function verifiedByUs(jwt: string) {
  const response = await plain(`${agentsUrl()}/.well-known/jwks.json`);
  expect(response.status).toBe(200);
  return (await jwtVerify(jwt, createLocalJWKSet((await response.json()) as JSONWebKeySet), { algorithms: ['ES256'] })).payload;
}

for (const carriage of CARRIAGES) {
  describe(`Authentication 6, AP2 v0.2 merchant authorization: ${carriage.name}`, () => {
    it('a dry run offers the merchant-signed checkout; valid mandates on it run, settle over x402 and get a Success receipt', async () => {
      const offer = await carriage.dryRun(VENDOR_RISK);
      expect(await verifiedByUs(offer.checkout_jwt)).toMatchObject({ agent: VENDOR_RISK, price_usdc: '80000', amount: { amount: 8, currency: 'USD' }, payee: { id: runtime().payTo } });
      const before = (await transfersFrom(buyer.address)).length;
      const answer = await carriage.live(paying, VENDOR_RISK, await issuer.mint(offer));
      expect(answer.status).toBe(200);
      expect(answer.headers.get('payment-response')).toBeTruthy();
      expect(await transfersFrom(buyer.address)).toHaveLength(before + 1);
      const receipt = await verifiedByUs(carriage.receiptOf(answer));
      expect(receipt).toMatchObject({ status: 'Success', iss: 'paycall-agent-studio' });
      expect(receipt.order_id).toBe(answer.body.runId ?? answer.body.message.metadata['x-service'].runId);

      // Replayed: the same mandates (the same checkout) again, with a fresh x402 payment: refused, nothing settles.
      const replay = await carriage.live(paying, VENDOR_RISK, await issuer.mint(offer));
      expect(replay.status).toBe(400);
      expect(carriage.refusalOf(replay)).toMatchObject({ code: 'ap2_mandate_refused', ap2Error: 'invalid_mandate' });
      expect(decodeJwt(carriage.refusalOf(replay).receipt!).error_description).toMatch(/already used/);
      expect(await transfersFrom(buyer.address)).toHaveLength(before + 1);
    });

    for (const [name, spoil, message, ap2Error] of SPOILED) {
      it(`${name} mandates are refused with a signed error receipt before any money moves`, async () => {
        const offer = await carriage.dryRun(VENDOR_RISK);
        const before = (await transfersFrom(buyer.address)).length;
        const answer = await carriage.live(paying, VENDOR_RISK, await issuer.mint(offer, await spoil(offer)));
        expect(answer.status).toBe(400);
        const refusal = carriage.refusalOf(answer);
        expect(refusal).toMatchObject({ code: 'ap2_mandate_refused', ap2Error });
        expect(await verifiedByUs(refusal.receipt!)).toMatchObject({ status: 'Error', error: ap2Error, iss: 'paycall-agent-studio', reference: expect.any(String) });
        expect(decodeJwt(refusal.receipt!).error_description).toMatch(message);
        expect(await transfersFrom(buyer.address)).toHaveLength(before);
        // The checkout was not used up by a refusal: valid mandates on it still buy the run.
      });
    }

    it('AP2 required mode (the pilot agent): a priced live run without mandates is refused with a checkout; a dry run is not; valid mandates run', async () => {
      const before = (await transfersFrom(buyer.address)).length;
      const refused = await carriage.live(paying, PILOT);
      expect(refused.status).toBe(400);
      expect(carriage.refusalOf(refused)).toMatchObject({ code: 'ap2_mandate_required' });
      expect(await transfersFrom(buyer.address)).toHaveLength(before);
      const offer = await carriage.dryRun(PILOT);
      const answer = await carriage.live(paying, PILOT, await issuer.mint(offer));
      expect(answer.status).toBe(200);
      expect(decodeJwt(carriage.receiptOf(answer))).toMatchObject({ status: 'Success' });
      expect(await transfersFrom(buyer.address)).toHaveLength(before + 1);
    });
  });
}

describe('AP2 required mode on A2A: the extension must be activated', () => {
  it('the pilot refuses valid mandates sent as data parts without A2A-Extensions, and takes them with it', async () => {
    const carriage = a2aCarriage('', 'parts');
    const offer = await carriage.dryRun(PILOT);
    const mandates = await issuer.mint(offer);
    const input = { data: inputOf(PILOT), mediaType: 'application/json' };
    const parts = [input, { data: { [CHECKOUT_KEY]: mandates.checkoutMandate } }, { data: { [PAYMENT_KEY]: mandates.paymentMandate } }];
    const post = (headers: Record<string, string>) =>
      paying(`${agentsUrl()}/api/agents/${PILOT}/a2a/message:send`, { method: 'POST', headers: { ...A2A_HEADERS, ...headers }, body: JSON.stringify({ message: { messageId: randomUUID(), role: 'ROLE_USER', parts } }) });
    const refused = await post({});
    expect(refused.status).toBe(400);
    expect(carriage.refusalOf({ body: await refused.json() })).toMatchObject({ code: 'ap2_mandate_required' });
    const accepted = await post({ 'A2A-Extensions': AP2_URI });
    expect(accepted.status).toBe(200);
    expect(accepted.headers.get('a2a-extensions')).toBe(AP2_URI);
  });
});

describe('AP2 on the cards', () => {
  it('advertises the extension with required false, the pilot saying it requires mandates for priced live runs', async () => {
    const card = await (await plain(`${agentsUrl()}/api/agents/${PILOT}/.well-known/agent-card.json`)).json();
    expect(card.capabilities.extensions).toContainEqual(expect.objectContaining({ uri: AP2_URI, required: false, params: expect.objectContaining({ mandates: 'required-for-priced-live-runs' }) }));
  });

  it('points at the merchant key set, which publishes one public ES256 key and no private part', async () => {
    for (const path of ['/.well-known/agent-card.json', `/api/agents/${VENDOR_RISK}/a2a`]) {
      const card = await (await plain(`${agentsUrl()}${path}`)).json();
      const ap2 = card.capabilities.extensions.find((e: { uri: string }) => e.uri === AP2_URI);
      expect(ap2.params.merchantJwksUrl, path).toBe(`${agentsUrl()}/.well-known/jwks.json`);
    }
    const response = await plain(`${agentsUrl()}/.well-known/jwks.json`);
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    const { keys } = await response.json();
    expect(keys).toHaveLength(1);
    expect(keys[0]).toEqual({ kty: 'EC', crv: 'P-256', x: expect.any(String), y: expect.any(String), kid: expect.any(String), alg: 'ES256', use: 'sig' });
    // What it verifies is ours, unaltered: a checkout whose claims were changed after signing does not verify.
    const [head, , signature] = (await runRoute.dryRun(VENDOR_RISK)).checkout_jwt.split('.');
    const cheaper = Buffer.from(JSON.stringify({ ...decodeJwt((await runRoute.dryRun(VENDOR_RISK)).checkout_jwt), price_usdc: '1' })).toString('base64url');
    await expect(verifiedByUs(`${head}.${cheaper}.${signature}`)).rejects.toThrow(/signature verification failed/);
  });

  it('an A2A refusal offers the checkout in a Struct detail keyed by the extension URI', async () => {
    const refused = await a2aCarriage('', 'metadata').live(paying, PILOT);
    const struct = refused.body.error.details.find((d: any) => d['@type'] === 'type.googleapis.com/google.protobuf.Struct');
    expect(struct.value[AP2_URI].checkout.checkout_jwt).toMatch(/^ey/);
  });
});
