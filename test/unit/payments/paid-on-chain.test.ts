/**
 * The payment core's rule "paid means our transfer landed" (lambdas/payments/core/paid-on-chain.ts), against a
 * JSON-RPC node faked on loopback that answers from a list of logs, so the cases the local chain cannot easily make
 * are covered too: a nonce spent by another transfer, a node that shows no event, an event windows back. The local
 * chain's own cancel-ahead and late-landing cases are test/components/canceled-authorization.test.ts and
 * settlement-reconcile.test.ts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pad, toEventSelector } from 'viem';
import { EVENT_TOPICS, LOG_WINDOW_BLOCKS, paidOnChain } from '../../../lambdas/payments/core/paid-on-chain.js';

const ASSET = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const FROM = '0x9ae3c1f0a0e3ba52cc8b1b5a1f4d8e1c2b3a4d5e';
const PAY_TO = '0x1111111111111111111111111111111111111111';
const OTHER = '0x2222222222222222222222222222222222222222';
const NONCE = `0x${'ab'.repeat(32)}`;
const NONCE_KEY = `eip155:8453:${ASSET}:${FROM}:${NONCE}`;
const TX = `0x${'7a'.repeat(32)}`;
const NOW_S = 1_800_000_000;
const word = (n: bigint) => pad(`0x${n.toString(16)}`);

interface Log { blockNumber: bigint; address: string; topics: string[]; data: string; logIndex: number; transactionHash: string }

/** The fake node's chain: blocks 0..latest, one every 2 s ending at NOW_S; `spent` is authorizationState's answer. */
let chain: { latest: bigint; spent: boolean; logs: Log[] };
let requests: { method: string; params: any[] }[];
let server: Server;
let rpcUrl: string;

const usedLog = (block: bigint, logIndex = 3): Log => ({
  blockNumber: block, address: ASSET, topics: [EVENT_TOPICS.authorizationUsed, pad(FROM), NONCE], data: '0x', logIndex, transactionHash: TX,
});
const transferLog = (block: bigint, to: string, value: bigint, logIndex = 4): Log => ({
  blockNumber: block, address: ASSET, topics: [EVENT_TOPICS.transfer, pad(FROM), pad(to as `0x${string}`)], data: word(value), logIndex, transactionHash: TX,
});
const canceledLog = (block: bigint): Log => ({
  blockNumber: block, address: ASSET, topics: [EVENT_TOPICS.authorizationCanceled, pad(FROM), NONCE], data: '0x', logIndex: 0, transactionHash: TX,
});

function answer(method: string, params: any[]): unknown {
  switch (method) {
    case 'eth_call':
      return word(chain.spent ? 1n : 0n);
    case 'eth_blockNumber':
      return `0x${chain.latest.toString(16)}`;
    case 'eth_getBlockByNumber': {
      const n = BigInt(params[0]);
      return { number: params[0], timestamp: `0x${(BigInt(NOW_S) - (chain.latest - n) * 2n).toString(16)}` };
    }
    case 'eth_getLogs': {
      const [{ fromBlock, toBlock, address, topics }] = params;
      const [names, authorizer, nonce] = topics as [string[], string, string];
      return chain.logs
        .filter((l) => l.blockNumber >= BigInt(fromBlock) && l.blockNumber <= BigInt(toBlock) && l.address.toLowerCase() === address.toLowerCase())
        .filter((l) => names.includes(l.topics[0]) && l.topics[1] === authorizer && l.topics[2] === nonce)
        .map(wire);
    }
    case 'eth_getTransactionReceipt':
      return { status: '0x1', transactionHash: params[0], logs: chain.logs.filter((l) => l.transactionHash === params[0]).map(wire) };
    default:
      throw new Error(`unexpected ${method}`);
  }
}

const wire = (l: Log) => ({ ...l, blockNumber: `0x${l.blockNumber.toString(16)}`, logIndex: `0x${l.logIndex.toString(16)}` });

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const { id, method, params } = JSON.parse(body);
      requests.push({ method, params });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ jsonrpc: '2.0', id, result: answer(method, params) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  rpcUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  chain = { latest: 50_000n, spent: true, logs: [] };
  requests = [];
});

