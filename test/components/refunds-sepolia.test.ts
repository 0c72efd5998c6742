/**
 * Refunds on Base Sepolia, on the embedded runtime with its chain configured as Sepolia (chain id 84532, Circle's
 * Sepolia USDC address, a token whose EIP-712 name is `USDC` as the real one's is). The token checks every
 * authorization's signature against its own domain, so a refund signed over any other name (Base's `USD Coin`) is
 * refused and the buyer is never paid back. Its own file: the runtime's configuration is per process.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublicClient, domainSeparator, http } from 'viem';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import { startEmbedded, type EmbeddedRuntime } from '../../lib/local/runtime.js';
import { usdcAbi } from '../../lambdas/payments/usdc-abi.js';
import type { PaymentRequirement } from '../../lambdas/payments/types.js';
import { chainReader, paidJobThatFails, until } from '../support/refunds.js';

const SEPOLIA_USDC = '0x036CbD53842c5426634e7929541eC2318f3dCF7e';

let runtime: EmbeddedRuntime;
let stateDir: string;

beforeAll(async () => {
  stateDir = mkdtempSync(join(tmpdir(), 'refunds-sepolia-'));
  runtime = await startEmbedded({ generationPort: 0, chainPort: 0, stateDir, log: () => {}, renderWaitMs: 100, sweepIntervalMs: 0, network: 'eip155:84532' });
});

afterAll(async () => {
  await runtime?.stop();
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
});

describe('Automatic refunds on Base Sepolia (its USDC is named "USDC")', () => {
  it('the local chain stands in for Sepolia: chain id 84532, the token at Sepolia USDC\'s address, named "USDC"', async () => {
    const reader = createPublicClient({ transport: http(runtime.info.rpcUrl, { retryCount: 0 }) });
    expect(await reader.getChainId()).toBe(84532);
    expect(runtime.info).toMatchObject({ chainId: 84532, usdcAddress: SEPOLIA_USDC });
    const read = (functionName: 'name' | 'version' | 'DOMAIN_SEPARATOR') => reader.readContract({ address: SEPOLIA_USDC, abi: usdcAbi, functionName });
    expect([await read('name'), await read('version')]).toEqual(['USDC', '2']);
    expect(await read('DOMAIN_SEPARATOR')).toBe(domainSeparator({ domain: { name: 'USDC', version: '2', chainId: 84532, verifyingContract: SEPOLIA_USDC } }));
  });

  it("refunds a failed paid render on Sepolia: the refund transfer lands and the buyer ends where they started", async () => {
    // A buyer pays what the service's own 402 asks on this network.
    const unpaid = await fetch(`${runtime.info.baseUrl}/agent/image`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"prompt":"a lighthouse"}' });
    expect(unpaid.status).toBe(402);
    const [requirement] = decodePaymentRequiredHeader(unpaid.headers.get('payment-required')!).accepts as unknown as PaymentRequirement[];
    expect(requirement).toMatchObject({ network: 'eip155:84532', asset: SEPOLIA_USDC, extra: { name: 'USDC', version: '2' } });

    const { JobStore } = await import('../../lambdas/store/jobs.js');
    const jobs = new JobStore();
    const chain = chainReader(runtime);
    const { jobId, buyer } = await paidJobThatFails(runtime, requirement);
    expect(await chain.balanceOf(buyer)).toBe(850_000n);

    // The state machine fails the job, then its "Refund payment" task signs the refund and settles it.
    const job = await until(() => jobs.get(jobId), (j) => j?.refund?.status === 'refunded' || j?.refund?.status === 'failed', 'the refund');
    expect(job!.refund).toEqual({ status: 'refunded', transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect(await chain.balanceOf(buyer)).toBe(1_000_000n);
    expect((await chain.transfersTo(buyer)).filter((t) => t.from.toLowerCase() === runtime.chain.payTo.toLowerCase())).toEqual([
      { from: expect.anything(), value: 150_000n, transaction: job!.refund!.transaction },
    ]);
  });
});
