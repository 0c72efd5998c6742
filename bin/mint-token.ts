/**
 * `npm run mint-token -- --buyer <id> --usd <amount> [--seller <id>] [--expires <seconds>] [--fund <usd>]`:
 * mint an agent-payment token on the running embedded default's local token issuer, to pay a generation endpoint
 * with it (PAYMENT-SIGNATURE: <token>).
 *
 * Reads the issuer's URL (`tokenIssuerUrl`) from $LOCAL_STATE_DIR/runtime.json (written by `npm start`) and asks
 * the issuer itself to mint (POST /mint, answered to loopback callers only), so the signing key never leaves the
 * issuer and this command needs no access to the state dir's secrets. `--fund` first credits the buyer's account
 * at the issuer (tokens are charged against it). The token alone goes to stdout; everything else to stderr.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { usdToBaseUnits } from '../lambdas/payments/token/claims.js';
import { runIfEntry } from '../lib/local/cli.js';

export class MintTokenError extends Error {
  override name = 'MintTokenError';
}

export interface MintArgs {
  buyer: string;
  usd: string;
  seller?: string;
  expiresInSeconds?: number;
  fund?: string;
}

const USAGE = 'Usage: npm run mint-token -- --buyer <id> --usd <amount> [--seller <id>] [--expires <seconds>] [--fund <usd>]';

function usd(flag: string, text: string): string {
  const amount = usdToBaseUnits(text);
  if (amount === undefined || amount === 0n) {
    throw new MintTokenError(`${flag} '${text}' is not a US dollar amount: use digits with up to 6 decimals, e.g. 0.50`);
  }
  return text;
}

export function parseMintArgs(argv: string[]): MintArgs {
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 2) {
    const flag = argv[i];
    if (!['--buyer', '--usd', '--seller', '--expires', '--fund'].includes(flag) || argv[i + 1] === undefined) {
      throw new MintTokenError(`Unexpected argument '${flag}'. ${USAGE}`);
    }
    values.set(flag, argv[i + 1]);
  }
  const buyer = values.get('--buyer');
  const amount = values.get('--usd');
  if (!buyer || !amount) throw new MintTokenError(USAGE);
  const args: MintArgs = { buyer, usd: usd('--usd', amount) };
  const seller = values.get('--seller');
  if (seller) args.seller = seller;
  const expires = values.get('--expires');
  if (expires !== undefined) {
    const seconds = Number(expires);
    if (!/^\d+$/.test(expires) || seconds < 10 || seconds > 86_400) {
      throw new MintTokenError(`--expires '${expires}' must be whole seconds from 10 to 86400`);
    }
    args.expiresInSeconds = seconds;
  }
  const fund = values.get('--fund');
  if (fund !== undefined) args.fund = usd('--fund', fund);
  return args;
}

async function issuerUrl(stateDir: string): Promise<string> {
  const file = path.join(stateDir, 'runtime.json');
  let info: { tokenIssuerUrl?: unknown };
  try {
    info = JSON.parse(await readFile(file, 'utf8')) as { tokenIssuerUrl?: unknown };
  } catch {
    throw new MintTokenError(`The local service is not running (no readable ${file}): start it with npm start`);
  }
  if (typeof info.tokenIssuerUrl !== 'string') throw new MintTokenError(`${file} has no tokenIssuerUrl: this runtime has no local token issuer`);
  const url = new URL(info.tokenIssuerUrl);
  if (url.hostname !== '127.0.0.1') throw new MintTokenError(`${file} names ${url.origin}, which is not a loopback issuer`);
  return url.origin;
}

async function post(base: string, route: string, body: unknown): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetch(`${base}${route}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    throw new MintTokenError(`The local token issuer is not running: nothing answers at ${base} (start it with npm start)`);
  }
  const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) throw new MintTokenError(`${route} refused (${response.status} ${String(answer.code ?? '')}): ${String(answer.message ?? '')}`);
  return answer;
}

export interface MintResult {
  token: string;
  /** The buyer's balance at the issuer, in USD. */
  balance: string;
  issuerUrl: string;
}

export async function mintFromState(stateDir: string, args: MintArgs): Promise<MintResult> {
  const base = await issuerUrl(stateDir);
  if (args.fund) await post(base, '/fund', { buyer: args.buyer, usd: args.fund });
  const answer = await post(base, '/mint', {
    buyer: args.buyer,
    usd: args.usd,
    sellerId: args.seller,
    expiresInSeconds: args.expiresInSeconds,
  });
  if (typeof answer.token !== 'string') throw new MintTokenError('/mint answered without a token');
  return { token: answer.token, balance: String(answer.balance), issuerUrl: base };
}

async function main(argv: string[]): Promise<void> {
  const args = parseMintArgs(argv);
  const result = await mintFromState(process.env.LOCAL_STATE_DIR || '.local', args);
  console.error(`Minted a ${args.usd} USD token for buyer ${args.buyer} (issuer ${result.issuerUrl}; buyer balance ${result.balance} USD)`);
  console.log(result.token);
}

await runIfEntry(import.meta.url, 'mint-token', main, MintTokenError);
