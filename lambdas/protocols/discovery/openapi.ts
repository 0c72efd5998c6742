/**
 * The OpenAPI 3.1.0 document of the generation surface: the operations of the route table that carry an
 * operationId (the three paid POSTs and their free polls), request and response schemas generated at build time from
 * the zod schemas of lambdas/products/ (bin/generate-schemas.ts), and each paid operation's 402 example and x402
 * terms taken from the challenge its endpoint answers.
 */
import { ROUTES, type RouteDef } from '../../surfaces/routes.js';
import { PRODUCTS, PRODUCT_IDS, type ProductId } from '../../products/products.js';
import { RESPONSE_JSON_SCHEMAS } from '../../products/response-schemas.generated.js';
import type { ResponseSchemaName } from '../../products/responses.js';
import { ACCEPTED_EXAMPLES } from '../../products/examples.js';
import { paymentChallenge, paymentRequirement, productInputSchema, REASON_MISSING } from '../../jobs/offers.js';
import { GENERATION } from '../../surfaces/surface.js';

const API_VERSION = GENERATION.version!.current;
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../../middleware/idempotency.js';
import { SERVICE, links, type DiscoveryContext } from './context.js';
import { purchasesOperation, SIGN_IN_SCHEME } from '../../purchases/document.js';

export const REQUEST_SCHEMA_NAMES: Record<ProductId, string> = {
  create_music: 'MusicRequest',
  agent_video: 'VideoRequest',
  agent_image: 'ImageRequest',
};

/** Response schema of each success: the 200 blocking result, the 202 accept and the poll. Video and image block with the poll shape. */
const RESULT_SCHEMAS: Record<ProductId, { blocking: ResponseSchemaName; accepted: ResponseSchemaName; poll: ResponseSchemaName }> = {
  create_music: { blocking: 'MusicBlockingResult', accepted: 'MusicAccepted', poll: 'SongRow' },
  agent_video: { blocking: 'VideoJob', accepted: 'VideoJob', poll: 'VideoJob' },
  agent_image: { blocking: 'ImageJob', accepted: 'ImageJob', poll: 'ImageJob' },
};

export const API_VERSIONING = {
  header: 'Service-API-Version',
  current: API_VERSION,
  supported: [API_VERSION],
  whenOmitted: `A request without the header is served the current version (${API_VERSION}).`,
  unsupported: 'A request naming another version answers 400 with code unsupported_api_version.',
  compatibility: 'Additive changes (new optional fields, new endpoints) ship inside a version; a breaking change ships as a new version.',
  deprecation:
    'Before a version or operation is withdrawn, its responses carry a Deprecation header (RFC 9745) and a Sunset ' +
    'header (RFC 8594) at least 90 days ahead, with a Link to the notice.',
  deprecationHeaders: ['Deprecation', 'Sunset', 'Link'],
  minimumNoticeDays: 90,
  paymentProtocol: 'x402 version 2 (PAYMENT-SIGNATURE, PAYMENT-REQUIRED); version 1 (X-PAYMENT) is legacy.',
};

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });
const jsonContent = (schema: string, example?: unknown) => ({
  'application/json': { schema: ref('schemas', schema), ...(example === undefined ? {} : { example }) },
});
const headerRefs = (...names: string[]) => Object.fromEntries(names.map((n) => [n, ref('headers', n)]));
const stringHeader = (description: string, extra: Record<string, unknown> = {}) => ({ description, schema: { type: 'string', ...extra } });
const intHeader = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });

