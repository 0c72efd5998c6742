/**
 * The MCP endpoint (POST /api/mcp) driven by the official MCP SDK client against the running embedded service:
 * Streamable HTTP, stateless, JSON responses; x402 tools answer the payment pointer and run nothing.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { PRODUCT_IDS, PRODUCTS } from '../../lambdas/products/catalog.js';
import { fetchFrom, runtime, usdcBalance } from '../support/buyer.js';

const IP = '127.0.0.22';
const f = fetchFrom(IP);
const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

let client: Client;
let transport: StreamableHTTPClientTransport;

beforeAll(async () => {
  transport = new StreamableHTTPClientTransport(new URL(`${runtime().baseUrl}/api/mcp`), { fetch: f });
  client = new Client({ name: 'integration-test', version: '0.0.0' });
  await client.connect(transport);
});
afterAll(async () => {
  await client?.close();
});

/** The 402 challenge of a paid endpoint, as a buyer obtains it (POST without payment). */
async function challengeOf(path: string): Promise<{ resource: { url: string }; accepts: { amount: string; payTo: string }[] }> {
  const response = await f(`${runtime().baseUrl}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
  expect(response.status).toBe(402);
  return (await response.json()) as any;
}

/** The local token issuer's loopback tools (fund a buyer, mint a token, read a balance). */
const issuerPost = async (path: string, body: object): Promise<any> =>
  (await f(`${runtime().tokenIssuerUrl}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).json();
const issuerBalance = async (buyer: string) =>
  (await (await f(`${runtime().tokenIssuerUrl}/balance?buyer=${buyer}`)).json()) as { balanceBaseUnits: string };

const text = (result: unknown) => ((result as { content: { text: string }[] }).content).map((c) => c.text).join('\n');

describe('MCP tools of the generation surface (official SDK client)', () => {
  it('initialize answers protocol version 2025-06-18 and server version 1.0.0', () => {
    // The SDK client asked for its latest version; the server pinned its answer and the client adopted it.
    expect(transport.protocolVersion).toBe('2025-06-18');
    expect(client.getServerVersion()).toMatchObject({ version: '1.0.0' });
    expect(client.getServerCapabilities()?.tools).toBeDefined();
  });

  it('tools/list returns exactly the five tools', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      ['agent_image', 'agent_video', 'create_music', 'create_music_with_token', 'get_music_with_token'].sort(),
    );
    for (const tool of tools) expect(tool.inputSchema.required).toContain(tool.name === 'get_music_with_token' ? 'songId' : 'prompt');
  });

  it('tools/call on each x402 tool returns exactly the payment pointer of its 402 challenge', async () => {
    const info = runtime();
    for (const product of PRODUCT_IDS) {
      const result = await client.callTool({ name: product, arguments: { prompt: 'a lighthouse in a storm' } });
      const challenge = await challengeOf(PRODUCTS[product].path);
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toStrictEqual({
        paymentRequired: true,
        protocol: 'x402',
        endpoint: challenge.resource.url,
        method: 'POST',
        network: 'base',
        chainId: '8453',
        priceUsdCents: Number(BigInt(challenge.accepts[0].amount) / 10_000n),
        receiver: challenge.accepts[0].payTo,
        discovery: `${info.baseUrl}/.well-known/x402`,
      });
      expect(challenge.accepts[0].payTo).toBe(info.payTo);
    }
  });

  it('tools/call on an x402 tool runs no job: no USDC reaches the payee', async () => {
    const payTo = runtime().payTo;
    // Other files pay the same payee concurrently; a window that saw no foreign payment decides. A tool that
    // settled would change the balance in every window.
    let quietWindow = false;
    for (let attempt = 0; attempt < 3 && !quietWindow; attempt++) {
      const before = await usdcBalance(payTo);
      for (const product of PRODUCT_IDS) await client.callTool({ name: product, arguments: { prompt: 'a paid song, if this were a job' } });
      quietWindow = (await usdcBalance(payTo)) === before;
    }
    expect(quietWindow).toBe(true);
  });

  it('create_music_with_token pays with an agent-payment token and queues a song that get_music_with_token polls to the MP3', async () => {
    const buyer = `mcp-buyer-${Date.now()}`;
    await issuerPost('/fund', { buyer, usd: '1' });
    const { token } = await issuerPost('/mint', { buyer, usd: '0.50' });

    const created = await client.callTool({ name: 'create_music_with_token', arguments: { prompt: 'calm lake at dawn', make_instrumental: true, token } });
    expect(created.isError).toBeFalsy();
    const accepted = created.structuredContent as { songId: string; pollUrl: string; status: string };
    expect(accepted).toMatchObject({ status: 'queued', songId: expect.any(String), pollUrl: `${runtime().baseUrl}/api/songs/${accepted.songId}` });
    const balance = await issuerBalance(buyer);
    expect(balance.balanceBaseUnits).toBe('500000');

    let song: Record<string, unknown> = {};
    for (let i = 0; i < 300 && (song.model_version ?? 'pending') === 'pending'; i++) {
      song = (await client.callTool({ name: 'get_music_with_token', arguments: { songId: accepted.songId } })).structuredContent as Record<string, unknown>;
      if (song.model_version === 'pending') await new Promise((r) => setTimeout(r, 200));
    }
    expect(song).toMatchObject({ id: accepted.songId, is_public: true });
    expect(song.model_version).not.toMatch(/^(pending|failed)$/);

    const replay = await client.callTool({ name: 'create_music_with_token', arguments: { prompt: 'again', token } });
    expect(replay.isError).toBe(true);
    expect(text(replay)).toMatch(/already used/);
  });

  it('create_music_with_token refuses a bad token with a tool error and charges nothing', async () => {
    const buyer = `mcp-refused-${Date.now()}`;
    await issuerPost('/fund', { buyer, usd: '0.40' });
    const bad = [
      [(await issuerPost('/mint', { buyer, usd: '0.10' })).token, /does not cover the price/],
      [(await issuerPost('/mint', { buyer, usd: '0.50', sellerId: 'another-seller' })).token, /seller/],
      [(await issuerPost('/mint', { buyer, usd: '0.50' })).token, /insufficient_balance/],
      ['eyJhbGciOiJIUzI1NiIsInR5cCI6InBheStqd3QifQ.e30.c2ln', /alg "HS256"/],
    ] as const;
    for (const [token, reason] of bad) {
      const result = await client.callTool({ name: 'create_music_with_token', arguments: { prompt: 'calm lake at dawn', token } });
      expect(result.isError, String(reason)).toBe(true);
      expect(text(result)).toMatch(reason);
      expect(result.structuredContent).toBeUndefined();
    }
    const balance = await issuerBalance(buyer);
    expect(balance.balanceBaseUnits).toBe('400000');
  });

  it('get_music_with_token on an unknown songId is a tool error', async () => {
    const result = await client.callTool({ name: 'get_music_with_token', arguments: { songId: 'no-such-song' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/not found/);
  });
});

describe('MCP error handling: protocol errors are JSON-RPC errors, execution errors are tool results (MCP 2025-06-18)', () => {
  it('answers an unknown tool with a JSON-RPC error -32602', async () => {
    const call = client.callTool({ name: 'create_song', arguments: { prompt: 'x' } });
    await expect(call).rejects.toBeInstanceOf(McpError);
    await expect(call).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
  });

  it('answers invalid arguments (no prompt, a prompt of the wrong type) with a JSON-RPC error -32602', async () => {
    for (const args of [{ aspectRatio: '1:1' }, { prompt: 42 }]) {
      await expect(client.callTool({ name: 'agent_image', arguments: args }), JSON.stringify(args)).rejects.toMatchObject({
        code: ErrorCode.InvalidParams,
        message: expect.stringMatching(/prompt/),
      });
    }
    await expect(client.callTool({ name: 'create_music_with_token', arguments: { prompt: 'x' } })).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      message: expect.stringMatching(/token/),
    });
  });

  it('carries the error in the JSON-RPC envelope: error.code -32602 and no result', async () => {
    const response = await f(`${runtime().baseUrl}/api/mcp`, {
      method: 'POST',
      headers: { ...MCP_HEADERS, 'MCP-Protocol-Version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } }),
    });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ jsonrpc: '2.0', id: 9, error: { code: -32602, message: expect.stringMatching(/no_such_tool/) } });
    expect(body.result).toBeUndefined();
  });

  it('answers tools/call without params, without a name, or with params not an object with -32602 and a one-line message', async () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['no params', {}, /^MCP error -32602: Invalid params: params: /],
      ['params without name', { params: { arguments: { prompt: 'x' } } }, /^MCP error -32602: Invalid params: params\.name: /],
      ['params a string', { params: 'agent_image' }, /^MCP error -32602: Invalid params: params of tools\/call must be an object /],
      ['params an array', { params: ['agent_image'] }, /^MCP error -32602: Invalid params: params of tools\/call must be an object /],
      ['name not a string', { params: { name: 42, arguments: {} } }, /^MCP error -32602: Invalid params: params\.name: /],
      ['arguments not an object', { params: { name: 'agent_image', arguments: 'a red fox' } }, /^MCP error -32602: Invalid params: params\.arguments: /],
    ];
    for (const [what, extra, message] of cases) {
      const response = await f(`${runtime().baseUrl}/api/mcp`, {
        method: 'POST',
        headers: { ...MCP_HEADERS, 'MCP-Protocol-Version': '2025-06-18' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 11, method: 'tools/call', ...extra }),
      });
      expect(response.status, what).toBe(200);
      const body = await response.json();
      expect(body, what).toEqual({ jsonrpc: '2.0', id: 11, error: { code: -32602, message: expect.stringMatching(message) } });
      expect(body.error.message, what).not.toMatch(/\n/);
      expect(body.error.message.length, what).toBeLessThan(200);
    }
  });

  it('keeps a refused payment a tool execution error (result isError: true)', async () => {
    const buyer = `mcp-unfunded-${Date.now()}`;
    const { token } = await issuerPost('/mint', { buyer, usd: '0.50' });
    const result = await client.callTool({ name: 'create_music_with_token', arguments: { prompt: 'calm lake at dawn', token } });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/insufficient_balance/);
  });
});

