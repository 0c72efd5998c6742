/**
 * The embedded default's AP2 v0.2 keys and a local test issuer of mandates (for tests and local tooling; never on AWS).
 *
 * State under <stateDir>/ap2/ (mode 0600, made once): merchant-key.json (the merchant's ES256 private JWK: the
 * AP2_MERCHANT_KEY secret's value) and issuer-key.json (the test credential issuer's ES256 private JWK, whose
 * public half the service trusts through AP2_TRUSTED_ISSUERS).
 *
 * `mint` builds both mandates on a checkout the service offered, the way AP2 v0.2 chains them: a root SD-JWT
 * (`dc+sd-jwt`, the issuer's key) holding the open mandate (constraints selectively disclosed, `cnf.jwk` = a fresh
 * agent key), then a terminal KB-SD-JWT (`kb+sd-jwt`, the agent key; `sd_hash` of the root, our `aud` and the
 * checkout's `nonce`) whose `delegate_payload` discloses the closed mandate. Options spoil one thing at a time.
 */
import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import type { OfferedCheckout } from '../../lambdas/payments/ap2/merchant.js';

export interface Ap2LocalKeys {
  merchantKeyFile: string;
  /** The merchant's private JWK as the secret holds it (JSON). */
  merchantKey: () => Promise<string>;
  /** AP2_TRUSTED_ISSUERS: the test issuer's public key set (JSON). */
  trustedIssuers: string;
  issuer: Ap2TestIssuer;
}

async function keyFile(file: string): Promise<JWK> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as JWK;
  } catch {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const jwk = await exportJWK(privateKey);
    const { d: _d, ...pub } = jwk;
    const stored = { ...jwk, kid: await calculateJwkThumbprint(pub as JWK), alg: 'ES256' };
    await writeFile(file, JSON.stringify(stored), { mode: 0o600 });
    await chmod(file, 0o600);
    return stored;
  }
}

export async function localAp2Keys(stateDir: string): Promise<Ap2LocalKeys> {
  const dir = path.join(stateDir, 'ap2');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const merchantKeyFile = path.join(dir, 'merchant-key.json');
  await keyFile(merchantKeyFile);
  const issuerJwk = await keyFile(path.join(dir, 'issuer-key.json'));
  const { d: _d, ...issuerPublic } = issuerJwk;
  return {
    merchantKeyFile,
    merchantKey: () => readFile(merchantKeyFile, 'utf8'),
    trustedIssuers: JSON.stringify({ keys: [issuerPublic] }),
    issuer: new Ap2TestIssuer(issuerJwk),
  };
}

/** What a checkout offered by the service gives the client: the merchant's own type, less its expiry. */
export type CheckoutOffer = Omit<OfferedCheckout, 'expires_at'>;

export interface MintOptions {
  /** Sign the root with this key instead of the trusted issuer's (a forged mandate). */
  rootKey?: JWK;
  /** Seconds from now the mandates expire (negative: already expired). Default 600. */
  expiresIn?: number;
  paymentAmount?: number;
  payeeId?: string;
  /** Present another checkout JWT (e.g. one the merchant never signed). */
  checkoutJwt?: string;
  nonce?: string;
  aud?: string;
  extraCheckoutConstraints?: Record<string, unknown>[];
  extraPaymentConstraints?: Record<string, unknown>[];
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const sha = (text: string) => createHash('sha256').update(text, 'ascii').digest('base64url');

export class Ap2TestIssuer {
  constructor(private readonly issuerJwk: JWK) {}

  /** A key this issuer is not: for forged mandates. */
  static async strangerKey(): Promise<JWK> {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    return { ...(await exportJWK(privateKey)), kid: '' };
  }