const RATE_LIMIT_HEADERS = ['RateLimit-Policy', 'RateLimit', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

function components() {
  const schemas: Record<string, unknown> = {};
  for (const id of PRODUCT_IDS) schemas[REQUEST_SCHEMA_NAMES[id]] = productInputSchema(id);
  for (const [name, schema] of Object.entries(RESPONSE_JSON_SCHEMAS)) schemas[name] = schema;
  return {
    schemas,
    parameters: {
      PaymentSignature: {
        name: 'PAYMENT-SIGNATURE',
        in: 'header',
        required: false,
        description:
          'Base64 x402 v2 payment payload, or a third-party agent-payment token (pay+jwt, kya-pay+jwt). Omit it on the ' +
          'first call to obtain the 402 challenge.',
        schema: { type: 'string' },
      },
      IdempotencyKey: {
        name: 'X-Idempotency-Key',
        in: 'header',
        required: false,
        description: 'Same key and same body within the cache window returns the original response without charging again.',
        schema: { type: 'string', minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH },
      },
      ServiceApiVersion: {
        name: 'Service-API-Version',
        in: 'header',
        required: false,
        description: 'Pins the API version; omitted means the current version.',
        schema: { type: 'string', enum: [API_VERSION] },
      },
      Async: {
        name: 'async',
        in: 'query',
        required: false,
        description: 'false blocks and answers 200 with the finished asset; only the literal true selects asynchronous mode, any other value counts as false.',
        schema: { type: 'string' },
      },
    },
    headers: {
      'Service-API-Version': stringHeader('API version of the response', { enum: [API_VERSION] }),
      'PAYMENT-REQUIRED': stringHeader('The payment challenge, base64-encoded JSON'),
      'PAYMENT-RESPONSE': stringHeader('Settlement receipt, base64-encoded JSON: success, transaction, network, payer'),
      'PAYMENT-REFERENCE': stringHeader('Reference of an unreadable payment header, for support'),
      'Retry-After': intHeader('Seconds to wait before retrying'),
      'RateLimit-Policy': stringHeader('Quota q per window w seconds, e.g. "probe";q=20;w=60'),
      RateLimit: stringHeader('Remaining r and seconds t until the window frees a slot'),
      'X-RateLimit-Limit': intHeader('Total quota for the window'),
      'X-RateLimit-Remaining': intHeader('Requests left in the window'),
      'X-RateLimit-Reset': intHeader('Unix seconds when the window resets'),
    },
    responses: {
      BadRequest: {
        description: 'Bad request, e.g. an unsupported Service-API-Version (code unsupported_api_version)',
        headers: headerRefs('Service-API-Version'),
        content: jsonContent('Error', { detail: "Service-API-Version '2' is not supported; the supported version is 1", code: 'unsupported_api_version' }),
      },
      ValidationFailed: {
        description: 'The body failed validation; nothing was charged',
        headers: headerRefs('Service-API-Version'),
        content: jsonContent('ValidationError', { detail: [{ loc: ['body', 'prompt'], msg: 'Field required', type: 'missing' }] }),
      },
      RateLimited: {
        description: 'Unpaid probe rate limit exceeded (code rate_limited)',
        headers: headerRefs('Service-API-Version', 'Retry-After', ...RATE_LIMIT_HEADERS),
        content: jsonContent('Error', { detail: 'Too many unpaid requests; retry later', code: 'rate_limited' }),
      },
      Conflict: {
        description: 'A request with the same X-Idempotency-Key (or payment identifier) is still being processed (code idempotency_in_progress, with Retry-After), or the payment identifier was already used for another request or price (code payment_identifier_conflict)',
        headers: headerRefs('Service-API-Version', 'Retry-After'),
        content: jsonContent('Error'),
      },
      ServerError: {
        description: 'Server or upstream failure; nothing was charged. Retry with backoff, reusing the same X-Idempotency-Key.',
        headers: headerRefs('Service-API-Version'),
        content: jsonContent('Error'),
      },
    },
    securitySchemes: {
      CancelToken: { type: 'http', scheme: 'bearer', description: "A job's cancelToken, from its paid 202 (the cancel routes only)" },
      SignInWithX: SIGN_IN_SCHEME,
    },
  };
}

function paidOperation(route: RouteDef, product: ProductId, ctx: DiscoveryContext) {
  const p = PRODUCTS[product];
  const requirement = paymentRequirement(product, ctx.base, ctx.terms);
  const results = RESULT_SCHEMAS[product];
  const paidHeaders = headerRefs('Service-API-Version', 'PAYMENT-RESPONSE');
  return {
    operationId: route.operationId,
    summary: `${p.title} (${requirement.extra.priceUsd} per call, x402)`,
    description: `${p.description} Paid per call: ${requirement.extra.priceUsd} (${requirement.amount} USDC base units) over x402 v2 on ${requirement.network}. Asynchronous by default: 202 with a pollUrl; polling is free.`,
    tags: [p.category],
    parameters: ['PaymentSignature', 'IdempotencyKey', 'ServiceApiVersion', 'Async'].map((n) => ref('parameters', n)),
    requestBody: {
      required: true,
      // OpenAPI ignores a header parameter named Content-Type; the media type below is that header.
      description: 'The request body; the header Content-Type: application/json is required.',
      content: jsonContent(REQUEST_SCHEMA_NAMES[product]),
    },
    responses: {
      '200': { description: 'Blocking call (?async=false) finished: the asset', headers: paidHeaders, content: jsonContent(results.blocking) },
      '202': { description: 'Paid and accepted; poll pollUrl (free)', headers: paidHeaders, content: jsonContent(results.accepted, ACCEPTED_EXAMPLES[product]) },
      '400': ref('responses', 'BadRequest'),
      '402': {
        description: 'Payment required: no payment attached, or the payment was not accepted. Answered before body validation.',
        headers: headerRefs('Service-API-Version', 'PAYMENT-REQUIRED', 'PAYMENT-REFERENCE', 'Retry-After', ...RATE_LIMIT_HEADERS),
        content: jsonContent('PaymentChallenge', paymentChallenge(product, ctx.base, ctx.terms, REASON_MISSING)),
      },
      '409': ref('responses', 'Conflict'),
      '422': ref('responses', 'ValidationFailed'),
      '429': ref('responses', 'RateLimited'),
      '5XX': ref('responses', 'ServerError'),
    },
    'x-payment': {
      protocol: 'x402',
      x402Version: 2,
      scheme: requirement.scheme,
      network: requirement.network,
      asset: requirement.asset,
      payTo: requirement.payTo,
      amount: requirement.amount,
      priceUsd: requirement.extra.priceUsd,
      maxTimeoutSeconds: requirement.maxTimeoutSeconds,
      discovery: links(ctx.base).discovery,
    },
  };
}

function pollOperation(route: RouteDef, product: ProductId) {
  const param = /\{([^}]+)\}/.exec(route.path)![1];
  const unknownId =
    product === 'create_music'
      ? { '404': { description: 'Unknown songId (paid songs are public, so the id is wrong)', headers: headerRefs('Service-API-Version'), content: jsonContent('NotFound') } }
      : {};
  return {
    operationId: route.operationId,
    summary: `Poll a ${PRODUCTS[product].category} job (free)`,
    description:
      product === 'create_music'
        ? 'Free. Read model_version: pending means poll again, failed is final, any other label means audio_url is the finished MP3.'
        : 'Free. Poll until status is completed (asset URL set) or failed. An unknown or expired id answers 200 with status failed, not 404.',
    tags: [PRODUCTS[product].category],
    parameters: [
      { name: param, in: 'path', required: true, schema: { type: 'string', minLength: 1 } },
      ref('parameters', 'ServiceApiVersion'),
    ],
    responses: {
      '200': { description: 'Job state', headers: headerRefs('Service-API-Version'), content: jsonContent(RESULT_SCHEMAS[product].poll) },
      '400': ref('responses', 'BadRequest'),
      ...unknownId,
      '5XX': ref('responses', 'ServerError'),
    },
  };
}

