/**
 * The bundle size goals (lib/bundling/goals.ts): lib/bundling/aliases.ts gives the function bundles the ES module build of
 * `@smithy/node-http-handler`, stubs for `google-auth-library` and `ws` and a trimmed `@google/genai`
 * (lib/bundling/google-genai.ts), which only the bundles see (the tests and the embedded runtime import the real
 * packages). Each is checked here the way it deploys: a handler that makes the vendor call is bundled with the
 * aliases (as CDK bundles it), run in a fresh Node process, and its request is read by a server on loopback; the
 * bundle without the aliases is built too, to show what they save.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleAliases, functionBuildOptions } from '../../../lib/bundling/aliases.js';
import { REMOVED_CONSTRUCTOR_LINES, REMOVED_MEMBERS, trimGoogleGenAI } from '../../../lib/bundling/google-genai.js';
import { PROJECT_ROOT } from '../../../lib/local/runtime.js';

type Seen = { method: string; url: string; httpVersion: string; headers: IncomingMessage['headers']; body: string };

let dir: string;
let server: Server;
let url: string;
let seen: Seen[] = [];
/** The server's answer to every request, or per request (a status other than 200 as `{ status, body }`). */
let answer: string | ((req: IncomingMessage) => string | { status: number; body: string }) = '{}';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vendor-aliases-'));
  // The bundles keep @aws-sdk/* external, as on Lambda; the project's copy stands in for the runtime's.
  symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, httpVersion: req.httpVersion, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const reply = typeof answer === 'function' ? answer(req) : answer;
      const { status, body } = typeof reply === 'string' ? { status: 200, body: reply } : reply;
      res.writeHead(status, { 'content-type': 'application/json' }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Bundles `source` with the aliases and with `without` (by default none of them); runs the aliased one in a fresh
 * process and returns its stdout.
 */
async function bundleAndRun(name: string, source: string, without: Record<string, string> = {}): Promise<{ out: string; kib: number; withoutKib: number }> {
  const entry = join(dir, `${name}.ts`);
  writeFileSync(entry, source);
  const outfile = join(dir, `${name}.mjs`);
  await build(functionBuildOptions(entry, outfile, bundleAliases(PROJECT_ROOT)));
  await build(functionBuildOptions(entry, join(dir, `${name}-plain.mjs`), without));
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

describe('@google/genai trimmed, without google-auth-library and ws', () => {
  const CLIENT = `import { GoogleGenAI } from '@google/genai';`;

  it('an API-key call through the bundled SDK reaches the Gemini API with the key; the bundle is ~550 KiB smaller', async () => {
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
    expect(withoutKib - kib).toBeGreaterThan(450);
  }, 60_000);

  it("the trimmed SDK still makes the adapters' calls (Veo's start and poll, Lyria's generateContent, an ApiError); the trim saves ~250 KiB", async () => {
    const operation = 'models/veo-3.1-fast-generate-preview/operations/op123';
    answer = (req) => {
      if (req.url!.includes(':predictLongRunning')) return JSON.stringify({ name: operation });
      if (req.url!.endsWith(`/${operation}`)) {
        return JSON.stringify({ name: operation, done: true, response: { generateVideoResponse: { generatedSamples: [{ video: { uri: 'https://files.test/video.mp4' } }] } } });
      }
      if (req.url!.includes('/models/refused:')) return { status: 400, body: JSON.stringify({ error: { code: 400, message: 'refused', status: 'INVALID_ARGUMENT' } }) };
      return JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: 'a song' }] } }] });
    };
    // As lambdas/render/google-veo/provider.ts and lambdas/render/google-lyria/provider.ts call it.
    const { out, kib, withoutKib } = await bundleAndRun(
      'gemini-trimmed',
      `import { ApiError, GenerateVideosOperation, GoogleGenAI } from '@google/genai';
       const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: process.env.TARGET, timeout: 20000 } });
       const started = await ai.models.generateVideos({ model: 'veo-3.1-fast-generate-preview', source: { prompt: 'rain on a tin roof' },
         config: { aspectRatio: '16:9', durationSeconds: 8, resolution: '720p', numberOfVideos: 1 } });
       const polled = await ai.operations.getVideosOperation({ operation: Object.assign(new GenerateVideosOperation(), { name: started.name }) });
       const song = await ai.models.generateContent({ model: 'lyria-3-pro-preview', contents: 'a song' });
       let refused;
       try { await ai.models.generateContent({ model: 'refused', contents: 'no' }); } catch (e) { refused = e instanceof ApiError ? e.status : String(e); }
       console.log(JSON.stringify({ started: started.name, done: polled.done, uri: polled.response?.generatedVideos?.[0]?.video?.uri, text: song.text, refused }));`,
      // Everything but the trim: what the trim alone saves.
      Object.fromEntries(Object.entries(bundleAliases(PROJECT_ROOT)).filter(([from]) => from !== '@google/genai')),
    );
    expect(JSON.parse(out)).toEqual({ started: operation, done: true, uri: 'https://files.test/video.mp4', text: 'a song', refused: 400 });
    expect(seen.map(({ method, url }) => `${method} ${url}`)).toEqual([
      'POST /v1beta/models/veo-3.1-fast-generate-preview:predictLongRunning',
      `GET /v1beta/${operation}`,
      'POST /v1beta/models/lyria-3-pro-preview:generateContent',
      'POST /v1beta/models/refused:generateContent',
    ]);
    for (const request of seen) expect(request.headers['x-goog-api-key']).toBe('test-key');
    expect(JSON.parse(seen[0].body)).toMatchObject({ instances: [{ prompt: 'rain on a tin roof' }], parameters: { aspectRatio: '16:9', durationSeconds: 8, sampleCount: 1 } });
    expect(JSON.parse(seen[2].body)).toMatchObject({ contents: [{ role: 'user', parts: [{ text: 'a song' }] }] });
    expect(withoutKib - kib).toBeGreaterThan(200);
  }, 60_000);

  it('what the stubs and the trim leave out fails loudly: credentials without an API key, a Live WebSocket, the removed clients', async () => {
    const { out } = await bundleAndRun(
      'gemini-stubs',
      `${CLIENT}
       const tried = [];
       try { new GoogleGenAI({ vertexai: true, project: 'p', location: 'us-central1' }); tried.push('auth: built'); } catch (e) { tried.push('auth: ' + e.message); }
       try { const { WebSocket } = await import('ws'); new WebSocket('ws://127.0.0.1:9'); tried.push('ws: opened'); } catch (e) { tried.push('ws: ' + e.message); }
       const ai = new GoogleGenAI({ apiKey: 'test-key' });
       for (const name of ['live', 'chats', 'files', 'interactions']) { try { tried.push(name + ': ' + typeof ai[name]); } catch (e) { tried.push(name + ': ' + e.message); } }
       try { ai.getNextGenClient(); tried.push('next gen: built'); } catch (e) { tried.push('next gen: ' + e.message); }
       tried.push('models: ' + typeof ai.models.generateContent, 'operations: ' + typeof ai.operations.getVideosOperation);
       console.log(JSON.stringify(tried));`,
    );
    const [auth, ws, live, chats, files, interactions, nextGen, models, operations] = JSON.parse(out) as string[];
    expect(auth).toMatch(/^auth: google-auth-library is not bundled/);
    expect(ws).toMatch(/^ws: ws is not bundled/);
    expect(live).toMatch(/^live: GoogleGenAI\.live is not bundled/);
    expect(chats).toMatch(/^chats: GoogleGenAI\.chats is not bundled/);
    expect(files).toMatch(/^files: GoogleGenAI\.files is not bundled/);
    expect(interactions).toMatch(/^interactions: GoogleGenAI\.interactions is not bundled/);
    expect(nextGen).toMatch(/^next gen: GoogleGenAI\.getNextGenClient is not bundled/);
    expect([models, operations]).toEqual(['models: function', 'operations: function']);
    expect(seen).toEqual([]);
  }, 60_000);
});

