/**
 * The Step Functions operations the local endpoint implements, on an ExecutionRegistry: StartExecution (Standard
 * workflow name semantics), DescribeExecution, StopExecution and a minimal ListExecutions, with AWS's request checks
 * and response shapes (dates as epoch seconds).
 */
import { randomUUID } from 'node:crypto';
import type { ExecutionRegistry } from './sfn-registry.js';
import { ServiceError, type Operation } from './sfn-server.js';
import type { ExecutionStatus, LocalExecution } from './stepfunctions.js';

const NAME_PATTERN = /^[^\s<>{}[\]?*"#%\\^|~`$&,;:/\u0000-\u001f\u007f-\u009f]{1,80}$/;

interface StartExecutionInput {
  stateMachineArn?: string;
  name?: string;
  input?: string;
}

interface StopExecutionInput {
  executionArn?: string;
  error?: string;
  cause?: string;
}

/** `arn:<partition>:states:<region>:<account>:execution:<stateMachineName>:<executionName>` */
const EXECUTION_ARN = /^arn:aws[a-z-]*:states:[a-z0-9-]+:\d{12}:execution:[^:\s]+:[^:\s]+$/;

interface ListExecutionsInput {
  stateMachineArn?: string;
  statusFilter?: ExecutionStatus;
  maxResults?: number;
  nextToken?: string;
}

/** Operations by X-Amz-Target name, for startJsonProtocolServer. */
export function stepFunctionsOperations(registry: ExecutionRegistry): Record<string, Operation> {
  return {
    StartExecution: (body: StartExecutionInput) => startExecution(registry, body),
    DescribeExecution: (body: { executionArn?: string }) => describeExecution(registry, body),
    ListExecutions: (body: ListExecutionsInput) => listExecutions(registry, body),
    StopExecution: (body: StopExecutionInput) => stopExecution(registry, body),
  };
}

function startExecution(registry: ExecutionRegistry, body: StartExecutionInput) {
  const entry = body.stateMachineArn ? registry.machine(body.stateMachineArn) : undefined;
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

  const existing = registry.named(body.stateMachineArn, name);
  if (existing) {
    // Standard workflows: same name + same input while running → the original execution (idempotent start).
    if (existing.status === 'RUNNING' && normalizeJson(existing.input) === JSON.stringify(input)) {
      return { executionArn: existing.executionArn, startDate: epochSeconds(existing.startDate) };
    }
    throw new ServiceError('ExecutionAlreadyExists', `Execution Already Exists: '${existing.executionArn}'`);
  }

  const record = registry.start(entry, name, inputText, input);
  return { executionArn: record.executionArn, startDate: epochSeconds(record.startDate) };
}

function describeExecution(registry: ExecutionRegistry, body: { executionArn?: string }) {
  const r = body.executionArn ? registry.execution(body.executionArn) : undefined;
  if (!r) throw new ServiceError('ExecutionDoesNotExist', `Execution Does Not Exist: '${body.executionArn}'`);
  return {
    ...summary(r),
    input: r.input,
    inputDetails: { included: true },
    ...(r.output !== undefined ? { output: r.output, outputDetails: { included: true } } : {}),
    ...(r.error !== undefined ? { error: r.error } : {}),
    ...(r.cause !== undefined ? { cause: r.cause } : {}),
  };
}

/**
 * StopExecution as the API reference documents it (https://docs.aws.amazon.com/step-functions/latest/apireference/
 * API_StopExecution.html): `executionArn` required (1–256 chars), `error` ≤ 256 and `cause` ≤ 32768 chars
 * (ValidationException otherwise); a malformed ARN is InvalidArn, an unknown execution ExecutionDoesNotExist (both
 * 400); the answer is `{ stopDate }`. A RUNNING execution turns ABORTED with the given `error`/`cause`, which
 * DescribeExecution then shows.
 *
 * An execution that already ended: the reference lists no error for it (only ExecutionDoesNotExist, InvalidArn,
 * ValidationException), and AWS is reported to answer 200 leaving the status as it was (e.g.
 * awslabs/visual-asset-management-system#344: a stop of a SUCCEEDED execution "succeeds", the status stays
 * SUCCEEDED). So: 200, nothing changed (status, error, cause kept), and `stopDate` = the date it ended.
 */
function stopExecution(registry: ExecutionRegistry, body: StopExecutionInput) {
  const arn = body.executionArn;
  const violations = [
    ...(typeof arn !== 'string' ? ["Value null at 'executionArn' failed to satisfy constraint: Member must not be null"] : []),
    ...lengthViolation('executionArn', arn, 1, 256),
    ...lengthViolation('error', body.error, 0, 256),
    ...lengthViolation('cause', body.cause, 0, 32768),
  ];
  if (violations.length > 0) {
    throw new ServiceError(
      'ValidationException',
      `${violations.length} validation error${violations.length > 1 ? 's' : ''} detected: ${violations.join('; ')}`,
    );
  }
  if (!EXECUTION_ARN.test(arn!)) throw new ServiceError('InvalidArn', `Invalid Arn: '${arn}'`);
  const record = registry.stop(arn!, { error: body.error, cause: body.cause });
  if (!record) throw new ServiceError('ExecutionDoesNotExist', `Execution Does Not Exist: '${arn}'`);
  return { stopDate: epochSeconds(record.stopDate ?? new Date()) };
}

function lengthViolation(member: string, value: string | undefined, min: number, max: number): string[] {
  if (typeof value !== 'string') return [];
  if (value.length < min) return [`Value at '${member}' failed to satisfy constraint: Member must have length greater than or equal to ${min}`];
  if (value.length > max) return [`Value at '${member}' failed to satisfy constraint: Member must have length less than or equal to ${max}`];
  return [];
}

function listExecutions(registry: ExecutionRegistry, body: ListExecutionsInput) {
  if (!body.stateMachineArn || !registry.machine(body.stateMachineArn)) {
    throw new ServiceError('StateMachineDoesNotExist', `State Machine Does Not Exist: '${body.stateMachineArn}'`);
  }
  const all = registry.list(body.stateMachineArn, body.statusFilter);
  const offset = body.nextToken ? Number(body.nextToken) || 0 : 0;
  const max = body.maxResults && body.maxResults > 0 ? body.maxResults : 100;
  return {
    executions: all.slice(offset, offset + max).map(summary),
    ...(offset + max < all.length ? { nextToken: String(offset + max) } : {}),
  };
}

function summary(r: LocalExecution) {
  return {
    executionArn: r.executionArn,
    stateMachineArn: r.stateMachineArn,
    name: r.name,
    status: r.status,
    startDate: epochSeconds(r.startDate),
    stopDate: epochSeconds(r.stopDate),
  };
}

function epochSeconds(d: Date | undefined): number | undefined {
  return d ? d.getTime() / 1000 : undefined;
}

function normalizeJson(text: string): string {
  return JSON.stringify(JSON.parse(text));
}
