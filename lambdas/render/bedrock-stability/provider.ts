/**
 * agent_image through Stability models on Amazon Bedrock (`@aws-sdk/client-bedrock-runtime` InvokeModel; IAM, no key).
 *
 * submit  renders synchronously (InvokeModel answers with the picture as base64): a non-null finish reason is a
 *         RenderError the buyer can read; the picture is centre-cropped to the exact asked ratio when Stability's
 *         size is not (mapping.ts), stored as renders/<jobId>/image.<png|jpg>, and a manifest written under the job
 *         and under Bedrock's request id, which is the render id (the job row's provider job id, for operators).
 * check   answers from the manifest: the bytes never ride in Step Functions state.
 *
 * InvokeModel takes no idempotency token, so a retried submit must not pay twice: a job whose manifest or picture is
 * already stored is answered from the store without calling Bedrock. 429, throttling, 5xx, timeouts and unreachable
 * endpoints are TransientRenderError (the state machine retries them; the SDK itself does not, so one task makes one
 * call); the rest RenderError. The provider's full error goes to the logs; the buyer sees a short message.
 */
import { BedrockRuntimeClient, InvokeModelCommand, type InvokeModelCommandOutput } from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import type { ProductId } from '../../products/catalog.js';
import { logger } from '../../shared/logger.js';
import type { AdapterDeps } from '../adapter.js';
import { titleFrom } from '../local/text.js';
import { ContentRefusedError, RenderError, TransientRenderError, type AssetStore, type RenderMetadata, type RenderOutput, type RenderProvider, type RenderRequest, type RenderStatus } from '../provider.js';
import { cropCentre, decodeImage, encodeImage, imageSize, sniffFormat } from './image.js';
import { exactFrame, planStabilityRender, type StabilityPlan } from './mapping.js';

export const PROVIDER_NAME = 'bedrock-stability';
export const DEFAULT_REGION = 'us-west-2';
export const DEFAULT_MODEL = 'stability.stable-image-core-v1:1';
/** One InvokeModel gives up after this (Submit render's own timeout is 300 s; a song's cover shares it). */
export const CALL_TIMEOUT_MS = 90_000;

export const MESSAGES = {
  filtered: "The image was blocked by the provider's content filter",
  failed: 'The image model could not render this prompt',
  refused: 'The image model refused the request',
  unavailable: 'The image service is not available',
  unreadable: 'The image service returned an unreadable result',
  busy: 'The image service is busy',
} as const;

/** What a render leaves in the store for check (and for a retried submit). */
interface Manifest {
  state: 'done' | 'failed';
  jobId: string;
  /** Bedrock's request id (x-amzn-RequestId), the render id; absent when a stored picture was reused without one. */
  requestId?: string;
  model: string;
  seed: number;
  renderedAspectRatio: string;
  cropped?: boolean;
  outputs?: RenderOutput[];
  metadata?: RenderMetadata;
  error?: string;
  /** Set when the model's content filter refused the picture. */
  refusal?: 'content';
}

export function create(deps: AdapterDeps): RenderProvider {
  return new BedrockStabilityProvider(deps);
}

export class BedrockStabilityProvider implements RenderProvider {
  readonly name = PROVIDER_NAME;
  readonly model: string;
  private readonly client: BedrockRuntimeClient;
  private readonly store: AssetStore;
  private readonly timeoutMs: number;

