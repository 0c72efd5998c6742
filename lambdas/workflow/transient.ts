/**
 * Which failures of a render task are worth retrying: a dependency that was throttled, timed out or answered 5xx
 * (DynamoDB through DependencyError, S3, a provider's HTTP API, the network). Those become TransientRenderError,
 * which the state machine retries with back-off before its Catch fails the job; anything else (a RenderError, a
 * bug) goes straight to the Catch.
 */
import { TransientRenderError } from '../render/provider.js';
import { DependencyError } from '../shared/errors.js';

const THROTTLED = new Set(['ThrottlingException', 'Throttling', 'SlowDown', 'RequestLimitExceeded', 'TooManyRequestsException', 'ProvisionedThroughputExceededException', 'ServiceUnavailable', 'InternalError', 'RequestTimeout', 'TimeoutError']);
const NETWORK = new Set(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT']);

export function isTransient(error: unknown): boolean {
  if (error instanceof TransientRenderError || error instanceof DependencyError) return true;
  const e = error as { name?: string; code?: string; $retryable?: unknown; $metadata?: { httpStatusCode?: number }; cause?: { code?: string } };
  if (!e || typeof e !== 'object') return false;
  const status = e.$metadata?.httpStatusCode;
  return (
    e.$retryable !== undefined ||
    (status !== undefined && (status >= 500 || status === 429)) ||
    THROTTLED.has(e.name ?? '') ||
    NETWORK.has(e.code ?? '') ||
    NETWORK.has(e.cause?.code ?? '')
  );
}

/** Runs a task, turning a transient failure into TransientRenderError (the original stays as its cause). */
export async function retryingTransient<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof TransientRenderError || !isTransient(error)) throw error;
    throw new TransientRenderError(`A dependency is temporarily unavailable: ${(error as Error).name}`, { cause: error });
  }
}
