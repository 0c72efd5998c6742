/**
 * An S3-compatible endpoint on loopback for the embedded default: the functions' unchanged `@aws-sdk/client-s3`
 * asset store talks to it as to S3 (path-style), so the S3 path — and its IAM grants — run in every local test.
 *
 * It speaks the REST subset our functions use: PutObject (plain or `aws-chunked` bodies, as SDK v3 sends streams),
 * GetObject, HeadObject; errors as S3's XML (`NoSuchKey`, `NoSuchBucket`, 404 without a body on HEAD). Objects are
 * files under `<dir>/<bucket>/<key>` (the same layout the gateway's /assets/ route serves, as CloudFront serves
 * the bucket). Keys must follow the asset-key grammar (lambdas/store/file-assets.ts); S3 itself allows more.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { FileAssetStore, isValidAssetKey } from '../../lambdas/store/file-assets.js';
import { buffer } from 'node:stream/consumers';

export interface LocalS3 {
  url: string;
  /** Directory that holds a bucket's objects. */
  bucketDir(bucket: string): string;
  stop(): Promise<void>;
}

export async function startLocalS3(options: { dir: string; buckets: string[]; port?: number }): Promise<LocalS3> {
  const stores = new Map(options.buckets.map((bucket) => [bucket, new FileAssetStore(join(options.dir, bucket), 'http://unused')]));

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) s3Error(res, 500, 'InternalError', (error as Error).message, req.method === 'HEAD');
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://local');
    const [bucket = '', ...rest] = url.pathname.replace(/^\/+/, '').split('/');
    const key = rest.map(decodeURIComponent).join('/');
    const method = (req.method ?? 'GET').toUpperCase();
    const head = method === 'HEAD';
    const store = stores.get(decodeURIComponent(bucket));
    if (!store) return s3Error(res, 404, 'NoSuchBucket', 'The specified bucket does not exist', head);
    if (!key || !isValidAssetKey(key)) return s3Error(res, 400, 'InvalidArgument', 'Unsupported object key for the local S3 endpoint', head);

    if (method === 'PUT') {
      const body = decodeBody(req, await buffer(req));
      await store.put(key, body, req.headers['content-type'] ?? 'application/octet-stream');
      res.writeHead(200, { ETag: etag(body), 'x-amz-request-id': 'local' }).end();
      return;
    }
    if (method === 'GET' || head) {
      const object = await store.get(key);
      if (!object) return s3Error(res, 404, 'NoSuchKey', 'The specified key does not exist.', head);
      res.writeHead(200, {
        'Content-Type': object.contentType,
        'Content-Length': String(object.body.byteLength),
        ETag: etag(object.body),
        'x-amz-request-id': 'local',
      });
      res.end(head ? undefined : Buffer.from(object.body));
      return;
    }
    s3Error(res, 501, 'NotImplemented', `${method} is not implemented by the local S3 endpoint`, head);
  }

  // Node closes an idle keep-alive connection after 5 s; a client reusing it at that moment reads ECONNRESET. S3 keeps
  // idle connections far longer, so a render task that waits a few seconds between two S3 calls never sees that there.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bucketDir: (bucket) => join(options.dir, bucket),
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * SDK v3 sends a stream of unknown length as `Content-Encoding: aws-chunked`: `<hex size>[;chunk-signature=…]\r\n
 * <data>\r\n` … `0\r\n` then trailer headers (the checksum). Anything else is the body as sent.
 */
function decodeBody(req: IncomingMessage, raw: Buffer): Buffer {
  const encoding = String(req.headers['content-encoding'] ?? '');
  const sha = String(req.headers['x-amz-content-sha256'] ?? '');
  if (!encoding.includes('aws-chunked') && !sha.startsWith('STREAMING-')) return raw;
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = raw.indexOf('\r\n', at);
    if (lineEnd < 0) throw new Error('malformed aws-chunked body');
    const size = parseInt(raw.subarray(at, lineEnd).toString('latin1').split(';')[0], 16);
    if (!Number.isFinite(size)) throw new Error('malformed aws-chunked chunk size');
    at = lineEnd + 2;
    if (size === 0) return Buffer.concat(parts);
    parts.push(raw.subarray(at, at + size));
    at += size + 2;
  }
}

function etag(body: Uint8Array): string {
  return `"${createHash('md5').update(body).digest('hex')}"`;
}

function s3Error(res: ServerResponse, status: number, code: string, message: string, head: boolean): void {
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>local</RequestId></Error>`;
  res.writeHead(status, { 'Content-Type': 'application/xml', 'x-amz-request-id': 'local', ...(head ? {} : { 'Content-Length': String(Buffer.byteLength(xml)) }) });
  res.end(head ? undefined : xml);
}
