/**
 * MCP on the agent studio (spec "MCP on the agent-studio surface", Authentication 5; ADR 0015)
 * against the embedded service with the official clients: the MCP SDK client lists and calls agents; a workspace is
 * created and topped up through @x402/fetch; each priced call debits exactly its price; free tools need no key; no key
 * or short credit is a tool error naming the shortfall and the top-up route; an invalid bearer is a 401; an unknown
 * tool or bad arguments is JSON-RPC -32602 (protocol pinned to 2025-06-18); 50 concurrent priced calls on a balance
 * that covers 10 bill exactly 10 and never take the balance below zero.
 */
import { describe, expect, it } from 'vitest';
import { evidenceProblems } from '../support/evidence.js';
import type { Evidence } from '../../lambdas/agents/engines/port.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AGENT_EXAMPLES } from '../../lambdas/agents/examples.js';
import { fetchFrom, freshBuyer, payingFetch, runtime, type FetchLike } from '../support/buyer.js';
import { BANK, BOOKS, EXPECTED as RECONCILED, UNREADABLE_BANK } from '../support/bank-rec-case.js';

const f = fetchFrom('127.0.0.181');
const BANK_REC = 'bank-rec-discrepancy-finder-bw0tt'; // 0.06 USDC
const PO_MATCH = 'po-match-gate-mkgu0'; // 0.05 USDC
const EXPORT_TX = 'export-to-transactions-x7f3a'; // free
/** Published, not an employee or a relay, an immutable Live deployment (the AP2 pilot's is not immutable). */
const ELIGIBLE = ['vendor-risk-read-q0jjq', BANK_REC, 'expense-policy-check-l8o5i', PO_MATCH, EXPORT_TX];
const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

async function connect(key?: string, fetchImpl: FetchLike = f): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(`${runtime().agentsUrl}/api/mcp`), {
    fetch: fetchImpl as typeof fetch,
    ...(key ? { requestInit: { headers: bearer(key) } } : {}),
  });
  const client = new Client({ name: 'agent-mcp-test', version: '0.0.0' });
  await client.connect(transport);
  return { client, transport };
}

async function newWorkspace(): Promise<string> {
  const response = await f(`${runtime().agentsUrl}/api/workspaces`, { method: 'POST' });
  expect(response.status).toBe(201);
  return (await response.json()).workspaceKey;
}

/** A workspace topped up with `tier` USDC by a buyer paying through @x402/fetch. */
async function fundedWorkspace(ip: string, tier = 1): Promise<string> {
  const key = await newWorkspace();
  const buyer = await freshBuyer(BigInt(tier) * 1_000_000n + 1_000_000n);
  const response = await payingFetch(buyer.privateKey, ip)(`${runtime().agentsUrl}/api/gateway/topup?tier=${tier}`, { method: 'POST', headers: bearer(key) });
  expect(response.status).toBe(200);
  expect(await balance(key)).toBe(tier);
  return key;
}

async function balance(key: string): Promise<number> {
  const response = await f(`${runtime().agentsUrl}/api/gateway/balance`, { headers: bearer(key) });
  expect(response.status).toBe(200);
  return (await response.json()).credits;
}

async function ledger(key: string): Promise<any[]> {
  const response = await f(`${runtime().agentsUrl}/api/gateway/ledger?limit=100`, { headers: bearer(key) });
  expect(response.status).toBe(200);
  return (await response.json()).entries;
}

