/**
 * The logger's Lambda context as the outermost middleware of an HTTP entry: every line any middleware or handler
 * logs carries `function_request_id` and `cold_start`. Shared by both frames (tracing.ts adds the Tracer before it).
 */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { MiddlewareObj } from '@middy/core';
import type { HttpEvent, HttpResult } from './http.js';
import { logger } from './logger.js';

export function loggerContext(): MiddlewareObj<HttpEvent, HttpResult> {
  return { name: 'loggerContext', ...injectLambdaContext(logger) } as MiddlewareObj<HttpEvent, HttpResult>;
}