/** POST {pollUrl}/cancel (lambdas/http/cancel-job.ts; docs/decisions/0017, additive): the payer cancels a queued job, refunded. */
function cancelOperation(route: RouteDef, product: ProductId) {
  const param = /\{([^}]+)\}/.exec(route.path)![1];
  const error = (description: string) => ({ description, headers: headerRefs('Service-API-Version'), content: jsonContent('Error') });
  return {
    operationId: route.operationId,
    summary: `Cancel a queued ${PRODUCTS[product].category} job (its payer; refunded)`,
    description:
      "Free. Send the job's cancelToken from the paid 202 as Authorization: Bearer <cancelToken>, or sign in (SIGN-IN-WITH-X) with the wallet " +
      'that paid for it over x402 (without either: 402 with the sign-in declaration). A job whose render has not been handed to a ' +
      'provider (status queued) ends failed with error "canceled" and its full price is refunded automatically (refund.status pending, then refunded with its transaction). ' +
      'A job already canceled answers the same. Once the provider has it (processing), or it ended, the answer is 409 not_cancellable and nothing changes.',
    tags: [PRODUCTS[product].category],
    parameters: [{ name: param, in: 'path', required: true, schema: { type: 'string', minLength: 1 } }, ref('parameters', 'ServiceApiVersion')],
    security: [{ CancelToken: [] }, { SignInWithX: [] }],
    responses: {
      '200': { description: 'Canceled: the job as its poll reads it (failed, error "canceled", refund)', headers: headerRefs('Service-API-Version'), content: jsonContent(RESULT_SCHEMAS[product].poll) },
      '400': ref('responses', 'BadRequest'),
      '401': error('Not this job\'s cancel token (invalid_token); nothing changes'),
      '402': { description: 'Neither a cancel token nor a sign-in, or a sign-in refused: the sign-in-with-x declaration (PAYMENT-REQUIRED); nothing changes', headers: headerRefs('Service-API-Version', 'PAYMENT-REQUIRED') },
      '403': error('not_payer: the signed-in wallet did not pay for this job over x402 (a token-paid job is canceled with its token only); nothing changes'),
      '404': error('No such job (not_found)'),
      '409': error('not_cancellable: the render was handed to the provider, or the job ended; `detail` says which, `job` is its poll body'),
      '5XX': ref('responses', 'ServerError'),
    },
  };
}

