import { describe, expect, it } from 'vitest';
import { PRODUCTS, formatUsd, priceUsdCents, musicRequestSchema, videoRequestSchema } from '../../lambdas/products/catalog.js';

describe('Prices of the generation endpoints', () => {
  it('lists the spec prices in base units, dollars and cents', () => {
    expect(PRODUCTS.create_music.amount).toBe(500000n);
    expect(PRODUCTS.agent_video.amount).toBe(4990000n);
    expect(PRODUCTS.agent_image.amount).toBe(150000n);
    expect(formatUsd(PRODUCTS.create_music.amount)).toBe('$0.50');
    expect(formatUsd(PRODUCTS.agent_video.amount)).toBe('$4.99');
    expect(formatUsd(PRODUCTS.agent_image.amount)).toBe('$0.15');
    expect(priceUsdCents(PRODUCTS.agent_video.amount)).toBe(499);
  });
  it('formats sub-cent prices without losing digits', () => {
    expect(formatUsd(80_000n)).toBe('$0.08');
    expect(formatUsd(1_234_567n)).toBe('$1.234567');
    expect(formatUsd(5_000_000n)).toBe('$5.00');
  });
});

describe('Music request body', () => {
  it('requires lyrics when custom_mode is true', () => {
    const r = musicRequestSchema.safeParse({ prompt: 'x', custom_mode: true });
    expect(r.success).toBe(false);
  });
});

describe('Video request body', () => {
  it('defaults durationSeconds to 8 and accepts 3 to 15 whole seconds only', () => {
    expect(videoRequestSchema.parse({ prompt: 'x' })).toMatchObject({ durationSeconds: 8, aspectRatio: '16:9' });
    for (const ok of [3, 15]) expect(videoRequestSchema.safeParse({ prompt: 'x', durationSeconds: ok }).success).toBe(true);
    for (const bad of [2, 16, 8.5, '8']) expect(videoRequestSchema.safeParse({ prompt: 'x', durationSeconds: bad }).success).toBe(false);
  });
  it('takes the MCP schema field resolution, whose one value is the 720p the clip renders at', () => {
    expect(videoRequestSchema.safeParse({ prompt: 'x', resolution: '720p' }).success).toBe(true);
    expect(videoRequestSchema.safeParse({ prompt: 'x', resolution: '1080p' }).success).toBe(false);
  });
});
