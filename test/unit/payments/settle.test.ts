import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadSettlerKeys, resetSettlerKeyCache } from '../../../lambdas/payments/secrets.js';
import { RemoteFacilitatorSettler, RemoteFacilitatorVerifier, SelfSettler } from '../../../lambdas/payments/settle.js';
import { memoryLeases } from '../../support/leases.js';
import type { VerifiedPayment } from '../../../lambdas/payments/types.js';
import { PaymentBackendError } from '../../../lambdas/payments/verify.js';
import { newBuyer, requirementFor, signedPayment, wirePayment } from './fixtures.js';

const FACILITATOR = 'https://facilitator.test/x402/';
const TX = `0x${'c3'.repeat(32)}` as const;
const KEY = `0x${'4f'.repeat(32)}` as const;

interface Recorded {
  url: string;
  body: any;
  headers: Record<string, string>;
}

/** A fetch that records the request and answers with `status`/`body`, or throws `error`. */
function stubFetch(answer: { status?: number; body?: unknown; text?: string; error?: Error }) {
  const seen: Recorded[] = [];
  const fetchFn = (async (url: string, init: RequestInit) => {
    seen.push({ url, body: JSON.parse(String(init.body)), headers: init.headers as Record<string, string> });
    if (answer.error) throw answer.error;
    const text = answer.text ?? JSON.stringify(answer.body);
    return new Response(text, { status: answer.status ?? 200, headers: { 'Content-Type': 'application/json' } });
  }) as unknown as typeof fetch;
  return { fetchFn, seen };
}

function connectionRefused(): Error {
  return new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
}

const requirement = requirementFor();
const buyer = newBuyer();

async function verifiedPayment(): Promise<VerifiedPayment> {
  const payload = await signedPayment(buyer, requirement);
  const verifier = new RemoteFacilitatorVerifier({
    url: FACILITATOR,
    chainId: 8453,
    fetch: stubFetch({ body: { isValid: true, payer: buyer.address } }).fetchFn,
  });
  const result = await verifier.verify(payload, requirement);
  if (!result.ok) throw new Error(result.reason);
  return result.payment;
}

describe('Remote facilitator: /verify', () => {
  it('posts the x402 v2 body with decimal-string amounts and accepts isValid', async () => {
    const wire = await wirePayment(buyer, requirement);
    const { fetchFn, seen } = stubFetch({ body: { isValid: true, payer: buyer.address } });
    const verifier = new RemoteFacilitatorVerifier({
      url: FACILITATOR,
      chainId: 8453,
      fetch: fetchFn,
      headers: () => ({ Authorization: 'Bearer t' }),
    });
    const result = await verifier.verify(await signedPayment(buyer, requirement), requirement);
    expect(result.ok && result.payment.payer).toBe(buyer.address);
    expect(seen).toHaveLength(1);
    expect(seen[0].url).toBe('https://facilitator.test/x402/verify');
    expect(seen[0].headers).toEqual({ 'Content-Type': 'application/json', Authorization: 'Bearer t' });
    // Only the signature and nonce differ between two signings of the same requirement.
    const sent = seen[0].body;
    expect(sent.x402Version).toBe(2);
    expect(sent.paymentRequirements).toEqual(requirement);
    expect(sent.paymentPayload.accepted).toEqual(wire.accepted);
    expect(sent.paymentPayload.payload.authorization.value).toBe('500000');
    expect(sent.paymentPayload.payload.authorization.validAfter).toBe('0');
    expect(typeof sent.paymentPayload.payload.authorization.validBefore).toBe('string');
  });

  it('maps isValid=false to a refusal carrying the facilitator reason', async () => {
    const { fetchFn } = stubFetch({
      status: 400,
      body: { isValid: false, invalidReason: 'insufficient_funds', invalidMessage: 'balance 0' },
    });
    const verifier = new RemoteFacilitatorVerifier({ url: FACILITATOR, chainId: 8453, fetch: fetchFn });
    expect(await verifier.verify(await signedPayment(buyer, requirement), requirement)).toEqual({
      ok: false,
      reason: 'Payment rejected by facilitator (insufficient_funds): balance 0',
    });
  });

  it('refuses locally, without calling the facilitator, when the amount is wrong', async () => {
    const { fetchFn, seen } = stubFetch({ body: { isValid: true } });
    const verifier = new RemoteFacilitatorVerifier({ url: FACILITATOR, chainId: 8453, fetch: fetchFn });
    const cheap = await signedPayment(buyer, requirementFor({ amount: '1', maxAmountRequired: '1' }));
    expect(await verifier.verify(cheap, requirement)).toEqual({
      ok: false,
      reason: 'accepted.amount 1 does not equal the required amount 500000',
    });
    expect(seen).toEqual([]);
  });

  it('throws PaymentBackendError on a 5xx or an unreachable facilitator', async () => {
    const payload = await signedPayment(buyer, requirement);
    for (const answer of [{ status: 502, text: 'bad gateway' }, { error: connectionRefused() }]) {
      const verifier = new RemoteFacilitatorVerifier({ url: FACILITATOR, chainId: 8453, fetch: stubFetch(answer).fetchFn });
      const error = await verifier.verify(payload, requirement).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PaymentBackendError);
    }
  });
});

