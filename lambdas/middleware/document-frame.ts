/**
 * The frame of the functions that only serve documents (discovery documents, agent documents, the playground page,
 * the generation surface's A2A payment pointers): everything http-frame.ts gives every other entry (the logger's
 * Lambda context first, metrics, the surface's version check and error presenter) except the Powertools Tracer.
 * Such a function reads no job, no payment and no AWS service, so a trace subsegment of its own could carry no
 * annotation (Lambda's active tracing still records each invocation); the Tracer and the X-Ray SDK are about 75 KiB
 * of each of those bundles (the bundle size goals, lib/bundling/goals.ts: document functions at most 150 KiB).
 */
import { metricsFlush } from '../shared/metrics.js';
import { loggerContext } from '../shared/log-context.js';
import { apiVersion, httpErrors } from './surface-frame.js';
import type { HttpMiddleware, SurfaceFrame } from './types.js';

export function documentFrame(surface: SurfaceFrame): HttpMiddleware[] {
  return [loggerContext() as HttpMiddleware, metricsFlush(), apiVersion(surface), httpErrors(surface)];
}