function productOperation(route: RouteDef, ctx: DiscoveryContext) {
  const product = productOf(route);
  return route.paid ? paidOperation(route, product, ctx) : route.access === 'cancel' ? cancelOperation(route, product) : pollOperation(route, product);
}

/** GET /api/purchases (lambdas/http/purchases.ts): the signed-in wallet's jobs. */
function generationPurchases(route: RouteDef) {
  return purchasesOperation(route, 'The jobs this wallet paid for', {
    '422': { description: 'A bad `limit` or `cursor` (its `loc`)', headers: headerRefs('Service-API-Version'), content: jsonContent('ValidationError') },
    '5XX': ref('responses', 'ServerError'),
  });
}

/** The routes the document lists: the generation routes of the route table that carry an operationId. */
export function documentedRoutes(): RouteDef[] {
  return ROUTES.filter((r) => r.surface === 'generation' && r.operationId !== undefined);
}

function productOf(route: RouteDef): ProductId {
  const path = route.path.replace(/\/cancel$/, '');
  const product = PRODUCT_IDS.find((id) => PRODUCTS[id].path === path || PRODUCTS[id].pollPath === path);
  if (!product) throw new Error(`route ${route.id} serves no catalog product`);
  return product;
}

/**
 * What the service POSTs to a paid body's `webhook` when the job ends (additive; docs/decisions/0018):
 * OpenAPI 3.1's top-level `webhooks`, one per product, the body being that product's poll body.
 */
function webhooks() {
  const header = (name: string, description: string) => ({ name, in: 'header', required: true, description, schema: { type: 'string' } });
  return Object.fromEntries(
    PRODUCT_IDS.map((product) => [
      `${product}Ended`,
      {
        post: {
          summary: `A ${product} job ended (completed or failed)`,
          description:
            'Sent to the `webhook` of the paid body once the job is completed or failed, signed as Standard Webhooks say: verify it with a ' +
            'Standard Webhooks library (`standardwebhooks`) and the `webhookSecret` (whsec_…) of the paid 202. At least once: attempts are ' +
            'retried on anything but a 2xx for about 28 hours (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h), every one with the same ' +
            'webhook-id; no redirect is followed; 10 s per attempt. The poll shows `webhook: { attempts, lastStatus, nextAttemptAt, delivered }`.',
          parameters: [
            header('webhook-id', 'msg_<jobId>: the same on every attempt (drop repeats by it)'),
            header('webhook-timestamp', 'Unix seconds of this attempt'),
            header('webhook-signature', 'v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">'),
          ],
          requestBody: { required: true, content: jsonContent(RESULT_SCHEMAS[product].poll) },
          responses: { '2XX': { description: 'Delivered: no more attempts' }, default: { description: 'Not delivered: retried later' } },
        },
      },
    ]),
  );
}

export function openApiDocument(ctx: DiscoveryContext) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of documentedRoutes()) {
    const operation = route.access === 'purchases' ? generationPurchases(route) : productOperation(route, ctx);
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operation };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: SERVICE.name,
      version: SERVICE.version,
      summary: 'Pay-per-call music, video and image generation over x402',
      description: `${SERVICE.summary} Discovery index: ${links(ctx.base).discovery}. MCP: ${links(ctx.base).mcp}.`,
      'x-api-versioning': API_VERSIONING,
    },
    servers: [{ url: ctx.base }],
    tags: [
      { name: 'music', description: 'create_music' },
      { name: 'video', description: 'agent_video' },
      { name: 'image', description: 'agent_image' },
    ],
    paths,
    webhooks: webhooks(),
    components: components(),
    externalDocs: { description: 'x402 discovery index', url: links(ctx.base).discovery },
  };
}
