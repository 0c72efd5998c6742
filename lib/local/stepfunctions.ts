/**
 * A local Step Functions endpoint for the embedded runtime: an HTTP server on loopback speaking the AWS JSON 1.0
 * protocol of `@aws-sdk/client-sfn` (X-Amz-Target `AWSStepFunctions.<Op>`), running executions with
 * aws-local-stepfunctions. Point an SFNClient at `endpoint` (any region, dummy credentials).
 *
 * Implemented: StartExecution (Standard-workflow name semantics), DescribeExecution, ListExecutions (minimal).
 * Lambda task states are overridden by state name with in-process handlers. Handler errors reach the ASL like
 * Lambda errors do on AWS: `Error` = the thrown error's `name` (what Retry/Catch `ErrorEquals` match) and
 * `Cause` = JSON `{"errorType","errorMessage","trace"}`.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ExecutionAbortedError,
  ExecutionError,
  ExecutionTimeoutError,
  StateMachine,
  type StateMachineDefinition,
} from 'aws-local-stepfunctions';

export type TaskHandler = (input: any) => Promise<unknown> | unknown;

export interface LocalStateMachineSpec {
  stateMachineArn: string;
  name: string;
  /** ASL (JSONPath), e.g. from synthesizeForLocal(). */
  definition: object;
  /** Task state name → handler. Every Task state must have one (nothing is invoked on AWS). */
  taskHandlers: Record<string, TaskHandler>;
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

interface MachineEntry {
  spec: LocalStateMachineSpec;
  machine: StateMachine;
  waitOverrides: Record<string, number>;
  retryOverrides: Record<string, number[]>;
  byName: Map<string, string>;
}

interface ExecutionEntry {
  record: LocalExecution;
  abort: () => void;
  done: Promise<void>;
}

class ServiceError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

