/**
 * Where the agent studio's two run entries find AP2 v0.2 mandates, and what they sell (docs/protocols.md, "AP2"):
 * - the run route: the body's `ap2` member, `{ "ap2.mandates.CheckoutMandateSdJwt": …, "ap2.mandates.PaymentMandateSdJwt": …, "risk_data"?: … }`;
 * - A2A send: `message.metadata[<AP2 extension URI>]` (the same keys) when the extension is activated (the URI in
 *   `message.extensions`, `A2A-Extensions` or the deprecated `X-A2A-Extensions`), and the AP2 samples' extra data
 *   parts (each a data object of those keys only), which never count as the input part.
 */
import { header } from '../../shared/http.js';
import { AP2_EXTENSION_URI, EXTENSIONS_HEADERS } from '../../shared/a2a.js';
import type { HttpRequest } from '../../middleware/types.js';
import { paymentTerms } from '../../payments/x402-backend.js';
import type { Sale } from '../../payments/ap2/merchant.js';
import { CHECKOUT_MANDATE_KEY, PAYMENT_MANDATE_KEY, RISK_DATA_KEY, type PresentedMandates } from '../../payments/ap2/verify.js';
import type { AgentDefinition } from '../../agents/registry.js';
import type { SendRequest } from './a2a-request.js';

const AP2_KEYS = new Set([CHECKOUT_MANDATE_KEY, PAYMENT_MANDATE_KEY, RISK_DATA_KEY]);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function saleOf(agent: AgentDefinition): Sale {
  return { agent: { slug: agent.slug, name: agent.name, price: agent.price }, payTo: paymentTerms().payTo };
}

function mandatesIn(object: Record<string, unknown>): PresentedMandates {
  return { checkoutMandate: object[CHECKOUT_MANDATE_KEY], paymentMandate: object[PAYMENT_MANDATE_KEY], riskData: object[RISK_DATA_KEY] };
}

/** The run body's `ap2` member (the body is validated by then); absent: none presented. */
export function runBodyMandates(request: HttpRequest): PresentedMandates | undefined {
  const ap2 = (request.internal.body as { ap2?: unknown } | undefined)?.ap2;
  return isObject(ap2) ? mandatesIn(ap2) : undefined;
}

/** A part of the AP2 samples: a data part whose object holds AP2's keys and nothing else. */
export function isAp2Part(part: unknown): boolean {
  if (!isObject(part) || !isObject(part.data)) return false;
  const keys = Object.keys(part.data);
  return keys.length > 0 && keys.every((key) => AP2_KEYS.has(key));
}

/** Whether the request activates the AP2 extension (message.extensions, A2A-Extensions, X-A2A-Extensions). */
export function activatesAp2(request: HttpRequest, send: SendRequest | undefined): boolean {
  const listed = (send?.message as { extensions?: unknown } | undefined)?.extensions;
  if (Array.isArray(listed) && listed.includes(AP2_EXTENSION_URI)) return true;
  return EXTENSIONS_HEADERS.some((name) =>
    (header(request.event, name) ?? '')
      .split(',')
      .map((uri) => uri.trim())
      .includes(AP2_EXTENSION_URI),
  );
}

/** The mandates of an A2A send: the extension's metadata when activated, overlaid by the samples' data parts. */
export function sendMandates(request: HttpRequest, send: SendRequest | undefined): PresentedMandates | undefined {
  const found: Record<string, unknown> = {};
  const metadata = send?.message?.metadata;
  if (activatesAp2(request, send) && isObject(metadata) && isObject(metadata[AP2_EXTENSION_URI])) Object.assign(found, metadata[AP2_EXTENSION_URI]);
  const parts = Array.isArray(send?.message?.parts) ? (send.message.parts as unknown[]) : [];
  for (const part of parts) if (isAp2Part(part)) Object.assign(found, (part as { data: Record<string, unknown> }).data);
  return Object.keys(found).some((key) => AP2_KEYS.has(key)) ? mandatesIn(found) : undefined;
}
