/**
 * A wire-level fake of the Bedrock runtime's InvokeModel for Stability's image models, on loopback, for the
 * bedrock-stability adapter's unchanged `@aws-sdk/client-bedrock-runtime` pointed here by `endpoint`
 * (BEDROCK_RUNTIME_ENDPOINT). What the SDK sends (checked here) and what Bedrock answers:
 *
 *   POST /model/{modelId}/invoke      SigV4-signed (credential scope service `bedrock`; the body's SHA-256 in
 *                                     x-amz-content-sha256), content-type application/json, body
 *                                     {prompt, aspect_ratio, output_format, seed, negative_prompt?, mode?}
 *   200 application/json              {seeds:[seed], finish_reasons:[null], images:["<base64>"]}
 *   errors                            x-amzn-ErrorType header + {message}: ValidationException 400 (unknown model,
 *                                     extraneous key, bad enum), ThrottlingException 429, InternalServerException 500,
 *                                     InvalidSignatureException 403
 *
 * The signature itself is not verified (the fake holds no secret key). The picture is the local synthesiser's
 * painting of the prompt at the size the fake assumes Stability renders for that ratio (~1 MP, multiples of 64, so not
 * always the exact ratio: 16:9 is 1344x768), PNG or JPEG as asked.
 *
 * Markers in the prompt: `[fake:content-filter]` → finish_reasons ["Filter reason: prompt"] and no image;
 * `[fake:429]` → ThrottlingException; `[fake:500]` → InternalServerException; `[fake:hang]` → never answers;
 * `[fake:malformed]` → a 200 whose JSON body is cut off. Each answer carries `x-fake-busy-ms`, the fake's own time.
 *
 * The same server answers `POST /model/{modelId}/converse` for the agent reasoning adapter (./bedrock-converse.ts).
 * It speaks HTTP/1.1 and HTTP/2 on one port, as Bedrock does (there over TLS, here cleartext: a connection opening
 * with HTTP/2's preface is HTTP/2): the image adapter sets an HTTP/1.1 handler, the reasoning adapter keeps the Bedrock
 * runtime client's default, HTTP/2. Each recorded request names its `httpVersion`.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createServer as createHttp1Server, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttp2Server, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import jpeg from 'jpeg-js';
import { paint } from '../../../lambdas/render/local/image/painter.js';
import { encodePng } from '../../../lambdas/render/local/image/png.js';
import { seedFrom } from '../../../lambdas/render/local/seed.js';
import type { FakeOptions, ProviderFake } from './index.js';
import { converseReply } from './bedrock-converse.js';

export const STABILITY_MODELS = ['stability.stable-image-core-v1:1', 'stability.stable-image-ultra-v1:1', 'stability.sd3-5-large-v1:0'] as const;
/** Where Bedrock offers them (provider notes §1). */
export const STABILITY_REGIONS = ['us-west-2'];

/** The pixel size the fake renders for each `aspect_ratio` (its assumption of Stability's buckets). */
export const FAKE_SIZES: Record<string, [number, number]> = {
  '1:1': [1024, 1024],
  '16:9': [1344, 768],
  '9:16': [768, 1344],
  '21:9': [1536, 640],
  '9:21': [640, 1536],
  '3:2': [1216, 832],
  '2:3': [832, 1216],
  '5:4': [1088, 896],
  '4:5': [896, 1088],
};
const FORMATS = ['png', 'jpeg'];
const KEYS = new Set(['prompt', 'negative_prompt', 'aspect_ratio', 'output_format', 'seed', 'mode']);

export type BedrockMarker = 'content-filter' | '429' | '500' | 'hang' | 'malformed';
const MARKERS: BedrockMarker[] = ['content-filter', '429', '500', 'hang', 'malformed'];

type Request = IncomingMessage | Http2ServerRequest;
/** HTTP/2's compatibility response has the members the fake uses, alike. */
type Response = ServerResponse;

export interface RecordedBedrockRequest {
  /** '1.1' or '2.0'. */
  httpVersion?: string;
  method: string;
  path: string;
  modelId?: string;
  region?: string;
  body?: Record<string, unknown>;
  status?: number;
  /** Bytes of the answer's body (the base64 JSON a Lambda holds in memory). */
  responseBytes?: number;
  /** Bytes of the picture inside it. */
  imageBytes?: number;
  fakeMs?: number;
}

