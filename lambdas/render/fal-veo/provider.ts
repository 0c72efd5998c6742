/**
 * agent_video through Veo 3.1 Fast resold by fal.ai (`@fal-ai/client` queue: submit / status / result; provider
 * notes §5, §7 2nd choice). The frame plan, the crop and the stored file are shared with google-veo (../video-shared.ts).
 *
 * submit  queues the request and returns fal's request_id (the job row's provider job id), after writing what the
 *         check needs (job id, frame, the duration mapping) under the job and under the request id. A retried submit
 *         of a job whose request was recorded returns that request instead of paying for a second one.
 * check   asks for the request's status: IN_QUEUE / IN_PROGRESS → running; COMPLETED → fetches the result: a content
 *         policy refusal → failed with a buyer-safe message; `video.url` → downloads it (without the key: it is fal's
 *         CDN), crops 1:1, stores renders/<jobId>/video.mp4 and reports the key.
 *
 * Each call makes one attempt under its own timeout: the SDK's built-in retries (up to 3–5 per queue call, with
 * back-off) are switched off through its `fetch` option, so 429, 5xx, timeouts and unreachable endpoints surface at
 * once as TransientRenderError and the state machine's Retry owns the back-off. The provider's full error goes to the
 * logs (never the key); the buyer sees a short message.
 */
import { ApiError, createFalClient, type FalClient, type RequestMiddleware } from '@fal-ai/client';
import type { ProductId } from '../../products/catalog.js';
import { logger } from '../../shared/logger.js';
import type { AdapterDeps } from '../adapter.js';
import { ContentRefusedError, RenderError, TransientRenderError, type AssetStore, type RenderProvider, type RenderRequest, type RenderStatus } from '../provider.js';
import { jobRecordKey, MAX_VIDEO_BYTES, readRecord, redactKey, storeVideo, transportFailure, VIDEO_MESSAGES, videoDone, videoKey, type VideoFrame } from '../video-shared.js';
import { planFalVeoRender } from './mapping.js';

export const PROVIDER_NAME = 'fal-veo';
export const DEFAULT_FAL_VIDEO_MODEL = 'fal-ai/veo3.1/fast';
/** The queue's public host, where the SDK sends every queue call (FAL_QUEUE_BASE_URL points them elsewhere). */
export const FAL_QUEUE_URL = 'https://queue.fal.run';
export const CALL_TIMEOUT_MS = 20_000;
export const DOWNLOAD_TIMEOUT_MS = 60_000;
export const MESSAGES = VIDEO_MESSAGES;

/** What submit records for check: under the job (a retried submit finds it) and under the request id (check does). */
interface FalVeoRecord extends VideoFrame {
  jobId: string;
  requestId: string;
  model: string;
}

/** An HTTP answer other than 2xx, raised by our fetch so the SDK does not retry it (it retries only its ApiError). */
export class FalHttpError extends Error {
  override name = 'FalHttpError';
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly requestId: string,
  ) {
    super(`HTTP ${status}: ${typeof body === 'string' ? body.slice(0, 500) : JSON.stringify(body ?? null).slice(0, 2000)}`);
  }
}

/**
 * The endpoint could not be reached. Its cause is described in the message, not chained: the SDK retries an error
 * whose cause chain holds a socket error code, and the state machine owns retries.
 */
export class FalUnreachableError extends Error {
  override name = 'FalUnreachableError';
}

export function create(deps: AdapterDeps): RenderProvider {
  return new FalVeoProvider(deps);
}

export class FalVeoProvider implements RenderProvider {
  readonly name = PROVIDER_NAME;
  private readonly model: string;
  private readonly queueBaseUrl?: string;
  private readonly store: AssetStore;
  private client?: Promise<{ fal: FalClient; key: string }>;

  constructor(private readonly deps: AdapterDeps) {
    this.model = deps.env.FAL_VIDEO_MODEL || DEFAULT_FAL_VIDEO_MODEL;
    this.queueBaseUrl = deps.env.FAL_QUEUE_BASE_URL?.replace(/\/+$/, '') || undefined;
    this.store = deps.store;
  }

