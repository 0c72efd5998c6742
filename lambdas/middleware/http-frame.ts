/**
 * The outer frame of every HTTP entry, per surface: the surface's version check, its error presenter (typed errors
 * to the surface's bodies, in one place), and the headers every response carries. Nothing else short-circuits a
 * request: middlewares throw typed errors and this frame answers, so the common headers are never skipped.
 */
import { UnsupportedApiVersionError } from '../shared/errors.js';
import { header } from '../shared/http.js';
import { metricsFlush } from '../shared/metrics.js';
import { observability } from '../shared/tracing.js';
import type { HttpMiddleware, HttpRequest, SurfaceFrame } from './types.js';

export function apiVersion(surface: SurfaceFrame): HttpMiddleware {
  const policy = surface.version;
  const before = (request: HttpRequest) => {
    if (!policy) return;
    const requested = header(request.event, policy.header);
    if (requested !== undefined && requested.trim() !== policy.current) {
      throw new UnsupportedApiVersionError(requested, policy.current);
    }
  };
  const decorate = (request: HttpRequest) => {
    if (!request.response) return;
    request.response.headers = {
      ...(request.response.headers ?? {}),
      ...(request.internal.responseHeaders ?? {}),
      ...(policy ? { [policy.header]: policy.current } : {}),
    };
  };
  return { name: 'apiVersion', before, after: decorate, onError: decorate };
}

export function httpErrors(surface: SurfaceFrame): HttpMiddleware {
  const onError = (request: HttpRequest) => {
    request.response = surface.presentError(request.error, request);
  };
  return { name: 'httpErrors', onError };
}

/**
 * The frame middlewares, outermost first: `.use(frame(GENERATION))`. The trace's subsegment and the logger's Lambda
 * context come first, so every line any middleware logs carries the request id and every annotation has a home.
 * Metrics sit outside the version check and the presenter, so they count the status as sent (402s and 429s, from
 * any presenter or handler) and flush the invocation's counts last.
 */
export function frame(surface: SurfaceFrame): HttpMiddleware[] {
  return [...observability(), metricsFlush(), apiVersion(surface), httpErrors(surface)];
}
