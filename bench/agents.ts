/**
 * The agent studio's part of `npm run bench`: per-request handler time and DynamoDB round trips of the bank
 * reconciliation agent's fixed run route (402, dry run, paid run), the same purchase as an A2A paid send and as an
 * MCP tool call billed from workspace credit, and of the free agent's run on the generic route,
 * in-process against the embedded runtime, on a realistic month (~40 bank lines against ~40 book entries). The
 * engine is also timed alone, so the analysis can be told apart from payment and storage. Prints; asserts nothing.
 */
import { randomUUID } from 'node:crypto';
import { eventMaker, paymentSigner } from './events.js';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import { PROJECT_ROOT, type EmbeddedRuntime } from '../lib/local/runtime.js';
import { bankRecEngine } from '../lambdas/agents/engines/bank-rec/engine.js';
import { quiesce } from './load.js';

type Handler = (event: unknown, context: unknown) => Promise<{ statusCode: number; headers: Record<string, string>; body?: string }>;

export interface Measured {
  name: string;
  n: number;
  median: number;
  p99: number;
  trips: number;
  tripsMax: number;
}

/** run.ts's `measure`: warm-up, then n timed calls, each under countRoundTrips; throws on an unexpected status. */
export type Measure = (
  name: string,
  make: () => Promise<unknown> | unknown,
  run: (e: unknown) => Promise<{ statusCode: number }>,
  expect: number,
  warmup?: number,
) => Promise<Measured>;

export interface AgentBenchOptions {
  runtime: EmbeddedRuntime;
  measure: Measure;
  /** The Lambda context the handlers get. */
  context: unknown;
  /** Timed calls per row (BENCH_N). */
  n: number;
}

const BANK_REC = 'bank-rec-discrepancy-finder-bw0tt';
const FREE = 'export-to-transactions-x7f3a';

