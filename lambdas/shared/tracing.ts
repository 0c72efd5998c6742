/**
 * X-Ray traces (Powertools Tracer) that an operator can find by job, run, payer, product or agent.
 *
 * - One Tracer per process, named like the function's logs and metrics (service.ts). Lambda's active tracing
 *   (lib/functions.ts) records every invocation; each gets a subsegment of its own (Lambda's segment takes no
 *   annotations) with the `ColdStart` and `Service` annotations, and the use cases add theirs with annotate().
 * - Every invocation hands the logger its Lambda context, so each log line carries `function_request_id` and
 *   `cold_start`: the HTTP frame through observability(), the workflow tasks and the sweeper through traced().
 * - Off Lambda (no AWS_EXECUTION_ENV: the embedded default, the tests) or with POWERTOOLS_TRACE_ENABLED=false the
 *   Tracer disables itself: nothing reaches for an X-Ray daemon or writes a line, and every call here is a no-op.
 * - Outgoing HTTP is not captured: an RPC provider's URL carries its API key, and a trace is no place for a secret.
 *   AWS SDK clients are (traceClient). Responses are not recorded either: they carry receipts and whole documents.
 * - A trace never fails the work it records: annotate() swallows its own errors.
 */
import { Tracer } from '@aws-lambda-powertools/tracer';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import type { MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import type { HttpEvent, HttpResult } from './http.js';
import { logger } from './logger.js';
import { loggerContext } from './log-context.js';
import { SERVICE_NAME } from './service.js';

export const tracer = new Tracer({ serviceName: SERVICE_NAME, captureHTTPsRequests: false });

/** What makes a trace findable; X-Ray indexes annotations (not metadata) for filter expressions. */
export interface TraceKeys {
  jobId?: string;
  runId?: string;
  payer?: string;
  product?: string;
  agent?: string;
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
  const tracing = { name: 'tracing', ...captureLambdaHandler(tracer, { captureResponse: false }) };
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
