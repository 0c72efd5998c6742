/**
 * The payment core's vocabulary: an Offer (what is sold, at what price, payable how) goes in; discriminated unions
 * come out, for verification (challenge | invalid | verified) and for settlement (settled | refused |
 * unknown-outcome). Adapters (the Middy middleware for HTTP routes, later A2A and MCP) switch on them.
 */
import type { PaymentChallenge, PaymentReceipt, VerifiedPayment } from '../types.js';
import type { VerifiedTokenPayment } from '../token/verify.js';

/** How a buyer may pay an offer: an x402 v2 authorization or a third-party agent-payment token. */
export type PaymentKind = 'x402' | 'token';
export const ALL_PAYMENT_KINDS: readonly PaymentKind[] = ['x402', 'token'];

export interface Offer {
  /** What is sold (a product id, later an agent slug); logged, and bound into an agent-payment token check. */
  id: string;
  /** Price in USDC base units. */
  amount: bigint;
  /** Absolute URL of the paid resource. */
  resource: string;
  description: string;
  method: 'POST';
  /** JSON Schema of the request body (generated from the zod schema of the thing sold). */
  inputSchema: Record<string, unknown>;
  /** An example of the answer, for the 402's outputSchema and the bazaar extension. */
  outputExample?: unknown;
  mimeType: string;
  /** The authorization window we ask for (x402 `maxTimeoutSeconds`). */
  timeoutSeconds: number;
  accepts: readonly PaymentKind[];
  /** Also advertise an x402 v1 entry (network by its v1 name, e.g. `base`) so legacy v1 clients can pay. */
  legacyV1?: boolean;
  /** Where the terms are documented (the OpenAPI document). */
  docs?: string;
  /** Who sells, as the 402's `resource.serviceName` names it (bazaar service metadata: printable ASCII, ≤ 32). */
  serviceName?: string;
  /** x402 bazaar discovery metadata: the contract's category and tags, and the route's official declaration. */
  bazaar?: { category: string; tags: readonly string[]; declaration?: BazaarDeclaration };
}

/**
 * A route's official x402 bazaar declaration (`info` + `schema`), computed at build time by @x402/extensions'
 * declareDiscoveryExtension (lambdas/payments/core/bazaar.source.ts). Functions read it from a
 * `*bazaar*.generated.ts` file, never from the package, whose bazaar chunk carries ajv.
 */
export interface BazaarDeclaration {
  info: Record<string, unknown>;
  schema: Record<string, unknown>;
}

/** A payment that passed verification: an x402 authorization or an agent-payment token, ready to lock and settle. */
export type AcceptedPayment = VerifiedPayment | VerifiedTokenPayment;

/** The outcome of checking a request's payment against an offer. */
export type PaymentDecision =
  /** No payment attached: answer the challenge. */
  | { type: 'challenge'; challenge: PaymentChallenge; headers: Record<string, string> }
  /** A payment that cannot pay this offer (unreadable, refused, a kind not accepted): the challenge, with why. */
  | { type: 'invalid'; reason: string; challenge: PaymentChallenge; headers: Record<string, string> }
  | { type: 'verified'; payment: AcceptedPayment };

/** A decision that answers 402. */
export type PaymentRefusal = Extract<PaymentDecision, { type: 'challenge' | 'invalid' }>;

/** The outcome of moving the money of a verified payment. */
export type Settlement =
  | { type: 'settled'; receipt: PaymentReceipt }
  /** Nothing moved (refused before broadcast, or a reverted transfer): the lock may be released. A back-pressured
   *  settler says when to retry (the spec's 402 with Retry-After). */
  | { type: 'refused'; reason: string; retryAfterSeconds?: number }
  /** The settler cannot take payments now (no key, every key below its gas floor): nothing moved; a 503. */
  | { type: 'unavailable'; reason: string }
  /** Money may have moved (broadcast without a receipt, a charge that timed out): the lock must stay. */
  | { type: 'unknown-outcome'; reason: string };

export interface SettleOptions {
  /** Epoch ms: stop waiting for a receipt by then (the outcome is then unknown). */
  deadline?: number;
  /** A preconfirmed receipt will do (lambdas/payments/types.ts ChargeOptions). */
  preconfirmation?: boolean;
  /** Called once the transfer left for the node, before the receipt is awaited (lambdas/payments/types.ts ChargeOptions). */
  onBroadcast?: () => void;
  /** Prepare now, send only once this resolves true (lambdas/payments/types.ts ChargeOptions); x402 only. */
  proceed?: Promise<boolean>;
}
