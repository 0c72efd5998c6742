/**
 * What the local Step Functions endpoint knows: its state machines and every execution started on them (kept for
 * the life of the process), with the ones still running tracked so they can be drained or aborted.
 */
import type { MachineEntry } from './sfn-machines.js';
import { runExecution } from './sfn-execution.js';
import type { ExecutionStatus, LocalExecution, LocalLogger } from './stepfunctions.js';

interface ExecutionEntry {
  record: LocalExecution;
  abort: (details?: { error?: string; cause?: string }) => void;
}

export class ExecutionRegistry {
  private readonly executions = new Map<string, ExecutionEntry>();
  /** Execution ARN by state machine ARN and execution name. */
  private readonly byName = new Map<string, Map<string, string>>();
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly machines: Map<string, MachineEntry>,
    private readonly log: LocalLogger,
  ) {}

  machine(stateMachineArn: string): MachineEntry | undefined {
    return this.machines.get(stateMachineArn);
  }

  /** The live record (updated as the execution runs). */
  execution(executionArn: string): LocalExecution | undefined {
    return this.executions.get(executionArn)?.record;
  }

  /** The execution of `name` on the machine, if one was started. */
  named(stateMachineArn: string, name: string): LocalExecution | undefined {
    const executionArn = this.byName.get(stateMachineArn)?.get(name);
    return executionArn ? this.execution(executionArn) : undefined;
  }

  /** Starts a new execution (the caller has checked the name is free) and returns its live record. */
  start(entry: MachineEntry, name: string, inputText: string, input: unknown): LocalExecution {
    const stateMachineArn = entry.spec.stateMachineArn;
    const executionArn = `${stateMachineArn.replace(':stateMachine:', ':execution:')}:${name}`;
    const record: LocalExecution = {
      executionArn,
      stateMachineArn,
      name,
      status: 'RUNNING',
      input: inputText,
      startDate: new Date(),
      states: [],
    };
    const { abort, settled } = runExecution(entry, record, input, this.log);
    const tracked: Promise<void> = settled.then(() => {
      this.running.delete(tracked);
    });
    this.running.add(tracked);
    this.executions.set(executionArn, { record, abort });
    if (!this.byName.has(stateMachineArn)) this.byName.set(stateMachineArn, new Map());
    this.byName.get(stateMachineArn)!.set(name, executionArn);
    this.log.info?.('execution started', { executionArn, name });
    return record;
  }

  /** Live records of one machine's executions, newest first (like AWS), optionally of one status. */
  list(stateMachineArn: string, status?: ExecutionStatus): LocalExecution[] {
    return [...this.executions.values()]
      .map((e) => e.record)
      .filter((r) => r.stateMachineArn === stateMachineArn && (!status || r.status === status))
      .reverse();
  }

  /** Copies of every execution's record, oldest first. */
  snapshot(): LocalExecution[] {
    return [...this.executions.values()].map((e) => ({ ...e.record, states: [...e.record.states] }));
  }

  /** Resolves once no execution is running, including ones started while draining. */
  async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /**
   * Stops one execution (StopExecution): a RUNNING one turns ABORTED with `error`/`cause`; one already ended is left
   * as it is. Returns the live record, or undefined for an unknown ARN.
   */
  stop(executionArn: string, details: { error?: string; cause?: string }): LocalExecution | undefined {
    const entry = this.executions.get(executionArn);
    if (entry?.record.status === 'RUNNING') entry.abort(details);
    return entry?.record;
  }

  abortRunning(): void {
    for (const e of this.executions.values()) if (e.record.status === 'RUNNING') e.abort();
  }
}
