/**
 * The local render provider: renders real files synchronously inside submit (a Lambda cannot leave work
 * running after it returns), writes them and a manifest to the asset store, and answers check from the
 * manifest. Renders are deterministic, so a retried submit rewrites identical bytes.
 *
 * Store layout per job:  renders/<jobId>/{image.png|image.jpg | audio.mp3, cover.png | video.mp4, manifest.json}
 */
import type { ProductId } from '../../products/catalog.js';
import {
  RenderError,
  type AssetStore,
  type RenderMetadata,
  type RenderOutput,
  type RenderProvider,
  type RenderRequest,
  type RenderStatus,
} from '../provider.js';
import { assertExecutable, defaultFfmpegPath } from './ffmpeg.js';
import { renderImage } from './image/render-image.js';
import { MUSIC_MODEL_VERSION, renderMusic } from './music/render-music.js';
import { VIDEO_MODEL_VERSION, renderVideo } from './video/render-video.js';

export const IMAGE_MODEL_VERSION = 'local-image-1';

export type Manifest =
  | { state: 'done'; outputs: RenderOutput[]; metadata: RenderMetadata }
  | { state: 'failed'; error: string };

/** Job ids become key segments, so they are held to a conservative alphabet. */
const RENDER_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export function renderPrefix(renderId: string): string {
  if (!RENDER_ID.test(renderId)) throw new RenderError('Invalid render id');
  return `renders/${renderId}`;
}

export function manifestKey(renderId: string): string {
  return `${renderPrefix(renderId)}/manifest.json`;
}

export class LocalRenderProvider implements RenderProvider {
  readonly name = 'local';

  /** @param ffmpegPath defaults to FFMPEG_PATH, else the @ffmpeg-installer binary; resolved only when needed. */
  constructor(
    private readonly store: AssetStore,
    private readonly ffmpegPath?: string,
  ) {}

  async submit(request: RenderRequest): Promise<{ renderId: string }> {
    const prefix = renderPrefix(request.jobId);
    const existing = await this.readManifest(request.jobId);
    // A retried submit after success has nothing to do; after a failure it tries again.
    if (existing?.state === 'done') return { renderId: request.jobId };
    try {
      const { outputs, metadata } = await this.render(prefix, request);
      await this.writeManifest(request.jobId, { state: 'done', outputs, metadata });
    } catch (error) {
      const failure = error instanceof RenderError ? error : new RenderError('Rendering failed', { cause: error });
      // Best effort: the thrown error already fails the job; the manifest lets a later check agree.
      await this.writeManifest(request.jobId, { state: 'failed', error: failure.message }).catch(() => undefined);
      throw failure;
    }
    return { renderId: request.jobId };
  }

  async check(renderId: string, _product: ProductId): Promise<RenderStatus> {
    const manifest = await this.readManifest(renderId);
    if (!manifest) return { state: 'running' };
    if (manifest.state === 'failed') return { state: 'failed', error: manifest.error };
    return { state: 'done', outputs: manifest.outputs, metadata: manifest.metadata };
  }

  private async render(prefix: string, request: RenderRequest): Promise<{ outputs: RenderOutput[]; metadata: RenderMetadata }> {
    switch (request.product) {
      case 'agent_image': {
        const image = renderImage(request.request);
        const key = `${prefix}/image.${image.extension}`;
        await this.store.put(key, image.body, image.contentType);
        return {
          outputs: [{ role: 'image', contentType: image.contentType, key }],
          metadata: { title: image.title, width: image.width, height: image.height, modelVersion: IMAGE_MODEL_VERSION },
        };
      }
      case 'create_music': {
        const song = await renderMusic(request.request, await this.ffmpeg());
        const audioKey = `${prefix}/audio.mp3`;
        const coverKey = `${prefix}/cover.png`;
        await this.store.put(coverKey, song.cover, 'image/png');
        await this.store.put(audioKey, song.audio, 'audio/mpeg');
        return {
          outputs: [
            { role: 'audio', contentType: 'audio/mpeg', key: audioKey },
            { role: 'cover', contentType: 'image/png', key: coverKey },
          ],
          metadata: { title: song.title, durationSeconds: round2(song.durationSeconds), modelVersion: MUSIC_MODEL_VERSION },
        };
      }
      case 'agent_video': {
        const video = await renderVideo(request.request, await this.ffmpeg());
        const key = `${prefix}/video.mp4`;
        await this.store.put(key, video.video, 'video/mp4');
        return {
          outputs: [{ role: 'video', contentType: 'video/mp4', key }],
          metadata: {
            title: video.title,
            width: video.width,
            height: video.height,
            durationSeconds: video.durationSeconds,
            modelVersion: VIDEO_MODEL_VERSION,
          },
        };
      }
    }
    throw new RenderError('Unknown product');
  }

  private async ffmpeg(): Promise<string> {
    const path = this.ffmpegPath ?? defaultFfmpegPath();
    await assertExecutable(path);
    return path;
  }

  private async readManifest(renderId: string): Promise<Manifest | undefined> {
    const found = await this.store.get(manifestKey(renderId));
    if (!found) return undefined;
    return JSON.parse(Buffer.from(found.body).toString('utf8')) as Manifest;
  }

  private async writeManifest(renderId: string, manifest: Manifest): Promise<void> {
    await this.store.put(manifestKey(renderId), Buffer.from(JSON.stringify(manifest)), 'application/json');
  }
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
