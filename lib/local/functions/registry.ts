/**
 * Every function of the synthesized stack, each with its own instances (lib/local/functions/instances.ts): routes,
 * workflow tasks, the sign-in authorizer and the sweeper, with the timeout, memory, policy and environment the template gives them. Paid
 * and agent-run routes may run four instances at once (so races between instances are exercised), others two.
 */
import type { LocalDefinitions } from '../asl.js';
import { FunctionInstances, type FunctionSpec } from './instances.js';

export class LocalFunctions {
  private readonly byId = new Map<string, FunctionInstances>();

  constructor(
    private readonly projectRoot: string,
    private readonly log: (line: string) => void,
  ) {}

  define(definitions: Pick<LocalDefinitions, 'functions' | 'policies'> & Partial<Pick<LocalDefinitions, 'environments'>>): void {
    for (const entry of Object.values(definitions.functions)) {
      const def = entry.kind === 'route' ? entry.route : entry.kind === 'task' || entry.kind === 'authorizer' ? entry.task : { timeoutSeconds: 60, memoryMb: 256 };
      const spec: FunctionSpec = {
        id: entry.id,
        entry: entry.entry,
        timeoutSeconds: def.timeoutSeconds ?? 10,
        memoryMb: def.memoryMb ?? 256,
        maxInstances: entry.kind === 'route' && (entry.role === 'paid' || entry.role === 'run') ? 4 : 2,
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

  /** Instances started so far, by function (for tests and the start-up log). */
  started(): Record<string, number> {
    return Object.fromEntries([...this.byId].map(([id, f]) => [id, f.started]));
  }

  /** The OS thread ids of every function's running instances. */
  threadIds(): number[] {
    return [...this.byId.values()].flatMap((f) => f.threadIds());
  }

  async stop(): Promise<void> {
    await Promise.all([...this.byId.values()].map((f) => f.stop()));
  }
}
