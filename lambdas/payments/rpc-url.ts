/**
 * Where the RPC URL comes from (docs/deploy.md, runbook step 9). A provider's URL usually carries its API key (in the path, the query
 * or a subdomain), so a deployment keeps it in Secrets Manager: the stack's `rpcUrlSecretName` gives the functions
 * RPC_URL_SECRET_ID (a name, never the URL) and GetSecretValue on that secret, and `paymentConfig().rpcUrl` is then a
 * reference to it, `secretsmanager:<secret id>` (lambdas/shared/config.ts RPC_URL_SECRET_PREFIX). Without it, RPC_URL
 * is the URL itself (a public endpoint, which carries no key).
 *
 * Why a reference rather than the URL: the configuration is read synchronously at cold start, and a dozen call
 * sites hand an `rpcUrl` string on to the code that sends. They keep doing so, unchanged; only the two places that
 * send a request — the viem transport of chain-client.ts and reconcile.ts `rpcRequest` — go through `sendToRpc`,
 * which resolves the reference on the first request and then from loadSecret's per-process cache.
 *
 * The secret's SecretString is the URL, or JSON with the URL in its `url` member. The URL is never in a message:
 * loadSecret's errors name the secret, viem's errors quote the reference (all it was given), and a failed request to
 * the resolved URL is re-thrown with every part of the URL that could hold a key replaced by the reference.
 */
import { RPC_URL_SECRET_PREFIX } from '../shared/config.js';
import { loadSecret } from '../shared/secrets.js';

/** The secret id an `rpcUrl` refers to, or undefined when it is a URL itself. */
export function rpcUrlSecretId(rpcUrl: string): string | undefined {
  return rpcUrl.startsWith(RPC_URL_SECRET_PREFIX) ? decodeURIComponent(rpcUrl.slice(RPC_URL_SECRET_PREFIX.length)) : undefined;
}

export class RpcUrlError extends Error {
  override name = 'RpcUrlError';
}

function parseRpcUrl(raw: string, where: string): string {
  const url = raw.trim();
  // The value is the secret: the message says what is wrong with it, never what it is.
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) throw new RpcUrlError(`The RPC URL in ${where} is not an http(s) URL`);
  return url;
}

/** The URL `rpcUrl` stands for: itself, or the secret's value (read once per process; a failed read is retried). */
export function resolveRpcUrl(rpcUrl: string): Promise<string> {
  const secretId = rpcUrlSecretId(rpcUrl);
  if (secretId === undefined) return Promise.resolve(rpcUrl);
  return loadSecret({ secretId }, { describe: 'RPC URL', parse: parseRpcUrl, jsonMember: 'url', error: RpcUrlError });
}

/**
 * `send` to the URL `rpcUrl` stands for. A URL is used as it is; a reference is resolved, and what `send` throws has
 * the URL's parts replaced by the reference — unless `signal` aborted it (the abort reason is the caller's own error).
 */
export async function sendToRpc<T>(rpcUrl: string, send: (url: string) => Promise<T>, signal?: AbortSignal | null): Promise<T> {
  if (rpcUrlSecretId(rpcUrl) === undefined) return send(rpcUrl);
  const url = await resolveRpcUrl(rpcUrl);
  try {
    return await send(url);
  } catch (error) {
    if (signal?.aborted) throw error;
    throw withoutUrl(error, url, rpcUrl);
  }
}

/**
 * `error` with every part of `url` that may hold a key (the whole URL, its host, its path and query, its user and
 * password) replaced by `reference` in its message and its causes' (a DNS error names the host). An error that quotes
 * none of them is returned as it is; one that does is replaced by a plain Error keeping its name, message and code.
 */
export function withoutUrl(error: unknown, url: string, reference: string): unknown {
  const { href, host, hostname, pathname, search, username, password } = new URL(url);
  const parts = [url, href, `${pathname}${search}`, pathname, search, host, hostname, username, password, decodeURIComponent(username), decodeURIComponent(password)]
    .filter((part) => part.length > 1 && part !== '/')
    .sort((a, b) => b.length - a.length);
  const hide = (text: string) => parts.reduce((out, part) => out.split(part).join(reference), text);
  const quotes = (e: unknown): boolean =>
    typeof e === 'string' ? hide(e) !== e : e instanceof Error && (hide(e.message) !== e.message || quotes(e.cause));
  const rebuild = (e: unknown): unknown => {
    if (typeof e === 'string') return hide(e);
    if (!(e instanceof Error)) return e;
    const clean = new Error(hide(e.message), e.cause === undefined ? undefined : { cause: rebuild(e.cause) });
    clean.name = e.name;
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' || typeof code === 'number') Object.assign(clean, { code });
    return clean;
  };
  return quotes(error) ? rebuild(error) : error;
}