  async submit(request: RenderRequest): Promise<{ renderId: string }> {
    if (request.product !== 'agent_video') throw new RenderError(`${PROVIDER_NAME} renders videos only`);
    const earlier = await readRecord<FalVeoRecord>(this.store, jobRecordKey(PROVIDER_NAME, request.jobId));
    if (earlier) return { renderId: earlier.requestId };
    const { input, ...frame } = planFalVeoRender(request.request);
    const { fal } = await this.sdk();
    let requestId: string;
    try {
      ({ request_id: requestId } = await fal.queue.submit(this.model, { input, abortSignal: AbortSignal.timeout(CALL_TIMEOUT_MS) }));
    } catch (error) {
      throw await this.failure('queue.submit', request.jobId, error);
    }
    if (!REQUEST_ID.test(requestId ?? '')) throw await this.failure('queue.submit', request.jobId, new SyntaxError(`unexpected request_id ${String(requestId).slice(0, 200)}`));
    const record: FalVeoRecord = { ...frame, jobId: request.jobId, requestId, model: this.model };
    logger.info('fal render queued', { jobId: request.jobId, requestId, model: this.model, aspectRatio: frame.aspectRatio, requestedDurationSeconds: frame.requestedDurationSeconds, durationSeconds: frame.durationSeconds });
    const body = Buffer.from(JSON.stringify(record));
    await this.store.put(requestRecordKey(requestId), body, 'application/json');
    await this.store.put(jobRecordKey(PROVIDER_NAME, request.jobId), body, 'application/json');
    return { renderId: requestId };
  }

  async check(renderId: string, product: ProductId): Promise<RenderStatus> {
    if (product !== 'agent_video') throw new RenderError(`${PROVIDER_NAME} renders videos only`);
    const record = await readRecord<FalVeoRecord>(this.store, requestRecordKey(renderId));
    if (!record) throw new RenderError('Unknown render', { cause: new Error(`no record of fal request ${renderId}`) });
    const key = videoKey(record.jobId);
    // A check retried after it stored the video (its answer lost) does not download again.
    if (await this.store.exists(key)) return videoDone(record, key);

    const { fal } = await this.sdk();
    let status: string;
    try {
      ({ status } = await fal.queue.status(record.model, { requestId: renderId, abortSignal: AbortSignal.timeout(CALL_TIMEOUT_MS) }));
    } catch (error) {
      throw await this.failure('queue.status', record.jobId, error);
    }
    if (status === 'IN_QUEUE' || status === 'IN_PROGRESS') return { state: 'running' };
    if (status !== 'COMPLETED') throw await this.failure('queue.status', record.jobId, new SyntaxError(`unexpected status ${String(status).slice(0, 100)}`));

    let data: { video?: { url?: unknown } } | undefined;
    try {
      ({ data } = await fal.queue.result(record.model, { requestId: renderId, abortSignal: AbortSignal.timeout(CALL_TIMEOUT_MS) }));
    } catch (error) {
      if (isContentPolicyRefusal(error)) {
        logger.warn('fal output refused by the content checker', { jobId: record.jobId, requestId: renderId, providerError: await this.redact(describe(error)) });
        return { state: 'failed', error: MESSAGES.filtered, refusal: 'content' };
      }
      const mapped = await this.failure('queue.result', record.jobId, error);
      // The model's own refusal of a finished request is final: the job fails with the buyer's message.
      if (mapped instanceof RenderError) return { state: 'failed', error: mapped.message };
      throw mapped;
    }
    const url = data?.video?.url;
    if (typeof url !== 'string' || !/^https?:\/\//.test(url)) {
      logger.error('fal request completed without a video', { jobId: record.jobId, requestId: renderId, result: JSON.stringify(data ?? null).slice(0, 2000) });
      return { state: 'failed', error: MESSAGES.failed };
    }
    const stored = await storeVideo(this.store, record, await this.download(url, record.jobId));
    logger.info('fal render stored', { jobId: record.jobId, requestId: renderId, key, bytes: stored.bytes, cropped: record.crop });
    return stored.status;
  }

