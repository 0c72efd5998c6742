/**
 * One structured logger per process. Never log secrets or whole payment headers.
 *
 * Every invocation gives it its Lambda context (the HTTP frame's injectLambdaContext, the tasks' `traced`), so each
 * line carries `function_request_id` and `cold_start`; a use case's child logger (`createChild`) inherits both.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import type { ConstructorOptions } from '@aws-lambda-powertools/logger/types';
import type { Context } from 'aws-lambda';
import { SERVICE_NAME } from './service.js';

/** The context a child is handed by createChild: the parent's, with the parent's cold-start flag. */
type InheritedContext = Context | (Partial<Context> & { coldStart?: boolean });

class ServiceLogger extends Logger {
  /**
   * Powertools (2.36) recomputes a child's `cold_start` from the child's own state, which is "cold" for every new
   * child, so each warm invocation's use-case lines would claim a cold start. Keep the flag the parent computed.
   */
  override addContext(context: InheritedContext): void {
    const inherited = (context as { coldStart?: unknown }).coldStart;
    if (typeof inherited === 'boolean') this.coldStart = inherited;
    super.addContext(context as Context);
  }

  protected override createLogger(options?: ConstructorOptions): Logger {
    return new ServiceLogger(options);
  }
}

export const logger: Logger = new ServiceLogger({
  serviceName: SERVICE_NAME,
  logLevel: (process.env.LOG_LEVEL as 'INFO' | 'DEBUG' | 'WARN' | 'ERROR' | undefined) ?? 'INFO',
});
