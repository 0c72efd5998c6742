/**
 * The Step Functions operations the local endpoint implements, on an ExecutionRegistry: StartExecution (Standard
 * workflow name semantics), DescribeExecution and a minimal ListExecutions, with AWS's request checks and
 * response shapes (dates as epoch seconds).
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