describe('Remote facilitator: /settle', () => {
  it('maps success to the receipt fields', async () => {
    const payment = await verifiedPayment();
    const { fetchFn, seen } = stubFetch({
      body: { success: true, transaction: TX, network: 'eip155:8453', payer: buyer.address.toLowerCase() },
    });
    const result = await new RemoteFacilitatorSettler({ url: FACILITATOR, chainId: 8453, fetch: fetchFn }).settle(payment);
    expect(result).toEqual({ ok: true, transaction: TX, network: 'eip155:8453', payer: buyer.address });
    expect(seen[0].url).toBe('https://facilitator.test/x402/settle');
    expect(seen[0].body.paymentRequirements).toEqual(requirement);
    expect(seen[0].body.paymentPayload.payload.signature).toBe(payment.payload.payload.signature);
  });

  it('reports broadcast=false when the facilitator refused before sending (no transaction)', async () => {
    const payment = await verifiedPayment();
    const { fetchFn } = stubFetch({
      status: 400,
      body: { success: false, errorReason: 'invalid_exact_evm_payload_authorization_valid_before', transaction: '', network: 'eip155:8453' },
    });
    expect(await new RemoteFacilitatorSettler({ url: FACILITATOR, chainId: 8453, fetch: fetchFn }).settle(payment)).toEqual({
      ok: false,
      reason: 'Facilitator could not settle (invalid_exact_evm_payload_authorization_valid_before)',
      broadcast: false,
    });
  });

  it('reports broadcast=true when a transaction was sent but failed', async () => {
    const payment = await verifiedPayment();
    const { fetchFn } = stubFetch({ body: { success: false, errorReason: 'transaction_failed', transaction: TX } });
    expect(await new RemoteFacilitatorSettler({ url: FACILITATOR, chainId: 8453, fetch: fetchFn }).settle(payment)).toEqual({
      ok: false,
      reason: 'Facilitator could not settle (transaction_failed)',
      broadcast: true,
    });
  });

  it('treats an unreadable answer or a timeout as possibly broadcast, a refused connection as not', async () => {
    const payment = await verifiedPayment();
    const settle = (answer: Parameters<typeof stubFetch>[0]) =>
      new RemoteFacilitatorSettler({ url: FACILITATOR, chainId: 8453, fetch: stubFetch(answer).fetchFn }).settle(payment);
    expect(await settle({ status: 504, text: '<html>gateway timeout</html>' })).toEqual({
      ok: false,
      reason: 'Facilitator /settle answered 504 without a result',
      broadcast: true,
    });
    const timeout = await settle({ error: new DOMException('The operation was aborted due to timeout', 'TimeoutError') });
    expect(timeout.ok === false && timeout.broadcast).toBe(true);
    expect(await settle({ error: connectionRefused() })).toEqual({
      ok: false,
      reason: 'Facilitator /settle failed: NotDeliveredError: facilitator unreachable (ECONNREFUSED)',
      broadcast: false,
    });
  });
});

