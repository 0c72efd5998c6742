/**
 * The response shapes of the generation surface as zod schemas: the one place the published response schemas
 * (OpenAPI) come from. lambdas/jobs/views.ts builds the bodies; test/unit/discovery/responses.test.ts parses
 * real view outputs with these schemas, so what is published cannot drift from what is served.
 *
 * Objects are open (z.object, published with io 'input'): the versioning policy ships additive fields inside a
 * version, so a client must tolerate members it does not know.
 */
import { z } from 'zod';

const url = z.string().describe('Absolute URL');
const jobStatus = z.enum(['queued', 'processing', 'completed', 'failed']);
const refund = z
  .object({
    status: z.enum(['pending', 'refunded', 'failed']).describe('pending until the money is back; failed while it is retried'),
    transaction: z.string().nullable().describe('The refund transaction once sent'),
  })
  .optional()
  .describe('On a failed paid job: its automatic refund (additive)');
/** On the paid 202 only (additive; docs/decisions/0017): how the payer cancels the job while it is queued. */
const cancel = {
  cancelUrl: url.optional().describe('On the paid 202: POST it with Authorization: Bearer <cancelToken> to cancel the job while it is queued; the price is refunded'),
  cancelToken: z.string().optional().describe('On the paid 202: the job\'s cancel token, given once, to the payer only'),
  webhookSecret: z
    .string()
    .optional()
    .describe('On the paid 202 of a job with a webhook: the Standard Webhooks secret (whsec_…) its deliveries are signed with, given once, to the payer only'),
};
/** On the poll of a job with a webhook (additive; docs/decisions/0018): its deliveries so far. */
const webhook = z
  .object({
    attempts: z.number().int().describe('Deliveries attempted so far'),
    lastStatus: z.number().int().nullable().describe('HTTP status of the last attempt; null before one, or when no answer came'),
    nextAttemptAt: z.string().nullable().describe('ISO 8601 time of the next attempt; null when none is planned'),
    delivered: z.boolean().describe('true once an attempt was answered 2xx'),
  })
  .optional()
  .describe('On a job with a webhook: its deliveries so far (additive)');

export const musicAcceptedSchema = z
  .object({
    status: z.enum(['processing', 'queued']),
    shareUrl: url.describe('Browser share URL the track will have on completion'),
    songId: z.string().nullable().describe('null when the job is queued before the song row exists'),
    pollUrl: url.describe('Absolute URL of GET /api/songs/{songId}'),
    ...cancel,
  })
  .describe('Music accepted response (202)');

export const musicBlockingSchema = z
  .object({
    shareUrl: url,
    title: z.string(),
    imageUrl: url.describe('Cover art'),
    songId: z.string().optional(),
    audioUrl: url.nullable().optional().describe('Finished MP3; null when the render failed'),
    status: z.enum(['completed', 'failed']).optional(),
    error: z.string().optional(),
    webhookSecret: cancel.webhookSecret,
  })
  .describe('Music blocking response (200 with ?async=false)');

export const songRowSchema = z
  .object({
    id: z.string().describe('The songId'),
    model_version: z.string().describe('Job state: pending, failed, or a version label when ready'),
    audio_url: url.describe('Finished MP3 when ready; before that, the placeholder cover-image URL (an image)'),
    title: z.string(),
    prompt: z.string(),
    genre: z.string().describe('Style label from the request'),
    image_url: url.describe('Cover art'),
    duration: z.number().describe('Seconds; 0 until the render finishes'),
    share_id: z.string(),
    is_public: z.boolean(),
    created_at: z.string().describe('ISO 8601'),
    error: z.string().optional().describe('Present on failure'),
    refund,
    webhook,
  })
  .describe('Song row (poll response of music)');

export const videoJobSchema = z
  .object({
    jobId: z.string(),
    status: jobStatus,
    provider: z.string().optional().describe('Provider handling the render'),
    videoUrl: url.nullable().describe('Null until complete'),
    videoId: z.string().optional(),
    pageUrl: url.optional(),
    pollUrl: url.nullable().describe('Set on the 202 accept; null on a poll response'),
    error: z.string().optional().describe('Present on failure'),
    refund,
    webhook,
    etaSeconds: z.null().optional().describe('Present (null) on the failed unknown-job response'),
    ...cancel,
  })
  .describe('Video job (accepted, poll and blocking responses)');

