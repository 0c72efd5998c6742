/**
 * X-Ray traces (Powertools Tracer) that an operator can find by job, run, payer, product or agent.
 *
 * - On Lambda the Tracer and its X-Ray SDK come from AWS's Powertools layer, outside the bundle (docs/decisions/0022).
 * - One Tracer per process, named like the function's logs and metrics (service.ts). Lambda's active tracing
 *   (lib/functions.ts) records every invocation; each gets a subsegment of its own (Lambda's segment takes no
 *   annotations) with the `ColdStart` and `Service` annotations, and the use cases add theirs with annotate().
 * - Every invocation hands the logger its Lambda context, so each log line carries `function_request_id` and
 *   `cold_start`: the HTTP frame through observability(), the workflow tasks and the sweeper through traced().
 * - Off Lambda (no AWS_EXECUTION_ENV: the embedded default, the tests) or with POWERTOOLS_TRACE_ENABLED=false
 *   tracing is off: nothing reaches for an X-Ray daemon or writes a line, and every call here is a no-op. Off, the
 *   Tracer is not even loaded (`tracer` is a stand-in with the same no-op answers): loading it loads the X-Ray SDK,
 *   whose `cls-hooked` context installs async hooks on every promise of the process at import, whether or not
 *   anything is traced (about 20× the cost of a bare `await` measured on this machine; the worker of a paid run
 *   spent ~15% of its time in those hooks). With tracing on, a deployed function pays that cost for its traces.
 * - Outgoing HTTP is not captured: an RPC provider's URL carries its API key, and a trace is no place for a secret.
 *   AWS SDK clients are (traceClient). Responses are not recorded either: they carry receipts and whole documents.
 * - A trace never fails the work it records: annotate() swallows its own errors.
 */
import type { Tracer } from '@aws-lambda-powertools/tracer';
import type { MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import type { HttpEvent, HttpResult } from './http.js';
import { logger } from './logger.js';
import { loggerContext } from './log-context.js';
import { SERVICE_NAME } from './service.js';

/** What this module and its users call on the Tracer. */
type TracerApi = Pick<
  Tracer,
  | 'isTracingEnabled'
  | 'putAnnotation'
  | 'captureAWSv3Client'
  | 'getSegment'
  | 'setSegment'
  | 'annotateColdStart'
  | 'addServiceNameAnnotation'
  | 'addErrorAsMetadata'
>;

/**
 * The Tracer's own rule for being on (its setTracingEnabled), read before deciding to load it: a Lambda execution
 * environment that is not Amplify's mock, not under SAM local, and POWERTOOLS_TRACE_ENABLED not `false`.
 */
export function tracingWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  const execution = env.AWS_EXECUTION_ENV ?? '';
  if (execution === '' || execution === 'AWS_Lambda_amplify-mock' || (env.AWS_SAM_LOCAL ?? '') !== '') return false;
  return (env.POWERTOOLS_TRACE_ENABLED ?? '').toLowerCase() !== 'false';
}

/** Tracing off: the answers a disabled Tracer gives, without loading it. */
const offTracer: TracerApi = {
  isTracingEnabled: () => false,
  putAnnotation: () => {},
  captureAWSv3Client: <T>(client: T) => client,
  getSegment: () => undefined,
  setSegment: () => {},
  annotateColdStart: () => {},
  addServiceNameAnnotation: () => {},
  addErrorAsMetadata: () => {},
};

const on = tracingWanted();
const powertools = on
  ? { Tracer: (await import('@aws-lambda-powertools/tracer')).Tracer, captureLambdaHandler: (await import('@aws-lambda-powertools/tracer/middleware')).captureLambdaHandler }
  : undefined;

export const tracer: TracerApi = powertools ? new powertools.Tracer({ serviceName: SERVICE_NAME, captureHTTPsRequests: false }) : offTracer;

/** What makes a trace findable; X-Ray indexes annotations (not metadata) for filter expressions. */
export interface TraceKeys {
  jobId?: string;
  runId?: string;
  payer?: string;
  product?: string;
  agent?: string;
  workspaceId?: string;
}

/** Annotates the invocation's subsegment with each key that has a value. */
export function annotate(keys: TraceKeys): void {
  for (const [key, value] of Object.entries(keys)) {
    if (value === undefined || value === '') continue;
    try {
      tracer.putAnnotation(key, value);
    } catch {
      // An annotation that cannot be written is lost; the payment and the job are not.
    }
  }
}

/**
 * Patches an AWS SDK v3 client so its calls show as subsegments. Returns the client untouched when tracing is off;
 * when on, X-Ray adds a middleware to the client's stack and leaves its HTTP handler alone.
 */
export function traceClient<T>(client: T): T {
  return tracer.captureAWSv3Client(client);
}

/**
 * The outermost middlewares of every HTTP entry (the frame puts them first): the invocation's subsegment and the
 * logger's Lambda context, in place before any other middleware runs or logs, closed after every other has ended.
 */
export function observability(): MiddlewareObj<HttpEvent, HttpResult>[] {
  if (!powertools) return [loggerContext()];
  const tracing = { name: 'tracing', ...powertools.captureLambdaHandler(tracer as Tracer, { captureResponse: false }) };
  return [tracing as MiddlewareObj<HttpEvent, HttpResult>, loggerContext()];
}

/**
 * Wraps a handler that Middy does not (a workflow task, the sweeper) as observability() frames an HTTP entry: the
 * logger gets the context, and the work runs in its own subsegment annotated with what `keys` reads off the input.
 */
export function traced<E, R>(work: (event: E) => Promise<R>, keys?: (event: E) => TraceKeys): (event: E, context?: Context) => Promise<R> {
  return async (event, context) => {
    if (context) logger.addContext(context);
    const parent = tracer.isTracingEnabled() ? tracer.getSegment() : undefined;
    const segment = parent?.addNewSubsegment(`## ${process.env._HANDLER ?? 'handler'}`);
    if (segment) {
      tracer.setSegment(segment);
      tracer.annotateColdStart();
      tracer.addServiceNameAnnotation();
    }
    try {
      if (keys) annotate(keys(event));
      return await work(event);
    } catch (error) {
      if (segment) tracer.addErrorAsMetadata(error as Error);
      throw error;
    } finally {
      if (segment) {
        segment.close();
        tracer.setSegment(parent!);
      }
    }
  };
}
