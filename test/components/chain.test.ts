import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPublicClient, createWalletClient, domainSeparator, http, numberToHex, parseAbi, parseEventLogs, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FundError, formatUsdc, fundFromState, parseUsdcAmount } from '../../bin/fund.js';
import { BASE_USDC_ADDRESS, localChainDefinition, startLocalChain, type LocalChain } from '../../lib/local/chain.js';
import { memoryLeases } from '../support/leases.js';
import { SelfSettler } from '../../lambdas/payments/settle.js';
import type { PaymentRequirement, VerifiedPayment } from '../../lambdas/payments/types.js';
import { usdcAbi } from '../../lambdas/payments/usdc-abi.js';
import { ViemPaymentVerifier } from '../../lambdas/payments/verify.js';
import { newBuyer, requirementFor, signWithTimes, signedPayment } from '../unit/payments/fixtures.js';

// Shared across runs so only the first run pays for solc; keyed by source hash, so edits still recompile.
const ARTIFACT_CACHE = fileURLToPath(new URL('../../node_modules/.cache/paycall-local-chain', import.meta.url));
let stateDir: string;
let chain: LocalChain;
let reader: ReturnType<typeof createPublicClient>;
let requirement: PaymentRequirement;
let verifier: ViemPaymentVerifier;
let settler: SelfSettler;

beforeAll(async () => {
  stateDir = await mkdtemp(path.join(tmpdir(), 'local-chain-'));
  chain = await startLocalChain({ port: 0, stateDir, buyerCount: 3, artifactCacheDir: ARTIFACT_CACHE });
  reader = createPublicClient({ transport: http(chain.rpcUrl, { retryCount: 0 }) });
  requirement = requirementFor({ asset: chain.usdcAddress, payTo: chain.payTo });
  verifier = new ViemPaymentVerifier({ config: { chainId: chain.chainId, rpcUrl: chain.rpcUrl } });
  settler = new SelfSettler({
    config: { chainId: chain.chainId, rpcUrl: chain.rpcUrl, settlerKeyFile: chain.settlerKeyFile },
    leases: memoryLeases(),
  });
});

afterAll(async () => {
  await chain?.stop();
  if (stateDir) await rm(stateDir, { recursive: true, force: true });
});

const usdc = (functionName: 'name' | 'symbol' | 'version' | 'decimals' | 'DOMAIN_SEPARATOR') =>
  reader.readContract({ address: BASE_USDC_ADDRESS, abi: usdcAbi, functionName });
const balance = (address: Address) =>
  reader.readContract({ address: BASE_USDC_ADDRESS, abi: usdcAbi, functionName: 'balanceOf', args: [address] });

async function verified(privateKey: `0x${string}`): Promise<VerifiedPayment> {
  const result = await verifier.verify(await signedPayment(privateKeyToAccount(privateKey), requirement), requirement);
  if (!result.ok) throw new Error(result.reason);
  return result.payment;
}

describe('Local chain: USDC-like token at the Base USDC address on chain 8453', () => {
  it('serves chain id 8453 and the token metadata over HTTP JSON-RPC', async () => {
    expect(chain.rpcUrl).toBe(`http://127.0.0.1:${chain.port}`);
    expect(chain.port).toBeGreaterThan(0);
    expect(await reader.getChainId()).toBe(8453);
    expect(chain.usdcAddress).toBe('0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913');
    expect((await reader.getCode({ address: BASE_USDC_ADDRESS }))?.length).toBeGreaterThan(1000);
    expect([await usdc('name'), await usdc('symbol'), await usdc('version'), await usdc('decimals')]).toEqual([
      'USD Coin',
      'USDC',
      '2',
      6,
    ]);
    expect(await usdc('DOMAIN_SEPARATOR')).toBe(
      domainSeparator({ domain: { name: 'USD Coin', version: '2', chainId: 8453, verifyingContract: BASE_USDC_ADDRESS } }),
    );
  });

  it('answers JSON-RPC batches and reports parse errors', async () => {
    const batch = await fetch(chain.rpcUrl, {
      method: 'POST',
      body: JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] },
        { jsonrpc: '2.0', id: 2, method: 'net_version', params: [] },
      ]),
    }).then((r) => r.json());
    expect(batch).toEqual([
      { jsonrpc: '2.0', id: 1, result: '0x2105' },
      { jsonrpc: '2.0', id: 2, result: '8453' },
    ]);
    const broken = await fetch(chain.rpcUrl, { method: 'POST', body: '{' }).then((r) => r.json());
    expect(broken.error.code).toBe(-32700);
  });

  it('funds each buyer with 1000 USDC and persists keys with mode 0600', async () => {
    expect(chain.buyers).toHaveLength(3);
    for (const buyer of chain.buyers) {
      expect(await chain.balanceOf(buyer.address)).toBe(1_000_000_000n);
      expect(privateKeyToAccount(buyer.privateKey).address).toBe(buyer.address);
      expect(await reader.getBalance({ address: buyer.address })).toBe(0n);
    }
    expect((await stat(path.join(stateDir, 'accounts.json'))).mode & 0o777).toBe(0o600);
    expect((await stat(chain.settlerKeyFile)).mode & 0o777).toBe(0o600);
    // The settlement key pool: one key per line, each funded with gas; the first is settlerAddress.
    const keys = (await readFile(chain.settlerKeyFile, 'utf8')).trim().split('\n') as `0x${string}`[];
    expect(keys.map((k) => privateKeyToAccount(k).address)).toEqual(chain.settlerAddresses);
    expect(chain.settlerAddresses).toHaveLength(4);
    expect(chain.settlerAddresses[0]).toBe(chain.settlerAddress);
    for (const address of chain.settlerAddresses) expect(await reader.getBalance({ address })).toBeGreaterThan(10n ** 18n);
  });
});