  constructor(deps: AdapterDeps) {
    const region = deps.env.BEDROCK_REGION || DEFAULT_REGION;
    const model = deps.env.BEDROCK_IMAGE_MODEL_ID || DEFAULT_MODEL;
    const endpoint = deps.env.BEDROCK_RUNTIME_ENDPOINT || undefined;
    const timeout = deps.env.BEDROCK_CALL_TIMEOUT_MS ? Number(deps.env.BEDROCK_CALL_TIMEOUT_MS) : CALL_TIMEOUT_MS;
    const problems = [
      !/^[a-z]{2}(-[a-z]+)+-\d$/.test(region) && `BEDROCK_REGION: '${region}' is not an AWS region`,
      !/^stability\.[a-z0-9.-]+:\d+$/.test(model) && `BEDROCK_IMAGE_MODEL_ID: '${model}' is not a Stability model id`,
      endpoint && !/^https?:\/\//.test(endpoint) && 'BEDROCK_RUNTIME_ENDPOINT: must be an http(s) URL',
      !(Number.isInteger(timeout) && timeout >= 100 && timeout <= 280_000) && 'BEDROCK_CALL_TIMEOUT_MS: must be 100..280000',
    ].filter(Boolean);
    if (problems.length) throw new Error(`Invalid bedrock-stability configuration: ${problems.join('; ')}`);
    this.model = model;
    this.timeoutMs = timeout;
    this.store = deps.store;
    // HTTP/1.1 with explicit timeouts (the client's default handler is HTTP/2, for the bidirectional stream we do not
    // use); one attempt per call: the state machine owns retries, so a task never pays for renders it cannot see.
    this.client = new BedrockRuntimeClient({
      region,
      endpoint,
      maxAttempts: 1,
      requestHandler: new NodeHttpHandler({ connectionTimeout: 5_000, requestTimeout: timeout }),
    });
  }

  async submit(request: RenderRequest): Promise<{ renderId: string }> {
    if (request.product !== 'agent_image') throw new RenderError(`${PROVIDER_NAME} renders images only`);
    const { jobId } = request;
    const plan = planStabilityRender(jobId, request.request);
    const reused = await this.earlier(jobId, plan);
    if (reused) return { renderId: reused };

    const started = performance.now();
    let response: InvokeModelCommandOutput;
    try {
      response = await this.client.send(
        new InvokeModelCommand({ modelId: this.model, contentType: 'application/json', accept: 'application/json', body: JSON.stringify(plan.body) }),
        { abortSignal: AbortSignal.timeout(this.timeoutMs) },
      );
    } catch (error) {
      throw this.failure(jobId, error);
    }
    const requestId = response.$metadata.requestId;
    const base = { jobId, requestId, model: this.model, seed: plan.body.seed, renderedAspectRatio: plan.body.aspect_ratio };

    let payload: { finish_reasons?: unknown; images?: unknown };
    try {
      payload = JSON.parse(new TextDecoder().decode(response.body));
    } catch (error) {
      throw this.failure(jobId, new SyntaxError(`InvokeModel body is not JSON (${response.body?.byteLength ?? 0} bytes, request ${requestId}): ${(error as Error).message}`));
    }
    const reasons = Array.isArray(payload.finish_reasons) ? payload.finish_reasons : [];
    const reason = reasons.find((r) => r !== null && r !== undefined);
    if (reason !== undefined) {
      const filtered = /^Filter reason/i.test(String(reason));
      const error = filtered ? MESSAGES.filtered : MESSAGES.failed;
      logger.warn('bedrock image not rendered', { jobId, requestId, model: this.model, finishReason: String(reason).slice(0, 200) });
      await this.writeManifest({ ...base, state: 'failed', error, ...(filtered ? { refusal: 'content' as const } : {}) }, false).catch(() => undefined);
      const cause = new Error(`finish reason ${String(reason).slice(0, 200)}`);
      throw filtered ? new ContentRefusedError(error, { cause }) : new RenderError(error, { cause });
    }
    const image = Array.isArray(payload.images) ? payload.images[0] : undefined;
    if (typeof image !== 'string' || !image) throw this.failure(jobId, new SyntaxError(`no image in the InvokeModel answer (request ${requestId})`));

    let finished: { body: Buffer; width: number; height: number; cropped: boolean };
    try {
      finished = finish(Buffer.from(image, 'base64'), plan);
    } catch (error) {
      throw this.failure(jobId, new SyntaxError(`unreadable image (request ${requestId}): ${(error as Error).message}`));
    }
    const key = imageKey(jobId, plan.extension);
    await this.store.put(key, finished.body, plan.contentType);
    const manifest: Manifest = {
      ...base,
      state: 'done',
      cropped: finished.cropped,
      outputs: [{ role: 'image', contentType: plan.contentType, key }],
      metadata: { title: titleFrom(request.request.prompt, 'Untitled'), width: finished.width, height: finished.height, modelVersion: this.model },
    };
    await this.writeManifest(manifest, true);
    logger.info('bedrock image stored', {
      jobId, requestId, model: this.model, key, aspectRatio: plan.aspectRatio, renderedAspectRatio: plan.body.aspect_ratio,
      width: finished.width, height: finished.height, cropped: finished.cropped, responseBytes: response.body.byteLength, bytes: finished.body.byteLength,
      ms: Math.round(performance.now() - started),
    });
    return { renderId: renderIdOf(manifest) };
  }

