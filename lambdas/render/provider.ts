/**
 * The render-provider port used by the state-machine tasks. A provider starts a render (submit) and reports on
 * it (check). Finished outputs are either already in the asset store (`key`) or fetchable from a URL (`url`);
 * the "Store asset" task moves URL outputs into the store.
 *
 * A provider fails a render by throwing one of the two errors below. The state machine (lib/workflow.ts) matches
 * them by `name`, as Step Functions matches a Lambda's errors: TransientRenderError is retried with back-off,
 * RenderError fails the job with its message shown to the buyer. A render the model refused for its content is a
 * ContentRefusedError thrown, or a `failed` status with `refusal: 'content'`: the job fails the same way for the
 * buyer, but the tasks return it rather than throw, so it is no function error and pages nobody (lib/monitoring.ts).
 */
import type { ProductId, MusicRequest, VideoRequest, ImageRequest } from '../products/catalog.js';

export type RenderRequest =
  | { jobId: string; product: 'create_music'; request: MusicRequest }
  | { jobId: string; product: 'agent_video'; request: VideoRequest }
  | { jobId: string; product: 'agent_image'; request: ImageRequest };

export type OutputRole = 'audio' | 'cover' | 'video' | 'image';

export interface RenderOutput {
  role: OutputRole;
  contentType: string;
  /** Asset-store key, when the provider wrote the file itself. */
  key?: string;
  /** Download URL, when the provider hosts the file. */
  url?: string;
}

export interface RenderMetadata {
  title?: string;
  durationSeconds?: number;
  width?: number;
  height?: number;
  modelVersion?: string;
}

export type RenderStatus =
  | { state: 'running' }
  | { state: 'done'; outputs: RenderOutput[]; metadata: RenderMetadata }
  | { state: 'failed'; error: string; refusal?: Refusal };

/** Why a model refused a render, when that is the buyer's outcome rather than a fault: its content. */
export type Refusal = 'content';

export interface RenderProvider {
  readonly name: string;
  submit(request: RenderRequest): Promise<{ renderId: string }>;
  check(renderId: string, product: ProductId): Promise<RenderStatus>;
  /**
   * A provider whose queue takes cancellations (fal's): asks it to drop the render. true: it will not render it
   * (it had not started); false: too late, it is rendering or done. Throws when the provider could not be asked.
   */
  cancel?(renderId: string): Promise<boolean>;
}

/** Storage for rendered files; S3 on AWS, S3 or a directory locally. */
export interface AssetStore {
  put(key: string, body: Uint8Array, contentType: string): Promise<void>;
  get(key: string): Promise<{ body: Uint8Array; contentType: string } | null>;
  exists(key: string): Promise<boolean>;
  /** Public URL a buyer downloads the asset from. */
  url(key: string): string;
}

/**
 * A render that could not be produced. The message is shown to the buyer (job `error` field), so it never
 * carries paths, argv or encoder output; those travel in `cause` for the logs.
 */
export class RenderError extends Error {
  /** The name Step Functions sees (Retry/Catch `ErrorEquals`, the failed job's `error.Error`). */
  static readonly errorName: string = 'RenderError';
  override name = RenderError.errorName;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A render the model refused for its content (a safety filter, a content policy): the buyer's outcome, not a fault. */
export class ContentRefusedError extends RenderError {
  /** The name the workflow records it under (lib/workflow.ts, the failed job's `error.Error`). */
  static override readonly errorName: string = 'ContentRefused';
  override name = ContentRefusedError.errorName;
  readonly refusal: Refusal = 'content';
}

/** A render that may succeed if retried (e.g. a provider's 429 or 5xx): the state machine retries it by name. */
export class TransientRenderError extends Error {
  static readonly errorName = 'TransientRenderError';
  override name = TransientRenderError.errorName;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