describe('Local chain: verify and self-settle an x402 payment', () => {
  it('moves exactly the amount from buyer to payTo, paid for by the settler', async () => {
    const buyer = chain.buyers[0];
    const payment = await verified(buyer.privateKey);
    const [buyerBefore, payToBefore] = [await balance(buyer.address), await balance(chain.payTo)];

    const result = await settler.settle(payment);
    if (!result.ok) throw new Error(result.reason);
    expect(result).toEqual({ ok: true, transaction: result.transaction, network: 'eip155:8453', payer: buyer.address });

    expect(await balance(buyer.address)).toBe(buyerBefore - 500_000n);
    expect(await balance(chain.payTo)).toBe(payToBefore + 500_000n);
    const receipt = await reader.getTransactionReceipt({ hash: result.transaction });
    expect(chain.settlerAddresses.map((a) => a.toLowerCase())).toContain(receipt.from.toLowerCase());
    const used = parseEventLogs({ abi: usdcAbi, logs: receipt.logs, eventName: 'AuthorizationUsed' });
    expect(used.map((l) => l.args)).toEqual([{ authorizer: buyer.address, nonce: payment.payload.payload.authorization.nonce }]);

    // Same authorization again: refused by simulation, nothing sent, nothing moves.
    const noncesOf = () => Promise.all(chain.settlerAddresses.map((address) => reader.getTransactionCount({ address })));
    const nonceBefore = await noncesOf();
    expect(await settler.settle(payment)).toEqual({
      ok: false,
      reason: 'Settlement refused before broadcast: FiatTokenV2: authorization is used or canceled',
      broadcast: false,
    });
    expect(await noncesOf()).toEqual(nonceBefore);
    expect(await balance(buyer.address)).toBe(buyerBefore - 500_000n);
    expect(await verifier.verify(payment.payload, requirement)).toEqual({
      ok: false,
      reason: `Authorization nonce ${payment.payload.payload.authorization.nonce} has already been used or canceled`,
    });
  });

  it('settles payments of different buyers concurrently with distinct settler nonces', async () => {
    const payments = await Promise.all([chain.buyers[1], chain.buyers[2]].map((b) => verified(b.privateKey)));
    const results = await Promise.all(payments.map((p) => settler.settle(p)));
    expect(results.map((r) => r.ok)).toEqual([true, true]);
    expect(await balance(chain.buyers[1].address)).toBe(999_500_000n);
    expect(await balance(chain.buyers[2].address)).toBe(999_500_000n);
  });

  it('refuses a payer without USDC on chain', async () => {
    const empty = newBuyer();
    const payload = await signedPayment(empty, requirement);
    expect(await verifier.verify(payload, requirement)).toEqual({
      ok: false,
      reason: `Insufficient USDC balance: ${empty.address} holds 0, needs 500000`,
    });
  });

  it('does not broadcast an authorization the token would reject (expired on chain)', async () => {
    const buyer = privateKeyToAccount(chain.buyers[0].privateKey);
    const block = await reader.getBlock();
    const payload = await signWithTimes(buyer, requirement, 0n, block.timestamp - 1n, `0x${'07'.repeat(32)}`);
    const payment: VerifiedPayment = {
      kind: 'x402',
      payer: buyer.address,
      amount: 500_000n,
      network: 'eip155:8453',
      asset: chain.usdcAddress,
      payTo: chain.payTo,
      nonceKey: 'n/a',
      payload,
      requirement,
    };
    expect(await settler.settle(payment)).toEqual({
      ok: false,
      reason: 'Settlement refused before broadcast: FiatTokenV2: authorization is expired',
      broadcast: false,
    });
  });

  it('reports an unknown outcome (broadcast) when no receipt arrives by the deadline; the chain then decides', async () => {
    const buyer = chain.buyers[0];
    const payment = await verified(buyer.privateKey);
    const before = await balance(buyer.address);
    const rpc = (method: string, params: unknown[] = []) => reader.request({ method, params } as never);
    await rpc('evm_setAutomine', [false]);
    let result: Awaited<ReturnType<SelfSettler['settle']>>;
    try {
      result = await settler.settle(payment, { deadline: Date.now() });
    } finally {
      await rpc('evm_setAutomine', [true]);
    }
    expect(result).toMatchObject({ ok: false, broadcast: true, reason: expect.stringMatching(/^Settlement transaction 0x[0-9a-f]{64} not confirmed/) });
    // The transfer was sent and lands with the next block: this is why the job must not be voided on that answer.
    await rpc('evm_mine');
    expect(await balance(buyer.address)).toBe(before - 500_000n);
    expect(await reader.readContract({
      address: chain.usdcAddress,
      abi: usdcAbi,
      functionName: 'authorizationState',
      args: [buyer.address, payment.payload.payload.authorization.nonce as `0x${string}`],
    })).toBe(true);
  });

  it('lands a transfer whose pay-to balance was emptied between the gas estimate and the send (gas headroom)', async () => {
    // A fresh pay-to holding 1 base unit when the gas is estimated, and nothing when the transfer is mined: the
    // credit becomes a write to a zero slot (17,100 gas dearer), as when a refund empties the pay-to meanwhile.
    const payTo = privateKeyToAccount(generatePrivateKey());
    await chain.fund(payTo.address, 1n);
    await chain.provider.request({ method: 'hardhat_setBalance', params: [payTo.address, numberToHex(10n ** 18n)] });
    const fresh = requirementFor({ asset: chain.usdcAddress, payTo: payTo.address });
    const checked = await verifier.verify(await signedPayment(privateKeyToAccount(chain.buyers[1].privateKey), fresh), fresh);
    if (!checked.ok) throw new Error(checked.reason);
    const payToWallet = createWalletClient({ account: payTo, chain: localChainDefinition(chain.rpcUrl), transport: http(chain.rpcUrl, { retryCount: 0 }) });
    const estimates: bigint[] = [];
    const emptying = new SelfSettler({
      config: { chainId: chain.chainId, rpcUrl: chain.rpcUrl, settlerKeyFile: chain.settlerKeyFile },
      leases: memoryLeases(),
      publicClient: {
        ...reader,
        estimateContractGas: async (args: Parameters<typeof reader.estimateContractGas>[0]) => {
          const gas = await reader.estimateContractGas(args);
          estimates.push(gas);
          const hash = await payToWallet.writeContract({ address: chain.usdcAddress, abi: parseAbi(['function transfer(address,uint256) returns (bool)']), functionName: 'transfer', args: [chain.payTo, 1n] });
          expect((await reader.waitForTransactionReceipt({ hash, pollingInterval: 50 })).status).toBe('success');
          return gas;
        },
      } as never,
    });
    expect(await balance(payTo.address)).toBe(1n);
    const result = await emptying.settle(checked.payment);
    if (!result.ok) throw new Error(result.reason);
    expect(await balance(payTo.address)).toBe(500_000n);
    const receipt = await reader.getTransactionReceipt({ hash: result.transaction });
    // It needed more than the estimate, and got it.
    expect(receipt.gasUsed).toBeGreaterThan(estimates[0]);
    expect(receipt.status).toBe('success');
  });

  it('also accepts the bytes-signature overload of transferWithAuthorization', async () => {
    const payment = await verified(chain.buyers[0].privateKey);
    const { authorization: a, signature } = payment.payload.payload;
    const wallet = createWalletClient({
      account: privateKeyToAccount((await readFile(chain.settlerKeyFile, 'utf8')).trim().split('\n')[0] as `0x${string}`),
      chain: localChainDefinition(chain.rpcUrl),
      transport: http(chain.rpcUrl, { retryCount: 0 }),
    });
    const before = await balance(chain.payTo);
    const hash = await wallet.writeContract({
      address: chain.usdcAddress,
      abi: parseAbi([
        'function transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,bytes)',
      ]),
      functionName: 'transferWithAuthorization',
      args: [a.from as Address, a.to as Address, a.value, a.validAfter, a.validBefore, a.nonce as `0x${string}`, signature as `0x${string}`],
    });
    expect((await reader.waitForTransactionReceipt({ hash, pollingInterval: 50 })).status).toBe('success');
    expect(await balance(chain.payTo)).toBe(before + 500_000n);
  });
});