describe('MCP endpoint over raw HTTP (POST /api/mcp)', () => {
  it('answers a notification with 202 and carries Service-API-Version', async () => {
    const response = await f(`${runtime().baseUrl}/api/mcp`, {
      method: 'POST',
      headers: MCP_HEADERS,
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    expect(response.status).toBe(202);
    expect(response.headers.get('service-api-version')).toBe('1');
    expect(await response.text()).toBe('');
  });

  it('answers 403 to a request from a foreign Origin', async () => {
    const response = await f(`${runtime().baseUrl}/api/mcp`, {
      method: 'POST',
      headers: { ...MCP_HEADERS, Origin: 'http://evil.example' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 }, id: null });
  });

  it('answers 403 to a DNS-rebound page: Host and Origin both name the attacker', async () => {
    const { port } = new URL(runtime().baseUrl);
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    // fetch will not send a Host of our choosing; a raw request does, as a browser after rebinding would.
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port, method: 'POST', path: '/api/mcp', localAddress: IP,
          headers: { ...MCP_HEADERS, Host: `evil.example:${port}`, Origin: `http://evil.example:${port}`, 'Content-Length': Buffer.byteLength(body) } },
        (res) => (res.resume(), resolve(res.statusCode!)),
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(status).toBe(403);
  });

  it('serves a request whose Origin is the service itself', async () => {
    const response = await f(`${runtime().baseUrl}/api/mcp`, {
      method: 'POST',
      headers: { ...MCP_HEADERS, Origin: runtime().baseUrl, 'MCP-Protocol-Version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(200);
    expect((await response.json()).result.tools).toHaveLength(5);
  });

  it('answers GET with 405 and Allow: POST (stateless: no SSE stream)', async () => {
    const response = await f(`${runtime().baseUrl}/api/mcp`, { headers: { Accept: 'text/event-stream' } });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });
});