  /**
   * Cancels a request still in fal's queue (`PUT …/requests/{id}/cancel`: 202 before it starts, 400 after): a job
   * canceled by its payer (lambdas/jobs/cancel.ts). true: fal will not render it; false: it started or ended.
   */
  async cancel(renderId: string): Promise<boolean> {
    const record = await readRecord<FalVeoRecord>(this.store, requestRecordKey(renderId));
    if (!record) throw new RenderError('Unknown render', { cause: new Error(`no record of fal request ${renderId}`) });
    const { fal } = await this.sdk();
    try {
      await fal.queue.cancel(record.model, { requestId: renderId, abortSignal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
      logger.info('fal request canceled', { jobId: record.jobId, requestId: renderId });
      return true;
    } catch (error) {
      if (error instanceof FalHttpError && error.status === 400) return false;
      throw await this.failure('queue.cancel', record.jobId, error);
    }
  }

  /** The client, built once per process (the key read once; a failed read is not kept). */
  private sdk(): Promise<{ fal: FalClient; key: string }> {
    if (!this.client) {
      this.client = this.deps.secret('fal').then((key) => ({
        key,
        fal: createFalClient({
          credentials: key,
          fetch: oneAttempt,
          ...(this.queueBaseUrl ? { requestMiddleware: queueAt(this.queueBaseUrl) } : {}),
        }),
      }));
      this.client.catch(() => (this.client = undefined));
    }
    return this.client;
  }

  /** The finished file, from fal's media CDN: a plain GET without the key, which goes to the queue API only. */
  private async download(url: string, jobId: string): Promise<Uint8Array> {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
      const where = new URL(url);
      if (!response.ok) throw new FalHttpError(response.status, `download ${where.origin}${where.pathname}: ${(await response.text()).slice(0, 500)}`, '');
      const length = Number(response.headers.get('content-length') ?? 0);
      if (length > MAX_VIDEO_BYTES) throw new RenderError(MESSAGES.unreadable, { cause: new Error(`video of ${length} bytes`) });
      const bytes = new Uint8Array(await response.arrayBuffer());
      if (bytes.byteLength > MAX_VIDEO_BYTES || bytes.byteLength === 0) throw new RenderError(MESSAGES.unreadable, { cause: new Error(`video of ${bytes.byteLength} bytes`) });
      return bytes;
    } catch (error) {
      throw await this.failure('download', jobId, error);
    }
  }

  /** The error the state machine sees, with the provider's own words in the logs. */
  private async failure(call: string, jobId: string, error: unknown): Promise<Error> {
    const mapped = classify(error);
    const status = (error as { status?: unknown })?.status;
    logger.error('fal call failed', { jobId, call, status, retried: mapped instanceof TransientRenderError, providerError: await this.redact(describe(error)) });
    return mapped;
  }

  private async redact(text: string): Promise<string> {
    return redactKey(text, await this.client?.then((c) => c.key).catch(() => undefined));
  }
}

/**
 * FAL_QUEUE_BASE_URL: the SDK's request middleware (its documented hook for rewriting a request) sends every call
 * addressed to the queue host to this base instead, path and query kept. Nothing else is rewritten.
 */
function queueAt(baseUrl: string): RequestMiddleware {
  return async (request) => {
    const url = new URL(request.url);
    if (url.origin !== FAL_QUEUE_URL) return request;
    return { ...request, url: `${baseUrl}${url.pathname}${url.search}` };
  };
}

/** The SDK's fetch: one attempt, an HTTP error or an unreachable endpoint raised in a form the SDK does not retry. */
async function oneAttempt(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(input, init);
  } catch (error) {
    if (error instanceof TypeError) {
      const code = (error.cause as { code?: string } | undefined)?.code;
      throw new FalUnreachableError(`${error.message}${code ? ` (${code})` : ''}`);
    }
    throw error;
  }
  if (response.ok) return response;
  const text = await response.text();
  let body: unknown = text;
  if ((response.headers.get('content-type') ?? '').includes('application/json')) {
    try {
      body = JSON.parse(text);
    } catch {
      // kept as text
    }
  }
  throw new FalHttpError(response.status, body, response.headers.get('x-fal-request-id') ?? '');
}

/** fal's typed model error for a prompt or output its content checker refused (docs.fal.ai/errors). */
function isContentPolicyRefusal(error: unknown): boolean {
  const detail = (error as { body?: { detail?: unknown } })?.body?.detail;
  return Array.isArray(detail) && detail.some((entry) => (entry as { type?: unknown })?.type === 'content_policy_violation');
}

/** Retryable: throttling, the provider's own failures, timeouts, an unreachable endpoint. */
export function classify(error: unknown): Error {
  if (error instanceof RenderError || error instanceof TransientRenderError) return error;
  if (error instanceof FalUnreachableError) return new TransientRenderError(`${MESSAGES.busy} (unreachable)`, { cause: error });
  if (error instanceof FalHttpError || error instanceof ApiError) {
    const { status } = error;
    if (status === 429 || status === 408 || status >= 500) return new TransientRenderError(`${MESSAGES.busy} (HTTP ${status})`, { cause: error });
    // A wrong, missing or revoked key is ours to fix, not the buyer's.
    if (status === 401 || status === 403) return new RenderError(MESSAGES.unavailable, { cause: error });
    if (isContentPolicyRefusal(error)) return new ContentRefusedError(MESSAGES.filtered, { cause: error });
    return new RenderError(MESSAGES.refused, { cause: error });
  }
  return transportFailure(error) ?? new RenderError(MESSAGES.failed, { cause: error });
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** fal's request ids are UUIDs. */
const REQUEST_ID = /^[A-Za-z0-9-]{1,128}$/;

function requestRecordKey(requestId: string): string {
  if (!REQUEST_ID.test(requestId)) throw new RenderError('Unknown render', { cause: new Error(`unexpected fal request id ${requestId.slice(0, 200)}`) });
  return `renders/${PROVIDER_NAME}/${requestId}.json`;
}