const NAME_PATTERN = /^[^\s<>{}[\]?*"#%\\^|~`$&,;:/\u0000-\u001f\u007f-\u009f]{1,80}$/;

function defaultLogger(): LocalLogger {
  return { warn: (m, d) => console.warn(`[local-sfn] ${m}`, d ?? '') };
}

/** Lambda-shaped error for the ASL: name kept (Retry/Catch match it), message = the Lambda Cause JSON. */
function toLambdaError(err: unknown): Error {
  const e = err instanceof Error ? err : new Error(String(err));
  const errorType = e.name || 'Error';
  const wrapped = new Error(
    JSON.stringify({
      errorType,
      errorMessage: e.message,
      trace: (e.stack ?? '').split('\n').slice(0, 20),
    }),
  );
  wrapped.name = errorType;
  return wrapped;
}

function epochSeconds(d: Date | undefined): number | undefined {
  return d ? d.getTime() / 1000 : undefined;
}

function normalizeJson(text: string): string {
  return JSON.stringify(JSON.parse(text));
}

export async function startLocalStepFunctions(options: LocalStepFunctionsOptions): Promise<LocalStepFunctions> {
  const log: LocalLogger = options.logger ?? defaultLogger();
  const machines = new Map<string, MachineEntry>();
  const executions = new Map<string, ExecutionEntry>();
  const running = new Set<Promise<void>>();

  for (const spec of options.definitions) {
    if (machines.has(spec.stateMachineArn)) throw new Error(`Duplicate state machine ${spec.stateMachineArn}`);
    const definition = spec.definition as StateMachineDefinition;
    const waitOverrides: Record<string, number> = {};
    const retryOverrides: Record<string, number[]> = {};
    for (const [stateName, state] of Object.entries(definition.States)) {
      if (state.Type === 'Task' && !spec.taskHandlers[stateName]) {
        throw new Error(`State machine ${spec.name}: no task handler for Task state "${stateName}"`);
      }
      if (state.Type === 'Wait') {
        const named = options.waitTimeOverrides?.[stateName];
        if (named !== undefined) waitOverrides[stateName] = named;
        else if (options.waitTimeMs !== undefined) waitOverrides[stateName] = options.waitTimeMs;
        else if (options.waitTimeScale !== undefined && typeof state.Seconds === 'number') {
          waitOverrides[stateName] = Math.round(state.Seconds * 1000 * options.waitTimeScale);
        }
      }
      const retry = (state as { Retry?: { IntervalSeconds?: number }[] }).Retry;
      if (retry?.length) {
        if (options.retryIntervalMs !== undefined) retryOverrides[stateName] = retry.map(() => options.retryIntervalMs!);
        else if (options.waitTimeScale !== undefined) {
          retryOverrides[stateName] = retry.map((r) => Math.round((r.IntervalSeconds ?? 1) * 1000 * options.waitTimeScale!));
        }
      }
    }
    // Constructed (and validated) once per definition; each run() is an independent execution.
    const machine = new StateMachine(definition, { validationOptions: { checkArn: false } });
    machines.set(spec.stateMachineArn, { spec, machine, waitOverrides, retryOverrides, byName: new Map() });
  }

  const describe = (r: LocalExecution) => ({
    executionArn: r.executionArn,
    stateMachineArn: r.stateMachineArn,
    name: r.name,
    status: r.status,
    startDate: epochSeconds(r.startDate),
    stopDate: epochSeconds(r.stopDate),
    input: r.input,
    inputDetails: { included: true },
    ...(r.output !== undefined ? { output: r.output, outputDetails: { included: true } } : {}),
    ...(r.error !== undefined ? { error: r.error } : {}),
    ...(r.cause !== undefined ? { cause: r.cause } : {}),
  });

  const startExecution = (body: { stateMachineArn?: string; name?: string; input?: string }) => {
    const entry = body.stateMachineArn ? machines.get(body.stateMachineArn) : undefined;
    if (!body.stateMachineArn) throw new ServiceError('InvalidArn', 'stateMachineArn is required');
    if (!entry) throw new ServiceError('StateMachineDoesNotExist', `State Machine Does Not Exist: '${body.stateMachineArn}'`);
    const name = body.name ?? randomUUID();
    if (!NAME_PATTERN.test(name)) throw new ServiceError('InvalidName', `Invalid Name: '${name}'`);
    const inputText = body.input ?? '{}';
    let input: unknown;
    try {
      input = JSON.parse(inputText);
    } catch {
      throw new ServiceError('InvalidExecutionInput', 'Invalid State Machine Execution Input: not valid JSON');
    }

    const existingArn = entry.byName.get(name);
    if (existingArn) {
      const existing = executions.get(existingArn)!.record;
      // Standard workflows: same name + same input while running → the original execution (idempotent start).
      if (existing.status === 'RUNNING' && normalizeJson(existing.input) === JSON.stringify(input)) {
        return { executionArn: existing.executionArn, startDate: epochSeconds(existing.startDate) };
      }
      throw new ServiceError('ExecutionAlreadyExists', `Execution Already Exists: '${existing.executionArn}'`);
    }

    const executionArn = `${entry.spec.stateMachineArn.replace(':stateMachine:', ':execution:')}:${name}`;
    const record: LocalExecution = {
      executionArn,
      stateMachineArn: entry.spec.stateMachineArn,
      name,
      status: 'RUNNING',
      input: inputText,
      startDate: new Date(),
      states: [],
    };
    const handlers: Record<string, (input: any) => Promise<any>> = {};
    for (const [stateName, handler] of Object.entries(entry.spec.taskHandlers)) {
      handlers[stateName] = async (taskInput: unknown) => {
        let result: unknown;
        try {
          // A fresh copy, as a Lambda would receive it; the result serialised as Lambda would return it.
          result = await handler(JSON.parse(JSON.stringify(taskInput ?? null)));
        } catch (err) {
          throw toLambdaError(err);
        }
        return result === undefined ? null : JSON.parse(JSON.stringify(result));
      };
    }

    let aborted = false;
    const run = entry.machine.run(input as never, {
      overrides: {
        taskResourceLocalHandlers: handlers,
        waitTimeOverrides: entry.waitOverrides,
        retryIntervalOverrides: entry.retryOverrides,
      },
      noThrowOnAbort: true,
      context: {
        Execution: { Id: executionArn, Name: name, RoleArn: 'arn:aws:iam::000000000000:role/local' },
        StateMachine: { Id: entry.spec.stateMachineArn, Name: entry.spec.name },
      },
    });

    const events = (async () => {
      try {
        for await (const event of run.eventLogs) {
          if (event.type === 'StateEntered' && event.index === undefined) record.states.push(event.state.name);
        }
      } catch {
        // the event log is diagnostics only
      }
    })();

    const done = run.result.then(
      (output) => {
        if (record.status !== 'RUNNING') return;
        if (aborted) {
          record.status = 'ABORTED';
        } else {
          record.status = 'SUCCEEDED';
          record.output = JSON.stringify(output ?? null);
        }
        record.stopDate = new Date();
        log.info?.(`execution ${record.status.toLowerCase()}`, { executionArn, name });
      },
      (err: unknown) => {
        record.stopDate = new Date();
        if (err instanceof ExecutionTimeoutError) {
          record.status = 'TIMED_OUT';
          record.error = 'States.Timeout';
          record.cause = 'The execution timed out (TimeoutSeconds)';
        } else if (err instanceof ExecutionAbortedError) {
          record.status = 'ABORTED';
        } else {
          const cause = err instanceof ExecutionError ? (err.cause as Error | undefined) : (err as Error);
          record.status = 'FAILED';
          record.error = cause?.name ?? 'Error';
          record.cause = cause?.message ?? String(err);
        }
        log.warn?.(`execution ${record.status.toLowerCase()}`, {
          executionArn,
          name,
          error: record.error,
          cause: record.cause,
        });
      },
    );
    const settled = Promise.all([done, events])
      .catch((err) => log.error?.('local execution bookkeeping failed', { executionArn, err: String(err) }))
      .then(() => {
        running.delete(settled);
      });
    running.add(settled);
    executions.set(executionArn, {
      record,
      abort: () => {
        aborted = true;
        run.abort();
      },
      done: settled,
    });
    entry.byName.set(name, executionArn);
    log.info?.('execution started', { executionArn, name });
    return { executionArn, startDate: epochSeconds(record.startDate) };
  };

  const operations: Record<string, (body: any) => unknown> = {
    StartExecution: startExecution,
    DescribeExecution: (body: { executionArn?: string }) => {
      const entry = body.executionArn ? executions.get(body.executionArn) : undefined;
      if (!entry) throw new ServiceError('ExecutionDoesNotExist', `Execution Does Not Exist: '${body.executionArn}'`);
      return describe(entry.record);
    },
    ListExecutions: (body: { stateMachineArn?: string; statusFilter?: ExecutionStatus; maxResults?: number; nextToken?: string }) => {
      if (!body.stateMachineArn || !machines.has(body.stateMachineArn)) {
        throw new ServiceError('StateMachineDoesNotExist', `State Machine Does Not Exist: '${body.stateMachineArn}'`);
      }
      const all = [...executions.values()]
        .map((e) => e.record)
        .filter((r) => r.stateMachineArn === body.stateMachineArn && (!body.statusFilter || r.status === body.statusFilter))
        .reverse(); // newest first, like AWS
      const offset = body.nextToken ? Number(body.nextToken) || 0 : 0;
      const max = body.maxResults && body.maxResults > 0 ? body.maxResults : 100;
      const page = all.slice(offset, offset + max);
      return {
        executions: page.map((r) => ({
          executionArn: r.executionArn,
          stateMachineArn: r.stateMachineArn,
          name: r.name,
          status: r.status,
          startDate: epochSeconds(r.startDate),
          stopDate: epochSeconds(r.stopDate),
        })),
        ...(offset + max < all.length ? { nextToken: String(offset + max) } : {}),
      };
    },
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const reply = (status: number, payload: unknown, errorType?: string) => {
        const text = JSON.stringify(payload);
        res.writeHead(status, {
          'content-type': 'application/x-amz-json-1.0',
          'content-length': Buffer.byteLength(text),
          'x-amzn-requestid': randomUUID(),
          ...(errorType ? { 'x-amzn-errortype': errorType } : {}),
        });
        res.end(text);
      };
      try {
        const target = String(req.headers['x-amz-target'] ?? '');
        const op = target.startsWith('AWSStepFunctions.') ? target.slice('AWSStepFunctions.'.length) : '';
        const handler = req.method === 'POST' ? operations[op] : undefined;
        if (!handler) throw new ServiceError('UnknownOperationException', `Unsupported operation: ${target || req.method}`);
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = text ? JSON.parse(text) : {};
        } catch {
          throw new ServiceError('SerializationException', 'Request body is not JSON');
        }
        reply(200, handler(body));
      } catch (err) {
        if (err instanceof ServiceError) {
          reply(err.status, { __type: err.type, message: err.message }, err.type);
        } else {
          log.error?.('local step functions request failed', { err: String(err) });
          reply(500, { __type: 'InternalServerError', message: String(err) }, 'InternalServerError');
        }
      }
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const host = options.host ?? '127.0.0.1';

  const drain = async () => {
    while (running.size > 0) await Promise.allSettled([...running]);
  };

  return {
    endpoint: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    drain,
    executions: () => [...executions.values()].map((e) => ({ ...e.record, states: [...e.record.states] })),
    stop: async () => {
      for (const e of executions.values()) if (e.record.status === 'RUNNING') e.abort();
      await drain();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
