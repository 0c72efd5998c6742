/**
 * A local Step Functions endpoint for the embedded runtime: an HTTP server on loopback speaking the AWS JSON 1.0
 * protocol of `@aws-sdk/client-sfn` (X-Amz-Target `AWSStepFunctions.<Op>`), running executions with
 * aws-local-stepfunctions. Point an SFNClient at `endpoint` (any region, dummy credentials).
 *
 * Implemented: StartExecution (Standard-workflow name semantics), DescribeExecution, StopExecution, ListExecutions
 * (minimal).
 * Lambda task states are overridden by state name with in-process handlers. Handler errors reach the ASL like
 * Lambda errors do on AWS: `Error` = the thrown error's `name` (what Retry/Catch `ErrorEquals` match) and
 * `Cause` = JSON `{"errorType","errorMessage","trace"}`.
 *
 * The parts: sfn-machines.ts compiles the definitions, sfn-execution.ts runs one execution, sfn-registry.ts keeps
 * the executions, sfn-api.ts implements the operations and sfn-server.ts speaks the HTTP protocol.
 */
import { stepFunctionsOperations } from './sfn-api.js';
import { compileMachines } from './sfn-machines.js';
import { ExecutionRegistry } from './sfn-registry.js';
import { startJsonProtocolServer } from './sfn-server.js';

export type TaskHandler = (input: any) => Promise<unknown> | unknown;

export interface LocalStateMachineSpec {
  stateMachineArn: string;
  name: string;
  /** ASL (JSONPath), e.g. from synthesizeForLocal(). */
  definition: object;
  /** Task state name → handler. Every Task state must have one (nothing is invoked on AWS). */
  taskHandlers: Record<string, TaskHandler>;
  /**
   * This machine's Wait states: a fixed wait in ms, or null to keep the ASL's own times (the webhook machine's
   * schedule on `npm start`); undefined applies the endpoint's options as to every machine.
   */
  waitTimeMs?: number | null;
}

export interface LocalLogger {
  info?(message: string, data?: Record<string, unknown>): void;
  warn?(message: string, data?: Record<string, unknown>): void;
  error?(message: string, data?: Record<string, unknown>): void;
}

export interface LocalStepFunctionsOptions {
  /** 0 (default) = ephemeral port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  definitions: LocalStateMachineSpec[];
  /** Multiply every Wait state's `Seconds` by this (e.g. 0.04 turns 5 s into 200 ms). */
  waitTimeScale?: number;
  /** Fixed wait in ms for every Wait state (e.g. 200). Wins over waitTimeScale. */
  waitTimeMs?: number;
  /** Wait in ms by Wait state name. Wins over waitTimeMs and waitTimeScale. */
  waitTimeOverrides?: Record<string, number>;
  /**
   * Pause before each retry: a fixed number of ms for every retrier, or (default) IntervalSeconds scaled by
   * waitTimeScale (1 when not given; no back-off growth once scaled).
   */
  retryIntervalMs?: number;
  /** Default: failures to console.warn, nothing else. */
  logger?: LocalLogger;
}

export type ExecutionStatus = 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'TIMED_OUT' | 'ABORTED';

export interface LocalExecution {
  executionArn: string;
  stateMachineArn: string;
  name: string;
  status: ExecutionStatus;
  /** Input as given (JSON text). */
  input: string;
  /** JSON text, when SUCCEEDED. */
  output?: string;
  error?: string;
  cause?: string;
  startDate: Date;
  stopDate?: Date;
  /** Names of the states entered, in order (a Wait/Check loop repeats). */
  states: string[];
}

export interface LocalStepFunctions {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  port: number;
  /** Abort running executions and close the server. */
  stop(): Promise<void>;
  /** Resolve once no execution is running (including ones started while draining). */
  drain(): Promise<void>;
  /** Snapshot of every execution started, oldest first. */
  executions(): LocalExecution[];
}

function defaultLogger(): LocalLogger {
  return { warn: (m, d) => console.warn(`[local-sfn] ${m}`, d ?? '') };
}

export async function startLocalStepFunctions(options: LocalStepFunctionsOptions): Promise<LocalStepFunctions> {
  const log: LocalLogger = options.logger ?? defaultLogger();
  const registry = new ExecutionRegistry(compileMachines(options), log);
  const server = await startJsonProtocolServer(stepFunctionsOperations(registry), {
    port: options.port,
    host: options.host,
    log,
  });
  const drain = () => registry.drain();
  return {
    endpoint: server.endpoint,
    port: server.port,
    drain,
    executions: () => registry.snapshot(),
    stop: async () => {
      registry.abortRunning();
      await drain();
      await server.close();
    },
  };
}
