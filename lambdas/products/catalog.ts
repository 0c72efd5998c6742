/**
 * The generation catalog: product ids, prices and request schemas.
 * Every price and schema the service publishes or enforces is read from here (a price lives in one place).
 */
import { z } from 'zod';
import { routePath } from '../surfaces/routes.js';

export const PRODUCT_IDS = ['create_music', 'agent_video', 'agent_image'] as const;
export type ProductId = (typeof PRODUCT_IDS)[number];

/**
 * When the catalog (a price, a schema, a product) last changed: the discovery documents' `lastUpdated`. A constant,
 * not the clock, so every instance serves the same bytes (and ETag). Bump it with any catalog change.
 */
export const CATALOG_UPDATED_AT = '2026-11-22T00:00:00.000Z';

/** Largest prompt we accept; the spec leaves the maximum open (see README, "Choices"). */
export const MAX_PROMPT_CHARS = 4000;
export const MAX_LYRICS_CHARS = 10000;

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

export const VIDEO_ASPECT_RATIOS = ['16:9', '9:16', '1:1'] as const;
export const VIDEO_RESOLUTIONS = ['720p'] as const;
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

export const IMAGE_ASPECT_RATIOS = ['1:1', '9:16', '16:9', '3:4', '4:3', '3:2', '2:3', '5:4', '4:5', '21:9'] as const;
export const imageRequestSchema = z.object({
  prompt: prompt.describe('Visual prompt'),
  aspectRatio: z.enum(IMAGE_ASPECT_RATIOS).default('1:1').describe('Frame shape'),
  outputFormat: z.enum(['png', 'jpeg']).default('png').describe('png or jpeg'),
  asyncMode,
});
export type ImageRequest = z.infer<typeof imageRequestSchema>;

export interface Product {
  id: ProductId;
  title: string;
  description: string;
  category: 'music' | 'video' | 'image';
  /** Price in USDC base units (6 decimals). */
  amount: bigint;
  /** Ids in the route table (lambdas/surfaces/routes.ts) of the paid POST and of the free poll: paths live there. */
  routes: { pay: string; poll: string };
  /** Path of the paid POST endpoint (from the route table). */
  readonly path: string;
  /** Path template of the free poll route (from the route table). */
  readonly pollPath: string;
  /** The product's render workflow: its state machine's construct id and the variable that carries its ARN. */
  workflow: { constructId: string; arnEnv: string };
  tags: string[];
  schema: z.ZodType;
}

type ProductDef = Omit<Product, 'path' | 'pollPath'>;

function product(def: ProductDef): Product {
  return {
    ...def,
    get path() {
      return routePath(def.routes.pay);
    },
    get pollPath() {
      return routePath(def.routes.poll);
    },
  };
}

export const PRODUCTS: Record<ProductId, Product> = {
  create_music: product({
    id: 'create_music',
    title: 'Create music',
    description: 'A complete original song (vocals, melody, arrangement) delivered as an MP3 with cover art.',
    category: 'music',
    amount: 500_000n,
    routes: { pay: 'CreateMusic', poll: 'GetSong' },
    workflow: { constructId: 'MusicWorkflow', arnEnv: 'MUSIC_STATE_MACHINE_ARN' },
    tags: ['music', 'song', 'mp3', 'audio'],
    schema: musicRequestSchema,
  }),
  agent_video: product({
    id: 'agent_video',
    title: 'Agent video',
    description: 'An 8-second 720p clip with native audio, generated from a text prompt.',
    category: 'video',
    amount: 4_990_000n,
    routes: { pay: 'AgentVideo', poll: 'GetVideo' },
    workflow: { constructId: 'VideoWorkflow', arnEnv: 'VIDEO_STATE_MACHINE_ARN' },
    tags: ['video', 'mp4', 'clip'],
    schema: videoRequestSchema,
  }),
  agent_image: product({
    id: 'agent_image',
    title: 'Agent image',
    description: 'One hosted still image, PNG or JPEG, from a text prompt.',
    category: 'image',
    amount: 150_000n,
    routes: { pay: 'AgentImage', poll: 'GetImage' },
    workflow: { constructId: 'ImageWorkflow', arnEnv: 'IMAGE_STATE_MACHINE_ARN' },
    tags: ['image', 'png', 'jpeg'],
    schema: imageRequestSchema,
  }),
};

export function isProductId(value: string): value is ProductId {
  return (PRODUCT_IDS as readonly string[]).includes(value);
}

export { formatUsd, priceUsdCents } from '../shared/money.js';
