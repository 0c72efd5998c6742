/**
 * The embedded default's agent-payment token issuer: a small stand-in for a third-party issuer (Skyfire-style
 * pay tokens, see lambdas/payments/token/claims.ts) on loopback, configured into the service through the same
 * TOKEN_* variables as the real issuer on AWS (`env` below).
 *
 *   GET  /.well-known/jwks.json   the ES256 public key, with its kid
 *   POST /charge                  seller API key in `skyfire-api-key`; { token, chargeAmount } → { chargeId, … }
 *                                 or 4xx { code, message }: invalid_token (401), unauthorized (401),
 *                                 charge_exceeds_token (402), insufficient_balance (402), token_already_charged (409)
 *   POST /mint, /fund, GET /balance   local tooling (npm run mint-token); loopback callers only
 *
 * State under <stateDir>/token-issuer/ (all mode 0600): signing-key.json (ES256 private JWK, made once),
 * seller.key (the seller API key, made once) and ledger.json (buyer balances in base units and the token ids
 * already charged, written atomically). Buyers are debited at charge time, not at mint time, so a token can be
 * minted for a buyer who cannot cover it; each token id can be charged once.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { base64url, calculateJwkThumbprint, createLocalJWKSet, exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import { baseUnitsToUsd, usdToBaseUnits } from '../../lambdas/payments/token/claims.js';
import { SELLER_KEY_HEADER } from '../../lambdas/payments/token/charge.js';
import { TOKEN_ENV } from '../../lambdas/payments/token/config.js';
import { TokenVerifier } from '../../lambdas/payments/token/verify.js';

export const LOCAL_TOKEN_ISSUER = 'urn:paycall:local-token-issuer';
export const LOCAL_SELLER_ID = 'paycall-local-seller';

export interface MintOptions {
  buyer: string;
  amountBaseUnits: bigint;
  sellerId?: string;
  audience?: string;
  /** Default 300; negative mints an expired token. */
  expiresInSeconds?: number;
  typ?: string;
  /** ES256 signs with the issuer's key; HS256 (keyed with the public JWK) and none exist to be refused. */
  alg?: 'ES256' | 'HS256' | 'none';
  tokenId?: string;
  issuer?: string;
}

export interface LocalTokenIssuer {
  issuer: string;
  url: string;
  port: number;
  jwksUrl: string;
  chargeUrl: string;
  sellerId: string;
  sellerKeyFile: string;
  /** The TOKEN_* variables that point the service at this issuer. */
  env: Record<string, string>;
  mint(options: MintOptions): Promise<string>;
  fundBuyer(buyer: string, amountBaseUnits: bigint): Promise<bigint>;
  balanceOf(buyer: string): bigint;
  stop(): Promise<void>;
}

type LedgerData = { version: 1; balances: Record<string, string>; charges: Record<string, { chargeId: string; buyer: string; amount: string; at: string }> };

class HttpError extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message);
  }
}

async function writeSecret(file: string, content: string): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, content, { mode: 0o600 });
  await chmod(tmp, 0o600);
  await rename(tmp, file); // atomic: a crash leaves the old file or the new one, never half of one
}

async function readJson<T>(file: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`Cannot read ${file}: ${(error as Error).message}`);
  }
}

async function signingKey(dir: string): Promise<{ kid: string; privateJwk: JWK; publicJwk: JWK }> {
  const file = path.join(dir, 'signing-key.json');
  let stored = await readJson<{ privateJwk: JWK }>(file);
  if (!stored) {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    stored = { privateJwk: await exportJWK(privateKey) };
    await writeSecret(file, `${JSON.stringify(stored)}\n`);
  }
  const { d: _private, ...publicPart } = stored.privateJwk;
  const kid = await calculateJwkThumbprint(publicPart);
  return { kid, privateJwk: stored.privateJwk, publicJwk: { ...publicPart, kid, alg: 'ES256', use: 'sig' } };
}

async function sellerKey(dir: string): Promise<string> {
  const file = path.join(dir, 'seller.key');
  const existing = (await readFile(file, 'utf8').catch(() => '')).trim();
  if (existing) return existing;
  const key = randomBytes(32).toString('hex');
  await writeSecret(file, `${key}\n`);
  return key;
}

/** Balances and charged token ids; every change is serialised and persisted before it is acknowledged. */
class Ledger {
  private queue: Promise<unknown> = Promise.resolve();
  private constructor(private readonly file: string, private data: LedgerData) {}

  static async open(file: string): Promise<Ledger> {
    return new Ledger(file, (await readJson<LedgerData>(file)) ?? { version: 1, balances: {}, charges: {} });
  }

  balanceOf(buyer: string): bigint {
    return BigInt(this.data.balances[buyer] ?? '0');
  }