const ask = (amount = 150_000n, notBeforeS = NOW_S - 60) => paidOnChain({ nonceKey: NONCE_KEY, amount, notBefore: notBeforeS * 1000 }, { rpcUrl, payTo: PAY_TO });

describe('Payment core: paid means our transfer landed', () => {
  it('names the token events by the keccak of their signatures', () => {
    expect(EVENT_TOPICS.transfer).toBe(toEventSelector('Transfer(address,address,uint256)'));
    expect(EVENT_TOPICS.authorizationUsed).toBe(toEventSelector('AuthorizationUsed(address,bytes32)'));
    expect(EVENT_TOPICS.authorizationCanceled).toBe(toEventSelector('AuthorizationCanceled(address,bytes32)'));
  });

  it('an unspent nonce is `unused`, from one state read and nothing else', async () => {
    chain.spent = false;
    expect(await ask()).toEqual({ state: 'unused' });
    expect(requests.map((r) => r.method)).toEqual(['eth_call']);
  });

  it('AuthorizationUsed followed by Transfer(authorizer → payTo, amount) is `paid`, with that transaction', async () => {
    chain.logs = [usedLog(49_990n), transferLog(49_990n, PAY_TO, 150_000n)];
    expect(await ask()).toEqual({ state: 'paid', transaction: TX });
  });

  it('a canceled authorization is `spent`: it reads used on chain, but nothing reached us', async () => {
    chain.logs = [canceledLog(49_995n)];
    expect(await ask()).toEqual({ state: 'spent', reason: expect.stringMatching(/canceled/) });
  });

  it('a nonce used by another transfer (another payee, another value, or a Transfer that is not the next log) is `spent`', async () => {
    chain.logs = [usedLog(49_990n), transferLog(49_990n, OTHER, 150_000n)];
    expect(await ask()).toMatchObject({ state: 'spent' });
    chain.logs = [usedLog(49_990n), transferLog(49_990n, PAY_TO, 1n)];
    expect(await ask()).toMatchObject({ state: 'spent' });
    chain.logs = [usedLog(49_990n, 3), transferLog(49_990n, PAY_TO, 150_000n, 7)];
    expect(await ask()).toMatchObject({ state: 'spent' });
  });

  it('searches back window by window for an event older than the latest window', async () => {
    chain.logs = [usedLog(35_000n), transferLog(35_000n, PAY_TO, 150_000n)];
    // Recorded ~20,000 blocks (40,000 s) ago: the search reaches back that far.
    expect(await ask(150_000n, NOW_S - 40_000)).toEqual({ state: 'paid', transaction: TX });
    const windows = requests.filter((r) => r.method === 'eth_getLogs').map((r) => [BigInt(r.params[0].fromBlock), BigInt(r.params[0].toBlock)]);
    expect(windows).toEqual([
      [50_000n - LOG_WINDOW_BLOCKS + 1n, 50_000n],
      [50_000n - 2n * LOG_WINDOW_BLOCKS + 1n, 50_000n - LOG_WINDOW_BLOCKS],
    ]);
  });

  it('decides nothing (throws) when the nonce reads spent but no event is found back to before the payment was recorded', async () => {
    chain.logs = [usedLog(10n), transferLog(10n, PAY_TO, 150_000n)]; // far older than the payment: not ours to find
    await expect(ask(150_000n, NOW_S - 60)).rejects.toThrow(/no AuthorizationUsed or AuthorizationCanceled event/);
    // One window sufficed: it already starts long before the payment was recorded (less the clock-skew margin).
    expect(requests.filter((r) => r.method === 'eth_getLogs')).toHaveLength(1);
  });

  it('refuses a key that is not an x402 nonce key', async () => {
    await expect(paidOnChain({ nonceKey: 'token:iss:jti', amount: 1n, notBefore: 0 }, { rpcUrl, payTo: PAY_TO })).rejects.toThrow(/not an x402 nonce key/);
  });
});