const text = (result: CallToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
const call = (client: Client, name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

describe('agent-studio MCP: the tools (official SDK client, no key)', () => {
  it('initialize pins 2025-06-18; tools/list holds exactly the eligible agents, with their input and result schemas', async () => {
    const { client, transport } = await connect();
    try {
      expect(transport.protocolVersion).toBe('2025-06-18');
      expect(client.getServerVersion()).toMatchObject({ name: 'paycall-agent-studio', version: '1.0.0' });
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([...ELIGIBLE].sort());
      const bankRec = tools.find((t) => t.name === BANK_REC)!;
      expect(bankRec.inputSchema).toMatchObject({ type: 'object', required: expect.arrayContaining(['bankStatement', 'bookEntries']) });
      expect(Object.keys(bankRec.outputSchema?.properties ?? {})).toEqual(expect.arrayContaining(['reconciled', 'matched', 'exceptions', 'net_unreconciled']));
      expect(bankRec.description).toMatch(/0\.06 USDC per successful call, billed from the workspace credit/);
      expect(tools.find((t) => t.name === EXPORT_TX)!.description).toMatch(/Free: no workspace key needed/);
    } finally {
      await client.close();
    }
  });

  it('a free tool runs without a key and answers its result as structuredContent', async () => {
    const { client } = await connect();
    try {
      const result = await call(client, EXPORT_TX, { export: BANK });
      expect(result.isError).toBeFalsy();
      // In 4321.09; out 12.50; net 4308.59; no currency named.
      expect(result.structuredContent).toMatchObject({
        transactions: [
          { date: '2026-05-04', description: 'Deposit Zephyr Ltd', amount: 4321.09, reference: null },
          { date: '2026-05-29', description: 'Wire fee', amount: -12.5, reference: null },
        ],
        count: 2,
        total_in: 4321.09,
        total_out: 12.5,
        net: 4308.59,
        currency_hint: null,
      });
      expect(JSON.parse(text(result))).toEqual(result.structuredContent);
      expect(result._meta?.['x-service/run']).toMatchObject({ settled: false, totalCostUsdc: 0, creditsCharged: 0, runId: expect.stringMatching(/^run_/) });
    } finally {
      await client.close();
    }
  });

  it('a priced tool without a key is a tool error naming the price and the routes; nothing runs', async () => {
    const { client } = await connect();
    try {
      const result = await call(client, BANK_REC, { bankStatement: BANK, bookEntries: BOOKS });
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      expect(text(result)).toContain(`${runtime().agentsUrl}/api/gateway/topup?tier=1`);
      expect(text(result)).toContain(`${runtime().agentsUrl}/api/workspaces`);
      expect(text(result)).toMatch(/costs 0\.06 USDC per call.*no workspace key was sent.*Nothing was run or billed/s);
      expect(result._meta?.['x-service/credit']).toEqual({
        priceUsdc: 0.06,
        shortfallUsdc: 0.06,
        topUp: `${runtime().agentsUrl}/api/gateway/topup`,
        createWorkspace: `${runtime().agentsUrl}/api/workspaces`,
      });
    } finally {
      await client.close();
    }
  });

  it('an unknown tool and arguments that fail the schema are JSON-RPC -32602', async () => {
    const { client } = await connect();
    try {
      const unknown = await call(client, 'no-such-agent', {}).catch((e: unknown) => e);
      expect(unknown).toBeInstanceOf(McpError);
      expect((unknown as McpError).code).toBe(ErrorCode.InvalidParams);
      const missing = await call(client, EXPORT_TX, {}).catch((e: unknown) => e);
      expect(missing).toBeInstanceOf(McpError);
      expect((missing as McpError).code).toBe(ErrorCode.InvalidParams);
      expect((missing as McpError).message).toMatch(/export/);
    } finally {
      await client.close();
    }
  });

  it('tools/call without params, without a name, or with params not an object is -32602 with a one-line message', async () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['no params', {}, /^MCP error -32602: Invalid params: params: /],
      ['params without name', { params: { arguments: {} } }, /^MCP error -32602: Invalid params: params\.name: /],
      ['params a number', { params: 7 }, /^MCP error -32602: Invalid params: params of tools\/call must be an object /],
      ['params null', { params: null }, /^MCP error -32602: Invalid params: params of tools\/call must be an object /],
      ['arguments not an object', { params: { name: EXPORT_TX, arguments: [] } }, /^MCP error -32602: Invalid params: params\.arguments: /],
    ];
    for (const [what, extra, message] of cases) {
      const response = await f(`${runtime().agentsUrl}/api/mcp`, {
        method: 'POST',
        headers: { ...MCP_HEADERS, 'MCP-Protocol-Version': '2025-06-18' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 'call-1', method: 'tools/call', ...extra }),
      });
      expect(response.status, what).toBe(200);
      const body = await response.json();
      expect(body, what).toEqual({ jsonrpc: '2.0', id: 'call-1', error: { code: -32602, message: expect.stringMatching(message) } });
      expect(body.error.message, what).not.toMatch(/\n/);
      expect(body.error.message.length, what).toBeLessThan(200);
    }
  });
});