  fund(buyer: string, amount: bigint): Promise<bigint> {
    if (amount <= 0n) return Promise.reject(new Error('fund amount must be positive'));
    return this.change((next) => {
      next.balances[buyer] = String(this.balanceOf(buyer) + amount);
      return BigInt(next.balances[buyer]);
    });
  }

  charge(tokenId: string, buyer: string, amount: bigint): Promise<{ chargeId: string; balance: bigint }> {
    return this.change((next) => {
      const earlier = next.charges[tokenId];
      if (earlier) throw new HttpError(409, 'token_already_charged', `token ${tokenId} was already charged (${earlier.chargeId})`);
      const balance = this.balanceOf(buyer);
      if (balance < amount) {
        throw new HttpError(402, 'insufficient_balance', `buyer ${buyer} holds ${baseUnitsToUsd(balance)} USD, the charge is ${baseUnitsToUsd(amount)} USD`);
      }
      const chargeId = `ch_${randomUUID()}`;
      next.balances[buyer] = String(balance - amount);
      next.charges[tokenId] = { chargeId, buyer, amount: String(amount), at: new Date().toISOString() };
      return { chargeId, balance: balance - amount };
    });
  }

  private change<T>(apply: (next: LedgerData) => T): Promise<T> {
    const run = async () => {
      const next = structuredClone(this.data);
      const result = apply(next);
      await writeSecret(this.file, `${JSON.stringify(next, null, 2)}\n`);
      this.data = next;
      return result;
    };
    const pending = this.queue.then(run, run);
    this.queue = pending.catch(() => undefined);
    return pending;
  }
}

