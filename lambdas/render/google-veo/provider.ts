/**
 * agent_video through Google Veo on the Gemini API (`@google/genai`: generateVideos / operations.getVideosOperation).
 *
 * submit  starts the long-running operation and returns its name (the job row's provider job id), after writing what
 *         the check needs (job id, frame shape, the duration mapping) to the store under the job and the operation.
 * check   asks for the operation: not done → running; an error or an RAI-filtered result → failed with a buyer-safe
 *         message; done → downloads the video with the API key, crops 1:1 (ffmpeg; the check task ships it), stores it
 *         as renders/<jobId>/video.mp4 and reports the key, so the bytes never ride in Step Functions state.
 *
 * 429, 5xx, timeouts and unreachable endpoints are TransientRenderError (the state machine retries them); the rest
 * RenderError. The provider's full error goes to the logs (never the key); the buyer sees a short message.
 * A retried submit of a job whose operation was recorded returns that operation instead of paying for a second one.
 */
import { ApiError, GenerateVideosOperation, GoogleGenAI } from '@google/genai';
import type { ProductId } from '../../products/catalog.js';
import { logger } from '../../shared/logger.js';
import type { AdapterDeps } from '../adapter.js';
import { RenderError, TransientRenderError, type AssetStore, type RenderProvider, type RenderRequest, type RenderStatus } from '../provider.js';
import { jobRecordKey, MAX_VIDEO_BYTES, readRecord, redactKey, storeVideo, transportFailure, VIDEO_MESSAGES, videoDone, videoKey } from '../video-shared.js';
import { planVeoRender, type VeoPlan } from './mapping.js';

export const PROVIDER_NAME = 'google-veo';
export const DEFAULT_VEO_MODEL = 'veo-3.1-fast-generate-preview';
export const GEMINI_API_BASE_URL = 'https://generativelanguage.googleapis.com';
/** Each API call (start, poll) gives up after this; the state machine retries the task. */
export const CALL_TIMEOUT_MS = 20_000;
export const DOWNLOAD_TIMEOUT_MS = 60_000;
export const MESSAGES = VIDEO_MESSAGES;

/** What submit records for check: under the job (a retried submit finds it) and under the operation (check does). */
interface VeoRecord extends Omit<VeoPlan, 'params'> {
  jobId: string;
  operation: string;
  model: string;
}

export function create(deps: AdapterDeps): RenderProvider {
  return new GoogleVeoProvider(deps);
}

export class GoogleVeoProvider implements RenderProvider {
  readonly name = PROVIDER_NAME;
  private readonly model: string;
  private readonly baseUrl: string;
  private readonly store: AssetStore;
  private client?: Promise<{ ai: GoogleGenAI; apiKey: string }>;

  constructor(private readonly deps: AdapterDeps) {
    this.model = deps.env.VEO_MODEL || DEFAULT_VEO_MODEL;
    this.baseUrl = (deps.env.GEMINI_API_BASE_URL || GEMINI_API_BASE_URL).replace(/\/+$/, '');
    this.store = deps.store;
  }

  async submit(request: RenderRequest): Promise<{ renderId: string }> {
    if (request.product !== 'agent_video') throw new RenderError(`${PROVIDER_NAME} renders videos only`);
    const earlier = await readRecord<VeoRecord>(this.store, jobRecordKey(PROVIDER_NAME, request.jobId));
    if (earlier) return { renderId: earlier.operation };
    const { params, ...plan } = planVeoRender(request.request);
    const { ai } = await this.sdk();
    let operation: GenerateVideosOperation;
    try {
      operation = await ai.models.generateVideos({ model: this.model, ...params });
    } catch (error) {
      throw await this.failure('generateVideos', request.jobId, error);
    }
    if (!operation.name) throw await this.failure('generateVideos', request.jobId, new Error(`no operation name in ${JSON.stringify(operation).slice(0, 500)}`));
    const record: VeoRecord = { ...plan, jobId: request.jobId, operation: operation.name, model: this.model };
    logger.info('veo render started', { jobId: request.jobId, operation: operation.name, model: this.model, aspectRatio: plan.aspectRatio, requestedDurationSeconds: plan.requestedDurationSeconds, durationSeconds: plan.durationSeconds });
    const body = Buffer.from(JSON.stringify(record));
    await this.store.put(operationRecordKey(operation.name), body, 'application/json');
    await this.store.put(jobRecordKey(PROVIDER_NAME, request.jobId), body, 'application/json');
    return { renderId: operation.name };
  }

