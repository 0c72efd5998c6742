/**
 * The outer frame of every HTTP entry, per surface: the surface's version check, its error presenter (typed errors
 * to the surface's bodies, in one place), and the headers every response carries. Nothing else short-circuits a
 * request: middlewares throw typed errors and this frame answers, so the common headers are never skipped.
 */
import { metricsFlush } from '../shared/metrics.js';
import { observability } from '../shared/tracing.js';
import { apiVersion, httpErrors } from './surface-frame.js';
import type { HttpMiddleware, SurfaceFrame } from './types.js';


/**
 * The frame middlewares, outermost first: `.use(frame(GENERATION))`. The trace's subsegment and the logger's Lambda
 * context come first, so every line any middleware logs carries the request id and every annotation has a home.
 * Metrics sit outside the version check and the presenter, so they count the status as sent (402s and 429s, from
 * any presenter or handler) and flush the invocation's counts last.
 */
export function frame(surface: SurfaceFrame): HttpMiddleware[] {
  return [...observability(), metricsFlush(), apiVersion(surface), httpErrors(surface)];
}
