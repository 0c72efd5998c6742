/**
 * Functions run as instances, as Lambda runs them: each function of the synthesized stack gets its own pool of
 * worker threads (module state never shared between functions or between instances), each instance takes one
 * invocation at a time, a busy pool starts another instance up to its limit (so concurrent requests to one function
 * spread over several instances and a race between instances shows up locally), and the synthesized timeout is
 * enforced by ending the instance, as Lambda ends a timed-out sandbox.
 */
import { randomUUID } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import type { PolicyStatement } from '../iam/policy.js';
import { functionEnvironment } from './environment.js';
import type { InvocationMessage, ReadyMessage, ResultMessage, WorkerData } from './worker.js';

export interface FunctionSpec {
  id: string;
  entry: string;
  timeoutSeconds: number;
  memoryMb: number;
  maxInstances: number;
  /** The template's environment of the function (lib/local/functions/environment.ts); absent: the host's. */
  environment?: Record<string, string | null>;
}

/** A function's error as Lambda reports it: the name is what Step Functions' Retry/Catch and the gateway match. */
export class InvocationError extends Error {
  constructor(name: string, message: string, stack?: string) {
    super(message);
    this.name = name;
    if (stack) this.stack = stack;
  }
}

interface Instance {
  worker: Worker;
  ready: Promise<void>;
  /** The instance's OS thread id, once it is ready (Linux only). */
  tid?: number;
  busy: boolean;
  pending?: { id: number; resolve: (value: unknown) => void; reject: (error: Error) => void; timer: NodeJS.Timeout };
}

export class FunctionInstances {
  private readonly instances: Instance[] = [];
  private readonly waiting: (() => void)[] = [];
  private nextId = 0;
  private stopped = false;
  /** How many instances ever started (tests read it). */
  started = 0;

  constructor(
    readonly spec: FunctionSpec,
    private readonly options: { projectRoot: string; statements: PolicyStatement[]; log: (line: string) => void },
  ) {}

  async invoke(payload: unknown): Promise<unknown> {
    const instance = await this.take();
    try {
      await instance.ready;
    } catch (error) {
      this.discard(instance);
      throw new InvocationError('Runtime.InitError', `${this.spec.id} failed to start: ${(error as Error).message}`);
    }
    const timeoutMs = this.spec.timeoutSeconds * 1000;
    const id = this.nextId++;
    const message: InvocationMessage = { id, payload, requestId: randomUUID(), deadline: Date.now() + timeoutMs };
    return new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        // Lambda ends a timed-out sandbox: its module state goes with it.
        this.discard(instance);
        reject(new InvocationError('Sandbox.Timedout', `Task timed out after ${this.spec.timeoutSeconds.toFixed(2)} seconds`));
      }, timeoutMs);
      instance.pending = { id, resolve, reject, timer };
      instance.worker.postMessage(message);
    }).finally(() => this.release(instance));
  }

  /**
   * Starts instances, one after another, until `count` run (at most the limit), as Lambda's provisioned concurrency
   * keeps instances initialized ahead of traffic: the bench starts as many as its buyers before measuring, so they do
   * not all cold-start at once on the machine's few cores.
   */
  async prewarm(count: number): Promise<void> {
    while (!this.stopped && this.instances.length < Math.min(count, this.spec.maxInstances)) {
      await this.start().ready;
    }
  }

  /** The OS thread ids of the instances running now (the bench reads their CPU time). */
  threadIds(): number[] {
    return this.instances.flatMap((i) => (i.tid === undefined ? [] : [i.tid]));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.instances.splice(0).map((i) => i.worker.terminate()));
  }

  /** An idle instance, a new one while under the limit, or the next one to come free. */
  private async take(): Promise<Instance> {
    for (;;) {
      if (this.stopped) throw new InvocationError('Runtime.Stopped', `${this.spec.id} is stopped`);
      const idle = this.instances.find((i) => !i.busy);
      if (idle) {
        idle.busy = true;
        return idle;
      }
      if (this.instances.length < this.spec.maxInstances) {
        const instance = this.start();
        instance.busy = true;
        return instance;
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  private release(instance: Instance): void {
    instance.busy = false;
    instance.pending = undefined;
    this.waiting.shift()?.();
  }

  private discard(instance: Instance): void {
    const index = this.instances.indexOf(instance);
    if (index >= 0) this.instances.splice(index, 1);
    if (instance.pending) clearTimeout(instance.pending.timer);
    void instance.worker.terminate();
    this.waiting.shift()?.();
  }

  private start(): Instance {
    const data: WorkerData = {
      functionId: this.spec.id,
      entry: this.spec.entry,
      projectRoot: this.options.projectRoot,
      timeoutMs: this.spec.timeoutSeconds * 1000,
      memoryMb: this.spec.memoryMb,
      statements: this.options.statements,
    };
    const env = this.spec.environment ? functionEnvironment(this.spec.environment, process.env) : process.env;
    // The function's memory setting bounds the instance's heap, as Lambda ends a sandbox that outgrows its memory
    // (the heap is the part a handler can grow; Lambda also counts the runtime itself, so this bound is the looser).
    const resourceLimits = { maxOldGenerationSizeMb: this.spec.memoryMb };
    const worker = new Worker(new URL('./worker.ts', import.meta.url), { workerData: data, execArgv: ['--import', 'tsx'], env, resourceLimits });
    worker.unref();
    let markReady!: () => void;
    let failReady!: (error: Error) => void;
    const instance: Instance = { worker, busy: false, ready: new Promise<void>((res, rej) => ((markReady = res), (failReady = rej))) };
    instance.ready.catch(() => undefined);
    worker.on('message', (message: ResultMessage | ReadyMessage) => {
      if ('ready' in message) {
        instance.tid = message.tid;
        return markReady();
      }
      const pending = instance.pending;
      if (!pending || pending.id !== message.id) return;
      clearTimeout(pending.timer);
      if (message.ok) pending.resolve(message.result);
      else pending.reject(new InvocationError(message.error.name, message.error.message, message.error.stack));
    });
    worker.on('error', (error) => {
      failReady(error);
      const outOfMemory = (error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
      instance.pending?.reject(
        outOfMemory
          ? new InvocationError('Runtime.OutOfMemory', `${this.spec.id} ran out of its ${this.spec.memoryMb} MB`)
          : new InvocationError('Runtime.ExitError', `${this.spec.id} instance crashed: ${error.message}`),
      );
      this.discard(instance);
    });
    worker.on('exit', (code) => {
      const index = this.instances.indexOf(instance);
      if (index >= 0) this.instances.splice(index, 1);
      failReady(new Error(`instance exited with ${code}`));
      if (instance.pending) {
        clearTimeout(instance.pending.timer);
        instance.pending.reject(new InvocationError('Runtime.ExitError', `${this.spec.id} instance exited with ${code}`));
      }
    });
    this.instances.push(instance);
    this.started++;
    return instance;
  }
}
