/**
 * One instance of one function, as Lambda runs it: its own module state (clients, caches, configuration), one
 * invocation at a time, its AWS calls checked against its own policy. Started by lib/local/functions/instances.ts.
 */
import { readlinkSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { installIamEnforcement, runThreadAs } from '../iam/enforce.js';
import type { PolicyStatement } from '../iam/policy.js';

export interface WorkerData {
  functionId: string;
  entry: string;
  projectRoot: string;
  timeoutMs: number;
  memoryMb: number;
  statements: PolicyStatement[];
}

export type InvocationMessage = { id: number; payload: unknown; requestId: string; deadline: number };
export type ReadyMessage = { ready: true; tid?: number };
export type ResultMessage =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: { name: string; message: string; stack?: string } };

const data = workerData as WorkerData;
installIamEnforcement({ [data.functionId]: data.statements }, (line) => console.error(line));
runThreadAs(data.functionId);
const handler = (await import(pathToFileURL(resolve(data.projectRoot, data.entry)).href)).handler as (event: unknown, context: unknown) => Promise<unknown>;

parentPort!.on('message', (message: InvocationMessage) => {
  const context = {
    awsRequestId: message.requestId,
    functionName: data.functionId,
    functionVersion: '$LATEST',
    memoryLimitInMB: String(data.memoryMb),
    getRemainingTimeInMillis: () => Math.max(0, message.deadline - Date.now()),
    callbackWaitsForEmptyEventLoop: false,
  };
  Promise.resolve().then(() => handler(message.payload, context)).then(
    (result) => parentPort!.postMessage({ id: message.id, ok: true, result: result === undefined ? null : result } satisfies ResultMessage),
    (error: unknown) => {
      const e = error instanceof Error ? error : new Error(String(error));
      parentPort!.postMessage({ id: message.id, ok: false, error: { name: e.name, message: e.message, stack: e.stack } } satisfies ResultMessage);
    },
  );
});
/** This instance's OS thread id (Linux: /proc/thread-self → <pid>/task/<tid>), for the bench's CPU split; else absent. */
function osThreadId(): number | undefined {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) ? tid : undefined;
  } catch {
    return undefined;
  }
}

parentPort!.postMessage({ ready: true, tid: osThreadId() } satisfies ReadyMessage);
