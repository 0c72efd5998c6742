/**
 * Issue 22's bundle sizes: lib/bundling/aliases.ts gives the function bundles the ES module build of
 * `@smithy/node-http-handler` and stubs for `google-auth-library` and `ws`, which only the bundles see (the tests and
 * the embedded runtime import the real packages). Each is checked here the way it deploys: a handler that makes the
 * vendor call is bundled with the aliases (as CDK bundles it), run in a fresh Node process, and its request is read
 * by a server on loopback; the bundle without the aliases is built too, to show what they save.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleAliases, functionBuildOptions } from '../../../lib/bundling/aliases.js';
import { PROJECT_ROOT } from '../../../lib/local/runtime.js';

type Seen = { method: string; url: string; httpVersion: string; headers: IncomingMessage['headers'] };

let dir: string;
let server: Server;
let url: string;
let seen: Seen[] = [];
let answer = '{}';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vendor-aliases-'));
  // The bundles keep @aws-sdk/* external, as on Lambda; the project's copy stands in for the runtime's.
  symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  server = createServer((req, res) => {
    seen.push({ method: req.method!, url: req.url!, httpVersion: req.httpVersion, headers: req.headers });
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(answer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

/** Bundles `source` with and without the aliases; runs the aliased one in a fresh process and returns its stdout. */
async function bundleAndRun(name: string, source: string): Promise<{ out: string; kib: number; withoutKib: number }> {
  const entry = join(dir, `${name}.ts`);
  writeFileSync(entry, source);
  const outfile = join(dir, `${name}.mjs`);
  await build(functionBuildOptions(entry, outfile, bundleAliases(PROJECT_ROOT)));
  await build(functionBuildOptions(entry, join(dir, `${name}-plain.mjs`), {}));
  seen = [];
  // Asynchronously: the server answering the bundle runs in this process.
  const { stdout: out } = await promisify(execFile)(process.execPath, [outfile], { encoding: 'utf8', env: { PATH: process.env.PATH, TARGET: url }, timeout: 30_000 });
  return { out: out.trim(), kib: statSync(outfile).size / 1024, withoutKib: statSync(join(dir, `${name}-plain.mjs`)).size / 1024 };
}

describe('@smithy/node-http-handler from its ES module build', () => {
  it('a Bedrock client on an explicit HTTP/1.1 handler, bundled, still makes its signed call; the bundle is ~100 KiB smaller', async () => {
    answer = '{"ok":true}';
    const { out, kib, withoutKib } = await bundleAndRun(
      'bedrock',
      `import { BedrockRuntimeClient, InvokeModelCommand } from '@aws-sdk/client-bedrock-runtime';
       import { NodeHttpHandler } from '@smithy/node-http-handler';
       const client = new BedrockRuntimeClient({ region: 'us-west-2', endpoint: process.env.TARGET, maxAttempts: 1,
         credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
         requestHandler: new NodeHttpHandler({ connectionTimeout: 5000, requestTimeout: 10000 }) });
       const out = await client.send(new InvokeModelCommand({ modelId: 'stability.stable-image-core-v1:1', body: '{}', contentType: 'application/json' }));
       console.log(new TextDecoder().decode(out.body));`,
    );
    expect(out).toBe('{"ok":true}');
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/model/stability.stable-image-core-v1%3A1/invoke', httpVersion: '1.1' });
    expect(seen[0].headers.authorization).toMatch(/^AWS4-HMAC-SHA256 /);
    expect(withoutKib - kib).toBeGreaterThan(80);
  }, 60_000);
});

describe('@google/genai without google-auth-library and ws', () => {
  const CLIENT = `import { GoogleGenAI } from '@google/genai';`;

  it('an API-key call through the bundled SDK reaches the Gemini API with the key; the bundle is ~300 KiB smaller', async () => {
    answer = JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: 'hello' }] } }] });
    const { out, kib, withoutKib } = await bundleAndRun(
      'gemini',
      `${CLIENT}
       const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: process.env.TARGET } });
       const response = await ai.models.generateContent({ model: 'lyria-3-pro-preview', contents: 'a song' });
       console.log(response.text);`,
    );
    expect(out).toBe('hello');
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'POST', url: expect.stringContaining('/models/lyria-3-pro-preview:generateContent') });
    expect(seen[0].headers['x-goog-api-key']).toBe('test-key');
    expect(withoutKib - kib).toBeGreaterThan(200);
  }, 60_000);

  it('what the stubs leave out fails loudly: credentials without an API key, a Live WebSocket', async () => {
    const { out } = await bundleAndRun(
      'gemini-stubs',
      `${CLIENT}
       const tried = [];
       try { new GoogleGenAI({ vertexai: true, project: 'p', location: 'us-central1' }); tried.push('auth: built'); } catch (e) { tried.push('auth: ' + e.message); }
       try { const { WebSocket } = await import('ws'); new WebSocket('ws://127.0.0.1:9'); tried.push('ws: opened'); } catch (e) { tried.push('ws: ' + e.message); }
       console.log(JSON.stringify(tried));`,
    );
    const [auth, ws] = JSON.parse(out) as string[];
    expect(auth).toMatch(/^auth: google-auth-library is not bundled/);
    expect(ws).toMatch(/^ws: ws is not bundled/);
    expect(seen).toEqual([]);
  }, 60_000);
});

describe('@x402/extensions offer-receipt without @x402/core/http', () => {
  it('a bundled function signs an offer and a receipt the package verifies; the bundle is ~50 KiB smaller', async () => {
    const { out, kib, withoutKib } = await bundleAndRun(
      'offer-receipt',
      `import { signedOffers, withReceipt } from '${join(PROJECT_ROOT, 'lambdas/payments/offer-receipt.ts')}';
       import { privateKeyToAccount } from 'viem/accounts';
       const account = privateKeyToAccount('0x${'5'.repeat(64)}');
       const challenge = { x402Version: 2, error: '', resource: { url: 'https://api.test/agent/image' }, extensions: {},
         accepts: [{ scheme: 'exact', network: 'eip155:8453', amount: '150000', asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
           payTo: '0x2222222222222222222222222222222222222222', maxTimeoutSeconds: 300 }] };
       const offers = await signedOffers(challenge, async () => account);
       const settled = await withReceipt({ success: true, payer: '0x3333333333333333333333333333333333333333', transaction: '0x' + 'ab'.repeat(32), network: 'eip155:8453' },
         'https://api.test/agent/image', 'eip155:8453', async () => account);
       let decoded = 'decoded';
       try { (await import('@x402/core/http')).decodePaymentResponseHeader('e30='); } catch (e) { decoded = e.message; }
       console.log(JSON.stringify({ offers, receipt: settled.extensions['offer-receipt'], signer: account.address, decoded }));`,
    );
    const { offers, receipt, signer, decoded } = JSON.parse(out);
    const { verifyOfferSignatureEIP712, verifyReceiptSignatureEIP712 } = await import('@x402/extensions/offer-receipt');
    expect((await verifyOfferSignatureEIP712(offers.info.offers[0])).signer).toBe(signer);
    const verified = await verifyReceiptSignatureEIP712(receipt.info.receipt);
    expect(verified.signer).toBe(signer);
    expect(verified.payload).toMatchObject({ resourceUrl: 'https://api.test/agent/image', transaction: `0x${'ab'.repeat(32)}` });
    expect(decoded).toMatch(/^@x402\/core\/http is not bundled/);
    expect(withoutKib - kib).toBeGreaterThan(40);
  }, 60_000);
});
