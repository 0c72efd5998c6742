/**
 * `/llms.txt` and `/llms-full.txt` in the llmstxt.org format: an H1 title, a blockquote summary, then H2 sections
 * of markdown link lists (an `Optional` section last). The full variant adds the x402 flow, the prices and each
 * product's input schema, all from the catalog and the 402's own payment requirement.
 */
import { PRODUCTS, PRODUCT_IDS, type ProductId } from '../../products/products.js';
import { ACCEPTED_EXAMPLES } from '../../products/examples.js';
import { paymentRequirement, productInputSchema } from '../../jobs/offers.js';
import { GENERATION } from '../../surfaces/surface.js';

const API_VERSION = GENERATION.version!.current;
import { SERVICE, chainIdOf, links, type DiscoveryContext } from './context.js';

function productLine(product: ProductId, ctx: DiscoveryContext): string {
  const p = PRODUCTS[product];
  const r = paymentRequirement(product, ctx.base, ctx.terms);
  return `- [${product}](${links(ctx.base).product(product)}): ${p.description} \`POST ${p.path}\`, ${r.extra.priceUsd} per call (${r.amount} USDC base units); free poll \`GET ${p.pollPath}\`.`;
}

function head(ctx: DiscoveryContext): string[] {
  const l = links(ctx.base);
  return [
    `# ${SERVICE.name}`,
    '',
    `> ${SERVICE.summary}`,
    '',
    `Base URL: ${ctx.base}. Every paid POST answers 402 with x402 v2 terms when sent without payment; resend it with the ` +
      'signed payment in the PAYMENT-SIGNATURE header. Paid calls answer 202 with a pollUrl (asynchronous by default); ' +
      'polling is free. The ids create_music, agent_video and agent_image name each offering everywhere.',
    '',
    '## Products',
    '',
    ...PRODUCT_IDS.map((id) => productLine(id, ctx)),
    '',
    '## Documents',
    '',
    `- [OpenAPI 3.1 document](${l.openapi}): the nine operations (three paid POSTs, three free polls, three cancels), schemas and errors.`,
    `- [x402 discovery index](${l.discovery}): payment requirements, input schemas and output examples per resource.`,
    `- [Product catalog](${l.catalog}): schema.org ItemList with USD offers and payment methods.`,
    `- [Agentic commerce manifest](${l.agenticCommerce}): seller, payment rails, network and USDC address.`,
    '',
    '## Agents',
    '',
    `- [A2A agent card](${l.agentCard}): A2A 1.0, JSON-RPC interface at ${l.a2a}, one skill per product.`,
    `- [MCP endpoint](${l.mcp}): Streamable HTTP JSON-RPC; tools named after the products return a payment pointer.`,
    `- [Plugin manifest](${l.aiPlugin}): auth none, points at the OpenAPI document and the MCP endpoint.`,
  ];
}

export function llmsTxt(ctx: DiscoveryContext): string {
  return [...head(ctx), '', '## Optional', '', `- [Full reference](${links(ctx.base).llmsFull}): x402 flow, prices and input schemas.`, ''].join('\n');
}

function fullProduct(product: ProductId, ctx: DiscoveryContext): string[] {
  const p = PRODUCTS[product];
  const r = paymentRequirement(product, ctx.base, ctx.terms);
  return [
    `### ${product}: ${p.title}`,
    '',
    `${p.description}`,
    '',
    `- Endpoint: \`POST ${r.resource}\``,
    `- Price: ${r.extra.priceUsd} = ${r.amount} USDC base units (amount and maxAmountRequired in the 402)`,
    `- Poll (free): \`GET ${ctx.base}${p.pollPath}\``,
    '',
    'Request body (JSON Schema):',
    '',
    '```json',
    JSON.stringify(productInputSchema(product), null, 2),
    '```',
    '',
    '202 response example:',
    '',
    '```json',
    JSON.stringify(ACCEPTED_EXAMPLES[product], null, 2),
    '```',
    '',
  ];
}

