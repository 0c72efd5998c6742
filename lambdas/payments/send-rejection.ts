/**
 * What a failed `eth_sendRawTransaction` means for the money (docs/decisions/0005, "Rejections").
 *
 * A node that answers the broadcast with an error has either refused the transaction (it never entered the mempool,
 * so the nonce is still free and nothing can move through it) or failed in a way that proves nothing. Only a refusal
 * the node states is definitive; everything else — a time-out, a reset connection, a 5xx from a load balancer, an
 * error we do not recognise — is ambiguous: the transaction may have reached a node, and the payment stays "maybe
 * sent" (the unknown-outcome path, reconciled against the chain).
 *
 * Definitive, by the node's answer:
 * - `rate-limited`: HTTP 429, JSON-RPC -32005 / 429, "rate limit", "too many requests", "limit exceeded" (the
 *   provider refused the request before handling it) → back-pressure, retry after 1 s.
 * - `nonce`: "nonce too low", "nonce too high", "nonce … lower than the current nonce" (EDR), "replacement transaction
 *   underpriced" (another transaction holds the nonce) → retry after 1 s; the next send reads the nonce again.
 * - `funds`: "insufficient funds" (the key cannot pay the gas) → unavailable (503); the key's balance is read again.
 * - `invalid`: invalid sender / signature / chain id, intrinsic gas too low, fee cap below the base fee,
 *   "transaction underpriced", exceeds block gas limit, fee above the node's cap → unavailable (503).
 *
 * Not a refusal: "already known" (the node has this very transaction: it was sent).
 *
 * Even a stated refusal is believed only after the node says it does not know our transaction's hash (the caller
 * asks `eth_getTransactionByHash`): the transport may have sent the request twice (rpc-fetch.ts resends on a reused
 * connection the server had closed), and the first copy may have entered the pool before the second was refused.
 */
import { BaseError, HttpRequestError } from 'viem';

export type Rejection = 'rate-limited' | 'nonce' | 'funds' | 'invalid';
export type SendFailure = { kind: 'rejected'; rejection: Rejection } | { kind: 'known' } | { kind: 'ambiguous' };

const PATTERNS: [Rejection, RegExp][] = [
  ['rate-limited', /rate.?limit|too many requests|limit exceeded|exceeded .*(?:quota|capacity|compute units)/i],
  ['nonce', /nonce too (?:low|high)|nonce (?:provided for the transaction )?is (?:lower|higher) than|nonce has already been used|invalid nonce|replacement transaction underpriced/i],
  ['funds', /insufficient funds/i],
  [
    'invalid',
    /invalid (?:sender|signature|chain ?id)|intrinsic gas too low|exceeds block gas limit|fee cap less than block base fee|max fee per gas less than block base fee|^transaction underpriced|\btransaction underpriced|exceeds the configured cap|oversized data/i,
  ],
];

/** Classifies the error of one broadcast (before the hash lookup). */
export function classifySendFailure(error: unknown): SendFailure {
  const texts: string[] = [];
  let status: number | undefined;
  let code: number | undefined;
  const visit = (e: unknown) => {
    if (!e || typeof e !== 'object') return;
    const x = e as { message?: unknown; details?: unknown; shortMessage?: unknown; status?: unknown; code?: unknown };
    for (const t of [x.message, x.details, x.shortMessage]) if (typeof t === 'string') texts.push(t);
    if (e instanceof HttpRequestError && typeof x.status === 'number') status = x.status;
    if (typeof x.code === 'number' && code === undefined) code = x.code;
  };
  if (error instanceof BaseError) {
    error.walk((e) => {
      visit(e);
      return false;
    });
  } else visit(error);
  // A time-out or an abort never states a refusal, whatever its message quotes.
  if (texts.some((t) => /timed? ?out|aborted|AbortError|TimeoutError/i.test(t))) return { kind: 'ambiguous' };
  const text = texts.join('\n');
  if (/already known|known transaction|already imported/i.test(text)) return { kind: 'known' };
  if (status === 429 || code === 429 || code === -32005) return { kind: 'rejected', rejection: 'rate-limited' };
  // Another HTTP failure (a 5xx or a 4xx without a JSON-RPC error) may come from a proxy after the node took it.
  if (status !== undefined) return { kind: 'ambiguous' };
  for (const [rejection, pattern] of PATTERNS) if (pattern.test(text)) return { kind: 'rejected', rejection };
  return { kind: 'ambiguous' };
}
