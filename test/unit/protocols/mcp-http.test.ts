/**
 * The MCP endpoint as HTTP: Origin rule, stateless GET, the pinned protocol version, notifications, and the
 * API Gateway v2 event ⇄ web Request/Response conversion the SDK transport runs on.
 */
import { describe, expect, it } from 'vitest';
import { generationMcp, handleMcp, type McpDeps } from '../../../lambdas/protocols/mcp/handle.js';
import { isAllowedOrigin, parseOrigins } from '../../../lambdas/protocols/mcp/origin.js';
import { payWithToken } from '../../../lambdas/protocols/mcp/token-port.js';
import { toHttpResult, toWebRequest } from '../../../lambdas/protocols/mcp/web.js';
import { BASE, TERMS, httpEvent, mcpPost } from './fixtures.js';

const deps: McpDeps = { terms: TERMS, payWithToken, readSong: async () => undefined, allowedOrigins: [] };
const initialize = (protocolVersion: string) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'unit', version: '0' } },
});

describe('MCP endpoint: Origin validation (DNS-rebinding guard of the Streamable HTTP transport)', () => {
  const configured = { publicBaseUrl: BASE, requestBase: BASE };
  const fromHost = (host: string) => ({ requestBase: `http://${host}` });
  it('allows a request without Origin (server-to-server clients send none)', () => {
    expect(isAllowedOrigin(undefined, configured, [])).toBe(true);
    expect(isAllowedOrigin(undefined, fromHost('evil.example'), [])).toBe(true);
  });
  it("allows the configured public origin, port and case normalised", () => {
    expect(isAllowedOrigin('https://API.test', configured, [])).toBe(true);
    expect(isAllowedOrigin('https://api.test:443', configured, [])).toBe(true);
    expect(isAllowedOrigin('http://api.test', configured, [])).toBe(false);
  });
  it('refuses a rebound page: Origin and Host both name the attacker, and no public base URL is configured', () => {
    expect(isAllowedOrigin('http://evil.example:3000', fromHost('evil.example:3000'), [])).toBe(false);
    expect(isAllowedOrigin('http://evil.example', fromHost('evil.example'), [])).toBe(false);
  });
  it('allows loopback origins only on a service reached on loopback, and configured origins anywhere', () => {
    for (const local of ['127.0.0.1:3000', 'localhost:3000', '[::1]:3000']) {
      expect(isAllowedOrigin('http://localhost:5173', fromHost(local), [])).toBe(true);
      expect(isAllowedOrigin('http://127.0.0.1:8080', fromHost(local), [])).toBe(true);
      expect(isAllowedOrigin('http://[::1]:3000', fromHost(local), [])).toBe(true);
    }
    expect(isAllowedOrigin('http://localhost:5173', configured, [])).toBe(false);
    expect(isAllowedOrigin('https://console.example', configured, parseOrigins(' https://console.example/ , not a url'))).toBe(true);
  });
  it('refuses any other origin, the opaque null origin, and look-alike hosts', () => {
    expect(isAllowedOrigin('http://evil.example', configured, [])).toBe(false);
    expect(isAllowedOrigin('null', configured, [])).toBe(false);
    expect(isAllowedOrigin('http://localhost.evil.example', fromHost('127.0.0.1:3000'), [])).toBe(false);
    expect(isAllowedOrigin('http://127.0.0.1.evil.example', fromHost('127.0.0.1:3000'), [])).toBe(false);
  });
  it('answers 403 with a JSON-RPC error body for a foreign Origin, before any JSON-RPC is read', async () => {
    const result = await handleMcp(mcpPost(initialize('2025-06-18'), { origin: 'http://evil.example' }), generationMcp(deps));
    expect(result.statusCode).toBe(403);
    expect(JSON.parse(result.body!)).toEqual({ jsonrpc: '2.0', error: { code: -32000, message: expect.stringMatching(/Origin/) }, id: null });
  });
  it('answers 403 to a rebound page whose Host and Origin agree, and serves the configured public origin', async () => {
    const rebound = mcpPost(initialize('2025-06-18'), { origin: 'http://evil.example', host: 'evil.example' });
    expect((await handleMcp(rebound, generationMcp({ ...deps, publicBaseUrl: null }))).statusCode).toBe(403);
    const own = mcpPost(initialize('2025-06-18'), { origin: BASE });
    expect((await handleMcp(own, generationMcp({ ...deps, publicBaseUrl: BASE }))).statusCode).toBe(200);
  });
});

