/**
 * The RPC URL kept in Secrets Manager (lambdas/payments/rpc-url.ts). With RPC_URL_SECRET_ID the
 * configuration holds a reference to the secret, the chain clients and the reconciler's reads resolve it on their
 * first request (a plain URL or JSON with `url`, read once per process), and no error quotes the URL or its key.
 * Secrets Manager is mocked here; every paid integration test on the embedded default reads the secret for real
 * (lib/local/runtime.ts), through the functions' grants.
 */
import http from 'node:http';
import { inspect } from 'node:util';
import type { AddressInfo } from 'node:net';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { paymentConfigWith } from '../../support/payment-config.js';
import { RPC_URL_SECRET_PREFIX } from '../../../lambdas/shared/config.js';
import { resetSecretCache } from '../../../lambdas/shared/secrets.js';
import { resolveRpcUrl, rpcUrlSecretId, sendToRpc, withoutUrl } from '../../../lambdas/payments/rpc-url.js';
import { publicClientFor } from '../../../lambdas/payments/chain-client.js';
import { rpcRequest } from '../../../lambdas/payments/reconcile.js';

const KEY = 'k3y-0f-the-pr0vider';
/** Any address: the fake node answers 0x2a to every request. */
const ACCOUNT = '0x000000000000000000000000000000000000dEaD';
const reference = (secretId: string) => `${RPC_URL_SECRET_PREFIX}${encodeURIComponent(secretId)}`;

/** Every text an error carries, its causes' and viem's details included, as a log line would print it. */
const printed = (error: unknown) => `${String(error)}\n${inspect(error, { depth: 10 })}\n${JSON.stringify(error)}`;

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('RPC_URL or RPC_URL_SECRET_ID: the payment configuration', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('with the secret id, rpcUrl is a reference that names the secret (never a URL it could fetch)', async () => {
    const { rpcUrl } = await paymentConfigWith({ RPC_URL_SECRET_ID: 'paycall/rpc-url' });
    expect(rpcUrl).toBe('secretsmanager:paycall%2Frpc-url');
    expect(rpcUrlSecretId(rpcUrl)).toBe('paycall/rpc-url');
  });

  it('with RPC_URL, rpcUrl is the URL itself', async () => {
    const { rpcUrl } = await paymentConfigWith({ RPC_URL: 'https://mainnet.base.org' });
    expect(rpcUrl).toBe('https://mainnet.base.org');
    expect(rpcUrlSecretId(rpcUrl)).toBeUndefined();
  });

  it('refuses both, and neither', async () => {
    await expect(paymentConfigWith({ RPC_URL: 'https://mainnet.base.org', RPC_URL_SECRET_ID: 'paycall/rpc-url' })).rejects.toThrow(/one of RPC_URL .* and RPC_URL_SECRET_ID/);
    await expect(paymentConfigWith({})).rejects.toThrow(/one of RPC_URL .* and RPC_URL_SECRET_ID/);
  });

  it('a reference survives URL parsing (viem normalises the URL it is given) for names and ARNs', () => {
    for (const id of ['paycall/rpc-url', '/a/./b+c=d@e.f_g-h', 'arn:aws:secretsmanager:us-east-1:123456789012:secret:paycall/rpc-AbCdEf']) {
      expect(new URL(reference(id)).toString()).toBe(reference(id));
      expect(rpcUrlSecretId(new URL(reference(id)).toString())).toBe(id);
    }
  });
});

