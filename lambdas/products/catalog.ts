/**
 * The generation catalog: product ids, prices and request schemas (the zod source of every request schema the
 * service enforces or publishes). The products themselves (ids, prices, routes) are lambdas/products/products.ts,
 * re-exported here with their schemas; a price lives in one place.
 */
import * as z from '../shared/zod.js';
import {
  IMAGE_ASPECT_RATIOS,
  MAX_LYRICS_CHARS,
  MAX_PROMPT_CHARS,
  MAX_WEBHOOK_URL_LENGTH,
  PRODUCTS as PRODUCT_DEFS,
  PRODUCT_IDS,
  VIDEO_ASPECT_RATIOS,
  VIDEO_RESOLUTIONS,
  type Product as ProductDef,
  type ProductId,
} from './products.js';

export * from './products.js';

const prompt = z.string().check(z.trim(), z.minLength(1, 'prompt must not be empty'), z.maxLength(MAX_PROMPT_CHARS), z.describe('What to generate'));

const asyncMode = z.optional(z.boolean()).check(z.describe('true switches asynchronous mode on; false never switches it off'));

/**
 * Signed completion webhooks (docs/decisions/0018), additive inside version 1: where the job's end is POSTed, signed (Standard Webhooks). The URL is checked
 * further before anything is charged (lambdas/webhooks/address.ts: https, not an address inside a network); its
 * length bound is the schema's.
 */
const webhook = z
  .optional(z.string().check(z.maxLength(MAX_WEBHOOK_URL_LENGTH)))
  .check(z.describe('https URL that receives the job\'s poll body, signed as Standard Webhooks say, when the job completes or fails'));

export const musicRequestSchema = z
  .object({
    prompt: prompt.check(z.describe('Genre, mood, instruments, vibe')),
    style: z.optional(z.string().check(z.trim(), z.maxLength(200))).check(z.describe('Style or genre tag')),
    custom_mode: z.optional(z.boolean()).check(z.describe('true: sing the supplied lyrics')),
    lyrics: z.optional(z.string().check(z.maxLength(MAX_LYRICS_CHARS))).check(z.describe('Lyrics to sing (required when custom_mode is true)')),
    make_instrumental: z.optional(z.boolean()).check(z.describe('true: no vocals')),
    vocal_gender: z.optional(z.enum(['m', 'f'])).check(z.describe('m or f')),
    tags: z.optional(z.string().check(z.maxLength(500))).check(z.describe('Comma-separated keywords for the generated file')),
    asyncMode,
    webhook,
  })
  .check(
    z.superRefine((body, ctx) => {
      if (body.custom_mode === true && (body.lyrics === undefined || body.lyrics.trim() === '')) {
        ctx.addIssue({
          code: 'custom',
          path: ['lyrics'],
          message: 'lyrics are required when custom_mode is true',
          params: { type: 'missing' },
        });
      }
    }),
  );
export type MusicRequest = z.infer<typeof musicRequestSchema>;

export const videoRequestSchema = z.object({
  prompt: prompt.check(z.describe('Narrative or visual prompt; name the sounds, since audio is generated from the scene')),
  durationSeconds: z
    ._default(z.number().check(z.int(), z.minimum(3), z.maximum(15)), 8)
    .check(z.describe('Requested length, 3 to 15 (default 8); the clip is rendered at the supported length of 8 seconds')),
  aspectRatio: z._default(z.enum(VIDEO_ASPECT_RATIOS), '16:9').check(z.describe('Frame shape')),
  // The spec's MCP schema names `resolution` without defining it; the clip is 720p, the one value accepted.
  resolution: z.optional(z.enum(VIDEO_RESOLUTIONS)).check(z.describe('Output resolution; clips render at 720p')),
  asyncMode,
  webhook,
});
export type VideoRequest = z.infer<typeof videoRequestSchema>;

export const imageRequestSchema = z.object({
  prompt: prompt.check(z.describe('Visual prompt')),
  aspectRatio: z._default(z.enum(IMAGE_ASPECT_RATIOS), '1:1').check(z.describe('Frame shape')),
  outputFormat: z._default(z.enum(['png', 'jpeg']), 'png').check(z.describe('png or jpeg')),
  asyncMode,
  webhook,
});
export type ImageRequest = z.infer<typeof imageRequestSchema>;

/** A product with its request schema (of a ProductId, or a fixture's id: lambdas/products/products.ts Product). */
export interface Product<Id extends string = ProductId> extends ProductDef<Id> {
  schema: z.ZodMiniType;
}

const SCHEMAS: Record<ProductId, z.ZodMiniType> = {
  create_music: musicRequestSchema,
  agent_video: videoRequestSchema,
  agent_image: imageRequestSchema,
};

/** Each product as products.ts defines it (its lazy `path` and `pollPath` included), plus its schema. */
export const PRODUCTS = Object.fromEntries(
  PRODUCT_IDS.map((id) => [id, Object.defineProperties({ schema: SCHEMAS[id] }, Object.getOwnPropertyDescriptors(PRODUCT_DEFS[id]))]),
) as Record<ProductId, Product>;
