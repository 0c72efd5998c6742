/**
 * x402 `offer-receipt` (docs/decisions/0019): every 402's `accepts` entries are signed as offers (EIP-712,
 * domain `x402 offer`), and a settled payment's settlement response carries a signed receipt (domain `x402 receipt`,
 * with the transaction), both made by @x402/extensions' own issuer and server extension
 * (`createEIP712OfferReceiptIssuer`, `createOfferReceiptExtension`), so the wire form is the package's.
 *
 * The signing key is the service's offer-signing key: a secp256k1 private key (32 bytes, hex) in Secrets Manager
 * (`offerSigningKeySecretName`, default `paycall/offer-signing-key`), held as the settlement keys are and never the
 * pay-to wallet's; its address is published in `/.well-known/x402` on both surfaces (`offerReceipt.signer`), so a
 * verifier can tie an offer or receipt to this service (the extension's "signer authorization"). The embedded default
 * keeps one in `<stateDir>/offer-signing-key`.
 *
 * Signing never decides a payment: a 402 whose offers cannot be signed goes out without them, and a paid answer whose
 * receipt cannot be signed goes out without it (logged), never a 5xx after money moved.
 */
import { createEIP712OfferReceiptIssuer, createOfferReceiptExtension, declareOfferReceiptExtension, OFFER_RECEIPT } from '@x402/extensions/offer-receipt';
import { privateKeyToAccount, privateKeyToAddress, type PrivateKeyAccount } from 'viem/accounts';
import { DependencyError } from '../shared/errors.js';
import { loadSecret } from '../shared/secrets.js';
import { isCaip2 } from './core/challenge.js';
import type { PaymentChallenge } from './types.js';

export const OFFER_SIGNER_ENV = { secretId: 'OFFER_SIGNING_KEY_SECRET_ID' } as const;

/** What this service declares: receipts name the transaction (stronger evidence than the privacy-minimal form). */
const DECLARATION = declareOfferReceiptExtension({ includeTxHash: true })[OFFER_RECEIPT];

class OfferSigningKeyError extends DependencyError {
  override name = 'OfferSigningKeyError';
}

function keyHex(raw: string, where: string): `0x${string}` {
  const hex = raw.trim().replace(/^0x/, '');
  // The value is the secret: the message says what is wrong with it, never what it is.
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new OfferSigningKeyError(`The offer-signing key in ${where} is not 32 bytes of hex`);
  return `0x${hex}`;
}

function parseKey(raw: string, where: string): PrivateKeyAccount {
  try {
    return privateKeyToAccount(keyHex(raw, where));
  } catch (error) {
    if (error instanceof OfferSigningKeyError) throw error;
    throw new OfferSigningKeyError(`The offer-signing key in ${where} is not a secp256k1 private key`);
  }
}

/**
 * The offer-signing key's address alone, for the x402 indexes that publish it: no signing code in their bundles
 * (`privateKeyToAddress`, not an account).
 */
export function offerSignerAddress(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return loadSecret(
    { secretId: env[OFFER_SIGNER_ENV.secretId] },
    {
      // Its own name: the loader caches per name and source, and this one holds an address, not an account.
      describe: 'offer-signing key (its address)',
      parse: (raw, where) => {
        try {
          return privateKeyToAddress(keyHex(raw, where));
        } catch (error) {
          if (error instanceof OfferSigningKeyError) throw error;
          throw new OfferSigningKeyError(`The offer-signing key in ${where} is not a secp256k1 private key`);
        }
      },
      error: OfferSigningKeyError,
      configureHint: `set ${OFFER_SIGNER_ENV.secretId}`,
    },
  );
}

/** The offer-signing account (read once per process through the function's grant; a failed read is retried). */
export function offerSigner(env: NodeJS.ProcessEnv = process.env): Promise<PrivateKeyAccount> {
  return loadSecret(
    { secretId: env[OFFER_SIGNER_ENV.secretId] },
    { describe: 'offer-signing key', parse: parseKey, error: OfferSigningKeyError, configureHint: `set ${OFFER_SIGNER_ENV.secretId}` },
  );
}

