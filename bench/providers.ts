/**
 * Render adapters against their wire-level fakes (docs/providers.md, measurements): per adapter, the task-side overhead of one
 * render (submit + checks + store, the time the fake spent serving and rendering subtracted) and the bytes that
 * passed through the task's memory per asset. One entry per adapter; each returns its printed lines.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileAssetStore } from '../lambdas/store/file-assets.js';
import type { AssetStore, RenderProvider } from '../lambdas/render/provider.js';
import type { ImageRequest, MusicRequest, VideoRequest } from '../lambdas/products/catalog.js';

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

/** A video fake as the bench sees it: the time it spent serving and rendering, and when its renders are finished. */
interface VideoFake {
  busyMs(): number;
  idle(): Promise<void>;
}

/**
 * One video adapter against its fake, 16:9 and the cropped 1:1: submit, the checks until done (the fake renders
 * between them, as the vendor does between Waits: not the task's time), the store.
 */
async function videoAdapter(name: string, fake: VideoFake, make: (store: AssetStore) => RenderProvider, dir: string): Promise<string[]> {
  const lines: string[] = [];
  for (const aspectRatio of ['16:9', '1:1'] as const) {
    const overheads: number[] = [];
    const moved: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const store = counting(new FileAssetStore(join(dir, 'assets'), 'http://bench'));
      const provider = make(store);
      const jobId = `bench-${aspectRatio.replace(':', 'x')}-${run}`;
      const request = { prompt: 'rain on a harbour, bells ring', aspectRatio } as VideoRequest;
      let task = 0;
      const fakeBefore = fake.busyMs();
      let t = performance.now();
      const { renderId } = await provider.submit({ jobId, product: 'agent_video', request });
      task += performance.now() - t;
      await fake.idle();
      const fakeRender = fake.busyMs() - fakeBefore;
      for (;;) {
        t = performance.now();
        const status = await provider.check(renderId, 'agent_video');
        task += performance.now() - t;
        if (status.state === 'failed') throw new Error(`${name}: ${JSON.stringify(status)}`);
        if (status.state !== 'running') break;
      }
      const fakeServing = fake.busyMs() - fakeBefore - fakeRender;
      overheads.push(task - fakeServing);
      moved.push(store.bytes());
    }
    lines.push(`${name} ${aspectRatio.padEnd(5)} task overhead median ${median(overheads).toFixed(0)} ms (submit + checks + store, fake's serving time excluded; n=${RUNS}); bytes written from the task's memory per asset ${(median(moved) / 1e6).toFixed(2)} MB (the stored file and the records; a 1:1 crop also holds the downloaded 16:9 source)`);
  }
  return lines;
}

