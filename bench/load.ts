/**
 * Paid-request load driver for the side-by-side comparison: the paying client is the unmodified official x402 client
 * (`@x402/fetch` + `ExactEvmScheme` + a viem local account), one fresh buyer per lane, so every lane signs its own
 * EIP-3009 authorizations. Measures sequential paid latency and, at a given concurrency, paid throughput, p50/p99 and
 * the non-2xx count. Settlement is checked on chain: USDC Transfer logs to payTo and payTo's balance delta.
 *
 * The official client always sends an unpaid probe first (402) and then the paid request, so every paid request is
 * two HTTP requests; latency here is that whole exchange, as a buyer sees it. Our service limits unpaid probes per
 * client address (20 per 60 s), so each lane talks from its own loopback source addresses (127.0.0.0/8 all reaches a
 * server on 127.0.0.1) and moves to a fresh one every few requests; the reference gets the identical client.
 */
import { Agent } from 'undici';
import { wrapFetchWithPaymentFromConfig } from '@x402/fetch';
import { ExactEvmScheme } from '@x402/evm';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createPublicClient, http, parseAbi, type Address, type Hex } from 'viem';

/** `paidSentAt`: when its last paid request (the one carrying PAYMENT-SIGNATURE) left, epoch ms. */
export type PayingFetch = ((input: string, init?: RequestInit) => Promise<Response>) & { readonly paidSentAt?: number };

/** Epoch ms with sub-ms precision: the bench lines these up with the server's and the chain's marks (same clock). */
export const epochMs = (): number => performance.timeOrigin + performance.now();

/**
 * One paid request: HTTP status (0 = the client threw) and wall time of the whole probe + pay exchange; when the paid
 * request left and its answer was read (epoch ms), and the transaction its PAYMENT-RESPONSE names.
 */
export interface Outcome {
  status: number;
  ms: number;
  error?: string;
  paidSentAt?: number;
  answeredAt?: number;
  transaction?: string;
}

/** Loopback source addresses, one set per lane, rotated every `perAddress` underlying requests. */
export class SourceAddresses {
  private readonly agents: Agent[] = [];
  constructor(private readonly block: number) {}

  /** Calls made so far by each lane, across every fetch made for it (so a lane never comes back to an address early). */
  private readonly calls = new Map<number, { calls: number; agent?: Agent }>();

  /** A fetch for lane `lane` whose source address changes every `perAddress` calls of that lane. */
  fetchFor(lane: number, perAddress = 16): typeof fetch {
    let state = this.calls.get(lane);
    if (!state) this.calls.set(lane, (state = { calls: 0 }));
    const own = state;
    return ((input: RequestInfo | URL, init?: RequestInit) => {
      if (own.calls++ % perAddress === 0 || !own.agent) {
        const k = Math.floor(own.calls / perAddress);
        own.agent = new Agent({ localAddress: `127.${this.block}.${lane + 1}.${(k % 250) + 1}`, keepAliveTimeout: 10_000 });
        this.agents.push(own.agent);
      }
      return fetch(input, { ...init, dispatcher: own.agent } as RequestInit);
    }) as typeof fetch;
  }

  async close(): Promise<void> {
    await Promise.all(this.agents.map((a) => a.close().catch(() => undefined)));
  }
}

export interface Buyer {
  address: Address;
  privateKey: Hex;
}

/** Fresh buyer keys (fund them with the chain's `fund`). */
export function freshBuyers(count: number): Buyer[] {
  return Array.from({ length: count }, () => {
    const privateKey = generatePrivateKey();
    return { address: privateKeyToAccount(privateKey).address, privateKey };
  });
}

export function payingFetch(buyer: Buyer, base: typeof fetch): PayingFetch {
  let paidSentAt: number | undefined;
  // The official client hands its fetch a Request; the paid one carries the payment header.
  const stamping = ((input: RequestInfo | URL, init?: RequestInit) => {
    if (input instanceof Request && (input.headers.has('PAYMENT-SIGNATURE') || input.headers.has('X-PAYMENT'))) paidSentAt = epochMs();
    return base(input, init);
  }) as typeof fetch;
  const pay = wrapFetchWithPaymentFromConfig(stamping, {
    schemes: [{ network: 'eip155:8453', client: new ExactEvmScheme(privateKeyToAccount(buyer.privateKey)) }],
  });
  const paying = (input: string, init?: RequestInit) => pay(input, init);
  return Object.defineProperty(paying, 'paidSentAt', { get: () => paidSentAt }) as PayingFetch;
}

