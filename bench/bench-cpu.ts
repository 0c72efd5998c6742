/**
 * CPU per paid request, read from /proc for each part apart (bench/block-time.ts's comment names the parts): kept
 * out of the measurement loop so that what is sampled, and how a reading is split between the service and the rest,
 * reads in one place. Linux only; elsewhere every reading is 0.
 */
import { readFileSync } from 'node:fs';
import type { EmbeddedRuntime } from '../lib/local/runtime.js';
import { startGateway } from '../lib/local/gateway.js';
import type { RouteDef } from '../lambdas/surfaces/routes.js';
import { freshBuyers } from './load.js';
import type { ClientHandle } from './bench-processes.js';

/** utime + stime of a /proc stat file, in ms; 0 when it cannot be read (not Linux, or gone). */
export function procCpuMs(statFile: string): number {
  try {
    const stat = readFileSync(statFile, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

export interface CpuReading {
  process: number;
  main: number;
  threads: Map<number, number>;
  byFunction: Record<string, number[]>;
  jvm: number;
  reference: number;
  client: number;
}

/** CPU ms per paid request, by part (see the module's comment). */
export interface CpuSplit {
  paidFunction: number;
  gateway: number;
  workflow: number;
  mainThread: number;
  otherThreads: number;
  jvm: number;
  reference: number;
  client: number;
}

export function sampler(runtime: EmbeddedRuntime, pids: { reference?: number; client?: number }): () => CpuReading {
  return () => {
    const usage = process.cpuUsage();
    const byFunction = runtime.functionThreadIdsById();
    const threads = new Map<number, number>();
    for (const tids of Object.values(byFunction)) for (const tid of tids) threads.set(tid, procCpuMs(`/proc/self/task/${tid}/stat`));
    return {
      process: (usage.user + usage.system) / 1000,
      main: procCpuMs(`/proc/self/task/${process.pid}/stat`),
      threads,
      byFunction,
      jvm: runtime.dynamodbPid === undefined ? 0 : procCpuMs(`/proc/${runtime.dynamodbPid}/stat`),
      reference: pids.reference ? procCpuMs(`/proc/${pids.reference}/stat`) : 0,
      client: pids.client ? procCpuMs(`/proc/${pids.client}/stat`) : 0,
    };
  };
}

export function split(before: CpuReading, after: CpuReading, paidFunctionId: string | undefined, gatewayPerRequest: number, paid: number): CpuSplit {
  const delta = (tid: number) => (after.threads.get(tid) ?? 0) - (before.threads.get(tid) ?? 0);
  let paidFunction = 0;
  let functions = 0;
  for (const [id, tids] of Object.entries(after.byFunction)) {
    for (const tid of tids) {
      functions += delta(tid);
      if (id === paidFunctionId) paidFunction += delta(tid);
    }
  }
  const main = after.main - before.main;
  const per = (x: number) => x / Math.max(1, paid);
  return {
    paidFunction: per(paidFunction),
    // The probe and the paid request each go through the gateway (ours only).
    gateway: paidFunctionId ? 2 * gatewayPerRequest : 0,
    workflow: per(functions - paidFunction),
    mainThread: per(main),
    otherThreads: per(after.process - before.process - functions - main),
    jvm: per(after.jvm - before.jvm),
    reference: per(after.reference - before.reference),
    client: per(after.client - before.client),
  };
}

// ---------- the gateway alone ----------

/**
 * CPU ms of this process's main thread per request through the local gateway with a no-op function (no worker): what
 * the gateway itself costs a request (HTTP parsed, the API Gateway event built, the answer written), measured apart
 * because the main thread also runs the local AWS endpoints and the chain's JSON-RPC front.
 */
export async function gatewayPerRequest(client: ClientHandle): Promise<number> {
  const route = { id: 'Noop', method: 'POST', path: '/noop', surface: 'generation', entry: 'unused' } as RouteDef;
  const gateway = await startGateway({
    port: 0,
    routes: [route],
    invoke: async () => ({ statusCode: 200, headers: { 'content-type': 'application/json' }, body: '{}' }),
  });
  try {
    // A 200 at once: the official client makes one request per exchange.
    const buyers = freshBuyers(4);
    await client.run({ url: `${gateway.url}/noop`, body: '{}', buyers, perLane: 20, budgetMs: 30_000, sourceBlock: 19 });
    const before = procCpuMs(`/proc/self/task/${process.pid}/stat`);
    const result = await client.run({ url: `${gateway.url}/noop`, body: '{}', buyers, perLane: 250, budgetMs: 30_000, sourceBlock: 19 });
    const after = procCpuMs(`/proc/self/task/${process.pid}/stat`);
    return (after - before) / Math.max(1, result.attempted);
  } finally {
    await gateway.close();
  }
}