  async check(renderId: string, product: ProductId): Promise<RenderStatus> {
    if (product !== 'agent_video') throw new RenderError(`${PROVIDER_NAME} renders videos only`);
    const record = await readRecord<VeoRecord>(this.store, operationRecordKey(renderId));
    if (!record) throw new RenderError('Unknown render', { cause: new Error(`no record of operation ${renderId}`) });
    const key = videoKey(record.jobId);
    // A check retried after it stored the video (its answer lost) does not download again.
    if (await this.store.exists(key)) return videoDone(record, key);

    const { ai } = await this.sdk();
    let operation: GenerateVideosOperation;
    try {
      operation = await ai.operations.getVideosOperation({ operation: Object.assign(new GenerateVideosOperation(), { name: renderId }) });
    } catch (error) {
      throw await this.failure('getVideosOperation', record.jobId, error);
    }
    if (!operation.done) return { state: 'running' };
    if (operation.error) {
      logger.error('veo operation failed', { jobId: record.jobId, operation: renderId, providerError: await this.redact(JSON.stringify(operation.error)) });
      return { state: 'failed', error: MESSAGES.failed };
    }
    const response = operation.response;
    if ((response?.raiMediaFilteredCount ?? 0) > 0) {
      logger.warn('veo output filtered', { jobId: record.jobId, operation: renderId, reasons: response?.raiMediaFilteredReasons });
      return { state: 'failed', error: MESSAGES.filtered, refusal: 'content' };
    }
    const video = response?.generatedVideos?.[0]?.video;
    if (!video?.uri && !video?.videoBytes) {
      logger.error('veo operation done without a video', { jobId: record.jobId, operation: renderId, response: JSON.stringify(response ?? null).slice(0, 2000) });
      return { state: 'failed', error: MESSAGES.failed };
    }
    const source: Uint8Array = video.videoBytes ? Buffer.from(video.videoBytes, 'base64') : await this.download(video.uri!, record.jobId);
    const stored = await storeVideo(this.store, record, source);
    logger.info('veo render stored', { jobId: record.jobId, operation: renderId, key, bytes: stored.bytes, cropped: record.crop });
    return stored.status;
  }

  /** The client, built once per process (the key read once; a failed read is not kept). */
  private sdk(): Promise<{ ai: GoogleGenAI; apiKey: string }> {
    if (!this.client) {
      this.client = this.deps.secret('gemini').then((apiKey) => ({
        apiKey,
        ai: new GoogleGenAI({ apiKey, httpOptions: { baseUrl: this.baseUrl, timeout: CALL_TIMEOUT_MS } }),
      }));
      this.client.catch(() => (this.client = undefined));
    }
    return this.client;
  }

  /**
   * The file behind the operation's uri: the key goes in the header and only to the API's own origin; the redirect
   * to storage is followed without it.
   */
  private async download(uri: string, jobId: string): Promise<Uint8Array> {
    const { apiKey } = await this.sdk();
    const api = new URL(this.baseUrl).origin;
    let url = new URL(uri);
    const signal = AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS);
    try {
      for (let hop = 0; hop < 5; hop++) {
        const headers: Record<string, string> = url.origin === api ? { 'x-goog-api-key': apiKey } : {};
        const response = await fetch(url, { headers, redirect: 'manual', signal });
        const location = response.headers.get('location');
        if (response.status >= 300 && response.status < 400 && location) {
          await response.body?.cancel();
          url = new URL(location, url);
          continue;
        }
        if (!response.ok) {
          throw new ApiError({ status: response.status, message: `download ${url.origin}${url.pathname}: HTTP ${response.status} ${(await response.text()).slice(0, 500)}` });
        }
        const length = Number(response.headers.get('content-length') ?? 0);
        if (length > MAX_VIDEO_BYTES) throw new RenderError(MESSAGES.unreadable, { cause: new Error(`video of ${length} bytes`) });
        return new Uint8Array(await response.arrayBuffer());
      }
      throw new RenderError(MESSAGES.unreadable, { cause: new Error('too many redirects downloading the video') });
    } catch (error) {
      throw await this.failure('download', jobId, error);
    }
  }

  /** The error the state machine sees, with the provider's own words in the logs. */
  private async failure(call: string, jobId: string, error: unknown): Promise<Error> {
    const mapped = classify(error);
    const status = error instanceof ApiError ? error.status : undefined;
    const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    logger.error('veo call failed', { jobId, call, status, retried: mapped instanceof TransientRenderError, providerError: await this.redact(detail) });
    return mapped;
  }

  private async redact(text: string): Promise<string> {
    const apiKey = await this.client?.then((c) => c.apiKey).catch(() => undefined);
    return redactKey(text, apiKey);
  }
}

/** Retryable: throttling, the provider's own failures, timeouts, an unreachable endpoint. */
export function classify(error: unknown): Error {
  if (error instanceof RenderError || error instanceof TransientRenderError) return error;
  if (error instanceof ApiError) {
    if (error.status === 429 || error.status === 408 || error.status >= 500) return new TransientRenderError(`${MESSAGES.busy} (HTTP ${error.status})`, { cause: error });
    // A wrong or missing key is ours to fix, not the buyer's (the API answers an invalid key with 400 API_KEY_INVALID).
    if (error.status === 401 || error.status === 403 || /API_KEY_INVALID|API key not valid/.test(error.message)) return new RenderError(MESSAGES.unavailable, { cause: error });
    return new RenderError(MESSAGES.refused, { cause: error });
  }
  return transportFailure(error) ?? new RenderError(MESSAGES.failed, { cause: error });
}

const OPERATION = /^models\/[a-z0-9.-]+\/operations\/([A-Za-z0-9_-]{1,128})$/;

function operationRecordKey(operation: string): string {
  const id = OPERATION.exec(operation)?.[1];
  if (!id) throw new RenderError('Unknown render', { cause: new Error(`unexpected operation name ${operation.slice(0, 200)}`) });
  return `renders/google-veo/${id}.json`;
}