describe('Settler key: SETTLER_KEY_FILE', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'settler-key-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));
  afterEach(() => resetSettlerKeyCache());

  it('reads a trimmed 0x key from the file and caches it', async () => {
    const file = path.join(dir, 'settler.key');
    await writeFile(file, `  ${KEY.toUpperCase().replace('0X', '0x')}\n`);
    expect(await loadSettlerKeys({ settlerKeyFile: file })).toEqual([KEY]);
    await writeFile(file, `0x${'00'.repeat(32)}`);
    expect(await loadSettlerKeys({ settlerKeyFile: file })).toEqual([KEY]);
  });

  it('refuses a file that does not hold a key, without echoing its content', async () => {
    const file = path.join(dir, 'bad.key');
    await writeFile(file, 'not-a-key-secret-value');
    const error = (await loadSettlerKeys({ settlerKeyFile: file }).catch((e: unknown) => e)) as Error;
    expect(error.name).toBe('SettlerKeyError');
    expect(error.message).toBe(`Settler key from file ${file} is not a 32-byte hex private key`);
  });

  it('reports broadcast=false from SelfSettler when no key can be loaded', async () => {
    const settler = new SelfSettler({
      config: { chainId: 8453, rpcUrl: 'http://127.0.0.1:1', settlerKeyFile: path.join(dir, 'missing.key') },
      leases: memoryLeases(),
    });
    const result = await settler.settle(await verifiedPayment());
    expect(result).toEqual({
      ok: false,
      reason: `Settler key unavailable: Cannot read settler keys file ${path.join(dir, 'missing.key')}: ENOENT`,
      broadcast: false,
      unavailable: true,
    });
  });
});

describe('Settler key: Secrets Manager', () => {
  const secrets = mockClient(SecretsManagerClient);
  afterEach(() => {
    secrets.reset();
    resetSettlerKeyCache();
  });
  afterAll(() => secrets.restore());

  it('reads a bare key SecretString once and caches it', async () => {
    secrets.on(GetSecretValueCommand, { SecretId: 'paycall/settler-key' }).resolves({ SecretString: KEY.slice(2) });
    expect(await loadSettlerKeys({ settlerKeySecretId: 'paycall/settler-key' })).toEqual([KEY]);
    expect(await loadSettlerKeys({ settlerKeySecretId: 'paycall/settler-key' })).toEqual([KEY]);
    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(1);
  });

  it('reads {"privateKey": ...} JSON', async () => {
    secrets.on(GetSecretValueCommand).resolves({ SecretString: JSON.stringify({ privateKey: KEY }) });
    expect(await loadSettlerKeys({ settlerKeySecretId: 'json-secret' })).toEqual([KEY]);
  });

  it('prefers the key file over the secret', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'settler-key-'));
    const file = path.join(dir, 'k');
    await writeFile(file, KEY);
    secrets.on(GetSecretValueCommand).rejects(new Error('must not be called'));
    expect(await loadSettlerKeys({ settlerKeyFile: file, settlerKeySecretId: 'x' })).toEqual([KEY]);
    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(0);
    await rm(dir, { recursive: true, force: true });
  });

  it('fails with SettlerKeyError and retries on the next call', async () => {
    secrets.on(GetSecretValueCommand).rejectsOnce(Object.assign(new Error('denied'), { name: 'AccessDeniedException' }));
    const error = (await loadSettlerKeys({ settlerKeySecretId: 's' }).catch((e: unknown) => e)) as Error;
    expect(error.name).toBe('SettlerKeyError');
    expect(error.message).toBe('Cannot read settler keys secret s: AccessDeniedException');
    secrets.on(GetSecretValueCommand).resolves({ SecretString: KEY });
    expect(await loadSettlerKeys({ settlerKeySecretId: 's' })).toEqual([KEY]);
  });

  it('refuses JSON without a privateKey member', async () => {
    secrets.on(GetSecretValueCommand).resolves({ SecretString: '{"key":"x"}' });
    const error = (await loadSettlerKeys({ settlerKeySecretId: 'j' }).catch((e: unknown) => e)) as Error;
    expect(error.message).toBe('Settler keys from secret j have no string members privateKeys or privateKey');
  });
});