export const imageJobSchema = z
  .object({
    jobId: z.string(),
    status: jobStatus,
    provider: z.string().optional(),
    imageUrl: url.nullable().describe('Null until complete'),
    pollUrl: url.nullable().describe('Set on the 202 accept; null on a poll response'),
    error: z.string().optional(),
    refund,
    webhook,
    // The unknown-job response is shared with video (views.unknownMediaJob), so it carries etaSeconds too.
    etaSeconds: z.null().optional(),
    ...cancel,
  })
  .describe('Image job (accepted, poll and blocking responses)');

export const errorSchema = z
  .object({
    detail: z.string(),
    code: z.string().optional().describe('Machine-readable; branch on rate_limited and unsupported_api_version'),
  })
  .describe('Error');

export const validationErrorSchema = z
  .object({
    detail: z.array(
      z.object({
        loc: z.array(z.union([z.string(), z.number().int()])).describe('Path segments, starting with body or header'),
        msg: z.string(),
        type: z.string(),
      }),
    ),
  })
  .describe('Validation error (422)');

export const notFoundSchema = z.object({ error: z.string() }).describe('Unknown song (404)');

const baseUnits = z.string().regex(/^\d+$/).describe('USDC base units (6 decimals)');

export const paymentRequirementSchema = z
  .object({
    scheme: z.literal('exact'),
    network: z.string().describe('CAIP-2 network, eip155:8453 (Base)'),
    maxAmountRequired: baseUnits,
    amount: baseUnits,
    asset: z.string().describe('USDC contract; also the EIP-712 verifyingContract'),
    payTo: z.string(),
    maxTimeoutSeconds: z.number().int(),
    resource: url,
    description: z.string(),
    mimeType: z.string(),
    docs: z.string().optional(),
    extra: z.object({ name: z.string(), version: z.string(), decimals: z.number().int(), priceUsd: z.string() }),
    outputSchema: z
      .object({
        input: z.object({ type: z.literal('http'), method: z.string(), bodyType: z.string(), body: z.record(z.string(), z.unknown()) }),
        output: z.object({ type: z.string(), example: z.record(z.string(), z.unknown()) }),
      })
      .optional(),
  })
  .describe('Payment requirement (one entry of accepts)');

export const paymentChallengeSchema = z
  .object({
    x402Version: z.literal(2),
    error: z.string().describe('Reason'),
    resource: z.object({ url, description: z.string().optional(), mimeType: z.string().optional(), serviceName: z.string().optional(), tags: z.array(z.string()).optional() }),
    accepts: z.array(paymentRequirementSchema),
    extensions: z.record(z.string(), z.unknown()),
  })
  .describe('Payment challenge (402 body; base64 in PAYMENT-REQUIRED)');

/** Published name → schema; the OpenAPI components are generated from this table. */
export const RESPONSE_SCHEMAS = {
  MusicAccepted: musicAcceptedSchema,
  MusicBlockingResult: musicBlockingSchema,
  SongRow: songRowSchema,
  VideoJob: videoJobSchema,
  ImageJob: imageJobSchema,
  PaymentChallenge: paymentChallengeSchema,
  Error: errorSchema,
  ValidationError: validationErrorSchema,
  NotFound: notFoundSchema,
} as const;
export type ResponseSchemaName = keyof typeof RESPONSE_SCHEMAS;

export function responseJsonSchema(name: ResponseSchemaName): Record<string, unknown> {
  return z.toJSONSchema(RESPONSE_SCHEMAS[name], { io: 'input' }) as Record<string, unknown>;
}

/** Where bin/generate-schemas.ts writes the JSON of every published response schema (the OpenAPI function reads it). */
export const GENERATED_RESPONSE_SCHEMAS_PATH = 'lambdas/products/response-schemas.generated.ts';

export function responseJsonSchemasFromZod(): Record<ResponseSchemaName, Record<string, unknown>> {
  return Object.fromEntries(
    (Object.keys(RESPONSE_SCHEMAS) as ResponseSchemaName[]).map((name) => [name, responseJsonSchema(name)]),
  ) as Record<ResponseSchemaName, Record<string, unknown>>;
}