  async mint(offer: CheckoutOffer, options: MintOptions = {}): Promise<{ checkoutMandate: string; paymentMandate: string }> {
    const now = Math.floor(Date.now() / 1000);
    const exp = now + (options.expiresIn ?? 600);
    const checkoutJwt = options.checkoutJwt ?? offer.checkout_jwt;
    const checkoutHash = sha(checkoutJwt);
    const binding = { aud: options.aud ?? offer.aud, nonce: options.nonce ?? offer.nonce };
    const rootKey = options.rootKey ? { ...options.rootKey, kid: this.issuerJwk.kid } : this.issuerJwk;

    const checkoutMandate = await this.chain(
      rootKey,
      {
        vct: 'mandate.checkout.open.1',
        constraints: [
          { type: 'checkout.allowed_merchants', allowed: [offer.merchant] },
          { type: 'checkout.line_items', items: [{ id: 'run', acceptable_items: lineItemsOf(offer), quantity: 1 }] },
          ...(options.extraCheckoutConstraints ?? []),
        ],
      },
      { vct: 'mandate.checkout.1', checkout_jwt: checkoutJwt, checkout_hash: checkoutHash, iat: now, exp },
      binding,
      exp,
    );
    const openCheckout = checkoutMandate.slice(0, checkoutMandate.indexOf('~~') + 1);
    const payee = { id: options.payeeId ?? offer.payee.id, name: offer.payee.name };
    const paymentMandate = await this.chain(
      rootKey,
      {
        vct: 'mandate.payment.open.1',
        constraints: [
          { type: 'payment.amount_range', currency: 'USD', max: 10_000 },
          { type: 'payment.allowed_payees', allowed: [offer.payee] },
          { type: 'payment.reference', conditional_transaction_id: sha(openCheckout) },
          ...(options.extraPaymentConstraints ?? []),
        ],
      },
      {
        vct: 'mandate.payment.1',
        transaction_id: checkoutHash,
        payee,
        payment_amount: { amount: options.paymentAmount ?? offer.amount.amount, currency: 'USD' },
        payment_instrument: { id: 'usdc-base-wallet', type: 'crypto_wallet', description: 'USDC on Base (x402)' },
        iat: now,
        exp,
      },
      binding,
      exp,
    );
    return { checkoutMandate, paymentMandate };
  }

  /** root SD-JWT (open mandate, constraints disclosed) ~ terminal KB-SD-JWT (closed mandate disclosed in delegate_payload). */
  private async chain(rootJwk: JWK, open: Record<string, unknown>, closed: Record<string, unknown>, binding: { aud: string; nonce: string }, exp: number): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const { privateKey: agentKey } = await generateKeyPair('ES256', { extractable: true });
    const agentJwk = await exportJWK(agentKey);
    const { d: _d, ...agentPublic } = agentJwk;
    const { constraints, ...openRest } = open;
    const constraintsDisclosure = b64([randomBytes(12).toString('base64url'), 'constraints', constraints]);
    const rootPayload = { ...openRest, iss: 'urn:paycall:local-ap2-issuer', iat: now, exp, _sd_alg: 'sha-256', _sd: [sha(constraintsDisclosure)], cnf: { jwk: agentPublic } };
    const rootJws = await new SignJWT(rootPayload).setProtectedHeader({ alg: 'ES256', typ: 'dc+sd-jwt', kid: rootJwk.kid }).sign(await importJWK(rootJwk, 'ES256'));
    const root = `${rootJws}~${constraintsDisclosure}~`;
    const closedDisclosure = b64([randomBytes(12).toString('base64url'), closed]);
    const terminalPayload = { iat: now, aud: binding.aud, nonce: binding.nonce, sd_hash: sha(root), _sd_alg: 'sha-256', delegate_payload: [sha(closedDisclosure)] };
    const terminalJws = await new SignJWT(terminalPayload).setProtectedHeader({ alg: 'ES256', typ: 'kb+sd-jwt' }).sign(agentKey);
    return `${root}~${terminalJws}~${closedDisclosure}~`;
  }
}

function lineItemsOf(offer: CheckoutOffer): { id: string; title: string }[] {
  const [, payload] = offer.checkout_jwt.split('.');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { line_items: { item: { id: string; title: string } }[] };
  return claims.line_items.map((line) => line.item);
}