  async check(renderId: string, product: ProductId): Promise<RenderStatus> {
    if (product !== 'agent_image') throw new RenderError(`${PROVIDER_NAME} renders images only`);
    const manifest = await this.read(pointerKey(renderId));
    // Submit writes the manifest before it returns the render id: without one there is no render to wait for.
    if (!manifest) throw new RenderError('Unknown render', { cause: new Error(`no manifest for render ${renderId}`) });
    if (manifest.state === 'failed') return { state: 'failed', error: manifest.error ?? MESSAGES.failed, ...(manifest.refusal ? { refusal: manifest.refusal } : {}) };
    return { state: 'done', outputs: manifest.outputs!, metadata: manifest.metadata! };
  }

  /**
   * A job rendered before (its answer lost, the task retried): its manifest, or — when only the picture was stored —
   * a manifest rebuilt from the picture's header. Either way Bedrock is not called (and not paid) again.
   */
  private async earlier(jobId: string, plan: StabilityPlan): Promise<string | undefined> {
    const manifest = await this.read(jobManifestKey(jobId));
    if (manifest?.state === 'done') {
      const renderId = renderIdOf(manifest);
      if (!(await this.store.exists(pointerKey(renderId)))) await this.writePointer(manifest);
      return renderId;
    }
    const key = imageKey(jobId, plan.extension);
    const stored = await this.store.get(key);
    const size = stored && imageSize(stored.body);
    if (!size) return undefined;
    const rebuilt: Manifest = {
      state: 'done', jobId, model: this.model, seed: plan.body.seed, renderedAspectRatio: plan.body.aspect_ratio,
      outputs: [{ role: 'image', contentType: plan.contentType, key }],
      metadata: { width: size.width, height: size.height, modelVersion: this.model },
    };
    logger.warn('bedrock image reused from the store (its manifest was not written)', { jobId, key });
    await this.writeManifest(rebuilt, true);
    return renderIdOf(rebuilt);
  }

  private async read(key: string): Promise<Manifest | undefined> {
    const found = await this.store.get(key);
    return found ? (JSON.parse(Buffer.from(found.body).toString('utf8')) as Manifest) : undefined;
  }

  private async writeManifest(manifest: Manifest, pointer: boolean): Promise<void> {
    await this.store.put(jobManifestKey(manifest.jobId), Buffer.from(JSON.stringify(manifest)), 'application/json');
    if (pointer) await this.writePointer(manifest);
  }

  private async writePointer(manifest: Manifest): Promise<void> {
    await this.store.put(pointerKey(renderIdOf(manifest)), Buffer.from(JSON.stringify(manifest)), 'application/json');
  }

