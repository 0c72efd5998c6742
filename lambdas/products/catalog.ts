/**
 * The generation catalog: product ids, prices and request schemas (the zod source of every request schema the
 * service enforces or publishes). The products themselves (ids, prices, routes) are lambdas/products/products.ts,
 * re-exported here with their schemas; a price lives in one place.
 */
import { z } from 'zod';
import {
  IMAGE_ASPECT_RATIOS,
  MAX_LYRICS_CHARS,
  MAX_PROMPT_CHARS,
  PRODUCTS as PRODUCT_DEFS,
  PRODUCT_IDS,
  VIDEO_ASPECT_RATIOS,
  VIDEO_RESOLUTIONS,
  type Product as ProductDef,
  type ProductId,
} from './products.js';

export * from './products.js';

const prompt = z
  .string()
  .trim()
  .min(1, 'prompt must not be empty')
  .max(MAX_PROMPT_CHARS)
  .describe('What to generate');

const asyncMode = z
  .boolean()
  .optional()
  .describe('true switches asynchronous mode on; false never switches it off');

export const musicRequestSchema = z
  .object({
    prompt: prompt.describe('Genre, mood, instruments, vibe'),
    style: z.string().trim().max(200).optional().describe('Style or genre tag'),
    custom_mode: z.boolean().optional().describe('true: sing the supplied lyrics'),
    lyrics: z.string().max(MAX_LYRICS_CHARS).optional().describe('Lyrics to sing (required when custom_mode is true)'),
    make_instrumental: z.boolean().optional().describe('true: no vocals'),
    vocal_gender: z.enum(['m', 'f']).optional().describe('m or f'),
    tags: z.string().max(500).optional().describe('Comma-separated keywords for the generated file'),
    asyncMode,
  })
  .superRefine((body, ctx) => {
    if (body.custom_mode === true && (body.lyrics === undefined || body.lyrics.trim() === '')) {
      ctx.addIssue({
        code: 'custom',
        path: ['lyrics'],
        message: 'lyrics are required when custom_mode is true',
        params: { type: 'missing' },
      });
    }
  });
export type MusicRequest = z.infer<typeof musicRequestSchema>;

export const videoRequestSchema = z.object({
  prompt: prompt.describe('Narrative or visual prompt; name the sounds, since audio is generated from the scene'),
  durationSeconds: z
    .number()
    .int()
    .min(3)
    .max(15)
    .default(8)
    .describe('Requested length, 3 to 15 (default 8); the clip is rendered at the supported length of 8 seconds'),
  aspectRatio: z.enum(VIDEO_ASPECT_RATIOS).default('16:9').describe('Frame shape'),
  // The spec's MCP schema names `resolution` without defining it; the clip is 720p, the one value accepted.
  resolution: z.enum(VIDEO_RESOLUTIONS).optional().describe('Output resolution; clips render at 720p'),
  asyncMode,
});
export type VideoRequest = z.infer<typeof videoRequestSchema>;

export const imageRequestSchema = z.object({
  prompt: prompt.describe('Visual prompt'),
  aspectRatio: z.enum(IMAGE_ASPECT_RATIOS).default('1:1').describe('Frame shape'),
  outputFormat: z.enum(['png', 'jpeg']).default('png').describe('png or jpeg'),
  asyncMode,
});
export type ImageRequest = z.infer<typeof imageRequestSchema>;

/** A product with its request schema. */
export interface Product extends ProductDef {
  schema: z.ZodType;
}

const SCHEMAS: Record<ProductId, z.ZodType> = {
  create_music: musicRequestSchema,
  agent_video: videoRequestSchema,
  agent_image: imageRequestSchema,
};

/** Each product as products.ts defines it (its lazy `path` and `pollPath` included), plus its schema. */
export const PRODUCTS = Object.fromEntries(
  PRODUCT_IDS.map((id) => [id, Object.defineProperties({ schema: SCHEMAS[id] }, Object.getOwnPropertyDescriptors(PRODUCT_DEFS[id]))]),
) as Record<ProductId, Product>;
