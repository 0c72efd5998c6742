/**
 * The embedded default's dev wallet, for the playground page: the gateway of each surface answers
 * `GET /_local/dev-wallet` with the funded dev buyers' addresses and `POST /_local/dev-wallet/sign` with an EIP-712
 * signature by one of them. The keys stay in this process (the page never sees them), and only on loopback: the
 * deployed stack has no such route, so there the page offers the browser wallet alone.
 *
 * It signs for whatever page asks, so it answers only requests that a page on another origin cannot make: a Host on
 * loopback (no DNS rebinding), no foreign Origin, and a JSON body (a cross-origin JSON POST needs a CORS preflight,
 * which is never granted).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { privateKeyToAccount } from 'viem/accounts';
import type { Hex } from 'viem';
import { DEV_WALLET_PATH } from '../../lambdas/playground/page.js';

export interface DevBuyer {
  address: string;
  privateKey: string;
}

const MAX_BODY = 64 * 1024;
const LOOPBACK_HOST = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?$/;

/** The gateway hook: true when it answered the request (a dev wallet path), false to let the routes have it. */
export function devWallet(buyers: () => DevBuyer[]) {
  return async (req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean> => {
    if (pathname !== DEV_WALLET_PATH && pathname !== `${DEV_WALLET_PATH}/sign`) return false;
    const answer = (status: number, body: unknown) => {
      const text = JSON.stringify(body);
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', 'content-length': String(Buffer.byteLength(text)) });
      res.end(text);
    };
    const host = req.headers.host ?? '';
    const origin = req.headers.origin;
    if (!LOOPBACK_HOST.test(host) || (origin !== undefined && origin !== `http://${host}`)) {
      req.resume();
      answer(403, { message: 'The dev wallet answers pages of this service on loopback only' });
      return true;
    }
    if (req.method === 'GET' && pathname === DEV_WALLET_PATH) {
      answer(200, { accounts: buyers().map((buyer) => buyer.address) });
      return true;
    }
    if (req.method !== 'POST' || pathname !== `${DEV_WALLET_PATH}/sign`) {
      req.resume();
      answer(405, { message: 'Method Not Allowed' });
      return true;
    }
    if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
      req.resume();
      answer(415, { message: 'Send the typed data as application/json' });
      return true;
    }
    let request: { address?: string; typedData?: { domain?: any; types?: Record<string, unknown>; primaryType?: string; message?: any } };
    try {
      request = JSON.parse(await readLimited(req));
    } catch {
      answer(400, { message: 'The body is not JSON of at most 64 KiB' });
      return true;
    }
    const buyer = buyers().find((candidate) => candidate.address.toLowerCase() === String(request.address ?? '').toLowerCase());
    if (!buyer) {
      answer(404, { message: 'No dev buyer has that address' });
      return true;
    }
    const typed = request.typedData;
    if (!typed?.types || !typed.primaryType || !typed.domain || !typed.message) {
      answer(400, { message: 'typedData needs domain, types, primaryType and message' });
      return true;
    }
    const { EIP712Domain: _domain, ...types } = typed.types;
    try {
      // The typed data is whatever the page asks to sign, checked by viem against its own `types`.
      const definition = { domain: typed.domain, types, primaryType: typed.primaryType, message: typed.message } as Parameters<
        ReturnType<typeof privateKeyToAccount>['signTypedData']
      >[0];
      const signature = await privateKeyToAccount(buyer.privateKey as Hex).signTypedData(definition);
      answer(200, { signature });
    } catch (error) {
      answer(400, { message: `Cannot sign that typed data: ${(error as Error).message.split('\n')[0]}` });
    }
    return true;
  };
}

function readLimited(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) return reject(new Error('too large'));
      chunks.push(chunk);
    });
    req.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.once('error', reject);
  });
}