export async function agentStudioBench({ runtime, measure, context, n }: AgentBenchOptions): Promise<Measured[]> {
  // The generation rows' paid requests leave render jobs running in this process: let them drain first.
  const waited = await quiesce(20_000);
  const host = new URL(runtime.info.agentsUrl as string).host;
  const run = (await import(pathToFileURL(join(PROJECT_ROOT, 'lambdas/http/agents/run.ts')).href)).handler as Handler;

  // Its own address block: the probe rate limit counts per client address across both surfaces.
  const makeEvent = eventMaker(host, 10);
  const event = (path: string, body: string, headers: Record<string, string> = {}, route = path, pathParameters?: Record<string, string>) =>
    makeEvent({ method: 'POST', path, route, body, headers, pathParameters });

  const month = reconciliationMonth();
  const bankPath = `/api/agents/${BANK_REC}/run`;
  const liveBody = JSON.stringify({ input: month });
  const dryBody = JSON.stringify({ dryRun: true, input: month });

  const probe = await run(event(bankPath, liveBody), context);
  if (probe.statusCode !== 402) throw new Error(`agent probe: expected 402, got ${probe.statusCode}`);
  const challenge = decodePaymentRequiredHeader(probe.headers['PAYMENT-REQUIRED']);
  const buyers = runtime.info.buyers;
  const sign = paymentSigner(buyers, challenge);
  const paidEvent = async () => event(bankPath, liveBody, { 'payment-signature': await sign() });
  // Enough USDC for every paid run, whatever the generation rows spent before.
  for (const b of buyers) await runtime.chain.fund(b.address as `0x${string}`, 1_000_000_000n);

  // The same purchase over the other channels, beside the run route: an A2A 1.0 message:send paid with x402 (its own
  // 402, the run route's terms), and an MCP tools/call billed from a workspace's credit.
  const a2a = (await import(pathToFileURL(join(PROJECT_ROOT, 'lambdas/http/agents/a2a-send.ts')).href)).handler as Handler;
  const a2aPath = `/api/agents/${BANK_REC}/a2a/message:send`;
  const a2aEvent = (headers: Record<string, string> = {}) =>
    event(a2aPath, a2aBody(month), { 'a2a-version': '1.0', 'content-type': 'application/a2a+json', ...headers }, '/api/agents/{agent}/a2a/message:send', { agent: BANK_REC });
  const a2aProbe = await a2a(a2aEvent(), context);
  if (a2aProbe.statusCode !== 402) throw new Error(`A2A probe: expected 402, got ${a2aProbe.statusCode}`);
  const signA2a = paymentSigner(buyers, decodePaymentRequiredHeader(a2aProbe.headers['PAYMENT-REQUIRED']));
  const mcp = (await import(pathToFileURL(join(PROJECT_ROOT, 'lambdas/http/agents/mcp.ts')).href)).handler as Handler;
  const workspaceKey = await fundedWorkspace(1_000_000_000n);
  let rpcId = 0;
  const mcpEvent = () =>
    event('/api/mcp', JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method: 'tools/call', params: { name: BANK_REC, arguments: month } }), {
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
      authorization: `Bearer ${workspaceKey}`,
    });
  const mcpCall = async (e: unknown) => {
    const answer = await mcp(e, context);
    // A tool error (short credit) is HTTP 200 too: count only a billed result as the 200 this row expects.
    const billed = answer.statusCode === 200 && !(JSON.parse(answer.body ?? '{}') as { result?: { isError?: boolean } }).result?.isError;
    return { statusCode: billed ? 200 : 500 };
  };

  const freePath = `/api/agents/${FREE}/run`;
  const freeBody = JSON.stringify({ input: { export: month.bankStatement } });
  const handle = (e: unknown) => run(e, context);
  const lines = `${month.bankStatement.split('\n').length - 2} + ${month.bookEntries.split('\n').length - 2} lines`;
  const results: Measured[] = [];
  results.push(await measure(`402 path (POST …/${BANK_REC}/run, no payment)`, () => event(bankPath, liveBody), handle, 402));
  results.push(await measure(`dry run (${lines}, no payment)`, () => event(bankPath, dryBody), handle, 200));
  results.push(await measure(`paid run (${lines}, x402 v2, settled in-request)`, paidEvent, handle, 200));
  results.push(await measure(`A2A paid send (message:send, ${lines}, x402 v2, settled in-request)`, async () => a2aEvent({ 'payment-signature': await signA2a() }), (e) => a2a(e, context), 200));
  results.push(await measure(`MCP priced tool call (tools/call, ${lines}, workspace credit debit)`, mcpEvent, mcpCall, 200));
  results.push(
    await measure(
      `free run (POST /api/agents/{agent}/run, ${FREE}, ${month.bankStatement.split('\n').length - 2} lines)`,
      () => event(freePath, freeBody, {}, '/api/agents/{agent}/run', { agent: FREE }),
      handle,
      200,
    ),
  );
  // The analysis alone: the same input straight into the engine, no HTTP, payment or storage.
  const engine = await measure(
    `engine alone (bankRecEngine.analyse, ${lines})`,
    () => month,
    async (input) => (bankRecEngine.analyse(input as typeof month), { statusCode: 200 }),
    200,
  );
  results.push(engine);

  const cpu = cpus()[0]?.model ?? 'unknown cpu';
  console.log(`\nAgent studio: handler time per request, warm, in-process against DynamoDB Local + local chain (${cpus().length} × ${cpu}), n=${n}; started after ${(waited / 1000).toFixed(1)} s for earlier render jobs to drain`);
  console.log('| path | median ms | p99 ms | DynamoDB round trips (median / max) |');
  console.log('|---|---|---|---|');
  for (const r of results) console.log(`| ${r.name} | ${r.median.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.trips} / ${r.tripsMax} |`);
  const [, dry, paid, sent, billed] = results;
  const share = (r: Measured) => `${((100 * engine.median) / r.median).toFixed(0)}%`;
  console.log(`engine share of the median: dry run ${share(dry)}, paid run ${share(paid)}; paid/dry median ratio: ${(paid.median / dry.median).toFixed(1)}×`);
  console.log(`beside the paid run route (median): A2A paid send ${(sent.median / paid.median).toFixed(2)}×, MCP priced call from credit ${(billed.median / paid.median).toFixed(2)}×`);
  return results;
}

