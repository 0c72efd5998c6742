/**
 * One execution of a local state machine: task handlers called like Lambdas, the states entered recorded, and the
 * outcome (SUCCEEDED, FAILED, TIMED_OUT, ABORTED) written into its LocalExecution record.
 */
import { ExecutionAbortedError, ExecutionError, ExecutionTimeoutError, type StateMachine } from 'aws-local-stepfunctions';
import type { MachineEntry } from './sfn-machines.js';
import type { LocalExecution, LocalLogger, TaskHandler } from './stepfunctions.js';

type Run = ReturnType<StateMachine['run']>;

export interface RunningExecution {
  /**
   * Stops it now if still RUNNING: the record turns ABORTED at once (stopDate now, `error`/`cause` as given) and no
   * further state is entered. A task handler already invoked may finish, as a Lambda invoked by AWS does, but its
   * result moves the machine on no more; a Retry due after the stop invokes nothing. No-op once ended.
   */
  abort(details?: { error?: string; cause?: string }): void;
  /** Resolves (never rejects) once the outcome and the state log are recorded. */
  settled: Promise<void>;
}

/** Starts `record` (status RUNNING) on `entry`'s machine; the record is updated in place as it runs. */
export function runExecution(entry: MachineEntry, record: LocalExecution, input: unknown, log: LocalLogger): RunningExecution {
  let aborted = false;
  const run = entry.machine.run(input as never, {
    overrides: {
      taskResourceLocalHandlers: lambdaLikeHandlers(entry.spec.taskHandlers, () => aborted),
      waitTimeOverrides: entry.waitOverrides,
      retryIntervalOverrides: entry.retryOverrides,
    },
    noThrowOnAbort: true,
    context: {
      Execution: { Id: record.executionArn, Name: record.name, RoleArn: 'arn:aws:iam::000000000000:role/local' },
      StateMachine: { Id: entry.spec.stateMachineArn, Name: entry.spec.name },
    },
  });
  const events = recordStates(run, record);
  const done = run.result.then(
    (output) => recordResult(record, output, aborted, log),
    (err: unknown) => recordFailure(record, err, log),
  );
  const settled = Promise.all([done, events])
    .catch((err) => log.error?.('local execution bookkeeping failed', { executionArn: record.executionArn, err: String(err) }))
    .then(() => undefined);
  return {
    abort: (details = {}) => {
      if (aborted || record.status !== 'RUNNING') return;
      aborted = true;
      // Recorded before run.abort() so the outcome is visible at once (DescribeExecution right after StopExecution).
      record.status = 'ABORTED';
      record.stopDate = new Date();
      if (details.error !== undefined) record.error = details.error;
      if (details.cause !== undefined) record.cause = details.cause;
      log.info?.('execution aborted', { executionArn: record.executionArn, name: record.name, error: details.error });
      // aws-local-stepfunctions (noThrowOnAbort): `result` settles with null at once, a Wait or retry pause ends
      // early, and the state loop enters no further state once the state in progress returns.
      run.abort();
    },
    settled,
  };
}

/**
 * Handlers that see a fresh copy of their input and return JSON, as a Lambda would, and fail like one. Once the
 * execution is aborted none is invoked: aws-local-stepfunctions would still run a Retry whose pause the abort cut short.
 */
function lambdaLikeHandlers(taskHandlers: Record<string, TaskHandler>, aborted: () => boolean): Record<string, (input: any) => Promise<any>> {
  const handlers: Record<string, (input: any) => Promise<any>> = {};
  for (const [stateName, handler] of Object.entries(taskHandlers)) {
    handlers[stateName] = async (taskInput: unknown) => {
      if (aborted()) throw new ExecutionAbortedError();
      let result: unknown;
      try {
        result = await handler(JSON.parse(JSON.stringify(taskInput ?? null)));
      } catch (err) {
        throw toLambdaError(err);
      }
      return result === undefined ? null : JSON.parse(JSON.stringify(result));
    };
  }
  return handlers;
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

/** Top-level states entered, in order; the event log is diagnostics only, so its failures are ignored. */
async function recordStates(run: Run, record: LocalExecution): Promise<void> {
  try {
    for await (const event of run.eventLogs) {
      if (event.type === 'StateEntered' && event.index === undefined) record.states.push(event.state.name);
    }
  } catch {
    // the event log is diagnostics only
  }
}

function recordResult(record: LocalExecution, output: unknown, aborted: boolean, log: LocalLogger): void {
  if (record.status !== 'RUNNING') return;
  if (aborted) {
    record.status = 'ABORTED';
  } else {
    record.status = 'SUCCEEDED';
    record.output = JSON.stringify(output ?? null);
  }
  record.stopDate = new Date();
  log.info?.(`execution ${record.status.toLowerCase()}`, { executionArn: record.executionArn, name: record.name });
}

function recordFailure(record: LocalExecution, err: unknown, log: LocalLogger): void {
  if (record.status !== 'RUNNING') return;
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
    executionArn: record.executionArn,
    name: record.name,
    error: record.error,
    cause: record.cause,
  });
}
