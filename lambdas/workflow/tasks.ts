/**
 * Step Functions task logic, one function per state, shared by the three product state machines.
 * The Lambda entries in this folder wrap these; the local runner calls the same entries.
 *
 * A render the model refused for its content is returned by Submit/Check render as a `failed` state with
 * `refusal: 'content'`, never thrown: the job fails and is refunded as any failed one, but no function error, failed
 * execution or RendersFailed count pages an operator for the buyer's own outcome (lib/workflow.ts, lib/monitoring.ts).
 */
import { refundOwed } from '../jobs/refund.js';
import type { ProductId } from '../products/catalog.js';
import {
  ContentRefusedError,
  RenderError,
  type AssetStore,
  type OutputRole,
  type RenderMetadata,
  type RenderOutput,
  type RenderProvider,
  type RenderRequest,
  type RenderStatus,
  type Refusal,
} from '../render/provider.js';
import type { JobRecord, JobStore } from '../store/jobs.js';
import { PaymentPreconfirmedError } from '../store/job-completions.js';
import type { WebhookStarter } from '../store/workflow.js';
import { startWebhook } from '../jobs/webhook-start.js';
import { PAYMENT_NEVER_LANDED, resolvePreconfirmed, type PreconfirmedDeps } from '../jobs/preconfirmed.js';
import { GENERIC_FAILURE } from '../jobs/views.js';
import { logger } from '../shared/logger.js';
import { countRender, wanted as metricsWanted } from '../shared/metrics.js';
import type { TraceKeys } from '../shared/tracing.js';

export interface TaskDeps {
  jobs: Pick<JobStore, 'get' | 'markProcessing' | 'recordProviderJob' | 'complete' | 'fail'>;
  /** Where a job paid on a preconfirmed receipt stands (docs/decisions/0021); only Mark completed has it. */
  preconfirmed?: PreconfirmedDeps;
  /** The render provider of that name (the job row's `provider`, as its purchase recorded it); only the tasks that call one have it. */
  provider?: (name: string) => Promise<RenderProvider>;
  assets: () => AssetStore;
  fetchImpl?: typeof fetch;
  /** Starts an ended job's webhook delivery (docs/decisions/0018); only Mark completed and Mark failed have it. */
  webhooks?: Pick<WebhookStarter, 'start'>;
}

export interface ExecutionInput {
  jobId: string;
  product: ProductId;
}

export interface RenderState {
  renderId: string;
  provider: string;
  state: 'running' | 'done' | 'failed';
  attempts: number;
  error?: string;
  /** Why the model refused the render, when it did for its content (the workflow's "Render refused"). */
  refusal?: Refusal;
  outputs?: RenderOutput[];
  metadata?: RenderMetadata;
}

/** The trace annotations of a task: every state's input carries the execution's job id and product. */
export function jobKeys(input: ExecutionInput): TraceKeys {
  return { jobId: input.jobId, product: input.product };
}

/** A job that cannot be rendered (unknown, already final): fail the execution without retrying. */
export class JobNotRenderableError extends Error {
  override name = 'JobNotRenderableError';
}

function providerOf(deps: TaskDeps, name: string): Promise<RenderProvider> {
  if (!deps.provider) throw new Error('this task has no render provider (render-function.ts)');
  return deps.provider(name);
}

export async function submitRender(deps: TaskDeps, input: ExecutionInput): Promise<RenderState> {
  const job = await deps.jobs.get(input.jobId);
  if (!job) throw new JobNotRenderableError(`job ${input.jobId} not found`);
  if (!(await deps.jobs.markProcessing(input.jobId))) {
    throw new JobNotRenderableError(`job ${input.jobId} is ${job.status}, not renderable`);
  }
  const provider = await providerOf(deps, job.provider);
  const request = { jobId: job.jobId, product: job.product, request: job.request } as RenderRequest;
  let renderId: string;
  try {
    ({ renderId } = await provider.submit(request));
  } catch (error) {
    if (error instanceof ContentRefusedError) return { renderId: job.jobId, provider: provider.name, state: 'failed', attempts: 0, error: error.message, refusal: error.refusal };
    throw error;
  }
  // The provider's own job id, on the job row for operators (the poll answers do not show it).
  if (renderId !== job.jobId) await deps.jobs.recordProviderJob(job.jobId, renderId);
  return { renderId, provider: provider.name, state: 'running', attempts: 0 };
}

