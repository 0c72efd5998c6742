/**
 * The MCP server of the generation surface: the official SDK's McpServer with the five catalog tools, built fresh
 * per HTTP request (stateless Streamable HTTP, as the SDK's stateless examples do: no session, nothing shared).
 * `tools/call` is answered by `answerToolCalls`, so unknown tools and invalid arguments are JSON-RPC errors.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InitializeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { answerToolCalls } from './calls.js';
import { registerTools, type ToolDeps } from './tools.js';

/** The one MCP protocol revision this endpoint speaks (spec, "Versioning" point 6). */
export const MCP_PROTOCOL_VERSION = '2025-06-18';
export const SERVER_INFO = { name: 'paycall-generation', version: '1.0.0' } as const;

const INSTRUCTIONS =
  'Generation service paid per call over x402 (USDC on Base). The create_music, agent_video and agent_image tools ' +
  'return a payment pointer instead of running the job: pay the HTTP endpoint it names. ' +
  'create_music_with_token pays with an agent-payment token; get_music_with_token polls a song for free.';

export function createMcpServer(deps: ToolDeps): McpServer {
  const server = new McpServer(SERVER_INFO, { instructions: INSTRUCTIONS });
  answerToolCalls(server, registerTools(server, deps));
  pinInitialize(server, SERVER_INFO, INSTRUCTIONS);
  return server;
}

/**
 * SDK 1.32 answers `initialize` with the client's requested version whenever it is in its own
 * SUPPORTED_PROTOCOL_VERSIONS (a module constant, no option), so its own client, which asks for 2025-11-25, would
 * get 2025-11-25. This server implements 2025-06-18 only, so the built-in handler is replaced through the public
 * `setRequestHandler`: MCP lets a server answer a different version than requested, and the client then decides
 * whether it can speak it (the SDK client accepts 2025-06-18 and sends it as `MCP-Protocol-Version` afterwards).
 * The built-in handler otherwise only records client info, which a per-request server never reads.
 */
export function pinInitialize(server: McpServer, serverInfo: { name: string; version: string }, instructions: string): void {
  server.server.setRequestHandler(InitializeRequestSchema, () => ({
    protocolVersion: MCP_PROTOCOL_VERSION,
    // Tools only. McpServer registers listChanged: true, but a stateless server has no stream to send it on.
    capabilities: { tools: { listChanged: false } },
    serverInfo,
    instructions,
  }));
}