/** The transaction a PAYMENT-RESPONSE (base64 JSON) names, if any. */
function transactionOf(response: Response): string | undefined {
  const header = response.headers.get('payment-response');
  if (!header) return undefined;
  try {
    return (JSON.parse(Buffer.from(header, 'base64').toString('utf8')) as { transaction?: string }).transaction || undefined;
  } catch {
    return undefined;
  }
}

/** Bounds one paid exchange (probe + paid request), so a phase always ends. */
const REQUEST_TIMEOUT_MS = 30_000;

export async function paidOnce(pay: PayingFetch, url: string, body: string): Promise<Outcome> {
  const t = performance.now();
  const startedAt = epochMs();
  try {
    const response = await pay(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    const text = await response.text();
    const ms = performance.now() - t;
    if (response.status >= 200 && response.status < 300) {
      const sent = pay.paidSentAt;
      return { status: response.status, ms, paidSentAt: sent !== undefined && sent >= startedAt ? sent : undefined, answeredAt: epochMs(), transaction: transactionOf(response) };
    }
    return { status: response.status, ms, error: `HTTP ${response.status} ${reasonOf(response, text)}` };
  } catch (error) {
    return { status: 0, ms: performance.now() - t, error: (error as Error).message };
  }
}

export function percentile(values: number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

const ok = (o: Outcome) => o.status >= 200 && o.status < 300;

export interface SequentialResult {
  n: number;
  ok: number;
  median: number;
  p99: number;
  non2xx: number;
  errors: string[];
  /** Why it stopped before n (see Guard). */
  stoppedBy?: string;
}

/** Says why no further request may start (undefined: go on). */
export type Guard = () => Promise<string | undefined>;

export async function sequential(pay: PayingFetch, url: string, body: string, n: number, guard: Guard = async () => undefined): Promise<SequentialResult> {
  const outcomes: Outcome[] = [];
  let stoppedBy: string | undefined;
  for (let i = 0; i < n; i++) {
    if ((stoppedBy = await guard())) break;
    outcomes.push(await paidOnce(pay, url, body));
  }
  const good = outcomes.filter(ok);
  return {
    n: outcomes.length,
    ok: good.length,
    median: percentile(good.map((o) => o.ms), 50),
    p99: percentile(good.map((o) => o.ms), 99),
    non2xx: outcomes.length - good.length,
    errors: firstErrors(outcomes),
    stoppedBy,
  };
}

export interface LoadResult {
  concurrency: number;
  attempted: number;
  ok: number;
  non2xx: number;
  seconds: number;
  throughput: number;
  p50: number;
  p99: number;
  /** Why lanes stopped before their count: the time budget or the guard's reason. */
  stoppedBy?: string;
  errors: string[];
  /** Every paid answer's own marks (`concurrent`'s `detail`): the settlement bench lines them up with the chain's. */
  answers?: Pick<Outcome, 'paidSentAt' | 'answeredAt' | 'transaction' | 'ms'>[];
}

/**
 * Every lane loops `perLane` paid requests back to back; no lane starts one after `budgetMs` or once `guard` objects.
 * With `thinkMs`, each lane first pauses a random time up to that before each request (not counted in its latency):
 * buyers that arrive at random moments, not in step with the answers before them (a block-timed chain would otherwise
 * line every request up just after a block).
 */
export async function concurrent(
  lanes: PayingFetch[],
  url: string,
  body: string,
  perLane: number,
  budgetMs: number,
  guard: Guard = async () => undefined,
  thinkMs = 0,
  detail = false,
): Promise<LoadResult> {
  const outcomes: Outcome[] = [];
  const start = performance.now();
  const deadline = start + budgetMs;
  let stoppedBy: string | undefined;
  await Promise.all(
    lanes.map(async (pay) => {
      for (let i = 0; i < perLane; i++) {
        if (performance.now() > deadline) stoppedBy ??= `time budget ${budgetMs / 1000} s`;
        else {
          const objection = await guard();
          if (objection) stoppedBy ??= objection;
        }
        if (stoppedBy) return;
        if (thinkMs > 0) await new Promise((resolve) => setTimeout(resolve, Math.random() * thinkMs));
        outcomes.push(await paidOnce(pay, url, body));
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  const good = outcomes.filter(ok);
  return {
    concurrency: lanes.length,
    attempted: outcomes.length,
    ok: good.length,
    non2xx: outcomes.length - good.length,
    seconds,
    throughput: good.length / seconds,
    p50: percentile(good.map((o) => o.ms), 50),
    p99: percentile(good.map((o) => o.ms), 99),
    stoppedBy,
    errors: firstErrors(outcomes),
    ...(detail ? { answers: good.map(({ paidSentAt, answeredAt, transaction, ms }) => ({ paidSentAt, answeredAt, transaction, ms })) } : {}),
  };
}

/**
 * The local chain automines one block per transaction and stamps every block at least a second after the one before:
 * a block that would share a second with its predecessor moves the node's clock offset a second ahead, for good (idle
 * time does not bring it back; only evm_revert does). Above one settlement a second the chain's clock so runs ahead of
 * the wall clock, and once the lead reaches an authorization's validity (validBefore = signing time + maxTimeoutSeconds,
 * 300 s on both sides) every new payment is already expired on chain. This guard stops starting requests while the
 * lead is above `maxLeadSeconds` (read at most every `everyMs`), so the bench never reports the local chain's clock as
 * a service failure.
 */
export function chainClockGuard(lead: () => Promise<number>, maxLeadSeconds: number, everyMs = 200): Guard {
  let readAt = 0;
  let last = 0;
  let reading: Promise<number> | undefined;
  return async () => {
    if (performance.now() - readAt > everyMs) {
      reading ??= lead().finally(() => {
        readAt = performance.now();
        reading = undefined;
      });
      last = await reading;
    }
    return last > maxLeadSeconds ? `chain clock ${Math.round(last)} s ahead of the wall clock` : undefined;
  };
}

/** Why a paid request was refused: the x402 headers' error field (base64 JSON), else the body's code and detail. */
function reasonOf(response: Response, text: string): string {
  for (const name of ['payment-response', 'payment-required']) {
    const header = response.headers.get(name);
    if (!header) continue;
    try {
      const decoded = JSON.parse(Buffer.from(header, 'base64').toString('utf8')) as { error?: string; errorReason?: string; errorMessage?: string };
      const reason = [decoded.errorReason ?? decoded.error, decoded.errorMessage].filter(Boolean).join(': ');
      if (reason) return reason;
    } catch {
      // not JSON: fall through to the body
    }
  }
  try {
    const body = JSON.parse(text) as { detail?: string; error?: string; code?: string };
    return [body.code, body.detail ?? body.error].filter(Boolean).join(': ') || text.slice(0, 120);
  } catch {
    return text.slice(0, 120);
  }
}

function firstErrors(outcomes: Outcome[]): string[] {
  const seen = new Map<string, number>();
  for (const o of outcomes) {
    if (ok(o)) continue;
    const text = o.status === 0 ? `threw: ${o.error}` : (o.error ?? `HTTP ${o.status}`);
    const key = text.split('\n')[0].trim().slice(0, 160);
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return [...seen].map(([k, n]) => `${n}× ${k}`);
}

/** Waits until this process's CPU use stays below `share` of one core for a window (background work drained). */
export async function quiesce(maxMs = 15_000, share = 0.15, windowMs = 400): Promise<number> {
  const start = performance.now();
  for (;;) {
    const before = process.cpuUsage();
    await new Promise((r) => setTimeout(r, windowMs));
    const used = process.cpuUsage(before);
    if ((used.user + used.system) / 1000 / windowMs < share || performance.now() - start > maxMs) return performance.now() - start;
  }
}

const erc20 = parseAbi(['function balanceOf(address) view returns (uint256)', 'event Transfer(address indexed from, address indexed to, uint256 value)']);

/** Reads payTo's USDC balance and the chain height; `since` counts the Transfers to payTo and the delta after it. */
export function settlementLedger(rpcUrl: string, usdc: Address, payTo: Address) {
  const client = createPublicClient({ transport: http(rpcUrl, { retryCount: 0 }), cacheTime: 0 }); // no cached block number
  const snapshot = async () => ({
    block: await client.getBlockNumber(),
    balance: await client.readContract({ address: usdc, abi: erc20, functionName: 'balanceOf', args: [payTo] }),
  });
  return {
    snapshot,
    async since(mark: { block: bigint; balance: bigint }, price: bigint, buyers: Address[]) {
      const now = await snapshot();
      const logs = await client.getContractEvents({ address: usdc, abi: erc20, eventName: 'Transfer', args: { to: payTo }, fromBlock: mark.block + 1n, toBlock: now.block });
      const fromBuyers = new Set(buyers.map((b) => b.toLowerCase()));
      const transfers = logs.filter((l) => fromBuyers.has(l.args.from!.toLowerCase()));
      const delta = now.balance - mark.balance;
      return { delta, paidByDelta: Number(delta / price), remainder: delta % price, transfers: transfers.length, otherTransfers: logs.length - transfers.length, wrongAmount: transfers.filter((l) => l.args.value !== price).length };
    },
  };
}
