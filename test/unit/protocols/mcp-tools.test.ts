/** The five tools, driven through the official SDK client over an in-memory transport (no HTTP). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { PRODUCT_IDS, PRODUCTS, formatUsd } from '../../../lambdas/products/catalog.js';
import { productInputSchema } from '../../../lambdas/jobs/offers.js';
import { paymentPointer } from '../../../lambdas/protocols/payment-pointer.js';
import { createMcpServer } from '../../../lambdas/protocols/mcp/server.js';
import { payWithToken as defaultPort, TOKENS_NOT_ACCEPTED, type PayWithToken } from '../../../lambdas/protocols/mcp/token-port.js';
import type { ReadSong, ToolDeps } from '../../../lambdas/protocols/mcp/tools.js';
import { BASE, TERMS } from './fixtures.js';

let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

async function connect(overrides: Partial<ToolDeps> = {}): Promise<Client> {
  const server = createMcpServer({ baseUrl: BASE, terms: TERMS, payWithToken: defaultPort, readSong: async () => undefined, ...overrides });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = new Client({ name: 'unit', version: '0' });
  await client.connect(clientSide);
  return client;
}

const text = (result: unknown) => ((result as { content: { text: string }[] }).content).map((c) => c.text).join('\n');

describe('MCP tools of the generation surface: tools/list', () => {
  it('returns exactly five tools: the three product ids and the two token tools', async () => {
    const { tools } = await (await connect()).listTools();
    expect(tools.map((t) => t.name)).toEqual(['create_music', 'agent_video', 'agent_image', 'create_music_with_token', 'get_music_with_token']);
  });

  it.each(PRODUCT_IDS)('%s has the catalog input schema (prompt required) and names its price', async (product) => {
    const { tools } = await (await connect()).listTools();
    const tool = tools.find((t) => t.name === product)!;
    const catalog = productInputSchema(product);
    expect(tool.inputSchema.type).toBe('object');
    expect(tool.inputSchema.properties).toEqual(catalog.properties);
    expect(tool.inputSchema.required).toEqual(['prompt']);
    expect(tool.title).toBe(PRODUCTS[product].title);
    expect(tool.description).toContain(`${formatUsd(PRODUCTS[product].amount)} USDC`);
    expect(tool.description).toContain(`POST ${BASE}${PRODUCTS[product].path}`);
  });

  it('gives the token-paid music tool the music fields plus a required token, and the poll tool a songId', async () => {
    const { tools } = await (await connect()).listTools();
    const create = tools.find((t) => t.name === 'create_music_with_token')!;
    expect(create.inputSchema.properties).toEqual({ ...(productInputSchema('create_music').properties as object), token: expect.objectContaining({ type: 'string' }) });
    expect(create.inputSchema.required).toEqual(['prompt', 'token']);
    const poll = tools.find((t) => t.name === 'get_music_with_token')!;
    expect(poll.inputSchema.required).toEqual(['songId']);
  });
});

describe('MCP tools of the generation surface: tools/call on an x402 tool', () => {
  it.each(PRODUCT_IDS)('%s answers the payment pointer as structuredContent and runs nothing', async (product) => {
    const readSong = vi.fn<ReadSong>();
    const port = vi.fn<PayWithToken>();
    const result = await (await connect({ readSong, payWithToken: port })).callTool({ name: product, arguments: { prompt: 'a calm lake' } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toStrictEqual(paymentPointer(product, BASE, TERMS));
    expect(text(result)).toContain('Payment required');
    expect(readSong).not.toHaveBeenCalled();
    expect(port).not.toHaveBeenCalled();
  });
});

describe('MCP tools of the generation surface: protocol errors are JSON-RPC errors (MCP 2025-06-18, tools "Error Handling")', () => {
  it('answers an unknown tool name with -32602 Invalid params, not a tool result', async () => {
    const call = (await connect()).callTool({ name: 'no_such_tool', arguments: { prompt: 'x' } });
    await expect(call).rejects.toBeInstanceOf(McpError);
    await expect(call).rejects.toMatchObject({ code: ErrorCode.InvalidParams, message: expect.stringMatching(/no_such_tool/) });
  });

  it.each([
    ['agent_image', 'no prompt', { aspectRatio: '1:1' }, /prompt/],
    ['create_music', 'a prompt of the wrong type', { prompt: 42 }, /prompt/],
    ['agent_video', 'an out-of-range duration', { prompt: 'x', durationSeconds: 99 }, /durationSeconds/],
    ['create_music_with_token', 'no token', { prompt: 'x' }, /token/],
    ['get_music_with_token', 'no songId', {}, /songId/],
  ] as const)('answers %s with %s with -32602 Invalid params naming the field', async (name, _what, args, field) => {
    const readSong = vi.fn<ReadSong>();
    const port = vi.fn<PayWithToken>();
    const call = (await connect({ readSong, payWithToken: port })).callTool({ name, arguments: args as Record<string, unknown> });
    await expect(call).rejects.toMatchObject({ code: ErrorCode.InvalidParams, message: expect.stringMatching(field) });
    expect(readSong).not.toHaveBeenCalled();
    expect(port).not.toHaveBeenCalled();
  });

  it('answers a call without arguments to a tool that requires them with -32602', async () => {
    await expect((await connect()).callTool({ name: 'agent_image' })).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
  });
});

describe('MCP tools of the generation surface: the token-paid music tool', () => {
  it('hands the token and the validated music request to the token port', async () => {
    const port = vi.fn<PayWithToken>(async () => ({ content: [{ type: 'text', text: 'queued' }], structuredContent: { songId: 's1' } }));
    const result = await (await connect({ payWithToken: port })).callTool({
      name: 'create_music_with_token',
      arguments: { prompt: '  lo-fi beats ', vocal_gender: 'f', token: 'eyJ.token' },
    });
    expect(port).toHaveBeenCalledWith('eyJ.token', 'create_music', { prompt: 'lo-fi beats', vocal_gender: 'f' }, BASE);
    expect(result.structuredContent).toEqual({ songId: 's1' });
  });

  it('keeps the catalog rule that custom_mode needs lyrics, before any token is used (-32602)', async () => {
    const port = vi.fn<PayWithToken>();
    const call = (await connect({ payWithToken: port })).callTool({
      name: 'create_music_with_token',
      arguments: { prompt: 'x', custom_mode: true, token: 't' },
    });
    await expect(call).rejects.toMatchObject({ code: ErrorCode.InvalidParams, message: expect.stringMatching(/lyrics/) });
    expect(port).not.toHaveBeenCalled();
  });

  it('answers a refused payment as a tool execution error (isError: true), not a JSON-RPC error', async () => {
    const port = vi.fn<PayWithToken>(async () => ({ isError: true, content: [{ type: 'text', text: 'insufficient_balance' }] }));
    const result = await (await connect({ payWithToken: port })).callTool({ name: 'create_music_with_token', arguments: { prompt: 'x', token: 't' } });
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'insufficient_balance' }] });
  });

  it('answers a port that throws with a tool error that does not carry the thrown message', async () => {
    const port = vi.fn<PayWithToken>(async () => {
      throw new Error('ResourceNotFoundException: table jobs-secret-name');
    });
    const result = await (await connect({ payWithToken: port })).callTool({ name: 'create_music_with_token', arguments: { prompt: 'x', token: 't' } });
    expect(result.isError).toBe(true);
    expect(text(result)).not.toContain('jobs-secret-name');
  });

  it('refuses with a tool error when no token issuer is configured (the default port)', async () => {
    const result = await (await connect()).callTool({ name: 'create_music_with_token', arguments: { prompt: 'x', token: 't' } });
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: TOKENS_NOT_ACCEPTED }] });
  });
});

describe('MCP tools of the generation surface: the token-paid music poll tool', () => {
  it('returns the song row of the songId', async () => {
    const row = { id: 's1', model_version: 'pending', duration: 0 };
    const readSong = vi.fn<ReadSong>(async () => row);
    const result = await (await connect({ readSong })).callTool({ name: 'get_music_with_token', arguments: { songId: 's1' } });
    expect(readSong).toHaveBeenCalledWith('s1', BASE);
    expect(result.structuredContent).toEqual(row);
    expect(JSON.parse(text(result))).toEqual(row);
  });

  it('answers a tool error for an unknown songId', async () => {
    const result = await (await connect()).callTool({ name: 'get_music_with_token', arguments: { songId: 'nope' } });
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: "Song 'nope' not found" }] });
  });

  it('answers a retryable tool error, without the storage message, when the store fails', async () => {
    const readSong = vi.fn<ReadSong>(async () => {
      throw new Error('ResourceNotFoundException: table jobs-secret-name');
    });
    const result = await (await connect({ readSong })).callTool({ name: 'get_music_with_token', arguments: { songId: 's1' } });
    expect(result.isError).toBe(true);
    expect(text(result)).not.toContain('jobs-secret-name');
    expect(text(result)).toMatch(/Retry/);
  });
});
