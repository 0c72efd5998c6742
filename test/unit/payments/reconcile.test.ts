/**
 * The chain read behind reconciliation ("was this authorization used?") is a hand-encoded eth_call: its call data
 * must be exactly what viem encodes from the token's ABI, and its answer decoded as an ABI bool, nothing looser.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeFunctionData, toFunctionSelector } from 'viem';
import { usdcAbi } from '../../../lambdas/payments/usdc-abi.js';
import {
  AUTHORIZATION_STATE_SELECTOR,
  authorizationStateCallData,
  authorizationUsed,
  decodeBool,
} from '../../../lambdas/payments/reconcile.js';

const FROM = '0x9AE3C1f0a0E3ba52Cc8b1b5a1F4D8E1c2b3a4d5E';
const NONCE = `0x${'ab'.repeat(31)}0f` as const;
const ASSET = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';

describe('authorizationState call data', () => {
  it('is the selector and the two words viem encodes from the ABI', () => {
    expect(AUTHORIZATION_STATE_SELECTOR).toBe(toFunctionSelector('authorizationState(address,bytes32)'));
    const viem = encodeFunctionData({ abi: usdcAbi, functionName: 'authorizationState', args: [FROM, NONCE] });
    expect(authorizationStateCallData(FROM, NONCE)).toBe(viem.toLowerCase());
  });

  it('refuses an address or a nonce that is not hex of its size', () => {
    expect(() => authorizationStateCallData('0x1234', NONCE)).toThrow(/not an EIP-3009/);
    expect(() => authorizationStateCallData(FROM, '0x12')).toThrow(/not an EIP-3009/);
    expect(() => authorizationStateCallData(FROM, `0x${'zz'.repeat(32)}`)).toThrow(/not an EIP-3009/);
  });
});

describe('authorizationState answer', () => {
  it('reads a 32-byte 0 or 1 as a bool and refuses anything else', () => {
    expect(decodeBool(`0x${'0'.repeat(64)}`)).toBe(false);
    expect(decodeBool(`0x${'0'.repeat(63)}1`)).toBe(true);
    expect(() => decodeBool('0x')).toThrow();
    expect(() => decodeBool(`0x${'0'.repeat(63)}2`)).toThrow(/non-bool/);
    expect(() => decodeBool(undefined)).toThrow();
  });
});

describe('authorizationUsed over JSON-RPC', () => {
  let server: Server;
  let url: string;
  const calls: unknown[] = [];
  let answer: (params: any) => unknown = () => ({ result: `0x${'0'.repeat(63)}1` });

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const request = JSON.parse(body);
        calls.push(request);
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ jsonrpc: '2.0', id: request.id, ...(answer(request.params) as object) }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('asks eth_call at the latest block on the asset and returns its bool', async () => {
    expect(await authorizationUsed(`eip155:8453:${ASSET}:${FROM}:${NONCE}`, url)).toBe(true);
    expect(calls.at(-1)).toMatchObject({
      method: 'eth_call',
      params: [{ to: ASSET, data: authorizationStateCallData(FROM, NONCE) }, 'latest'],
    });
    answer = () => ({ result: `0x${'0'.repeat(64)}` });
    expect(await authorizationUsed(`eip155:8453:${ASSET}:${FROM}:${NONCE}`, url)).toBe(false);
  });

  it('throws on a JSON-RPC error or a key that is not an x402 nonce key (never reads it as unused)', async () => {
    answer = () => ({ error: { code: -32000, message: 'execution reverted' } });
    await expect(authorizationUsed(`eip155:8453:${ASSET}:${FROM}:${NONCE}`, url)).rejects.toThrow(/execution reverted/);
    await expect(authorizationUsed('token:jti-1', url)).rejects.toThrow(/not an x402 nonce key/);
  });
});