  /** The error the state machine sees, with Bedrock's own words in the logs. */
  private failure(jobId: string, error: unknown): Error {
    const mapped = classify(error);
    const e = error as { name?: string; message?: string; $metadata?: { httpStatusCode?: number; requestId?: string }; code?: string };
    logger.error('bedrock call failed', {
      jobId, call: 'InvokeModel', model: this.model, status: e?.$metadata?.httpStatusCode, requestId: e?.$metadata?.requestId,
      errorName: e?.name, code: e?.code, retried: mapped instanceof TransientRenderError, providerError: `${e?.name}: ${e?.message ?? String(error)}`.slice(0, 2000),
    });
    return mapped;
  }
}

/** Bedrock's exceptions that may pass when retried (its 429s and 5xx, a model still loading). */
const TRANSIENT = new Set(['ThrottlingException', 'ServiceUnavailableException', 'InternalServerException', 'ModelTimeoutException', 'ModelNotReadyException', 'ServiceQuotaExceededException']);
/** Ours to fix (the grant, model access, credentials), never the buyer's. */
const OURS = new Set(['AccessDeniedException', 'ResourceNotFoundException', 'UnrecognizedClientException', 'InvalidSignatureException', 'ExpiredTokenException', 'MissingAuthenticationTokenException']);
const NETWORK = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_SOCKET']);

export function classify(error: unknown): Error {
  if (error instanceof RenderError || error instanceof TransientRenderError) return error;
  const e = error as { name?: string; code?: string; $metadata?: { httpStatusCode?: number } } | undefined;
  const name = e?.name ?? '';
  const status = e?.$metadata?.httpStatusCode;
  if (name === 'AbortError' || name === 'TimeoutError' || name === 'RequestTimeout') return new TransientRenderError(`${MESSAGES.busy} (no answer in time)`, { cause: error });
  if (e?.code && NETWORK.has(e.code)) return new TransientRenderError(`${MESSAGES.busy} (unreachable)`, { cause: error });
  if (status !== undefined) {
    if (TRANSIENT.has(name) || status === 429 || status === 408 || status >= 500) return new TransientRenderError(`${MESSAGES.busy} (${name || `HTTP ${status}`})`, { cause: error });
    if (OURS.has(name) || status === 401 || status === 403) return new RenderError(MESSAGES.unavailable, { cause: error });
    return new RenderError(MESSAGES.refused, { cause: error });
  }
  if (error instanceof SyntaxError) return new RenderError(MESSAGES.unreadable, { cause: error });
  return new RenderError(MESSAGES.failed, { cause: error });
}

/** The picture in the asked format and exact frame: Bedrock's bytes untouched when they already are. */
function finish(bytes: Buffer, plan: StabilityPlan): { body: Buffer; width: number; height: number; cropped: boolean } {
  const format = sniffFormat(bytes);
  const size = imageSize(bytes);
  if (!format || !size) throw new Error(`neither PNG nor JPEG (${bytes.length} bytes)`);
  const frame = exactFrame(size.width, size.height, plan.aspectRatio);
  const cropped = frame.width !== size.width || frame.height !== size.height;
  if (!cropped && format === plan.format) return { body: bytes, ...size, cropped };
  const raster = decodeImage(bytes);
  const framed = cropped ? cropCentre(raster, frame.width, frame.height) : raster;
  return { body: encodeImage(framed, plan.format), ...frame, cropped };
}

const ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

function checked(id: string): string {
  if (!ID.test(id)) throw new RenderError('Invalid render id');
  return id;
}

function renderIdOf(manifest: Manifest): string {
  return manifest.requestId && ID.test(manifest.requestId) ? manifest.requestId : manifest.jobId;
}

export function imageKey(jobId: string, extension: 'png' | 'jpg'): string {
  return `renders/${checked(jobId)}/image.${extension}`;
}

function jobManifestKey(jobId: string): string {
  return `renders/${checked(jobId)}/manifest.json`;
}

function pointerKey(renderId: string): string {
  return `renders/${PROVIDER_NAME}/${checked(renderId)}.json`;
}