describe('agent-studio MCP: the bearer', () => {
  it('a malformed or unknown key is an HTTP 401 with WWW-Authenticate, on any request, before any JSON-RPC is read', async () => {
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } };
    for (const authorization of ['Bearer not-a-key', 'Bearer 6f1c2d3e-4a5b-4c6d-8e7f-001122334455', 'Basic dXNlcjpwYXNz']) {
      const response = await f(`${runtime().agentsUrl}/api/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, Authorization: authorization }, body: JSON.stringify(initialize) });
      expect(response.status, authorization).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
      expect(await response.json()).toMatchObject({ code: 'invalid_token' });
    }
    // The SDK client surfaces it as a StreamableHTTPError(401): no OAuth discovery is attempted.
    const error = await connect('6f1c2d3e-4a5b-4c6d-8e7f-001122334455').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamableHTTPError);
    expect((error as StreamableHTTPError).code).toBe(401);
  });

  it('GET is 405: the endpoint is stateless', async () => {
    const response = await f(`${runtime().agentsUrl}/api/mcp`, { headers: { Accept: 'text/event-stream' } });
    expect(response.status).toBe(405);
  });
});

describe('agent-studio MCP: billed from workspace credit', () => {
  it('a workspace topped up through @x402/fetch pays a priced call: exactly its price, the result hand-worked, the debit in the ledger', async () => {
    const key = await fundedWorkspace('127.0.0.182');
    const { client } = await connect(key);
    try {
      const result = await call(client, BANK_REC, { bankStatement: BANK, bookEntries: BOOKS });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual(RECONCILED);
      const run = result._meta?.['x-service/run'] as { runId: string; settled: boolean; totalCostUsdc: number; creditsCharged: number };
      expect(run).toMatchObject({ settled: true, totalCostUsdc: 0.06, creditsCharged: 0.06 });
      // The findings' evidence rides in the run's facts beside the result.
      const { evidence } = (result._meta?.['x-service/run'] as { outputs: { evidence: Evidence[] } }).outputs;
      expect(evidenceProblems('bank-rec', { bankStatement: BANK, bookEntries: BOOKS }, { result: RECONCILED, evidence })).toEqual([]);
      expect(await balance(key)).toBe(0.94);
      const entries = await ledger(key);
      expect(entries[0]).toMatchObject({ entryId: `debit#${run.runId}`, type: 'debit', credits: -0.06, runId: run.runId, agent: BANK_REC });
      expect(entries.map((e) => e.type)).toEqual(['debit', 'topup']);

      // Input the engine cannot read: -32602, nothing billed.
      const unreadable = await call(client, BANK_REC, { bankStatement: UNREADABLE_BANK, bookEntries: BOOKS }).catch((e: unknown) => e);
      expect(unreadable).toBeInstanceOf(McpError);
      expect((unreadable as McpError).code).toBe(ErrorCode.InvalidParams);
      expect((unreadable as McpError).message).toMatch(/bankStatement: .*no amount column/);
      // A free tool with a key bills nothing either.
      expect((await call(client, EXPORT_TX, { export: BANK })).isError).toBeFalsy();
      expect(await balance(key)).toBe(0.94);
      expect(await ledger(key)).toHaveLength(2);
    } finally {
      await client.close();
    }
  });

  it('credit short of the price is a tool error naming the shortfall and the top-up route; nothing billed', async () => {
    const key = await newWorkspace();
    const { client } = await connect(key);
    try {
      const result = await call(client, BANK_REC, { bankStatement: BANK, bookEntries: BOOKS });
      expect(result.isError).toBe(true);
      expect(text(result)).toMatch(/Insufficient credit: .* costs 0\.06 USDC, the workspace holds 0 USDC; 0\.06 USDC short\. Top up with POST .*\/api\/gateway\/topup\?tier=1/);
      expect(result._meta?.['x-service/credit']).toMatchObject({ priceUsdc: 0.06, balanceUsdc: 0, shortfallUsdc: 0.06 });
      expect(await ledger(key)).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('50 concurrent priced calls on a balance that covers 10 bill exactly 10; the balance never goes negative', async () => {
    const key = await fundedWorkspace('127.0.0.183');
    const { client } = await connect(key, fetchFrom('127.0.0.184'));
    try {
      await client.listTools(); // the client checks each structuredContent against the listed outputSchema
      const input = AGENT_EXAMPLES['po-match'].input;
      // 1 USDC covers 20 calls at 0.05: ten one after another, each debiting exactly its price…
      for (let i = 1; i <= 10; i++) {
        expect((await call(client, PO_MATCH, input)).isError).toBeFalsy();
        expect(await balance(key)).toBe(Number((1 - 0.05 * i).toFixed(2)));
      }
      // …leave 0.50, which covers exactly 10 of 50 at once.
      const results = await Promise.all(Array.from({ length: 50 }, () => call(client, PO_MATCH, input)));
      const billed = results.filter((r) => !r.isError);
      const refused = results.filter((r) => r.isError);
      expect(billed).toHaveLength(10);
      expect(refused).toHaveLength(40);
      for (const r of refused) expect(text(r)).toMatch(/Insufficient credit/);
      expect(await balance(key)).toBe(0);
      const debits = (await ledger(key)).filter((e) => e.type === 'debit');
      expect(debits).toHaveLength(20);
      expect(new Set(debits.map((e) => e.runId)).size).toBe(20);
      for (const d of debits) expect(d.credits).toBe(-0.05);
      // The billed answers are the debited runs, one for one.
      const billedRuns = billed.map((r) => (r._meta?.['x-service/run'] as { runId: string }).runId);
      expect(debits.map((e) => e.runId)).toEqual(expect.arrayContaining(billedRuns));
    } finally {
      await client.close();
    }
  });
});
