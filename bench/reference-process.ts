/**
 * The reference (bench/reference-server.ts) in a process of its own, so its CPU is measured apart from ours and from
 * the emulators (bench/block-time.ts reads /proc/<pid>). Started with `fork` and the options as JSON in argv[2]; it
 * gives its facilitator key gas over the chain's JSON-RPC, answers `{ url, facilitatorAddress, pollingIntervalMs }`,
 * and exits when told to stop.
 */
import type { Address } from 'viem';
import { startReference } from './reference-server.js';

const options = JSON.parse(process.argv[2]) as { rpcUrl: string; payTo: Address; pollingIntervalMs?: number };

async function rpc(method: string, params: unknown[]) {
  const response = await fetch(options.rpcUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

const server = await startReference({
  ...options,
  setBalance: (address, wei) => rpc('hardhat_setBalance', [address, `0x${wei.toString(16)}`]),
});
process.on('message', (message: { stop?: true; timings?: true }) => {
  if (message.stop) void server.stop().then(() => process.exit(0));
  if (message.timings) process.send!({ timings: server.timings() });
});
process.send!({ url: server.url, facilitatorAddress: server.facilitatorAddress, pollingIntervalMs: server.pollingIntervalMs });