/** The package's server extension over an account: its offers and receipts, signed with EIP-712. */
function extensionOf(account: PrivateKeyAccount) {
  const issuer = createEIP712OfferReceiptIssuer(`did:pkh:eip155:1:${account.address}`, (params) => account.signTypedData(params as never));
  return createOfferReceiptExtension(issuer);
}

let cached: { account: PrivateKeyAccount; extension: ReturnType<typeof extensionOf> } | undefined;
async function extension(signer: () => Promise<PrivateKeyAccount>) {
  const account = await signer();
  if (cached?.account !== account) cached = { account, extension: extensionOf(account) };
  return cached.extension;
}

/**
 * The `offer-receipt` member of a 402's extensions: one signed offer per x402 v2 entry of `accepts` (the entries
 * PAYMENT-REQUIRED carries, at their index there), valid for the entry's `maxTimeoutSeconds`, and the package's schema.
 */
export async function signedOffers(challenge: PaymentChallenge, signer: () => Promise<PrivateKeyAccount> = offerSigner): Promise<Record<string, unknown> | undefined> {
  const requirements = challenge.accepts.filter((entry) => isCaip2(entry.network));
  if (requirements.length === 0) return undefined;
  const ext = await extension(signer);
  // An offer signs its resource, its entry's terms and its second (validUntil counts whole seconds from now), and
  // ECDSA here is deterministic (RFC 6979): the same route's 402s within one second sign the very same offers, so
  // they are signed once a second per instance (an unpaid probe precedes every paid call).
  const key = JSON.stringify([challenge.resource?.url, requirements.map((r) => [r.scheme, r.network, r.asset, r.payTo, r.amount, r.maxTimeoutSeconds]), Math.floor(Date.now() / 1000)]);
  const hit = offersSigned.get(key);
  if (hit && hit.extension === ext) return hit.offers;
  const offers = (await ext.enrichPaymentRequiredResponse!(DECLARATION, { paymentRequiredResponse: challenge, requirements } as never)) as Record<string, unknown> | undefined;
  if (offers) {
    if (offersSigned.size >= OFFERS_KEPT) offersSigned.delete(offersSigned.keys().next().value!);
    offersSigned.set(key, { extension: ext, offers });
  }
  return offers;
}

/** Offers signed this second, by what they sign (a few routes' worth: the oldest is dropped first). */
const offersSigned = new Map<string, { extension: ReturnType<typeof extensionOf>; offers: Record<string, unknown> }>();
const OFFERS_KEPT = 32;

/** A settlement response (what PAYMENT-RESPONSE carries) as this service writes it. */
export interface SettlementResponse {
  success: boolean;
  transaction?: string;
  network?: string;
  payer?: string;
  extensions?: Record<string, unknown>;
  [member: string]: unknown;
}

/**
 * The settlement response with its signed receipt (`extensions["offer-receipt"]`), for a settled payment only: one
 * that did not succeed, or names no payer, network or transaction, is returned as it is. The network is named by
 * CAIP-2 in the receipt whatever the response says (an x402 v1 response names `base`).
 */
export async function withReceipt(
  response: SettlementResponse,
  resourceUrl: string,
  caip2Network: string,
  signer: () => Promise<PrivateKeyAccount> = offerSigner,
): Promise<SettlementResponse> {
  // A preconfirmed transfer is not yet a settled payment (docs/decisions/0021): no receipt until it is in a block.
  if (!response.success || !response.payer || !response.transaction || response.preconfirmed === true) return response;
  const enrich = (await extension(signer)).enrichSettlementResponse!;
  const result = { ...response, network: caip2Network };
  const receipt = await enrich(DECLARATION, { result, transportContext: { request: { adapter: { getUrl: () => resourceUrl } } } } as never);
  if (!receipt) return response;
  return { ...response, extensions: { ...(response.extensions ?? {}), [OFFER_RECEIPT]: receipt } };
}
