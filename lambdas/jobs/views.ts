/** Response shapes of the spec (accepted, poll, blocking), built from a job row. */
import type { JobRecord } from '../store/jobs.js';
import type { ProductId } from '../products/products.js';
import { PRODUCTS } from '../products/products.js';

export const GENERIC_FAILURE = 'Generation failed. The job id is unknown, expired, or the render did not succeed.';

export interface Urls {
  base: string;
  asset: (key: string) => string;
  placeholderCover: string;
}

export function pollUrl(product: ProductId, jobId: string, base: string): string {
  return `${base}${PRODUCTS[product].pollPath.replace(/\{[^}]+\}/, encodeURIComponent(jobId))}`;
}

export function shareUrl(jobId: string, base: string): string {
  return `${base}/song/${encodeURIComponent(jobId)}`;
}

/** Status a buyer sees: a reserved job (settlement in flight) is still queued from the outside. */
function visibleStatus(job: JobRecord): 'queued' | 'processing' | 'completed' | 'failed' {
  return job.status === 'reserved' ? 'queued' : job.status;
}

type View = (job: JobRecord, urls: Urls) => Record<string, unknown>;

/** How each product's job reads to a buyer: the accepted (202), blocking (200) and poll bodies of the spec. */
export interface JobViews {
  accepted: View;
  finished: View;
  poll: View;
}

function musicAccepted(job: JobRecord, urls: Urls): Record<string, unknown> {
  return { status: 'queued', shareUrl: shareUrl(job.jobId, urls.base), songId: job.jobId, pollUrl: pollUrl(job.product, job.jobId, urls.base) };
}

function mediaAccepted(job: JobRecord, urls: Urls): Record<string, unknown> {
  const assetField = job.product === 'agent_video' ? 'videoUrl' : 'imageUrl';
  return { jobId: job.jobId, status: 'queued', provider: job.provider, [assetField]: null, pollUrl: pollUrl(job.product, job.jobId, urls.base) };
}

export function acceptedBody(job: JobRecord, urls: Urls): Record<string, unknown> {
  return JOB_VIEWS[job.product].accepted(job, urls);
}

export function songRow(job: JobRecord, urls: Urls): Record<string, unknown> {
  const request = job.request as { prompt?: string; style?: string };
  const done = job.status === 'completed';
  const cover = done && job.assets?.cover ? urls.asset(job.assets.cover) : urls.placeholderCover;
  const modelVersion = done ? (job.metadata?.modelVersion ?? 'v1') : job.status === 'failed' ? 'failed' : 'pending';
  return {
    id: job.jobId,
    model_version: modelVersion,
    audio_url: done && job.assets?.audio ? urls.asset(job.assets.audio) : cover,
    title: job.metadata?.title ?? titleFromPrompt(request.prompt ?? ''),
    prompt: request.prompt ?? '',
    genre: request.style ?? '',
    image_url: cover,
    duration: done ? (job.metadata?.durationSeconds ?? 0) : 0,
    share_id: job.jobId,
    is_public: true,
    created_at: job.createdAt,
    ...(job.status === 'failed' ? { error: job.error ?? GENERIC_FAILURE } : {}),
    ...refundView(job),
    ...webhookView(job),
  };
}

/**
 * `refund: { status, transaction }` on a failed paid job (additive to the spec's shapes): `pending` until the money is
 * back (or while a token refund is owed by hand), `refunded` with its transaction, `failed` while it is retried.
 */
export function refundView(job: JobRecord): { refund?: { status: string; transaction: string | null } } {
  if (job.status !== 'failed' || !job.refund) return {};
  return { refund: { status: job.refund.status, transaction: job.refund.transaction ?? null } };
}

/**
 * `webhook: { attempts, lastStatus, nextAttemptAt, delivered }` on a job bought with a webhook (additive; docs/decisions/0018):
 * its deliveries so far, stored as shown (JobRecord.webhook); where it goes is the row's `webhookTarget`, never shown.
 */
export function webhookView({ webhook }: JobRecord): Pick<JobRecord, 'webhook'> {
  return webhook ? { webhook } : {};
}

export function mediaJob(job: JobRecord, urls: Urls): Record<string, unknown> {
  const status = visibleStatus(job);
  const key = job.product === 'agent_video' ? job.assets?.video : job.assets?.image;
  const url = status === 'completed' && key ? urls.asset(key) : null;
  const body: Record<string, unknown> = { jobId: job.jobId, status, provider: job.provider };
  if (job.product === 'agent_video') {
    body.videoUrl = url;
    if (status === 'completed') body.videoId = job.jobId;
  } else {
    body.imageUrl = url;
  }
  body.pollUrl = null;
  if (status === 'failed') Object.assign(body, { error: job.error ?? GENERIC_FAILURE }, refundView(job));
  Object.assign(body, webhookView(job));
  return body;
}

export function unknownMediaJob(product: 'agent_video' | 'agent_image', jobId: string): Record<string, unknown> {
  const assetField = product === 'agent_video' ? 'videoUrl' : 'imageUrl';
  return { jobId, status: 'failed', [assetField]: null, pollUrl: null, error: GENERIC_FAILURE, etaSeconds: null };
}

/** The blocking (`?async=false`) 200 body of music: share URL, title and cover art (plus the audio, additively). */
export function musicBlockingBody(job: JobRecord, urls: Urls): Record<string, unknown> {
  const row = songRow(job, urls);
  return {
    shareUrl: shareUrl(job.jobId, urls.base),
    title: row.title,
    imageUrl: row.image_url,
    songId: job.jobId,
    audioUrl: job.status === 'completed' ? row.audio_url : null,
    status: job.status === 'completed' ? 'completed' : 'failed',
    ...(job.status === 'failed' ? { error: row.error, ...refundView(job) } : {}),
  };
}

export function titleFromPrompt(prompt: string): string {
  const words = prompt.replace(/[^\p{L}\p{N}\s'-]/gu, ' ').split(/\s+/).filter(Boolean).slice(0, 5);
  if (words.length === 0) return 'Untitled';
  return words.map((w) => w[0].toUpperCase() + w.slice(1).toLowerCase()).join(' ');
}

/** The views of each product: a new product adds its entry here, and every presenter picks it up. */
export const JOB_VIEWS: Record<ProductId, JobViews> = {
  create_music: { accepted: musicAccepted, finished: musicBlockingBody, poll: songRow },
  agent_video: { accepted: mediaAccepted, finished: mediaJob, poll: mediaJob },
  agent_image: { accepted: mediaAccepted, finished: mediaJob, poll: mediaJob },
};