export interface BedrockFake extends ProviderFake {
  url: string;
  requests: RecordedBedrockRequest[];
  /** Milliseconds the fake spent answering (painting included): a bench subtracts it from the adapter's time. */
  busyMs(): number;
}

/** `converseMs`: a Converse answer is written this long after its request came (a model's time; the bench sets it). */
export async function startBedrockFake(options: FakeOptions & { regions?: string[]; converseMs?: number }): Promise<BedrockFake> {
  const regions = options.regions ?? STABILITY_REGIONS;
  const requests: RecordedBedrockRequest[] = [];
  const sockets = new Set<Socket>();
  let busy = 0;

  const onRequest = (req: Request, res: Response) => {
    handle(req, res).catch((error: unknown) => {
      options.log(`[bedrock-fake] ${(error as Error).stack ?? String(error)}`);
      if (!res.headersSent) awsError(res, 500, 'InternalServerException', 'The server encountered an internal error.');
    });
  };
  const http1 = createHttp1Server(onRequest);
  const http2 = createHttp2Server((req, res: Http2ServerResponse) => onRequest(req, res as unknown as ServerResponse));
  // One port for both: a connection whose first bytes are HTTP/2's preface ("PRI * HTTP/2.0…") goes to the HTTP/2
  // server, any other to the HTTP/1.1 one; the bytes read to tell are given back to the socket first.
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.once('data', (first: Buffer) => {
      socket.pause();
      socket.unshift(first);
      (first.subarray(0, 3).toString('latin1') === 'PRI' ? http2 : http1).emit('connection', socket);
      process.nextTick(() => socket.resume());
    });
  });

  async function handle(req: Request, res: Response): Promise<void> {
    const started = performance.now();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    const record: RecordedBedrockRequest = { method: req.method ?? '', path, httpVersion: req.httpVersion };
    requests.push(record);
    const reply = answer(req, raw, record);
    const fakeMs = performance.now() - started;
    busy += fakeMs;
    record.fakeMs = fakeMs;
    if (reply === 'hang') return; // the socket stays open until the client gives up or the fake stops
    if (options.converseMs && record.path.endsWith('/converse')) await new Promise((resolve) => setTimeout(resolve, options.converseMs));
    record.status = reply.status;
    const body = typeof reply.body === 'string' ? Buffer.from(reply.body) : Buffer.from(JSON.stringify(reply.body));
    record.responseBytes = body.length;
    res.writeHead(reply.status, {
      'content-type': 'application/json',
      'x-amzn-requestid': randomUUID(),
      'x-fake-busy-ms': fakeMs.toFixed(1),
      ...(reply.errorType ? { 'x-amzn-errortype': `${reply.errorType}:http://internal.amazon.com/coral/com.amazon.bedrock/` } : {}),
    });
    res.end(body);
  }

  type Reply = { status: number; body: unknown; errorType?: string } | 'hang';
  const error = (status: number, errorType: string, message: string): Reply => ({ status, errorType, body: { message } });
  const malformed = (detail: string) => error(400, 'ValidationException', `Malformed input request: ${detail}, please reformat your input and try again.`);

  function answer(req: Request, raw: Buffer, record: RecordedBedrockRequest): Reply {
    const match = /^\/model\/([^/]+)\/(invoke|converse)$/.exec(record.path);
    if (!match) return error(404, 'UnknownOperationException', `Unknown operation ${req.method} ${record.path}`);
    if (req.method !== 'POST') return error(405, 'UnknownOperationException', `Method ${req.method} not allowed`);
    const scope = /^AWS4-HMAC-SHA256 Credential=[^/]+\/\d{8}\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=[^,]+, Signature=[0-9a-f]{64}$/.exec(String(req.headers.authorization ?? ''));
    if (!scope || !req.headers['x-amz-date']) return error(403, 'MissingAuthenticationTokenException', 'Missing Authentication Token');
    if (scope[2] !== 'bedrock') return error(403, 'InvalidSignatureException', "Credential should be scoped to correct service: 'bedrock'.");
    const contentSha = req.headers['x-amz-content-sha256'];
    if (contentSha && contentSha !== createHash('sha256').update(raw).digest('hex')) {
      return error(403, 'InvalidSignatureException', 'The request signature we calculated does not match the signature you provided.');
    }
    const modelId = decodeURIComponent(match[1]);
    record.modelId = modelId;
    record.region = scope[1];
    if (match[2] === 'converse') {
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(raw.toString('utf8'));
        if (!body || typeof body !== 'object' || Array.isArray(body)) throw new Error('not an object');
      } catch {
        return error(400, 'ValidationException', 'The request body is not a JSON object.');
      }
      record.body = body;
      return converseReply(modelId, scope[1], body);
    }
    if (!(STABILITY_MODELS as readonly string[]).includes(modelId) || !regions.includes(scope[1])) return error(400, 'ValidationException', 'The provided model identifier is invalid.');
    if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) return malformed('#: expected a JSON body (content-type application/json)');
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw.toString('utf8'));
      if (!body || typeof body !== 'object' || Array.isArray(body)) throw new Error('not an object');
    } catch {
      return malformed('#: expected type: JSONObject');
    }
    record.body = body;
    const extra = Object.keys(body).find((key) => !KEYS.has(key));
    if (extra) return malformed(`#: extraneous key [${extra}] is not permitted`);
    const { prompt, aspect_ratio: ratio = '1:1', output_format: format = 'png', seed = 0, mode } = body as Record<string, unknown>;
    if (typeof prompt !== 'string' || prompt.length < 1 || prompt.length > 10_000) return malformed('#/prompt: expected a string of 1 to 10000 characters');
    if (typeof ratio !== 'string' || !(ratio in FAKE_SIZES)) return malformed(`#/aspect_ratio: ${JSON.stringify(ratio)} is not a valid enum value`);
    if (typeof format !== 'string' || !FORMATS.includes(format)) return malformed(`#/output_format: ${JSON.stringify(format)} is not a valid enum value`);
    if (!Number.isInteger(seed) || (seed as number) < 0 || (seed as number) > 4294967294) return malformed('#/seed: expected an integer 0..4294967294');
    if (mode !== undefined && mode !== 'text-to-image') return malformed(`#/mode: ${JSON.stringify(mode)} needs an input image (not modelled by the fake)`);

    const marker = MARKERS.find((m) => prompt.includes(`[fake:${m}]`));
    if (marker === 'hang') return 'hang';
    if (marker === '429') return error(429, 'ThrottlingException', 'Too many requests, please wait before trying again.');
    if (marker === '500') return error(500, 'InternalServerException', 'The server encountered an internal error.');
    if (marker === 'content-filter') return { status: 200, body: { seeds: [seed], finish_reasons: ['Filter reason: prompt'], images: [] } };
    const [width, height] = FAKE_SIZES[ratio];
    const painting = paint(width, height, prompt, seedFrom('bedrock-fake', prompt, seed as number));
    const image = format === 'jpeg' ? jpegOf(width, height, painting.rgb) : encodePng(width, height, painting.rgb);
    record.imageBytes = image.length;
    const text = JSON.stringify({ seeds: [seed], finish_reasons: [null], images: [image.toString('base64')] });
    if (marker === 'malformed') return { status: 200, body: text.slice(0, Math.floor(text.length / 2)) };
    return { status: 200, body: text };
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    env: { BEDROCK_RUNTIME_ENDPOINT: url },
    requests,
    busyMs: () => busy,
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function awsError(res: Response, status: number, errorType: string, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'x-amzn-errortype': errorType, 'x-amzn-requestid': randomUUID() });
  res.end(JSON.stringify({ message }));
}

function jpegOf(width: number, height: number, rgb: Uint8Array): Buffer {
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0, j = 0; i < rgb.length; i += 3, j += 4) {
    rgba[j] = rgb[i];
    rgba[j + 1] = rgb[i + 1];
    rgba[j + 2] = rgb[i + 2];
    rgba[j + 3] = 255;
  }
  return Buffer.from(jpeg.encode({ data: rgba, width, height }, 90).data);
}
