/**
 * A wire-level fake of a Flashblocks-aware RPC endpoint of Base (mainnet-preconf.base.org and the providers' like it:
 * docs/decisions/0021), in front of the embedded chain, for `preconfirmations: true` (LOCAL_PRECONF=1). Base's
 * sequencer streams a flashblock every 200 ms, and such an endpoint answers `eth_getTransactionReceipt` for a
 * transaction already in the block being built, before that block is sealed. Here: every request is forwarded to the
 * chain's own JSON-RPC, and a receipt the chain does not have yet is made for a transaction it holds pending, once the
 * next flashblock boundary after it was first seen has passed — its status what the transaction does on the latest
 * sealed state (an `eth_call` of it), its block the one being built. The chain mines on its interval
 * (LOCAL_BLOCK_MS), so a transaction preconfirmed here is sealed at the next block, unless it is dropped
 * (`hardhat_dropTransaction`: the preconfirmation that never lands, which the tests make happen).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { text as bodyText } from 'node:stream/consumers';

export interface PreconfRpc {
  url: string;
  stop(): Promise<void>;
}

interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: unknown;
  method: string;
  params?: unknown[];
}

type PendingTransaction = { hash: string; from: string; to: string | null; input: string; gas: string; value: string; nonce: string; type?: string; blockNumber: string | null };

export async function startPreconfRpc(options: { chainRpcUrl: string; flashblockMs?: number; port?: number }): Promise<PreconfRpc> {
  const flashblockMs = options.flashblockMs ?? 200;
  /** When each pending transaction was first asked about (its flashblock is the next boundary after that). */
  const seen = new Map<string, number>();

  const chain = async (method: string, params: unknown[]): Promise<unknown> => {
    const response = await fetch(options.chainRpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    const body = (await response.json()) as { result?: unknown; error?: { code: number; message: string } };
    if (body.error) throw Object.assign(new Error(body.error.message), { rpc: body.error });
    return body.result;
  };

  /** The receipt of a transaction preconfirmed in the block being built, or null. */
  async function preconfirmedReceipt(hash: string): Promise<unknown> {
    const tx = (await chain('eth_getTransactionByHash', [hash])) as PendingTransaction | null;
    if (!tx || tx.blockNumber !== null) return null;
    const first = seen.get(hash) ?? Date.now();
    seen.set(hash, first);
    if (Date.now() < Math.ceil((first + 1) / flashblockMs) * flashblockMs) return null;
    let status = '0x1';
    try {
      await chain('eth_call', [{ from: tx.from, to: tx.to, data: tx.input, gas: tx.gas, value: tx.value }, 'latest']);
    } catch {
      status = '0x0';
    }
    // Sealed meanwhile (the call then ran on the state after it): the sealed receipt is the answer.
    const sealed = await chain('eth_getTransactionReceipt', [hash]);
    if (sealed) return sealed;
    const latest = BigInt((await chain('eth_blockNumber', [])) as string);
    return {
      transactionHash: hash,
      transactionIndex: '0x0',
      blockHash: `0x${'00'.repeat(32)}`,
      blockNumber: `0x${(latest + 1n).toString(16)}`,
      from: tx.from,
      to: tx.to,
      cumulativeGasUsed: tx.gas,
      gasUsed: tx.gas,
      effectiveGasPrice: '0x0',
      contractAddress: null,
      logs: [],
      logsBloom: `0x${'00'.repeat(256)}`,
      status,
      type: tx.type ?? '0x2',
    };
  }

  async function answer(request: JsonRpcRequest): Promise<unknown> {
    const params = request.params ?? [];
    try {
      if (request.method === 'eth_getTransactionReceipt') {
        const sealed = await chain('eth_getTransactionReceipt', params);
        if (sealed) {
          seen.delete(String(params[0]));
          return { jsonrpc: '2.0', id: request.id, result: sealed };
        }
        return { jsonrpc: '2.0', id: request.id, result: await preconfirmedReceipt(String(params[0])) };
      }
      return { jsonrpc: '2.0', id: request.id, result: await chain(request.method, params) };
    } catch (error) {
      const rpc = (error as { rpc?: { code: number; message: string } }).rpc;
      return { jsonrpc: '2.0', id: request.id, error: rpc ?? { code: -32603, message: (error as Error).message } };
    }
  }

  const server = createServer((req, res) => {
    void (async () => {
      const text = await bodyText(req);
      const parsed = JSON.parse(text) as JsonRpcRequest | JsonRpcRequest[];
      const result = Array.isArray(parsed) ? await Promise.all(parsed.map(answer)) : await answer(parsed);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result));
    })().catch((error: Error) => {
      if (!res.headersSent) res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: error.message } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

