/**
 * Render adapters against their wire-level fakes (issue 10, measurements): per adapter, the task-side overhead of one
 * render (submit + checks + store, the time the fake spent serving and rendering subtracted) and the bytes that
 * passed through the task's memory per asset. One entry per adapter; each returns its printed lines.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileAssetStore } from '../lambdas/store/file-assets.js';
import type { AssetStore, RenderProvider } from '../lambdas/render/provider.js';
import type { VideoRequest } from '../lambdas/products/catalog.js';

const RUNS = Number(process.env.BENCH_PROVIDER_RUNS ?? 3);

/** An asset store that counts the bytes written and read through it (what the task held in memory). */
function counting(store: AssetStore): AssetStore & { bytes: () => number } {
  let bytes = 0;
  return {
    put: async (key, body, type) => ((bytes += body.byteLength), store.put(key, body, type)),
    get: async (key) => {
      const got = await store.get(key);
      if (got) bytes += got.body.byteLength;
      return got;
    },
    exists: (key) => store.exists(key),
    url: (key) => store.url(key),
    bytes: () => bytes,
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function googleVeo(): Promise<string[]> {
  const { startGeminiFake } = await import('../lib/local/providers/gemini.js');
  const { create } = await import('../lambdas/render/google-veo/provider.js');
  const dir = await mkdtemp(join(tmpdir(), 'bench-veo-'));
  const fake = await startGeminiFake({ stateDir: dir, apiKey: 'bench-key', log: () => {}, veo: { pollsBeforeDone: 1 } });
  const lines: string[] = [];
  try {
    for (const aspectRatio of ['16:9', '1:1'] as const) {
      const overheads: number[] = [];
      const moved: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        const store = counting(new FileAssetStore(join(dir, 'assets'), 'http://bench'));
        const veo: RenderProvider = create({ store, secret: async () => 'bench-key', imageProvider: () => Promise.reject(new Error('unused')), env: { GEMINI_API_BASE_URL: fake.url } });
        const jobId = `bench-${aspectRatio.replace(':', 'x')}-${run}`;
        const request = { prompt: 'rain on a harbour, bells ring', aspectRatio } as VideoRequest;
        // The fake's render happens between checks (as Veo's does between Waits): not the task's time.
        let task = 0;
        const fakeBefore = fake.busyMs();
        let t = performance.now();
        const { renderId } = await veo.submit({ jobId, product: 'agent_video', request });
        task += performance.now() - t;
        await fake.idle();
        const fakeRender = fake.busyMs() - fakeBefore;
        for (;;) {
          t = performance.now();
          const status = await veo.check(renderId, 'agent_video');
          task += performance.now() - t;
          if (status.state !== 'running') break;
        }
        const fakeServing = fake.busyMs() - fakeBefore - fakeRender;
        overheads.push(task - fakeServing);
        moved.push(store.bytes());
      }
      lines.push(`google-veo ${aspectRatio.padEnd(5)} task overhead median ${median(overheads).toFixed(0)} ms (submit + checks + store, fake's serving time excluded; n=${RUNS}); bytes written from the task's memory per asset ${(median(moved) / 1e6).toFixed(2)} MB (the stored file and the records; a 1:1 crop also holds the downloaded 16:9 source)`);
    }
  } finally {
    await fake.stop();
    await rm(dir, { recursive: true, force: true });
  }
  return lines;
}

/** Every adapter's figures, printed by `npm run bench`. */
export async function benchProviders(): Promise<string[]> {
  return [...(await googleVeo())];
}
