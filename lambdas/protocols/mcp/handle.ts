/**
 * One HTTP exchange of an MCP endpoint (the generation surface's, the agent studio's): Origin check, then the SDK's web-standard Streamable HTTP transport in
 * stateless JSON mode. The SDK owns the protocol (JSON-RPC parsing, 406 without `Accept: application/json,
 * text/event-stream`, 415, 202 for notifications, tool argument validation); this file only adapts the event, and
 * answers a request whose `params` is not an object itself (-32602, which the transport would call a parse error).
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { baseUrl, header, json, rawBody, type HttpEvent, type HttpResult } from '../../shared/http.js';
import { logger } from '../../shared/logger.js';
import { httpConfig } from '../../shared/config.js';
import { isAllowedOrigin } from './origin.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createMcpServer } from './server.js';
import { paramsNotAnObject } from './calls.js';
import type { ToolDeps } from './tools.js';
import { toHttpResult, toWebRequest } from './web.js';

/** One MCP endpoint: its server, built fresh for each request from the request's base URL, and its Origin rule. */
export interface McpEndpoint {
  server: (baseUrl: string) => McpServer;
  allowedOrigins?: string[];
  /** The configured public base URL; null: none (the request's own); undefined: read from the configuration. */
  publicBaseUrl?: string | null;
  /** Whose base URL the tools name (default: the generation surface's PUBLIC_BASE_URL). */
  surface?: { baseUrlEnv: string };
}

export type McpDeps = Omit<ToolDeps, 'baseUrl'> & Omit<McpEndpoint, 'server'>;

/** The generation surface's endpoint: its five catalog tools. */
export function generationMcp(deps: McpDeps): McpEndpoint {
  const { allowedOrigins, publicBaseUrl, ...toolDeps } = deps;
  return { server: (baseUrl) => createMcpServer({ ...toolDeps, baseUrl }), allowedOrigins, publicBaseUrl };
}

export async function handleMcp(event: HttpEvent, endpoint: McpEndpoint): Promise<HttpResult> {
  const { allowedOrigins, publicBaseUrl, surface = { baseUrlEnv: 'PUBLIC_BASE_URL' } } = endpoint;
  const base = baseUrl(event, surface);
  const origin = header(event, 'origin');
  const configured = publicBaseUrl === undefined ? httpConfig().publicBaseUrls[surface.baseUrlEnv] : publicBaseUrl ?? undefined;
  const service = { publicBaseUrl: configured, requestBase: base };
  if (!isAllowedOrigin(origin, service, allowedOrigins)) {
    logger.warn('mcp request from a foreign origin refused', { origin });
    return rpcError(403, 'Forbidden: Origin not allowed');
  }
  // Stateless: there is no session to attach a server-to-client SSE stream (GET) or to delete (DELETE).
  if (event.requestContext.http.method.toUpperCase() !== 'POST') {
    return rpcError(405, 'Method not allowed: this MCP endpoint is stateless; POST JSON-RPC messages', { Allow: 'POST' });
  }

  const malformed = paramsNotAnObject(rawBody(event));
  if (malformed) return json(200, malformed);

  const server = endpoint.server(base);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    const response = await transport.handleRequest(toWebRequest(event));
    return await toHttpResult(response);
  } finally {
    await server.close();
  }
}

function rpcError(status: number, message: string, headers: Record<string, string> = {}): HttpResult {
  return json(status, { jsonrpc: '2.0', error: { code: -32000, message }, id: null }, headers);
}