describe('Local chain: funding test USDC (chain.fund and npm run fund)', () => {
  it('parses USDC amounts exactly', () => {
    expect(parseUsdcAmount('12.5')).toBe(12_500_000n);
    expect(parseUsdcAmount('0.000001')).toBe(1n);
    expect(parseUsdcAmount('1000')).toBe(1_000_000_000n);
    expect(parseUsdcAmount('9007199254740993.123456')).toBe(9_007_199_254_740_993_123_456n);
    for (const bad of ['', '1.2345678', '-1', '1e6', '0', '0.0', 'abc', '.5']) {
      expect(() => parseUsdcAmount(bad)).toThrow(FundError);
    }
    expect(formatUsdc(12_500_000n)).toBe('12.5');
    expect(formatUsdc(1n)).toBe('0.000001');
  });

  it('chain.fund mints to any address', async () => {
    const someone = newBuyer().address;
    const tx = await chain.fund(someone, 7_000_000n);
    expect(tx).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await chain.balanceOf(someone)).toBe(7_000_000n);
  });

  it('fundFromState mints over JSON-RPC using runtime.json and accounts.json', async () => {
    const someone = newBuyer().address;
    await writeFile(
      path.join(stateDir, 'runtime.json'),
      JSON.stringify({
        baseUrl: 'http://127.0.0.1:3000',
        rpcUrl: chain.rpcUrl,
        chainId: chain.chainId,
        usdcAddress: chain.usdcAddress,
        payTo: chain.payTo,
        buyers: chain.buyers,
      }),
    );
    const result = await fundFromState(stateDir, someone, parseUsdcAmount('12.5'));
    expect(result.balance).toBe(12_500_000n);
    expect(result.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await chain.balanceOf(someone)).toBe(12_500_000n);
  });

  it('concurrent funds (parallel npm run fund, parallel test files) all land: the minter nonce race is retried', async () => {
    // runtime.json was written by the previous test; each call builds its own wallet, as a separate process would.
    const recipients = Array.from({ length: 8 }, () => newBuyer().address);
    const results = await Promise.all(recipients.map((to, i) => fundFromState(stateDir, to, BigInt(i + 1) * 1_000_000n)));
    expect(new Set(results.map((r) => r.transaction)).size).toBe(recipients.length);
    for (const [i, to] of recipients.entries()) expect(await chain.balanceOf(to)).toBe(BigInt(i + 1) * 1_000_000n);
  });

  it('says clearly when the service is not running', async () => {
    const empty = await mkdtemp(path.join(tmpdir(), 'no-runtime-'));
    await expect(fundFromState(empty, chain.payTo, 1n)).rejects.toThrow(
      `The local service is not running (no readable ${path.join(empty, 'runtime.json')}): start it with npm start`,
    );
    await writeFile(
      path.join(empty, 'runtime.json'),
      JSON.stringify({ rpcUrl: 'http://127.0.0.1:9', chainId: 8453, usdcAddress: chain.usdcAddress }),
    );
    await writeFile(path.join(empty, 'accounts.json'), await readFile(path.join(stateDir, 'accounts.json')));
    await expect(fundFromState(empty, chain.payTo, 1n)).rejects.toThrow(
      'The local service is not running: nothing answers at http://127.0.0.1:9 (start it with npm start)',
    );
    await rm(empty, { recursive: true, force: true });
  });
});

describe('Local chain: ports', () => {
  // A restart on the same state dir: test/components/chain-journal.test.ts.
  it('refuses a port that is already taken, and cleans up', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'local-chain-port-'));
    try {
      await expect(
        startLocalChain({ port: chain.port, stateDir: dir, buyerCount: 1, artifactCacheDir: ARTIFACT_CACHE }),
      ).rejects.toThrow(`Cannot serve JSON-RPC on 127.0.0.1:${chain.port}: EADDRINUSE`);
      // Nothing is left holding the state dir.
      await (await startLocalChain({ port: 0, stateDir: dir, buyerCount: 1, artifactCacheDir: ARTIFACT_CACHE })).stop();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