describe('Settler key pool', () => {
  const k = (c: string) => `0x${c.repeat(64)}`;
  it('reads one key per line, JSON privateKeys, or JSON privateKey; normalises and refuses repeats and junk', async () => {
    const { parseKeyPool } = await import('../../../lambdas/payments/secrets.js');
    expect(parseKeyPool(`${k('a')}\n\n${k('b').slice(2)}\n`, 'file f')).toEqual([k('a'), k('b')]);
    expect(parseKeyPool(JSON.stringify({ privateKeys: [k('a'), k('c')] }), 'secret s')).toEqual([k('a'), k('c')]);
    expect(parseKeyPool(JSON.stringify({ privateKey: k('d') }), 'secret s')).toEqual([k('d')]);
    expect(() => parseKeyPool(`${k('a')}\n${k('a')}`, 'file f')).toThrow(/repeat a key/);
    expect(() => parseKeyPool('', 'file f')).toThrow(/empty/);
    expect(() => parseKeyPool('{"privateKeys": [1]}', 'secret s')).toThrow(/privateKeys/);
    const junk = (() => {
      try {
        parseKeyPool('not-a-key-secret-value', 'file f');
      } catch (error) {
        return error as Error;
      }
    })();
    expect(junk?.message).not.toContain('not-a-key-secret-value');
  });
});

describe('SelfSettler: a preconfirmed receipt (docs/decisions/0021)', () => {
  /** A node on loopback that takes any raw transaction (answering its hash) and nothing else. */
  async function node() {
    const { createServer } = await import('node:http');
    const { keccak256 } = await import('viem');
    const server = createServer((req, res) => {
      let text = '';
      req.on('data', (c) => (text += c));
      req.on('end', () => {
        const { id, method, params } = JSON.parse(text);
        const result = method === 'eth_sendRawTransaction' ? keccak256(params[0]) : null;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id, result }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, close: () => new Promise((r) => server.close(r)) };
  }

  /** A reader whose receipts say `status`, and which answers the settlement's other reads. */
  function reader(status: 'success' | 'reverted', seen: string[], name: string) {
    return {
      estimateContractGas: async () => 60_000n,
      estimateFeesPerGas: async () => ({ maxFeePerGas: 10n, maxPriorityFeePerGas: 1n }),
      getBalance: async () => 10n ** 18n,
      getTransactionCount: async () => 0,
      getTransactionReceipt: async () => (seen.push(name), { status }),
    } as never;
  }

  async function settleWith(preconfStatus: 'success' | 'reverted', preconfirmation: boolean) {
    const rpc = await node();
    const seen: string[] = [];
    try {
      const settler = new SelfSettler({
        config: { chainId: 8453, rpcUrl: rpc.url },
        leases: memoryLeases(),
        loadKeys: async () => [KEY],
        publicClient: reader('success', seen, 'sealed'),
        preconfReader: reader(preconfStatus, seen, 'preconf'),
      });
      return { result: await settler.settle(await verifiedPayment(), { preconfirmation }), seen };
    } finally {
      await rpc.close();
    }
  }

  it('a settlement that takes one waits on the preconfirmation endpoint and says so; one that does not waits for the sealed receipt', async () => {
    const taken = await settleWith('success', true);
    expect(taken.seen).toEqual(['preconf']);
    expect(taken.result).toMatchObject({ ok: true, preconfirmed: true });
    const sealed = await settleWith('success', false);
    expect(sealed.seen).toEqual(['sealed']);
    expect(sealed.result.ok && 'preconfirmed' in sealed.result).toBe(false);
  });

  it('a preconfirmed revert is an unknown outcome (broadcast), never a refusal that releases the lock: the sealed block decides', async () => {
    const { result } = await settleWith('reverted', true);
    expect(result).toMatchObject({ ok: false, broadcast: true, reason: expect.stringMatching(/preconfirmed as reverted/) });
  });
});