describe('trimGoogleGenAI', () => {
  const packageDir = join(PROJECT_ROOT, 'node_modules', '@google', 'genai');
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string };
  const source = readFileSync(join(packageDir, 'dist', 'node', 'index.mjs'), 'utf8');

  it('removes exactly the constructor lines and the members before the constructor, deterministically', () => {
    const trimmed = trimGoogleGenAI(source, version);
    expect(trimGoogleGenAI(source, version)).toBe(trimmed);
    expect(trimmed.split('\n')[0]).toMatch(new RegExp(`^// @google/genai ${version.replace(/\./g, '\\.')} dist/node/index\\.mjs \\(sha256 [0-9a-f]{64}\\)`));
    for (const line of REMOVED_CONSTRUCTOR_LINES) expect(trimmed).not.toContain(line);
    expect(trimmed).not.toContain('this._interactions = new GeminiNextGenInteractions');
    expect(trimmed).toContain('        this.models = new Models(this.apiClient);\n');
    expect(trimmed).toContain('        this.operations = new Operations(this.apiClient);\n');
    expect(trimmed).toContain('        this.apiClient = new ApiClient({\n');
    expect(trimmed).not.toContain('sourceMappingURL');
  });

  it("is what the bundles' alias points at, under the project's node_modules", () => {
    const file = bundleAliases(PROJECT_ROOT)['@google/genai'];
    expect(file).toBe(join(PROJECT_ROOT, 'node_modules', '.cache', 'paycall', 'google-genai.mjs'));
    expect(readFileSync(file, 'utf8')).toBe(trimGoogleGenAI(source, version));
  });

  it.each([
    ['a constructor line', REMOVED_CONSTRUCTOR_LINES[4], '        this.files = new Files(this.apiClient);\n', /this\.files = new NodeFiles\(this\.apiClient\);" once.*found it 0 times/],
    ['a constructor line twice', REMOVED_CONSTRUCTOR_LINES[0], REMOVED_CONSTRUCTOR_LINES[0].repeat(2), /this\.live = new Live.*found it 2 times/],
    ['a member before the constructor', `${REMOVED_MEMBERS[7]}\n        if (this._voices`, `    get music() {\n        return undefined;\n    }\n${REMOVED_MEMBERS[7]}\n        if (this._voices`, /found getNextGenClient\(\) \{ get interactions.* get music\(\) \{ get voices/],
    ['the constructor', '    constructor(options = {}) {\n        var _a, _b, _c, _d;', '    constructor(options) {\n        var _a, _b, _c, _d;', /expected "    constructor\(options = \{\}\) \{\\n" once in class GoogleGenAI, found it 0 times/],
  ])('throws, naming the SDK version, when %s is not as expected', (_, expected, changed, message) => {
    expect(source.split(expected)).toHaveLength(2);
    const modified = source.replace(expected, changed);
    expect(() => trimGoogleGenAI(modified, '9.9.9')).toThrow(/^@google\/genai 9\.9\.9: lib\/bundling\/google-genai\.ts cannot trim dist\/node\/index\.mjs: /);
    expect(() => trimGoogleGenAI(modified, '9.9.9')).toThrow(message);
  });
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