export function llmsFullTxt(ctx: DiscoveryContext): string {
  const { terms } = ctx;
  const first = paymentRequirement(PRODUCT_IDS[0], ctx.base, terms);
  return [
    ...head(ctx),
    '',
    '## Paying with x402',
    '',
    `Scheme \`exact\`, network \`${terms.network}\` (Base, chain id ${chainIdOf(terms.network)}), asset USDC \`${terms.usdcAddress}\`, ` +
      `payTo \`${terms.payTo}\`, maxTimeoutSeconds ${first.maxTimeoutSeconds}. Settled by: ${ctx.settledBy}.`,
    '',
    '1. Send the request without PAYMENT-SIGNATURE. The answer is 402; the challenge is the body and, base64-encoded, the PAYMENT-REQUIRED header.',
    `2. Sign EIP-712 typed data for EIP-3009 TransferWithAuthorization. Domain: name \`${first.extra.name}\`, version \`${first.extra.version}\`, ` +
      `chainId ${chainIdOf(terms.network)}, verifyingContract = asset. Fields: from, to, value, validAfter, validBefore, nonce (bytes32).`,
    '3. to = payTo; value = amount; validAfter slightly in the past; validBefore later than now + maxTimeoutSeconds; nonce = 32 random bytes.',
    '4. Wrap it in the payment payload (x402Version 2, resource, accepted = the chosen accepts entry, payload { signature, authorization }), base64-encode it and resend the identical request with PAYMENT-SIGNATURE.',
    '5. The payment is settled on chain (the payer needs no gas); the PAYMENT-RESPONSE header carries the receipt.',
    '',
    'A third-party agent-payment token (pay+jwt, kya-pay+jwt) may be sent in PAYMENT-SIGNATURE instead of a payload.',
    '',
    '## Products in full',
    '',
    ...PRODUCT_IDS.flatMap((id) => fullProduct(id, ctx)),
    '## Asynchronous mode and polling',
    '',
    '- A paid call answers 202 and queues the job; `?async=false` blocks and answers 200 with the asset. Only the literal `true` selects async; `asyncMode: true` in the body switches async on, never off.',
    '- Music: poll the song row; `model_version` pending means poll again, failed is final, any other label means `audio_url` is the finished MP3. An unknown songId is 404.',
    '- Video and image: poll until `status` is completed (asset URL set) or failed. An unknown jobId answers 200 with status failed.',
    '- Cancel (the payer; refunded): the paid 202 carries `cancelUrl` (the poll URL + `/cancel`) and `cancelToken`, given once. `POST cancelUrl` with `Authorization: Bearer <cancelToken>`: a job still queued (its render not yet handed to a provider) ends failed with `error: "canceled"` and its full price is refunded automatically (`refund.status` pending, then refunded with its transaction); a job the provider has, or one that ended, is 409 `not_cancellable` and nothing changes; no or a wrong token is 401.',
    '- Webhook instead of polling: put `webhook` (an https URL) in the paid body; the 202 carries `webhookSecret` (`whsec_…`), given once. When the job completes or fails, its poll body is POSTed there, signed as Standard Webhooks say (`webhook-id`, `webhook-timestamp`, `webhook-signature`): verify with a Standard Webhooks library and that secret. Retried on anything but a 2xx for about 28 hours, the same `webhook-id` each time; the poll shows `webhook: {attempts, lastStatus, nextAttemptAt, delivered}`. A URL at a private, loopback, link-local or metadata address, or not https, is a 422 and nothing is charged.',
    '',
    '## Errors',
    '',
    '- 400 `{detail, code}`: code `unsupported_api_version` for an unsupported Service-API-Version.',
    '- 402: the payment challenge (answered before body validation).',
    '- 422 `{detail: [{loc, msg, type}]}`: the body failed validation; nothing was charged.',
    '- 409 `{detail, code}`: `payment_identifier_conflict` when a payment identifier (below) was used for another request or price; nothing was charged.',
    '- 429 `{detail, code: "rate_limited"}` with Retry-After: unpaid probes are limited to 20 per 60 seconds.',
    '- 5XX `{detail, code}`: nothing was charged; retry with backoff, reusing the same X-Idempotency-Key.',
    '- Retrying safely: send `X-Idempotency-Key`, or put an `id` in the payment payload (the x402 `payment-identifier` extension every 402 declares; `appendPaymentIdentifierToExtensions` from `@x402/extensions`): the same payer resending the same request with that key, even with a newly signed authorization, gets the first answer and is charged once.',
    '- Proof of purchase: every 402 carries signed offers and every paid answer a signed receipt (the x402 `offer-receipt` extension, EIP-712) inside PAYMENT-RESPONSE, naming the payer, the network and the transaction; verify them with `@x402/extensions` against `offerReceipt.signer` in /.well-known/x402.',
    '',
    '## Versioning',
    '',
    `Every response carries Service-API-Version: ${API_VERSION}, the only supported version; a request may pin it with the same header. ` +
      'Additive changes ship inside a version; before withdrawal, responses carry Deprecation and Sunset headers at least 90 days ahead.',
    '',
  ].join('\n');
}
