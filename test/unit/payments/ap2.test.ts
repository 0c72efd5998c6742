/**
 * AP2 v0.2 merchant authorization (docs/protocols.md "AP2"; spec Authentication item 6): mandates minted by the local test
 * issuer (lib/local/ap2-issuer.ts) on a checkout the merchant issued, checked by verifyMandates before any money
 * moves. One spoiled thing per case.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt, SignJWT, importJWK, exportJWK, generateKeyPair } from 'jose';
import { localAp2Keys, Ap2TestIssuer, type Ap2LocalKeys } from '../../../lib/local/ap2-issuer.js';
import { AP2_ENV, issueCheckout, merchantPublicJwk, resetMerchantConfig, signReceipt, type Sale } from '../../../lambdas/payments/ap2/merchant.js';
import { verifyMandates } from '../../../lambdas/payments/ap2/verify.js';
import { resetSecretCache } from '../../../lambdas/shared/secrets.js';

const PAY_TO = '0x209693Bc6afc0C5328bA36FaF03C514EF312287C';
const sale: Sale = { agent: { slug: 'vendor-risk-read-q0jjq', name: 'Vendor risk read', price: 80_000n }, payTo: PAY_TO };
let keys: Ap2LocalKeys;
const now = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  keys = await localAp2Keys(mkdtempSync(path.join(tmpdir(), 'ap2-unit-')));
  process.env[AP2_ENV.keyFile] = keys.merchantKeyFile;
  process.env[AP2_ENV.trustedIssuers] = keys.trustedIssuers;
  resetSecretCache();
  resetMerchantConfig();
});

async function refusal(mandates: { checkoutMandate: string; paymentMandate: string }, forSale = sale) {
  const verdict = await verifyMandates(mandates, forSale, now());
  expect(verdict.ok).toBe(false);
  return verdict.ok ? undefined : verdict.refusal;
}

describe('Authentication 6: the checkout the merchant issues', () => {
  it('is an ES256 JWT signed with the merchant key naming the agent, the price (USD cents and USDC base units), the payee and a nonce', async () => {
    const checkout = await issueCheckout(sale, now());
    const claims = decodeJwt(checkout.checkout_jwt);
    expect(claims).toMatchObject({ iss: 'paycall-agent-studio', agent: sale.agent.slug, price_usdc: '80000', amount: { amount: 8, currency: 'USD' }, payee: { id: PAY_TO }, nonce: checkout.nonce });
    expect(checkout.amount).toEqual({ amount: 8, currency: 'USD' });
    expect(checkout.checkout_hash).toMatch(/^[\w-]{43}$/);
    expect((await merchantPublicJwk()).d).toBeUndefined();
    expect((await issueCheckout(sale, now())).nonce).not.toBe(checkout.nonce);
  });

  it('refuses to sell a price that is not a whole number of cents', async () => {
    await expect(issueCheckout({ ...sale, agent: { ...sale.agent, price: 80_001n } }, now())).rejects.toThrow(/whole number of cents/);
  });
});

describe('Authentication 6: mandates verified before settlement', () => {
  it('accepts valid mandates on our checkout and returns its nonce to be used once', async () => {
    const checkout = await issueCheckout(sale, now());
    const verdict = await verifyMandates(await keys.issuer.mint(checkout), sale, now());
    expect(verdict).toMatchObject({ ok: true, checkout: { nonce: checkout.nonce, checkoutHash: checkout.checkout_hash } });
  });

  it('refuses a forged mandate (root signed by a key the service does not trust)', async () => {
    const checkout = await issueCheckout(sale, now());
    const forged = await keys.issuer.mint(checkout, { rootKey: await Ap2TestIssuer.strangerKey() });
    expect(await refusal(forged)).toMatchObject({ code: 'invalid_credential' });
  });

  it('refuses a mandate altered after signing', async () => {
    const checkout = await issueCheckout(sale, now());
    const good = await keys.issuer.mint(checkout);
    const [jws, ...rest] = good.paymentMandate.split('~');
    const [h, p, s] = jws.split('.');
    const payload = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
    const altered = [[h, Buffer.from(JSON.stringify({ ...payload, exp: payload.exp as number + 99999 })).toString('base64url'), s].join('.'), ...rest].join('~');
    expect(await refusal({ ...good, paymentMandate: altered })).toMatchObject({ code: 'invalid_credential' });
  });

  it('refuses expired mandates', async () => {
    const checkout = await issueCheckout(sale, now());
    expect((await refusal(await keys.issuer.mint(checkout, { expiresIn: -3600 })))?.message).toMatch(/expired/);
  });

  it('refuses an expired checkout', async () => {
    const checkout = await issueCheckout(sale, now() - 7200);
    expect((await refusal(await keys.issuer.mint(checkout)))?.message).toMatch(/checkout has expired/);
  });

  it('refuses the wrong amount (payment_amount in US cents must be the price)', async () => {
    const checkout = await issueCheckout(sale, now());
    expect((await refusal(await keys.issuer.mint(checkout, { paymentAmount: 7 })))?.message).toMatch(/payment_amount must be \{"amount": 8, "currency": "USD"\}/);
  });

  it('refuses the wrong payee', async () => {
    const checkout = await issueCheckout(sale, now());
    expect((await refusal(await keys.issuer.mint(checkout, { payeeId: '0x000000000000000000000000000000000000dEaD' })))?.message).toMatch(/payee\.id must be our payTo/);
  });

  it('refuses a checkout the merchant did not sign', async () => {
    const checkout = await issueCheckout(sale, now());
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const foreign = await new SignJWT(decodeJwt(checkout.checkout_jwt)).setProtectedHeader({ alg: 'ES256', typ: 'JWT' }).sign(await importJWK(await exportJWK(privateKey), 'ES256'));
    expect((await refusal(await keys.issuer.mint(checkout, { checkoutJwt: foreign })))?.message).toMatch(/not a checkout this merchant signed/);
  });

  it("refuses another agent's checkout and a key binding to another checkout's nonce or audience", async () => {
    const other = await issueCheckout({ ...sale, agent: { slug: 'po-match-x', name: 'PO match', price: 80_000n } }, now());
    expect((await refusal(await keys.issuer.mint(other)))?.message).toMatch(/checkout is for agent 'po-match-x'/);
    const checkout = await issueCheckout(sale, now());
    expect((await refusal(await keys.issuer.mint(checkout, { nonce: 'another-nonce' })))?.message).toMatch(/nonce/);
    expect((await refusal(await keys.issuer.mint(checkout, { aud: 'someone-else' })))?.message).toMatch(/aud is not this merchant/);
  });

  it('refuses an unknown open constraint, and one that is not met', async () => {
    const checkout = await issueCheckout(sale, now());
    expect(await refusal(await keys.issuer.mint(checkout, { extraCheckoutConstraints: [{ type: 'checkout.shipping_window' }] }))).toMatchObject({ code: 'unresolved_constraint' });
    expect(await refusal(await keys.issuer.mint(checkout, { extraPaymentConstraints: [{ type: 'payment.agent_recurrence', frequency: 'DAILY' }] }))).toMatchObject({ code: 'unresolved_constraint' });
    expect(await refusal(await keys.issuer.mint(checkout, { extraPaymentConstraints: [{ type: 'payment.amount_range', currency: 'USD', max: 5 }] }))).toMatchObject({ code: 'unresolved_constraint' });
  });

  it('refuses a mandate that is not a chain, or is missing', async () => {
    const checkout = await issueCheckout(sale, now());
    const good = await keys.issuer.mint(checkout);
    expect((await refusal({ ...good, checkoutMandate: good.checkoutMandate.split('~~')[0] }))?.message).toMatch(/at least two tokens/);
    expect((await refusal({ checkoutMandate: good.checkoutMandate } as never))?.message).toMatch(/PaymentMandateSdJwt/);
  });
});

describe('Authentication 6: checkout receipts', () => {
  it('are JWTs signed by the merchant with status, iss, iat and reference', async () => {
    const receipt = await signReceipt({ status: 'Error', error: 'invalid_mandate', error_description: 'x' }, 'ref', 1);
    expect(decodeJwt(receipt)).toEqual({ status: 'Error', error: 'invalid_mandate', error_description: 'x', iss: 'paycall-agent-studio', iat: 1, reference: 'ref' });
  });
});
