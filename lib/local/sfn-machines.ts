/**
 * The state machines of the local Step Functions endpoint (lib/local/stepfunctions.ts), compiled once at start:
 * every Task state must have an in-process handler, and Wait states and retriers get the shortened times the
 * options ask for.
 */
import { StateMachine, type StateMachineDefinition } from 'aws-local-stepfunctions';
import type { LocalStateMachineSpec, LocalStepFunctionsOptions } from './stepfunctions.js';

type TimingOptions = Pick<LocalStepFunctionsOptions, 'waitTimeScale' | 'waitTimeMs' | 'waitTimeOverrides' | 'retryIntervalMs'>;
type StateDefinition = StateMachineDefinition['States'][string];

export interface MachineEntry {
  spec: LocalStateMachineSpec;
  machine: StateMachine;
  /** Wait state name → ms. */
  waitOverrides: Record<string, number>;
  /** State name → ms before each retrier's retry. */
  retryOverrides: Record<string, number[]>;
}

/** State machines by ARN; throws on a duplicate ARN or a Task state without a handler. */
export function compileMachines(options: LocalStepFunctionsOptions): Map<string, MachineEntry> {
  const machines = new Map<string, MachineEntry>();
  for (const spec of options.definitions) {
    if (machines.has(spec.stateMachineArn)) throw new Error(`Duplicate state machine ${spec.stateMachineArn}`);
    machines.set(spec.stateMachineArn, compileMachine(spec, options));
  }
  return machines;
}

function compileMachine(spec: LocalStateMachineSpec, timing: TimingOptions): MachineEntry {
  const definition = spec.definition as StateMachineDefinition;
  const waitOverrides: Record<string, number> = {};
  const retryOverrides: Record<string, number[]> = {};
  for (const [stateName, state] of Object.entries(definition.States)) {
    if (state.Type === 'Task' && !spec.taskHandlers[stateName]) {
      throw new Error(`State machine ${spec.name}: no task handler for Task state "${stateName}"`);
    }
    const wait = spec.waitTimeMs === null ? undefined : state.Type === 'Wait' && spec.waitTimeMs !== undefined ? spec.waitTimeMs : waitOverride(stateName, state, timing);
    if (wait !== undefined) waitOverrides[stateName] = wait;
    const retry = retryOverride(state, timing);
    if (retry !== undefined) retryOverrides[stateName] = retry;
  }
  // Constructed (and validated) once per definition; each run() is an independent execution.
  const machine = new StateMachine(definition, { validationOptions: { checkArn: false } });
  return { spec, machine, waitOverrides, retryOverrides };
}

/** A Wait state's wait in ms: by name, else the fixed wait, else its Seconds scaled; undefined keeps the ASL's. */
function waitOverride(stateName: string, state: StateDefinition, timing: TimingOptions): number | undefined {
  if (state.Type !== 'Wait') return undefined;
  const named = timing.waitTimeOverrides?.[stateName];
  if (named !== undefined) return named;
  if (timing.waitTimeMs !== undefined) return timing.waitTimeMs;
  if (timing.waitTimeScale !== undefined && typeof state.Seconds === 'number') {
    return Math.round(state.Seconds * 1000 * timing.waitTimeScale);
  }
  return undefined;
}

/** Each retrier's pause in ms: the fixed interval, else IntervalSeconds scaled; undefined keeps the ASL's. */
function retryOverride(state: StateDefinition, timing: TimingOptions): number[] | undefined {
  const retry = (state as { Retry?: { IntervalSeconds?: number }[] }).Retry;
  if (!retry?.length) return undefined;
  const { retryIntervalMs, waitTimeScale } = timing;
  if (retryIntervalMs !== undefined) return retry.map(() => retryIntervalMs);
  if (waitTimeScale !== undefined) return retry.map((r) => Math.round((r.IntervalSeconds ?? 1) * 1000 * waitTimeScale));
  return undefined;
}
