/**
 * Every function of the synthesized stack, each with its own instances (lib/local/functions/instances.ts): routes,
 * workflow tasks, the sign-in authorizer and the sweeper, with the timeout, memory, policy and environment the
 * template gives them.
 *
 * How many instances of a function may run at once (as Lambda runs as many as the requests need, up to the account's
 * concurrency): the template's reserved concurrency where it sets one (a render provider's function, the sweeper),
 * else LOCAL_MAX_INSTANCES when set (the bench sets it to the buyers it drives: bench/block-time.ts), else four for the paid
 * and agent-run routes (so races between instances are exercised) and two for the rest. Each instance is a worker
 * thread started on demand, like a cold start.
 */
import type { LocalDefinitions } from '../asl.js';
import { FunctionInstances, type FunctionSpec } from './instances.js';

export class LocalFunctions {
  private readonly byId = new Map<string, FunctionInstances>();

  constructor(
    private readonly projectRoot: string,
    private readonly log: (line: string) => void,
  ) {}

  define(definitions: Pick<LocalDefinitions, 'functions' | 'policies'> & Partial<Pick<LocalDefinitions, 'environments' | 'reservedConcurrency'>>): void {
    const cap = maxInstancesSetting();
    for (const entry of Object.values(definitions.functions)) {
      const def = entry.kind === 'route' ? entry.route : entry.kind === 'task' || entry.kind === 'authorizer' ? entry.task : { timeoutSeconds: 60, memoryMb: 256 };
      const spec: FunctionSpec = {
        id: entry.id,
        entry: entry.entry,
        timeoutSeconds: def.timeoutSeconds ?? 10,
        memoryMb: def.memoryMb ?? 256,
        maxInstances: definitions.reservedConcurrency?.[entry.id] ?? cap ?? (entry.kind === 'route' && (entry.role === 'paid' || entry.role === 'run') ? 4 : 2),
        environment: definitions.environments?.[entry.id],
      };
      this.byId.set(entry.id, new FunctionInstances(spec, { projectRoot: this.projectRoot, statements: definitions.policies[entry.id] ?? [], log: this.log }));
    }
  }

  get(id: string): FunctionInstances {
    const found = this.byId.get(id);
    if (!found) throw new Error(`no function ${id} in the synthesized stack`);
    return found;
  }

  /** Starts `count` instances of function `id` ahead of traffic (FunctionInstances.prewarm). */
  prewarm(id: string, count: number): Promise<void> {
    return this.get(id).prewarm(count);
  }

  /** Instances started so far, by function (for tests and the start-up log). */
  started(): Record<string, number> {
    return Object.fromEntries([...this.byId].map(([id, f]) => [id, f.started]));
  }

  /** The OS thread ids of every function's running instances. */
  threadIds(): number[] {
    return [...this.byId.values()].flatMap((f) => f.threadIds());
  }

  /** The OS thread ids of each function's running instances, by function id (the bench splits CPU by function). */
  threadIdsByFunction(): Record<string, number[]> {
    return Object.fromEntries([...this.byId].map(([id, f]) => [id, f.threadIds()]));
  }

  async stop(): Promise<void> {
    await Promise.all([...this.byId.values()].map((f) => f.stop()));
  }
}

/** LOCAL_MAX_INSTANCES: a positive integer, or unset (the defaults); anything else is refused at start. */
export function maxInstancesSetting(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const raw = env.LOCAL_MAX_INSTANCES?.trim();
  if (raw === undefined || raw === '') return undefined;
  if (!/^[1-9][0-9]{0,3}$/.test(raw)) throw new Error(`LOCAL_MAX_INSTANCES must be a whole number from 1 to 9999, not ${JSON.stringify(raw)}`);
  return Number(raw);
}