/** The A2A 1.0 SendMessage request whose one data part is the agent's input. */
function a2aBody(input: Record<string, string>): string {
  return JSON.stringify({ message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ data: input, mediaType: 'application/json' }] } });
}

/** A workspace credited with `amount` base units through the top-up's ledger entries (a made-up settlement, no chain). */
async function fundedWorkspace(amount: bigint): Promise<string> {
  const { CreditStore, topUpKey } = await import('../lambdas/store/credits.js');
  const { DynamoPaymentLedger } = await import('../lambdas/store/ledger.js');
  const { hashWorkspaceKey, newWorkspaceKey } = await import('../lambdas/credits/keys.js');
  const credits = new CreditStore();
  const key = newWorkspaceKey();
  const workspace = await credits.createWorkspace(hashWorkspaceKey(key), `ws_bench-${randomUUID()}`);
  const nonceKey = `bench:${randomUUID()}`;
  const ledger = new DynamoPaymentLedger();
  await ledger.lock({ nonceKey, amount, payer: '0xbench', purchase: `topup#${workspace.workspaceId}` }, credits.reserveTopUpItem(workspace, { nonceKey, amount, tier: 1, payer: '0xbench' }));
  await ledger.markSettled(nonceKey, '0xbench', credits.creditTopUpItems({ ...workspace, entryKey: topUpKey(nonceKey), amount }, '0xbench'));
  return key;
}

/**
 * A deterministic month of one business account: 38 transactions seen on both sides (receipts by invoice
 * reference, checks, card and ACH payments), plus what a month-end reconciliation typically finds: a bank fee and
 * interest nobody booked, two checks not yet cleared, a check booked at the wrong amount and a payment booked days
 * early. 40 bank lines, 40 book entries.
 */
export function reconciliationMonth(): { bankStatement: string; bookEntries: string } {
  let seed = 20261031;
  const next = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0);
  const cents = (min: number, max: number) => min * 100 + (next() % ((max - min) * 100));
  const money = (c: number) => (c / 100).toFixed(2);
  const date = (day: number) => `2026-10-${String(day).padStart(2, '0')}`;

  const bank = ['Date,Description,Amount'];
  const books = ['Date,Memo,Amount,Check No'];
  let check = 3100;
  for (let i = 0; i < 38; i++) {
    const day = 1 + Math.floor((i * 29) / 38);
    switch (i % 4) {
      case 0: {
        const invoice = 5200 + i;
        const amount = cents(300, 4800);
        bank.push(`${date(day)},Deposit - Invoice ${invoice},${money(amount)}`);
        books.push(`${date(day)},Invoice ${invoice} receipt,${money(amount)},`);
        break;
      }
      case 1: {
        check++;
        const amount = cents(80, 2500);
        // One check was keyed in the books 90.00 short of what cleared.
        const booked = i === 13 ? amount - 9000 : amount;
        bank.push(`${date(Math.min(30, day + 2))},CHECK ${check},-${money(amount)}`);
        books.push(`${date(day)},Vendor payment,-${money(booked)},${check}`);
        break;
      }
      case 2: {
        const amount = cents(20, 600);
        bank.push(`${date(day)},CARD PURCHASE OFFICE DEPOT #${1000 + i},-${money(amount)}`);
        books.push(`${date(day)},Office supplies,-${money(amount)},`);
        break;
      }
      default: {
        const amount = cents(900, 6000);
        // One ACH was booked six days before the bank took it: a timing difference.
        const bookedDay = i === 23 ? day - 6 : day;
        bank.push(`${date(day)},ACH DEBIT SUPPLIER ${i},-${money(amount)}`);
        books.push(`${date(bookedDay)},Supplier ${i} ACH,-${money(amount)},`);
      }
    }
  }
  bank.push(`${date(31)},Monthly service fee,-25.00`, `${date(31)},Interest credit,3.41`);
  books.push(`${date(29)},Check to Acme Supply,-${money(cents(200, 900))},${++check}`, `${date(30)},Check to Harbor Rentals,-${money(cents(200, 900))},${++check}`);
  return { bankStatement: bank.join('\n') + '\n', bookEntries: books.join('\n') + '\n' };
}
