import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import jpeg from 'jpeg-js';
import { afterAll, describe, expect, it } from 'vitest';
import { IMAGE_ASPECT_RATIOS, imageRequestSchema } from '../../../lambdas/products/catalog.js';
import { LocalRenderProvider } from '../../../lambdas/render/local/provider.js';
import { imageDimensions, renderImage } from '../../../lambdas/render/local/image/render-image.js';
import { FileAssetStore } from '../../../lambdas/store/file-assets.js';
import { readPng } from './media.js';

const dir = mkdtempSync(join(tmpdir(), 'image-render-'));
const store = new FileAssetStore(dir, 'http://127.0.0.1:9/assets');
const provider = new LocalRenderProvider(store, '/nonexistent/ffmpeg-not-needed-for-images');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let jobs = 0;
async function renderViaProvider(body: Record<string, unknown>) {
  const jobId = `img-${++jobs}`;
  await provider.submit({ jobId, product: 'agent_image', request: imageRequestSchema.parse(body) });
  const status = await provider.check(jobId, 'agent_image');
  if (status.state !== 'done') throw new Error(`render not done: ${JSON.stringify(status)}`);
  const asset = await store.get(status.outputs[0].key!);
  return { status, body: Buffer.from(asset!.body), contentType: asset!.contentType };
}

const EXPECTED: Record<(typeof IMAGE_ASPECT_RATIOS)[number], [number, number]> = {
  '1:1': [1024, 1024],
  '9:16': [576, 1024],
  '16:9': [1024, 576],
  '3:4': [768, 1024],
  '4:3': [1024, 768],
  '3:2': [1024, 680],
  '2:3': [680, 1024],
  '5:4': [1024, 816],
  '4:5': [816, 1024],
  '21:9': [1024, 440],
};

describe('Image request body: aspectRatio (long side 1024 px, short side to a multiple of 8)', () => {
  it.each(IMAGE_ASPECT_RATIOS)('%s renders a PNG of the mapped size with valid chunks and zlib data', async (aspectRatio) => {
    const { body, contentType, status } = await renderViaProvider({ prompt: 'a lighthouse on a cliff', aspectRatio });
    const [w, h] = EXPECTED[aspectRatio];
    expect(imageDimensions(aspectRatio)).toEqual({ width: w, height: h });
    const png = readPng(body);
    expect(contentType).toBe('image/png');
    expect({ width: png.width, height: png.height }).toEqual({ width: w, height: h });
    expect(png.bitDepth).toBe(8);
    expect(png.colourType).toBe(2);
    expect(png.chunks.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect(png.chunks.every((c) => c.crcOk)).toBe(true);
    // One filter byte plus 3 bytes per pixel per row; every filter byte a valid PNG filter type.
    expect(png.raw.length).toBe((w * 3 + 1) * h);
    for (let y = 0; y < h; y++) expect(png.raw[y * (w * 3 + 1)]).toBeLessThanOrEqual(4);
    const [rw, rh] = aspectRatio.split(':').map(Number);
    expect(Math.abs(w / h - rw / rh)).toBeLessThan(0.02);
    expect(status.state === 'done' && status.metadata).toMatchObject({ width: w, height: h });
  });
});

describe('Image request body: outputFormat', () => {
  it('defaults to a 1024×1024 PNG when only a prompt is sent', async () => {
    const { body, contentType } = await renderViaProvider({ prompt: 'a quiet harbour' });
    expect(contentType).toBe('image/png');
    expect(readPng(body)).toMatchObject({ width: 1024, height: 1024 });
  });

  it('jpeg renders a baseline JPEG that decodes at the requested size', async () => {
    const { body, contentType, status } = await renderViaProvider({ prompt: 'a quiet harbour', aspectRatio: '16:9', outputFormat: 'jpeg' });
    expect(contentType).toBe('image/jpeg');
    expect(body.subarray(0, 3).toString('hex')).toBe('ffd8ff');
    const decoded = jpeg.decode(body, { useTArray: true });
    expect({ width: decoded.width, height: decoded.height }).toEqual({ width: 1024, height: 576 });
    expect(status.state === 'done' && status.outputs[0]).toMatchObject({ role: 'image', contentType: 'image/jpeg' });
  });
});

describe('Image content follows the prompt', () => {
  function meanRgb(prompt: string): [number, number, number] {
    const image = renderImage({ prompt, aspectRatio: '1:1', outputFormat: 'jpeg' });
    const { data } = jpeg.decode(image.body, { useTArray: true });
    const sum = [0, 0, 0];
    for (let i = 0; i < data.length; i += 4) for (let c = 0; c < 3; c++) sum[c] += data[i + c];
    return sum.map((s) => s / (data.length / 4)) as [number, number, number];
  }

  it('is deterministic: the same request gives the same bytes, another prompt other bytes', () => {
    const a = renderImage({ prompt: 'a red barn', aspectRatio: '4:3', outputFormat: 'png' });
    const b = renderImage({ prompt: 'a red barn', aspectRatio: '4:3', outputFormat: 'png' });
    const c = renderImage({ prompt: 'a blue barn', aspectRatio: '4:3', outputFormat: 'png' });
    expect(a.body.equals(b.body)).toBe(true);
    expect(a.body.equals(c.body)).toBe(false);
  });

  it('colour words steer the palette (red prompt is redder, blue prompt bluer)', () => {
    const red = meanRgb('a red crimson poppy field');
    const blue = meanRgb('a blue navy glacier');
    expect(red[0]).toBeGreaterThan(red[2]);
    expect(blue[2]).toBeGreaterThan(blue[0]);
  });
});