async function googleVeo(): Promise<string[]> {
  const { startGeminiFake } = await import('../lib/local/providers/gemini.js');
  const { create } = await import('../lambdas/render/google-veo/provider.js');
  const dir = await mkdtemp(join(tmpdir(), 'bench-veo-'));
  const fake = await startGeminiFake({ stateDir: dir, apiKey: 'bench-key', log: () => {}, veo: { pollsBeforeDone: 1 } });
  try {
    return await videoAdapter('google-veo', fake, (store) => create({ store, secret: async () => 'bench-key', imageProvider: () => Promise.reject(new Error('unused')), env: { GEMINI_API_BASE_URL: fake.url } }), dir);
  } finally {
    await fake.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** fal-veo: queue submit, status polls (IN_QUEUE, IN_PROGRESS, COMPLETED), the result, the MP4 from the media URL. */
async function falVeo(): Promise<string[]> {
  const { startFalFake } = await import('../lib/local/providers/fal.js');
  const { create } = await import('../lambdas/render/fal-veo/provider.js');
  const dir = await mkdtemp(join(tmpdir(), 'bench-fal-veo-'));
  const fake = await startFalFake({ stateDir: dir, apiKey: 'bench-key', log: () => {}, pollsBeforeDone: 2 });
  try {
    return await videoAdapter('fal-veo   ', fake, (store) => create({ store, secret: async () => 'bench-key', imageProvider: () => Promise.reject(new Error('unused')), env: { FAL_QUEUE_BASE_URL: fake.url } }), dir);
  } finally {
    await fake.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** An image provider that reports how long the song adapters spent waiting for their cover (timed apart). */
function timedImageProvider(provider: RenderProvider): RenderProvider & { ms: () => number } {
  let ms = 0;
  const timed = async <T>(work: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    try {
      return await work();
    } finally {
      ms += performance.now() - t;
    }
  };
  return {
    name: provider.name,
    submit: (request) => timed(() => provider.submit(request)),
    check: (id, product) => timed(() => provider.check(id, product)),
    ms: () => ms,
  };
}

/**
 * The song adapters (minimax-music, google-lyria): one synchronous vendor call inside submit, the MP3 stored, the
 * cover asked of the image provider (the local synthesiser here; its time is reported apart), one check.
 */
async function songAdapters(): Promise<string[]> {
  const { LocalRenderProvider } = await import('../lambdas/render/local/provider.js');
  const { startMiniMaxFake } = await import('../lib/local/providers/minimax.js');
  const { startGeminiFake } = await import('../lib/local/providers/gemini.js');
  const minimaxAdapter = await import('../lambdas/render/minimax-music/provider.js');
  const lyriaAdapter = await import('../lambdas/render/google-lyria/provider.js');
  const dir = await mkdtemp(join(tmpdir(), 'bench-music-'));
  const minimax = await startMiniMaxFake({ stateDir: dir, apiKey: 'bench-key', log: () => {} });
  const gemini = await startGeminiFake({ stateDir: dir, apiKey: 'bench-key', log: () => {} });
  const adapters = [
    {
      name: 'minimax-music',
      create: minimaxAdapter.create,
      env: { MINIMAX_API_BASE_URL: minimax.url },
      fakeMs: () => minimax.requests.reduce((sum, r) => sum + (r.fakeMs ?? 0), 0),
      // The answer is JSON with a URL; the MP3 is then downloaded as is.
      wire: (mp3: number) => mp3,
      wireNote: 'the MP3 downloaded from the URL MiniMax answers with',
    },
    {
      name: 'google-lyria',
      create: lyriaAdapter.create,
      env: { GEMINI_API_BASE_URL: gemini.url },
      fakeMs: () => gemini.busyMs(),
      // The MP3 arrives base64 inside the JSON answer (4/3 of the file), then is decoded next to it.
      wire: (mp3: number) => 4 * Math.ceil(mp3 / 3),
      wireNote: 'base64 inside the JSON answer, then decoded: ~2.3x the MP3 held at once',
    },
  ];
  const lines: string[] = [];
  try {
    for (const adapter of adapters) {
      const overheads: number[] = [];
      const covers: number[] = [];
      const written: number[] = [];
      const wire: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        const store = counting(new FileAssetStore(join(dir, 'assets'), 'http://bench'));
        const image = timedImageProvider(new LocalRenderProvider(store));
        const provider = adapter.create({ store, secret: async () => 'bench-key', imageProvider: async () => image, env: adapter.env });
        const jobId = `bench-${adapter.name}-${run}`;
        const request = { prompt: 'a short folk song about rain on a tin roof', vocal_gender: 'f', custom_mode: true, lyrics: 'Rain on the roof\nsinging me to sleep' } as MusicRequest;
        const fakeBefore = adapter.fakeMs();
        const t = performance.now();
        const { renderId } = await provider.submit({ jobId, product: 'create_music', request });
        const status = await provider.check(renderId, 'create_music');
        const task = performance.now() - t;
        if (status.state !== 'done') throw new Error(`${adapter.name}: ${JSON.stringify(status)}`);
        const audio = await store.get(status.outputs.find((o) => o.role === 'audio')!.key!);
        overheads.push(task - (adapter.fakeMs() - fakeBefore) - image.ms());
        covers.push(image.ms());
        written.push(store.bytes() - audio!.body.byteLength); // the bench's own read of the MP3 is not the task's
        wire.push(adapter.wire(audio!.body.byteLength));
      }
      lines.push(
        `${adapter.name.padEnd(13)} task overhead median ${median(overheads).toFixed(0)} ms (submit + check + store, the fake's serving and rendering excluded, the cover apart: ${median(covers).toFixed(0)} ms in the local image provider; n=${RUNS}); ` +
          `bytes through the task's memory per song: ${(median(wire) / 1e6).toFixed(2)} MB received (${adapter.wireNote}), ${(median(written) / 1e6).toFixed(2)} MB to and from the store (MP3, cover, manifests)`,
      );
    }
  } finally {
    await minimax.stop();
    await gemini.stop();
    await rm(dir, { recursive: true, force: true });
  }
  return lines;
}

/**
 * bedrock-stability: one synchronous InvokeModel inside submit (the picture base64 in the JSON answer), the crop when
 * Stability's size is not the exact ratio, the store; then one check that reads the manifest.
 */
async function bedrockStability(): Promise<string[]> {
  const { startBedrockFake, FAKE_SIZES } = await import('../lib/local/providers/bedrock.js');
  const { create } = await import('../lambdas/render/bedrock-stability/provider.js');
  const dir = await mkdtemp(join(tmpdir(), 'bench-bedrock-'));
  const fake = await startBedrockFake({ stateDir: dir, apiKey: 'unused', log: () => {} });
  // The SDK's default credential chain (the fake does not verify signatures).
  process.env.AWS_ACCESS_KEY_ID ??= 'bench';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'bench';
  const env = { BEDROCK_REGION: 'us-west-2', BEDROCK_IMAGE_MODEL_ID: 'stability.stable-image-core-v1:1', BEDROCK_RUNTIME_ENDPOINT: fake.url };
  const lines: string[] = [];
  try {
    const cases = [
      { aspectRatio: '1:1', outputFormat: 'png', note: 'exact ratio: stored as received' },
      { aspectRatio: '16:9', outputFormat: 'png', note: '1344x768 cropped to 1344x756, PNG re-encoded' },
      { aspectRatio: '4:3', outputFormat: 'jpeg', note: 'rendered 5:4, cropped to 1088x816, JPEG re-encoded' },
    ] as const;
    for (const c of cases) {
      const overheads: number[] = [];
      const received: number[] = [];
      const decoded: number[] = [];
      const raster: number[] = [];
      const stored: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        const store = counting(new FileAssetStore(join(dir, 'assets'), 'http://bench'));
        const bedrock: RenderProvider = create({ store, secret: () => Promise.reject(new Error('no key')), imageProvider: () => Promise.reject(new Error('unused')), env });
        const jobId = `bench-${c.aspectRatio.replace(':', 'x')}-${c.outputFormat}-${run}`;
        const fakeBefore = fake.busyMs();
        const t = performance.now();
        const { renderId } = await bedrock.submit({ jobId, product: 'agent_image', request: { prompt: 'a red fox in the snow at dawn', aspectRatio: c.aspectRatio, outputFormat: c.outputFormat } as ImageRequest });
        const status = await bedrock.check(renderId, 'agent_image');
        const task = performance.now() - t;
        if (status.state !== 'done') throw new Error(`bedrock-stability: ${JSON.stringify(status)}`);
        const call = fake.requests.at(-1)!;
        overheads.push(task - (fake.busyMs() - fakeBefore));
        received.push(call.responseBytes ?? 0);
        decoded.push(call.imageBytes ?? 0);
        // A crop decodes the source and holds the cropped window beside it: 4 bytes a pixel each.
        const [sw, sh] = FAKE_SIZES[call.body!.aspect_ratio as string];
        const { width, height } = status.metadata;
        raster.push(width === sw && height === sh ? 0 : 4 * (sw * sh + width! * height!));
        stored.push(store.bytes());
      }
      lines.push(
        `bedrock-stability ${c.aspectRatio.padEnd(4)} ${c.outputFormat.padEnd(4)} task overhead median ${median(overheads).toFixed(0)} ms (submit + check + store, the fake's serving and painting excluded; ${c.note}; n=${RUNS}); ` +
          `bytes through the task's memory per image: ${(median(received) / 1e6).toFixed(2)} MB received (base64 in the JSON answer), ${(median(decoded) / 1e6).toFixed(2)} MB decoded picture, ` +
          `${(median(raster) / 1e6).toFixed(2)} MB of pixels for the crop, ${(median(stored) / 1e6).toFixed(2)} MB to and from the store (picture and manifests)`,
      );
    }
  } finally {
    await fake.stop();
    await rm(dir, { recursive: true, force: true });
  }
  return lines;
}

/** Every adapter's figures, printed by `npm run bench`. */
export async function benchProviders(): Promise<string[]> {
  return [...(await googleVeo()), ...(await falVeo()), ...(await songAdapters()), ...(await bedrockStability())];
}
