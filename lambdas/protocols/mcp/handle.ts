/**
 * One HTTP exchange of the MCP endpoint: Origin check, then the SDK's web-standard Streamable HTTP transport in
 * stateless JSON mode. The SDK owns the protocol (JSON-RPC parsing, 406 without `Accept: application/json,
 * text/event-stream`, 415, 202 for notifications, tool argument validation); this file only adapts the event.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { baseUrl, header, json, type HttpEvent, type HttpResult } from '../../shared/http.js';
import { logger } from '../../shared/logger.js';
import { httpConfig } from '../../shared/config.js';
import { isAllowedOrigin } from './origin.js';
import { createMcpServer } from './server.js';
import type { ToolDeps } from './tools.js';
import { toHttpResult, toWebRequest } from './web.js';

export type McpDeps = Omit<ToolDeps, 'baseUrl'> & { allowedOrigins?: string[]; publicBaseUrl?: string | null };

export async function handleMcp(event: HttpEvent, deps: McpDeps): Promise<HttpResult> {
  const { allowedOrigins, publicBaseUrl, ...toolDeps } = deps;
  const base = baseUrl(event);
  const origin = header(event, 'origin');
  const service = { publicBaseUrl: publicBaseUrl === undefined ? httpConfig().publicBaseUrl : publicBaseUrl ?? undefined, requestBase: base };
  if (!isAllowedOrigin(origin, service, allowedOrigins)) {
    logger.warn('mcp request from a foreign origin refused', { origin });
    return rpcError(403, 'Forbidden: Origin not allowed');
  }
  // Stateless: there is no session to attach a server-to-client SSE stream (GET) or to delete (DELETE).
  if (event.requestContext.http.method.toUpperCase() !== 'POST') {
    return rpcError(405, 'Method not allowed: this MCP endpoint is stateless; POST JSON-RPC messages', { Allow: 'POST' });
  }

  const server = createMcpServer({ ...toolDeps, baseUrl: base });
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
