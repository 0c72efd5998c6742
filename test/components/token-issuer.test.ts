/**
 * Agent-payment tokens end to end against the local token issuer: the real TokenVerifier (remote key set over
 * HTTP) and TokenCharger (charge endpoint, seller key file), configured from the issuer's TOKEN_* variables the
 * way the embedded runtime configures the service.
 */
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateKeyPair, SignJWT, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintFromState, MintTokenError } from '../../bin/mint-token.js';
import { startLocalTokenIssuer, type LocalTokenIssuer } from '../../lib/local/token-issuer.js';
import { TokenCharger, type TokenChargeResult } from '../../lambdas/payments/token/charge.js';
import { readTokenConfig, type TokenConfig } from '../../lambdas/payments/token/config.js';
import { TokenVerifier, type TokenVerifyResult } from '../../lambdas/payments/token/verify.js';

const SELLER = 'svc-paycall-music';
const PRICE = 500_000n; // create_music, $0.50
let stateDir: string;
let issuer: LocalTokenIssuer;
let config: TokenConfig;
let verifier: TokenVerifier;
let charger: TokenCharger;
let buyers = 0;

async function connect(): Promise<void> {
  config = readTokenConfig(issuer.env)!;
  verifier = new TokenVerifier({ config });
  charger = new TokenCharger({ chargeUrl: config.chargeUrl, sellerKey: config });
}

beforeAll(async () => {
  stateDir = await mkdtemp(path.join(tmpdir(), 'token-issuer-'));
  issuer = await startLocalTokenIssuer({ port: 0, stateDir, sellerId: SELLER });
  await connect();
});

afterAll(async () => {
  await issuer?.stop();
  if (stateDir) await rm(stateDir, { recursive: true, force: true });
});

/** A fresh buyer holding `usd` at the issuer. */
async function buyerWith(baseUnits: bigint): Promise<string> {
  const buyer = `buyer-${++buyers}`;
  if (baseUnits > 0n) await issuer.fundBuyer(buyer, baseUnits);
  return buyer;
}

/** What the service does with a token: verify against the price, then charge. */
async function pay(token: string, price = PRICE): Promise<{ verified: TokenVerifyResult; charged?: TokenChargeResult }> {
  const verified = await verifier.verify(token, { amount: price, product: 'create_music' });
  if (!verified.ok) return { verified };
  return { verified, charged: await charger.charge(verified.payment) };
}