export async function checkRender(deps: TaskDeps, input: ExecutionInput & { render: RenderState }): Promise<RenderState> {
  const provider = await providerOf(deps, input.render.provider);
  const attempts = (input.render.attempts ?? 0) + 1;
  const base = { renderId: input.render.renderId, provider: input.render.provider, attempts };
  let status: RenderStatus;
  try {
    status = await provider.check(input.render.renderId, input.product);
  } catch (error) {
    if (error instanceof ContentRefusedError) return { ...base, state: 'failed', error: error.message, refusal: error.refusal };
    throw error;
  }
  if (status.state === 'done') return { ...base, state: 'done', outputs: status.outputs, metadata: status.metadata };
  if (status.state === 'failed') return { ...base, state: 'failed', error: status.error, ...(status.refusal ? { refusal: status.refusal } : {}) };
  return { ...base, state: 'running' };
}

const EXTENSIONS: Record<string, string> = {
  'audio/mpeg': 'mp3',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'video/mp4': 'mp4',
};

/** Outputs already in the store stay where they are; URL outputs are downloaded into the store. */
export async function storeAsset(
  deps: TaskDeps,
  input: ExecutionInput & { render: RenderState },
): Promise<{ assets: Partial<Record<OutputRole, string>>; metadata: RenderMetadata }> {
  const assets: Partial<Record<OutputRole, string>> = {};
  for (const output of input.render.outputs ?? []) {
    if (output.key) {
      assets[output.role] = output.key;
      continue;
    }
    if (!output.url) throw new Error(`render output ${output.role} has neither key nor url`);
    const response = await (deps.fetchImpl ?? fetch)(output.url);
    if (!response.ok) throw new Error(`download of ${output.role} failed with HTTP ${response.status}`);
    const key = `assets/${input.jobId}/${output.role}.${EXTENSIONS[output.contentType] ?? 'bin'}`;
    await deps.assets().put(key, new Uint8Array(await response.arrayBuffer()), output.contentType);
    assets[output.role] = key;
  }
  const required: Record<ProductId, OutputRole[]> = { create_music: ['audio', 'cover'], agent_video: ['video'], agent_image: ['image'] };
  for (const role of required[input.product]) {
    if (!assets[role]) throw new Error(`render produced no ${role}`);
  }
  return { assets, metadata: input.render.metadata ?? {} };
}

/**
 * A job whose preconfirmed payment has not been seen in a sealed block yet: Mark completed is retried (lib/workflow.ts)
 * until it is, or until the authorization can no longer pay us.
 */
export class PaymentNotFinalError extends Error {
  static readonly errorName = 'PaymentNotFinal';
  override name = PaymentNotFinalError.errorName;
}

/** A job whose preconfirmed payment never landed: it is failed (nothing delivered, nothing refunded) and the execution ends failed. */
export class PaymentNeverLandedError extends Error {
  static readonly errorName = 'PaymentNeverLanded';
  override name = PaymentNeverLandedError.errorName;
}

export async function markCompleted(
  deps: TaskDeps,
  input: ExecutionInput & { stored: { assets: Partial<Record<OutputRole, string>>; metadata: RenderMetadata }; render?: RenderState },
): Promise<{ status: 'completed' }> {
  // Delivery waits for the sealed block of a payment answered on its preconfirmation (docs/decisions/0021): the
  // completion's own condition finds it, with the row, so the common path reads nothing more.
  let moved: boolean;
  try {
    moved = await deps.jobs.complete(input.jobId, input.stored.assets, input.stored.metadata);
  } catch (error) {
    if (!(error instanceof PaymentPreconfirmedError)) throw error;
    await awaitSealedPayment(deps, input, error.job);
    moved = await deps.jobs.complete(input.jobId, input.stored.assets, input.stored.metadata);
  }
  if (!moved) logger.warn('job was already final when marking completed', { jobId: input.jobId });
  else await countRenderEnd(deps, input, 'completed');
  // Whether or not this task moved it (a retried task), an ended job's webhook is started once (named by the job).
  if (deps.webhooks) await startWebhook(deps.webhooks, await deps.jobs.get(input.jobId));
  return { status: 'completed' };
}

