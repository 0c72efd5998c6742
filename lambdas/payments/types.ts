/**
 * x402 v2 wire types (scheme `exact`, EIP-3009 on an EVM network) and the ports the paid request uses.
 * Amounts travel as decimal strings on the wire and as bigint inside the service.
 */
export type Hex = `0x${string}`;

export const X402_VERSION = 2;
export const MAX_TIMEOUT_SECONDS = 300;
/**
 * What Circle's USDC has in common on every network we sell on: its EIP-712 domain version and its decimals. The
 * domain's name differs by network ("USD Coin" on Base, "USDC" on Base Sepolia): it is the network table's
 * `tokenName` (lambdas/shared/networks.ts), never a constant, or a signature made on one network fails on the other.
 */
export const USDC_DOMAIN = { version: '2', decimals: 6 } as const;

export interface PaymentRequirement {
  scheme: 'exact';
  network: string;
  maxAmountRequired: string;
  amount: string;
  asset: Hex;
  payTo: Hex;
  maxTimeoutSeconds: number;
  resource: string;
  description: string;
  mimeType: string;
  docs?: string;
  extra: { name: string; version: string; decimals: number; priceUsd: string };
  outputSchema?: unknown;
}

export interface PaymentChallenge {
  x402Version: 2;
  error: string;
  /** `serviceName` and `tags`: the bazaar extension's service metadata, which a cataloging facilitator reads here. */
  resource: { url: string; description?: string; mimeType?: string; serviceName?: string; tags?: readonly string[] };
  accepts: PaymentRequirement[];
  extensions: Record<string, unknown>;
}

export type { PaymentPayload } from './payload-schema.js';
import type { PaymentPayload } from './payload-schema.js';
export type Authorization = PaymentPayload['payload']['authorization'];

/** A payment that passed verification, ready to be locked and settled. */
export interface VerifiedPayment {
  kind: 'x402';
  payer: Hex;
  amount: bigint;
  network: string;
  asset: Hex;
  payTo: Hex;
  /** Unique per authorization: network, asset, payer and EIP-3009 nonce. */
  nonceKey: string;
  payload: PaymentPayload;
  requirement: PaymentRequirement;
  /**
   * The verification's chain reads (balance, authorization unused) still in flight, when the caller asked for them to
   * overlap the ledger lock (lambdas/payments/core/chain-checks.ts). Never rejects.
   */
  chainChecks?: Promise<ChainChecks>;
}

/** What the verification's chain reads found: pays, refused with a reason, or could not be read. */
export type ChainChecks = { ok: true } | { ok: false; reason: string } | { ok: false; unavailable: string };

export type VerifyResult = { ok: true; payment: VerifiedPayment } | { ok: false; reason: string };

export type SettleResult =
  /** `preconfirmed`: the receipt came from the preconfirmation endpoint; the sealed block is still to come. */
  | { ok: true; transaction: Hex; network: string; payer: Hex; preconfirmed?: true }
  | {
      ok: false;
      reason: string;
      /** true when a transaction may have reached the chain */
      broadcast: boolean;
      /** The settler is back-pressured (every key busy): worth retrying after this many seconds. */
      retryAfterSeconds?: number;
      /** The settler cannot take payments (no key, every key below its gas floor): a 503, not the buyer's fault. */
      unavailable?: boolean;
    };

/** Verifies a decoded payload against the requirement of the endpoint being paid. */
export interface PaymentVerifier {
  /** `deferChainChecks`: verified once the off-chain checks pass, the chain reads left in `payment.chainChecks`. */
  verify(payload: PaymentPayload, requirement: PaymentRequirement, options?: { deferChainChecks?: boolean }): Promise<VerifyResult>;
}

/** Moves the money: self-settlement with a gas key, or a remote facilitator. */
export interface PaymentSettler {
  settle(payment: VerifiedPayment, options?: ChargeOptions): Promise<SettleResult>;
}

export interface ChargeOptions {
  /** Epoch ms: stop waiting for a receipt by then (the outcome is then unknown, `broadcast: true`). */
  deadline?: number;
  /**
   * A preconfirmed receipt will do (docs/decisions/0021): the purchase delivers nothing before the block is sealed
   * (a generation job). Without a preconfirmation endpoint configured, the sealed receipt is waited for as always.
   */
  preconfirmation?: boolean;
  /**
   * Called once, when the node has taken the transfer and before its receipt is awaited: money is about to move, so
   * work that waits for nothing more (an agent's model reasoning) may run beside the block wait. Never called when
   * nothing was sent; a settler that cannot tell when it sent (a remote facilitator, a token's issuer) never calls it.
   */
  onBroadcast?: () => void;
  /**
   * The settlement may begin before the purchase is ready to pay (its lock and chain checks still running): a settler
   * that can leases a key that is free at once and estimates, but chooses no nonce and sends nothing until `proceed`
   * resolves true; false gives everything back and answers a refusal with nothing sent. A settler that cannot prepare
   * simply waits for it.
   */
  proceed?: Promise<boolean>;
}

/** Outcome of moving the money of an accepted payment (settling an authorization, charging a token). */
export type ChargeResult =
  | { ok: true; transaction: string; network: string; payer: string; preconfirmed?: true }
  | { ok: false; reason: string; broadcast: boolean; retryAfterSeconds?: number; unavailable?: boolean };

/** The receipt carried, base64-encoded, in the PAYMENT-RESPONSE header. */
export interface PaymentReceipt {
  success: true;
  transaction: string;
  network: string;
  payer: string;
  /** The transfer was preconfirmed, not yet sealed in a block (docs/decisions/0021); absent once it is. */
  preconfirmed?: true;
}

export { encodeBase64Json } from '../shared/http.js';
