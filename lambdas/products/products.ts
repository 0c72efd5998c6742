/**
 * The generation products without their request schemas: ids, prices, routes, workflows. Functions that never
 * validate a request (polls, workflow tasks, renders) read this and carry no schema library; lambdas/products/
 * catalog.ts adds the zod schemas and re-exports all of it, and every price is still read from here (one place).
 */
export const PRODUCT_IDS = ['create_music', 'agent_video', 'agent_image'] as const;
export type ProductId = (typeof PRODUCT_IDS)[number];

/**
 * When the catalog (a price, a schema, a product) last changed: the discovery documents' `lastUpdated`. A constant,
 * not the clock, so every instance serves the same bytes (and ETag). Bump it with any catalog change.
 */
export const CATALOG_UPDATED_AT = '2026-11-22T00:00:00.000Z';

/** Largest prompt we accept; the spec leaves the maximum open (see docs/spec-choices.md, "Prompt limits"). */
export const MAX_PROMPT_CHARS = 4000;
/** A paid body's `webhook` URL (docs/decisions/0018): at most this long (lambdas/webhooks/address.ts checks the rest). */
export const MAX_WEBHOOK_URL_LENGTH = 2048;
export const MAX_LYRICS_CHARS = 10000;

export const VIDEO_ASPECT_RATIOS = ['16:9', '9:16', '1:1'] as const;
export const VIDEO_RESOLUTIONS = ['720p'] as const;
export const IMAGE_ASPECT_RATIOS = ['1:1', '9:16', '16:9', '3:4', '4:3', '3:2', '2:3', '5:4', '4:5', '21:9'] as const;

/** A product; its id is a ProductId, but the stack also builds one from a fixture entry (test/infra/catalog-fixture.test.ts). */
export interface Product<Id extends string = ProductId> {
  id: Id;
  title: string;
  description: string;
  category: 'music' | 'video' | 'image';
  /** Price in USDC base units (6 decimals). */
  amount: bigint;
  /**
   * Ids in the route table (lambdas/surfaces/routes.ts) of the paid POST and of the free poll, whose paths are these;
   * each route's entry is named after its id, and the poll's cancel route is `Cancel` for its `Get`.
   */
  routes: { pay: string; poll: string };
  /** The poll's operationId, as the spec names it (the paid POST's is the product id, the cancel's `<id>_cancel`). */
  pollOperationId: string;
  /** Path of the paid POST endpoint (the route table takes it from here). */
  readonly path: string;
  /** Path template of the free poll route (the route table takes it from here; the cancel route adds `/cancel`). */
  readonly pollPath: string;
  /** The product's render workflow: its state machine's construct id and the variable that carries its ARN. */
  workflow: { constructId: string; arnEnv: string };
  tags: string[];
}

/**
 * The products are plain data: a function that reads a product's path (an offer, a 202's poll URL) carries no route
 * table, and one that reads no product (a poll, through lambdas/jobs/views.ts) drops them.
 */
export const PRODUCTS: Record<ProductId, Product> = {
  create_music: {
    id: 'create_music',
    title: 'Create music',
    description: 'A complete original song (vocals, melody, arrangement) delivered as an MP3 with cover art.',
    category: 'music',
    amount: 500_000n,
    routes: { pay: 'CreateMusic', poll: 'GetSong' },
    pollOperationId: 'create_music_result',
    path: '/create-music',
    pollPath: '/api/songs/{songId}',
    workflow: { constructId: 'MusicWorkflow', arnEnv: 'MUSIC_STATE_MACHINE_ARN' },
    tags: ['music', 'song', 'mp3', 'audio'],
  },
  agent_video: {
    id: 'agent_video',
    title: 'Agent video',
    description: 'An 8-second 720p clip with native audio, generated from a text prompt.',
    category: 'video',
    amount: 4_990_000n,
    routes: { pay: 'AgentVideo', poll: 'GetVideo' },
    pollOperationId: 'agent_video_status',
    path: '/agent/video',
    pollPath: '/agent/video/{jobId}',
    workflow: { constructId: 'VideoWorkflow', arnEnv: 'VIDEO_STATE_MACHINE_ARN' },
    tags: ['video', 'mp4', 'clip'],
  },
  agent_image: {
    id: 'agent_image',
    title: 'Agent image',
    description: 'One hosted still image, PNG or JPEG, from a text prompt.',
    category: 'image',
    amount: 150_000n,
    routes: { pay: 'AgentImage', poll: 'GetImage' },
    pollOperationId: 'agent_image_status',
    path: '/agent/image',
    pollPath: '/agent/image/{jobId}',
    workflow: { constructId: 'ImageWorkflow', arnEnv: 'IMAGE_STATE_MACHINE_ARN' },
    tags: ['image', 'png', 'jpeg'],
  },
};

export function isProductId(value: string): value is ProductId {
  return (PRODUCT_IDS as readonly string[]).includes(value);
}

export { formatUsd, priceUsdCents } from '../shared/money.js';