describe('MCP endpoint: stateless Streamable HTTP', () => {
  it('answers GET with 405 and Allow: POST (no server-to-client SSE stream without sessions)', async () => {
    const result = await handleMcp(httpEvent({ method: 'GET', headers: { accept: 'text/event-stream' } }), generationMcp(deps));
    expect(result.statusCode).toBe(405);
    expect(result.headers.Allow).toBe('POST');
  });
  it('answers initialize with protocol 2025-06-18 and server version 1.0.0, even when the client asks for a newer one', async () => {
    for (const asked of ['2025-11-25', '2025-06-18', '2025-03-26']) {
      const result = await handleMcp(mcpPost(initialize(asked)), generationMcp(deps));
      expect(result.statusCode).toBe(200);
      expect(result.headers['content-type']).toMatch(/^application\/json/);
      expect(result.headers['mcp-session-id']).toBeUndefined();
      const body = JSON.parse(result.body!);
      expect(body.result).toMatchObject({ protocolVersion: '2025-06-18', serverInfo: { version: '1.0.0' }, capabilities: { tools: {} } });
    }
  });
  it('answers a notification with 202 and no body', async () => {
    const result = await handleMcp(mcpPost({ jsonrpc: '2.0', method: 'notifications/initialized' }), generationMcp(deps));
    expect(result).toMatchObject({ statusCode: 202, body: '' });
  });
  it('serves tools/list without a prior initialize on the same server (each request is self-contained)', async () => {
    const result = await handleMcp(mcpPost({ jsonrpc: '2.0', id: 7, method: 'tools/list' }, { 'mcp-protocol-version': '2025-06-18' }), generationMcp(deps));
    expect(JSON.parse(result.body!).result.tools).toHaveLength(5);
  });
  it('answers a request whose params is not an object with -32602 for its id; a notification or batch so formed stays the SDK\'s 400', async () => {
    for (const params of ['agent_image', 7, null, ['agent_image']]) {
      const result = await handleMcp(mcpPost({ jsonrpc: '2.0', id: 3, method: 'tools/call', params }), generationMcp(deps));
      expect(result.statusCode, JSON.stringify(params)).toBe(200);
      expect(JSON.parse(result.body!)).toEqual({
        jsonrpc: '2.0',
        id: 3,
        error: { code: -32602, message: 'MCP error -32602: Invalid params: params of tools/call must be an object (tools/call takes params {"name": <tool>, "arguments": {…}})' },
      });
    }
    const list = await handleMcp(mcpPost({ jsonrpc: '2.0', id: 'l', method: 'tools/list', params: 'all' }), generationMcp(deps));
    expect(JSON.parse(list.body!).error).toEqual({ code: -32602, message: 'MCP error -32602: Invalid params: params of tools/list must be an object' });
    for (const message of [{ jsonrpc: '2.0', method: 'notifications/initialized', params: 'x' }, [{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: 'x' }]]) {
      const result = await handleMcp(mcpPost(message), generationMcp(deps));
      expect(result.statusCode).toBe(400);
      expect(JSON.parse(result.body!).error.code).toBe(-32700);
    }
  });
  it('answers tools/call without params or without a name with -32602 and one line, not the parser\'s dump', async () => {
    for (const [extra, problem] of [
      [{}, 'params: Invalid input: expected object, received undefined'],
      [{ params: { arguments: { prompt: 'x' } } }, 'params.name: Invalid input: expected string, received undefined'],
    ] as const) {
      const result = await handleMcp(mcpPost({ jsonrpc: '2.0', id: 4, method: 'tools/call', ...extra }, { 'mcp-protocol-version': '2025-06-18' }), generationMcp(deps));
      expect(JSON.parse(result.body!)).toEqual({
        jsonrpc: '2.0',
        id: 4,
        error: { code: -32602, message: `MCP error -32602: Invalid params: ${problem} (tools/call takes params {"name": <tool>, "arguments": {…}})` },
      });
    }
  });
  it('leaves the Accept rule to the SDK: 406 unless the client accepts JSON and SSE', async () => {
    const result = await handleMcp(mcpPost(initialize('2025-06-18'), { accept: 'application/json' }), generationMcp(deps));
    expect(result.statusCode).toBe(406);
  });
});

describe('API Gateway v2 event ⇄ web Request/Response', () => {
  it('rebuilds the URL from the base URL, path and raw query, with method, headers and cookies', async () => {
    const request = toWebRequest(
      httpEvent({ query: 'a=1&b=two', headers: { 'content-type': 'application/json', 'content-length': '2', 'x-custom': 'v' }, body: '{}', cookies: ['a=1', 'b=2'] }),
    );
    expect(request.url).toBe('https://api.test/api/mcp?a=1&b=two');
    expect(request.method).toBe('POST');
    expect(request.headers.get('x-custom')).toBe('v');
    expect(request.headers.get('cookie')).toBe('a=1; b=2');
    expect(await request.text()).toBe('{}');
  });
  it('decodes a base64 body and gives GET no body', async () => {
    const encoded = toWebRequest(httpEvent({ body: Buffer.from('{"x":1}').toString('base64'), base64: true }));
    expect(await encoded.json()).toEqual({ x: 1 });
    expect(toWebRequest(httpEvent({ method: 'GET' })).body).toBeNull();
  });
  it('turns a Response into status, flat headers, text body and cookies', async () => {
    const headers = new Headers({ 'content-type': 'application/json', 'x-a': '1' });
    headers.append('set-cookie', 'c=1');
    headers.append('set-cookie', 'd=2');
    const result = await toHttpResult(new Response('{"ok":true}', { status: 201, headers }));
    expect(result).toEqual({ statusCode: 201, headers: { 'content-type': 'application/json', 'x-a': '1' }, body: '{"ok":true}', cookies: ['c=1', 'd=2'] });
    expect(await toHttpResult(new Response(null, { status: 202 }))).toEqual({ statusCode: 202, headers: {}, body: '' });
  });
});