function reasonOf(result: TokenVerifyResult | TokenChargeResult | undefined): string {
  if (!result || result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result, (_k, v) => (typeof v === 'bigint' ? String(v) : v))}`);
  return result.reason;
}

describe('paying with an agent-payment token from the local issuer', () => {
  it('verifies against the issuer key set, charges the price and debits the buyer', async () => {
    const buyer = await buyerWith(2_000_000n);
    const token = await issuer.mint({ buyer, amountBaseUnits: PRICE });
    const { verified, charged } = await pay(token);
    expect(verified).toMatchObject({ ok: true, payment: { kind: 'token', payer: buyer, amount: PRICE, issuer: issuer.issuer } });
    expect(charged).toEqual({ ok: true, transaction: expect.stringMatching(/^ch_/), network: 'token', payer: buyer });
    expect(issuer.balanceOf(buyer)).toBe(1_500_000n);
  });

  it('charges only the price from a token whose limit is higher', async () => {
    const buyer = await buyerWith(5_000_000n);
    const { charged } = await pay(await issuer.mint({ buyer, amountBaseUnits: 5_000_000n, typ: 'kya-pay+jwt' }));
    expect(charged?.ok).toBe(true);
    expect(issuer.balanceOf(buyer)).toBe(4_500_000n);
  });
});

describe('refused tokens: 402 with a reason, nothing charged', () => {
  it('refuses a forged token (signed with another key under the issuer kid), and so does the issuer', async () => {
    const buyer = await buyerWith(2_000_000n);
    const { keys } = (await (await fetch(config.jwksUrl)).json()) as { keys: JWK[] };
    const { privateKey } = await generateKeyPair('ES256');
    const genuine = await issuer.mint({ buyer, amountBaseUnits: PRICE });
    const claims = JSON.parse(Buffer.from(genuine.split('.')[1], 'base64url').toString('utf8'));
    const forged = await new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid: keys[0].kid, typ: 'pay+jwt' }).sign(privateKey);

    expect(reasonOf((await pay(forged)).verified)).toBe(
      "Agent-payment token refused: signature does not verify against the issuer's key set (forged or altered token)",
    );
    const direct = await charger.charge({ token: forged, amount: PRICE, tokenId: claims.jti, payer: buyer });
    expect(direct).toEqual({ ok: false, reason: expect.stringMatching(/^Token charge refused by the issuer \(invalid_token\): .*signature does not verify/), broadcast: false });
    expect(issuer.balanceOf(buyer)).toBe(2_000_000n);
  });

  it.each([['HS256'], ['none']] as const)('refuses alg %s', async (alg) => {
    const buyer = await buyerWith(2_000_000n);
    const token = await issuer.mint({ buyer, amountBaseUnits: PRICE, alg });
    expect(reasonOf((await pay(token)).verified)).toBe(
      `Agent-payment token refused: header alg "${alg}" is not allowed; tokens must be signed with ES256`,
    );
    const direct = await charger.charge({ token, amount: PRICE, tokenId: 'x', payer: buyer });
    expect(reasonOf(direct)).toMatch(/\(invalid_token\): .*header alg/);
    expect(issuer.balanceOf(buyer)).toBe(2_000_000n);
  });

  it('refuses an expired token', async () => {
    const buyer = await buyerWith(2_000_000n);
    const token = await issuer.mint({ buyer, amountBaseUnits: PRICE, expiresInSeconds: -120 });
    expect(reasonOf((await pay(token)).verified)).toMatch(/^Agent-payment token refused: token expired at \d{4}-\d\d-\d\dT/);
    expect(issuer.balanceOf(buyer)).toBe(2_000_000n);
  });

  it('refuses a token for another seller, and the issuer will not charge it with our key either', async () => {
    const buyer = await buyerWith(2_000_000n);
    const token = await issuer.mint({ buyer, amountBaseUnits: PRICE, sellerId: 'svc-someone-else' });
    expect(reasonOf((await pay(token)).verified)).toBe(
      `Agent-payment token refused: token is for seller service "svc-someone-else", not this service ("${SELLER}")`,
    );
    expect(reasonOf(await charger.charge({ token, amount: PRICE, tokenId: 'x', payer: buyer }))).toMatch(/\(invalid_token\)/);
    expect(issuer.balanceOf(buyer)).toBe(2_000_000n);
  });

  it('refuses a token whose amount does not cover the price', async () => {
    const buyer = await buyerWith(2_000_000n);
    const token = await issuer.mint({ buyer, amountBaseUnits: 150_000n });
    expect(reasonOf((await pay(token)).verified)).toBe('Agent-payment token refused: amount 0.150000 USD does not cover the price 0.500000 USD');
  });

  it('refuses the charge of an underfunded buyer and leaves the ledger unchanged', async () => {
    const buyer = await buyerWith(100_000n);
    const { verified, charged } = await pay(await issuer.mint({ buyer, amountBaseUnits: PRICE }));
    expect(verified.ok).toBe(true);
    expect(charged).toEqual({
      ok: false,
      reason: `Token charge refused by the issuer (insufficient_balance): buyer ${buyer} holds 0.100000 USD, the charge is 0.500000 USD; nothing was charged`,
      broadcast: false,
    });
    expect(issuer.balanceOf(buyer)).toBe(100_000n);
  });

  it('refuses a second charge of the same token', async () => {
    const buyer = await buyerWith(2_000_000n);
    const token = await issuer.mint({ buyer, amountBaseUnits: PRICE });
    expect((await pay(token)).charged?.ok).toBe(true);
    const again = await pay(token);
    expect(reasonOf(again.charged)).toMatch(/^Token charge refused by the issuer \(token_already_charged\): token [\w-]+ was already charged \(ch_[\w-]+\); nothing was charged$/);
    expect(again.charged).toMatchObject({ broadcast: false });
    expect(issuer.balanceOf(buyer)).toBe(1_500_000n);
  });

  it('charges one token exactly once when charged concurrently', async () => {
    const buyer = await buyerWith(10_000_000n);
    const verified = await verifier.verify(await issuer.mint({ buyer, amountBaseUnits: PRICE }), { amount: PRICE });
    if (!verified.ok) throw new Error(verified.reason);
    const results = await Promise.all(Array.from({ length: 8 }, () => charger.charge(verified.payment)));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok && /token_already_charged/.test(r.reason) && !r.broadcast)).toHaveLength(7);
    expect(issuer.balanceOf(buyer)).toBe(9_500_000n);
  });

  it('refuses a charge made with the wrong seller key', async () => {
    const buyer = await buyerWith(2_000_000n);
    const wrongKey = new TokenCharger({ chargeUrl: config.chargeUrl, loadKey: async () => 'not-the-seller-key' });
    const verified = await verifier.verify(await issuer.mint({ buyer, amountBaseUnits: PRICE }), { amount: PRICE });
    if (!verified.ok) throw new Error(verified.reason);
    expect(reasonOf(await wrongKey.charge(verified.payment))).toMatch(/^Token charge refused by the issuer \(unauthorized\)/);
    expect(issuer.balanceOf(buyer)).toBe(2_000_000n);
  });
});

describe('the issuer state dir', () => {
  it('keeps its signing key, seller key and ledger private (0600)', async () => {
    for (const file of ['signing-key.json', 'seller.key', 'ledger.json']) {
      expect((await stat(path.join(stateDir, 'token-issuer', file))).mode & 0o777).toBe(0o600);
    }
  });

  it('keeps balances, spent token ids and the signing key across a restart', async () => {
    const buyer = await buyerWith(3_000_000n);
    const spent = await issuer.mint({ buyer, amountBaseUnits: PRICE });
    const unspent = await issuer.mint({ buyer, amountBaseUnits: PRICE });
    expect((await pay(spent)).charged?.ok).toBe(true);

    await issuer.stop();
    issuer = await startLocalTokenIssuer({ port: 0, stateDir, sellerId: SELLER });
    await connect();

    expect(issuer.balanceOf(buyer)).toBe(2_500_000n);
    expect(reasonOf((await pay(spent)).charged)).toMatch(/token_already_charged/);
    expect((await pay(unspent)).charged?.ok).toBe(true);
    expect(issuer.balanceOf(buyer)).toBe(2_000_000n);
  });
});

describe('npm run mint-token', () => {
  it('mints through the running issuer named in runtime.json, funding the buyer first', async () => {
    await writeFile(path.join(stateDir, 'runtime.json'), JSON.stringify({ tokenIssuerUrl: issuer.url }));
    const result = await mintFromState(stateDir, { buyer: 'cli-buyer', usd: '0.50', fund: '1.25' });
    expect(result.balance).toBe('1.250000');
    const { charged } = await pay(result.token);
    expect(charged?.ok).toBe(true);
    expect(issuer.balanceOf('cli-buyer')).toBe(750_000n);
  });

  it('says so when the service is not running', async () => {
    const empty = await mkdtemp(path.join(tmpdir(), 'token-cli-'));
    await expect(mintFromState(empty, { buyer: 'b', usd: '1' })).rejects.toThrow(MintTokenError);
    await rm(empty, { recursive: true, force: true });
  });
});
