/**
 * Serving a discovery document: built once per (base URL, variant) and kept at module scope, a strong ETag over
 * the exact bytes, `Cache-Control: public, max-age=300`, and 304 on a matching If-None-Match. The documents are
 * pure functions of the catalog, the configuration and the base URL, so a cached copy is never stale within one
 * deployment (a catalog change is a redeploy).
 */
import { logger } from '../../shared/logger.js';
import { createHash } from 'node:crypto';
import middy from '@middy/core';
import { documentFrame } from '../../middleware/document-frame.js';
import { GENERATION, type Surface } from '../../surfaces/surface.js';
import { baseUrl, header, type HttpEvent, type HttpResult } from '../../shared/http.js';
import { discoveryContext, type DiscoveryContext } from './context.js';
import { checkAtColdStart, httpConfig, paymentConfig } from '../../shared/config.js';

export const CACHE_CONTROL = 'public, max-age=300';

/**
 * The base URL comes from the Host header when PUBLIC_BASE_URL is not configured, and any client can send any
 * host: bound the cache so such requests cannot grow it without limit.
 */
export const MAX_CACHED_DOCUMENTS = 32;

export interface Document {
  body: string;
  contentType: string;
}

export interface CachedDocument extends Document {
  etag: string;
}

export function jsonDocument(value: unknown): Document {
  return { body: `${JSON.stringify(value, null, 2)}\n`, contentType: 'application/json' };
}

export function textDocument(text: string): Document {
  return { body: text, contentType: 'text/plain; charset=utf-8' };
}

export function etagOf(body: string): string {
  return `"${createHash('sha256').update(body, 'utf8').digest('base64url').slice(0, 32)}"`;
}

export class DocumentCache {
  private readonly entries = new Map<string, CachedDocument>();
  constructor(private readonly limit = MAX_CACHED_DOCUMENTS) {}

  get(key: string, build: () => Document): CachedDocument {
    const hit = this.entries.get(key);
    if (hit) return hit;
    const document = build();
    const cached = { ...document, etag: etagOf(document.body) };
    if (this.entries.size >= this.limit) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, cached);
    return cached;
  }

  get size(): number {
    return this.entries.size;
  }
}

/** RFC 9110 If-None-Match: a list of entity tags (weak comparison) or `*`. */
export function matchesIfNoneMatch(value: string | undefined, etag: string): boolean {
  if (value === undefined) return false;
  const strip = (tag: string) => tag.trim().replace(/^W\//, '');
  return value.split(',').some((tag) => tag.trim() === '*' || strip(tag) === strip(etag));
}

export function documentResponse(event: HttpEvent, document: CachedDocument): HttpResult {
  // No CORS header here: both APIs answer CORS for every route (lib/cors.ts), and API Gateway ignores an integration's.
  const headers = { ETag: document.etag, 'Cache-Control': CACHE_CONTROL };
  if (matchesIfNoneMatch(header(event, 'if-none-match'), document.etag)) {
    return { statusCode: 304, headers, body: '' };
  }
  return { statusCode: 200, headers: { ...headers, 'Content-Type': document.contentType }, body: document.body };
}

export interface DocumentEntryOptions {
  /** Distinguishes documents served by one entry (a product id, a path); part of the cache key. */
  variant?: (event: HttpEvent) => string;
  /** An answer other than the document (e.g. 404 for an unknown id); never cached. */
  reject?: (variant: string, ctx: DiscoveryContext) => HttpResult | undefined;
  build: (ctx: DiscoveryContext, variant: string) => Document;
  /** The surface the document is served on (its base URL and error frame); the generation surface by default. */
  surface?: Surface;
  /** Extra headers of a served document (e.g. Content-Disposition for a download). */
  headers?: (variant: string) => Record<string, string>;
  /**
   * The offer-signing address, for the documents that publish it (read through the function's grant, which only
   * those documents' functions have): undefined for a variant that does not.
   */
  offerSigner?: (variant: string) => Promise<string> | undefined;
}

/** The offer-signing address, or undefined (logged) when the key cannot be read: the document goes out without it. */
async function readSigner(pending: Promise<string> | undefined): Promise<string | undefined> {
  try {
    return await pending;
  } catch (error) {
    logger.error('offer-signing key not read: the index goes out without offerReceipt', { error: (error as Error).message });
    return undefined;
  }
}

/** The Middy chain of a document route: version ▸ errors ▸ the cached document. */
export function documentEntry(options: DocumentEntryOptions) {
  // Configuration is checked at cold start (documents publish the payment terms).
  checkAtColdStart(paymentConfig, httpConfig);
  const cache = new DocumentCache();
  const surface = options.surface ?? GENERATION;
  return middy<HttpEvent, HttpResult>()
    .use(documentFrame(surface))
    .handler(async (event) => {
      const base = baseUrl(event, surface);
      const variant = options.variant?.(event) ?? '';
      const signer = await readSigner(options.offerSigner?.(variant));
      const ctx = { ...discoveryContext(base), ...(signer ? { offerSigner: signer } : {}) };
      const rejected = options.reject?.(variant, ctx);
      if (rejected) return rejected;
      const document = cache.get(`${base}\n${variant}\n${signer ?? ''}`, () => options.build(ctx, variant));
      const answer = documentResponse(event, document);
      return options.headers ? { ...answer, headers: { ...answer.headers, ...options.headers(variant) } } : answer;
    });
}