describe('The RPC URL read from its secret', () => {
  const sm = mockClient(SecretsManagerClient);
  let server: http.Server;
  let base: string;
  /** The path of each request the RPC server received, and what it answers. */
  const paths: string[] = [];
  let status = 200;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        paths.push(req.url ?? '');
        const { id } = JSON.parse(body) as { id: number };
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(status === 200 ? JSON.stringify({ jsonrpc: '2.0', id, result: '0x2a' }) : JSON.stringify({ message: 'upstream failed' }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(() => {
    sm.reset();
    resetSecretCache();
    paths.length = 0;
    status = 200;
  });
  afterAll(async () => {
    sm.restore();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('a plain SecretString is the URL: the chain client and the reconciler send to it, and the secret is read once', async () => {
    sm.on(GetSecretValueCommand, { SecretId: 'plain/rpc' }).resolves({ SecretString: `${base}/v2/${KEY}\n` });
    const rpcUrl = reference('plain/rpc');
    const reader = publicClientFor(rpcUrl);
    expect(await reader.getBalance({ address: ACCOUNT })).toBe(42n);
    expect(await reader.getBalance({ address: ACCOUNT })).toBe(42n);
    expect(await rpcRequest(rpcUrl, 'eth_blockNumber', [])).toBe('0x2a');
    expect(paths).toEqual([`/v2/${KEY}`, `/v2/${KEY}`, `/v2/${KEY}`]);
    expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(1);
  });

  it('JSON with a `url` member holds the URL', async () => {
    sm.on(GetSecretValueCommand, { SecretId: 'json/rpc' }).resolves({ SecretString: JSON.stringify({ url: `${base}/json/${KEY}`, note: 'alchemy' }) });
    expect(await resolveRpcUrl(reference('json/rpc'))).toBe(`${base}/json/${KEY}`);
    expect(await rpcRequest(reference('json/rpc'), 'eth_chainId', [])).toBe('0x2a');
    expect(paths).toEqual([`/json/${KEY}`]);
  });

  it('a URL is used as it is, without reading any secret', async () => {
    expect(await rpcRequest(`${base}/public`, 'eth_blockNumber', [])).toBe('0x2a');
    expect(await resolveRpcUrl(`${base}/public`)).toBe(`${base}/public`);
    expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(0);
  });

  it('a value that is not an http(s) URL is refused without being quoted, and the read is retried next time', async () => {
    sm.on(GetSecretValueCommand, { SecretId: 'bad/rpc' }).resolvesOnce({ SecretString: `wss://${KEY}.example.com` }).resolves({ SecretString: `${base}/fixed` });
    const error = await failure(resolveRpcUrl(reference('bad/rpc')));
    expect(error).toMatchObject({ name: 'RpcUrlError', message: 'The RPC URL in secret bad/rpc is not an http(s) URL' });
    expect(printed(error)).not.toContain(KEY);
    expect(await resolveRpcUrl(reference('bad/rpc'))).toBe(`${base}/fixed`);
  });

  it('a secret that cannot be read is named, with the AWS error, and nothing else', async () => {
    sm.on(GetSecretValueCommand).rejects(Object.assign(new Error('not authorized'), { name: 'AccessDeniedException' }));
    const error = await failure(publicClientFor(reference('denied/rpc')).getBalance({ address: ACCOUNT }));
    expect(printed(error)).toContain('Cannot read RPC URL secret denied/rpc: AccessDeniedException');
  });

  it('an HTTP failure quotes the reference, never the URL', async () => {
    sm.on(GetSecretValueCommand, { SecretId: 'http/rpc' }).resolves({ SecretString: `${base}/v2/${KEY}` });
    status = 503;
    const viaViem = await failure(publicClientFor(reference('http/rpc')).getBalance({ address: ACCOUNT }));
    const viaReconciler = await failure(rpcRequest(reference('http/rpc'), 'eth_blockNumber', []));
    expect(printed(viaViem)).toContain('URL: secretsmanager:http%2Frpc');
    expect(printed(viaReconciler)).toContain('eth_blockNumber: HTTP 503');
    for (const error of [viaViem, viaReconciler]) {
      expect(printed(error)).not.toContain(KEY);
      expect(printed(error)).not.toContain(base);
    }
  });

  it('a connection failure quotes neither the URL, its host nor its key', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    sm.on(GetSecretValueCommand, { SecretId: 'down/rpc' }).resolves({ SecretString: `http://127.0.0.1:${port}/v2/${KEY}?apikey=${KEY}` });
    const viaViem = await failure(publicClientFor(reference('down/rpc')).getBalance({ address: ACCOUNT }));
    const viaReconciler = await failure(rpcRequest(reference('down/rpc'), 'eth_blockNumber', []));
    for (const error of [viaViem, viaReconciler]) {
      expect(printed(error)).toMatch(/ECONNREFUSED|fetch failed/);
      expect(printed(error)).not.toContain(KEY);
      expect(printed(error)).not.toContain(`127.0.0.1:${port}`);
    }
  });

  it('an abort is passed through as the caller’s own error', async () => {
    sm.on(GetSecretValueCommand, { SecretId: 'abort/rpc' }).resolves({ SecretString: `${base}/v2/${KEY}` });
    const controller = new AbortController();
    const reason = new Error('lease deadline');
    controller.abort(reason);
    await expect(sendToRpc(reference('abort/rpc'), () => Promise.reject(reason), controller.signal)).rejects.toBe(reason);
  });
});

describe('withoutUrl', () => {
  const url = `https://${KEY}.base-mainnet.quiknode.pro/${KEY}/?token=${KEY}`;
  const ref = reference('paycall/rpc-url');

  it('replaces the host (a DNS error names it), the path and the query in the message and every cause, keeping name and code', () => {
    const dns = Object.assign(new Error(`getaddrinfo ENOTFOUND ${KEY}.base-mainnet.quiknode.pro`), { code: 'ENOTFOUND', hostname: `${KEY}.base-mainnet.quiknode.pro` });
    const error = new TypeError('fetch failed', { cause: dns });
    const clean = withoutUrl(error, url, ref) as Error & { cause: Error & { code: string } };
    expect(clean).toMatchObject({ name: 'TypeError', message: 'fetch failed' });
    expect(clean.cause).toMatchObject({ message: `getaddrinfo ENOTFOUND ${ref}`, code: 'ENOTFOUND' });
    expect(printed(clean)).not.toContain(KEY);
  });

  it('returns an error that quotes nothing of the URL as it is', () => {
    const error = new Error('eth_call: execution reverted (3)');
    expect(withoutUrl(error, url, ref)).toBe(error);
  });
});
