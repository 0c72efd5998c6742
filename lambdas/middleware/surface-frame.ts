/**
 * The surface's part of every HTTP frame: its version check and its error presenter. Kept apart from the frames
 * themselves (http-frame.ts with the Tracer, document-frame.ts without) so a document function's bundle does not
 * carry the Tracer through this module.
 */
import { UnsupportedApiVersionError } from '../shared/errors.js';
import { header } from '../shared/http.js';
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