/**
 * A job about to be completed whose payment was answered on its preconfirmation: returns once the transfer is sealed
 * (and recorded); throws PaymentNotFinalError while it may still land, and fails the job (nothing delivered, nothing
 * refunded) with PaymentNeverLandedError once it can no longer.
 */
async function awaitSealedPayment(deps: TaskDeps, input: ExecutionInput, job: JobRecord): Promise<void> {
  if (!deps.preconfirmed) throw new Error('Mark completed cannot tell where a preconfirmed payment stands');
  const finality = await resolvePreconfirmed(deps.preconfirmed, job);
  if (finality === 'final') return;
  if (finality === 'pending') throw new PaymentNotFinalError(`job ${input.jobId}: its transfer is preconfirmed, not yet in a sealed block`);
  if (await deps.jobs.fail(input.jobId, PAYMENT_NEVER_LANDED, ['queued', 'processing'], false)) await countRenderEnd(deps, input, 'failed');
  logger.warn('preconfirmed payment never landed: the job is failed, nothing delivered or refunded', { jobId: input.jobId, transaction: job.transaction });
  if (deps.webhooks && job.webhookTarget) await startWebhook(deps.webhooks, await deps.jobs.get(input.jobId));
  throw new PaymentNeverLandedError(PAYMENT_NEVER_LANDED);
}

export interface StepError {
  Error?: string;
  Cause?: string;
}

export async function markFailed(
  deps: TaskDeps,
  input: ExecutionInput & { error?: StepError; render?: RenderState },
): Promise<{ status: 'failed'; error: string }> {
  const message = buyerMessage(input.error, input.render);
  const refused = input.error?.Error === ContentRefusedError.errorName;
  logger.warn(refused ? 'job refused for its content' : 'job failed', { jobId: input.jobId, error: input.error?.Error, cause: input.error?.Cause?.slice(0, 500) });
  // A job the workflow renders was paid for (queued only once its payment settled): failing it owes a refund, which
  // the next state sends.
  const job = await deps.jobs.get(input.jobId);
  if (await deps.jobs.fail(input.jobId, message, ['queued', 'processing'], job ? refundOwed(job) : false)) await countRenderEnd(deps, input, refused ? 'refused' : 'failed');
  // The job read before the write says whether it has a webhook; the one read after says how it ended.
  if (deps.webhooks && job?.webhookTarget) await startWebhook(deps.webhooks, await deps.jobs.get(input.jobId));
  return { status: 'failed', error: message };
}

/**
 * RendersCompleted / RendersFailed / RendersRefused per product and provider (the job's, as purchase recorded it), and for a completed
 * job RenderSeconds: from purchase (`createdAt`) to the asset (`updatedAt`, just written), the buyer's wait. Counted
 * only by the task that moved the job, so a retried task counts once; a failed read only loses the metric.
 */
async function countRenderEnd(deps: TaskDeps, input: ExecutionInput & { render?: RenderState }, outcome: 'completed' | 'failed' | 'refused'): Promise<void> {
  if (!metricsWanted()) return;
  try {
    const job = await deps.jobs.get(input.jobId);
    const provider = job?.provider ?? input.render?.provider ?? 'unknown';
    const seconds = job ? (Date.parse(job.updatedAt) - Date.parse(job.createdAt)) / 1000 : undefined;
    countRender(outcome, { product: input.product, provider }, seconds);
  } catch (error) {
    logger.warn('render metrics not counted', { jobId: input.jobId, error: (error as Error).message });
  }
}

/** Only render errors carry a message meant for the buyer; anything else gets the generic one. */
function buyerMessage(error: StepError | undefined, render: RenderState | undefined): string {
  if (render?.state === 'failed' && render.error) return `Generation failed: ${render.error}`;
  if ((error?.Error === RenderError.errorName || error?.Error === ContentRefusedError.errorName) && error.Cause) {
    try {
      const cause = JSON.parse(error.Cause) as { errorMessage?: string };
      if (cause.errorMessage) return `Generation failed: ${cause.errorMessage}`;
    } catch {
      return `Generation failed: ${error.Cause}`;
    }
  }
  if (error?.Error === 'RenderTimeout') return 'Generation failed: the render timed out';
  return GENERIC_FAILURE;
}