export async function startLocalTokenIssuer(options: { port?: number; stateDir: string; sellerId?: string }): Promise<LocalTokenIssuer> {
  const dir = path.join(options.stateDir, 'token-issuer');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const sellerId = options.sellerId ?? LOCAL_SELLER_ID;
  const sellerKeyFile = path.join(dir, 'seller.key');
  const [key, apiKey, ledger] = await Promise.all([signingKey(dir), sellerKey(dir), Ledger.open(path.join(dir, 'ledger.json'))]);
  const privateKey = await importJWK(key.privateJwk, 'ES256');
  const jwks = { keys: [key.publicJwk] };
  const verifier = new TokenVerifier({ config: { issuer: LOCAL_TOKEN_ISSUER, sellerId }, keySet: createLocalJWKSet(jwks) });
  const apiKeyDigest = createHash('sha256').update(apiKey).digest();

  const mint = async (o: MintOptions): Promise<string> => {
    const now = Math.floor(Date.now() / 1000);
    const exp = now + (o.expiresInSeconds ?? 300);
    const typ = o.typ ?? 'pay+jwt';
    const claims = {
      iss: o.issuer ?? LOCAL_TOKEN_ISSUER,
      sub: o.buyer,
      aud: o.audience ?? o.sellerId ?? sellerId,
      ssi: o.sellerId ?? sellerId,
      jti: o.tokenId ?? randomUUID(),
      iat: Math.min(now, exp - 60),
      exp,
      env: 'local',
      ver: '1',
      amount: baseUnitsToUsd(o.amountBaseUnits),
      cur: 'USD',
      value: String(o.amountBaseUnits),
    };
    if (o.alg === 'none') {
      const part = (value: object) => base64url.encode(JSON.stringify(value));
      return `${part({ alg: 'none', typ })}.${part(claims)}.`;
    }
    if (o.alg === 'HS256') {
      const secret = new TextEncoder().encode(JSON.stringify(key.publicJwk));
      return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', kid: key.kid, typ }).sign(secret);
    }
    return new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid: key.kid, typ }).sign(privateKey);
  };

  const charge = async (req: http.IncomingMessage, body: Record<string, unknown>) => {
    const presented = req.headers[SELLER_KEY_HEADER];
    const digest = createHash('sha256').update(typeof presented === 'string' ? presented : '').digest();
    if (!timingSafeEqual(digest, apiKeyDigest)) throw new HttpError(401, 'unauthorized', `missing or wrong seller API key in ${SELLER_KEY_HEADER}`);
    const amount = typeof body.chargeAmount === 'string' ? usdToBaseUnits(body.chargeAmount) : undefined;
    if (typeof body.token !== 'string' || amount === undefined || amount === 0n) {
      throw new HttpError(400, 'bad_request', 'body must be { token, chargeAmount } with chargeAmount a positive USD decimal string');
    }
    const verified = await verifier.verify(body.token, { amount: 0n });
    if (!verified.ok) throw new HttpError(401, 'invalid_token', verified.reason);
    const { payment } = verified;
    if (amount > payment.tokenAmount) {
      throw new HttpError(402, 'charge_exceeds_token', `charge ${baseUnitsToUsd(amount)} USD exceeds the token amount ${baseUnitsToUsd(payment.tokenAmount)} USD`);
    }
    const { chargeId } = await ledger.charge(payment.tokenId, payment.payer, amount);
    return { chargeId, tokenId: payment.tokenId, amountCharged: baseUnitsToUsd(amount) };
  };

  const tooling = (req: http.IncomingMessage) => {
    // The whole loopback range (127.0.0.0/8, ::1) is this machine.
    const from = (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
    if (!(from === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(from))) {
      throw new HttpError(403, 'forbidden', 'local tooling answers loopback callers only');
    }
  };
  const buyerOf = (value: unknown): string => {
    if (typeof value === 'string' && /^[\x21-\x7e]{1,256}$/.test(value)) return value;
    throw new HttpError(400, 'bad_request', 'buyer must be a non-empty printable string');
  };
  const usdOf = (value: unknown): bigint => {
    const amount = typeof value === 'string' ? usdToBaseUnits(value) : undefined;
    if (amount === undefined || amount === 0n) throw new HttpError(400, 'bad_request', 'usd must be a positive decimal string, e.g. "1.50"');
    return amount;
  };
  const balanceBody = (buyer: string) => ({ buyer, balance: baseUnitsToUsd(ledger.balanceOf(buyer)), balanceBaseUnits: String(ledger.balanceOf(buyer)) });

  const route = async (req: http.IncomingMessage, url: URL): Promise<unknown> => {
    const key = `${req.method} ${url.pathname}`;
    if (key === 'GET /.well-known/jwks.json') return jwks;
    if (key === 'GET /balance') return (tooling(req), balanceBody(buyerOf(url.searchParams.get('buyer'))));
    if (req.method !== 'POST' || !['/charge', '/mint', '/fund'].includes(url.pathname)) throw new HttpError(404, 'not_found', `no route ${key}`);
    const body = await readJsonBody(req);
    if (url.pathname === '/charge') return charge(req, body);
    tooling(req);
    const buyer = buyerOf(body.buyer);
    if (url.pathname === '/fund') return (await ledger.fund(buyer, usdOf(body.usd)), balanceBody(buyer));
    const expires = body.expiresInSeconds === undefined ? undefined : Number(body.expiresInSeconds);
    if (expires !== undefined && (!Number.isInteger(expires) || expires < 10 || expires > 86_400)) {
      throw new HttpError(400, 'bad_request', 'expiresInSeconds must be an integer from 10 to 86400');
    }
    const sellerOverride = typeof body.sellerId === 'string' && body.sellerId ? body.sellerId : undefined;
    const token = await mint({ buyer, amountBaseUnits: usdOf(body.usd), sellerId: sellerOverride, expiresInSeconds: expires });
    return { token, ...balanceBody(buyer) };
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    route(req, url).then(
      (body) => send(res, 200, body),
      (error: unknown) =>
        error instanceof HttpError
          ? send(res, error.status, { code: error.code, message: error.message })
          : send(res, 500, { code: 'internal_error', message: 'the local token issuer failed' }),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => (server.off('error', reject), resolve()));
  }).catch((error: NodeJS.ErrnoException) => {
    throw new Error(`Cannot serve the local token issuer on 127.0.0.1:${options.port ?? 0}: ${error.code ?? error.message}`);
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  const [jwksUrl, chargeUrl] = [`${url}/.well-known/jwks.json`, `${url}/charge`];
  let stopped: Promise<void> | undefined;
  return {
    ...{ issuer: LOCAL_TOKEN_ISSUER, url, port, jwksUrl, chargeUrl, sellerId, sellerKeyFile },
    env: {
      [TOKEN_ENV.issuer]: LOCAL_TOKEN_ISSUER,
      [TOKEN_ENV.jwksUrl]: jwksUrl,
      [TOKEN_ENV.chargeUrl]: chargeUrl,
      [TOKEN_ENV.sellerId]: sellerId,
      [TOKEN_ENV.sellerKeyFile]: sellerKeyFile,
    },
    mint,
    fundBuyer: (buyer, amount) => ledger.fund(buyer, amount),
    balanceOf: (buyer) => ledger.balanceOf(buyer),
    stop: () =>
      (stopped ??= new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      })),
  };
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) }).end(text);
}

function readJsonBody(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > 64 * 1024) {
        reject(new HttpError(413, 'too_large', 'request body over 64 KiB'));
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        parsed = undefined;
      }
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) resolve(parsed as Record<string, unknown>);
      else reject(new HttpError(400, 'bad_request', 'body must be a JSON object'));
    });
    req.on('error', reject);
  });
}
