/**
 * `tools/call` of the generation surface. MCP 2025-06-18 (server/tools, "Error Handling") makes an unknown tool and
 * arguments that fail the tool's input schema protocol errors: a JSON-RPC error -32602 Invalid params. The SDK's
 * McpServer catches every throw on its call path, its own InvalidParams included, and answers it as a tool result
 * `isError: true`, so the tools stay registered on McpServer (which lists them) and this handler replaces its call
 * path through the public `setRequestHandler`. Failures while a tool runs (a refused payment, a song not found) stay
 * tool results with `isError: true`, which the tools build themselves.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from '../../shared/zod.js';
import { logger } from '../../shared/logger.js';

/** Schemas of either zod API (`zod` or `zod/mini`: the catalog's are mini ones), parsed with the function form. */
export interface ToolEntry {
  input: z.core.$ZodType;
  output?: z.core.$ZodType;
  run(args: unknown): Promise<CallToolResult>;
}
export type ToolTable = ReadonlyMap<string, ToolEntry>;

export function answerToolCalls(server: McpServer, tools: ToolTable): void {
  server.server.setRequestHandler(CallToolRequestSchema, async ({ params }) => {
    const tool = tools.get(params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
    const parsed = await z.safeParseAsync(tool.input, params.arguments ?? {});
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
      const summary = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
      throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for tool ${params.name}: ${summary}`, { issues });
    }
    return run(params.name, tool, parsed.data);
  });
}

async function run(name: string, tool: ToolEntry, args: unknown): Promise<CallToolResult> {
  let result: CallToolResult;
  try {
    result = await tool.run(args);
  } catch (error) {
    // A protocol error a tool found in its arguments (input its agent's engine cannot read) stays one.
    if (error instanceof McpError) throw error;
    // The tools answer their own failures; a throw is unexpected, and its message may name storage or a provider.
    logger.error('mcp tool failed', { tool: name, error: error instanceof Error ? error.message : String(error) });
    return { isError: true, content: [{ type: 'text', text: `Tool ${name} failed; retry shortly.` }] };
  }
  // MCP: structured results MUST conform to the declared output schema (McpServer checked this too). A
  // mismatch is this server's fault, hence a server error rather than a tool result.
  if (tool.output && !result.isError && !z.safeParse(tool.output, result.structuredContent).success) {
    logger.error('mcp tool result does not match its output schema', { tool: name });
    throw new McpError(ErrorCode.InternalError, `Tool ${name} produced an invalid result`);
  }
  return result;
}
