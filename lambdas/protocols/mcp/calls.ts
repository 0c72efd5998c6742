/**
 * `tools/call` of the generation surface. MCP 2025-06-18 (server/tools, "Error Handling") makes an unknown tool and
 * arguments that fail the tool's input schema protocol errors: a JSON-RPC error -32602 Invalid params. The SDK's
 * McpServer catches every throw on its call path, its own InvalidParams included, and answers it as a tool result
 * `isError: true`, so the tools stay registered on McpServer (which lists them) and this handler replaces its call
 * path. Failures while a tool runs (a refused payment, a song not found) stay tool results with `isError: true`, which
 * the tools build themselves.
 *
 * The handler is registered on the SDK's protocol layer, not through `Server.setRequestHandler`: both parse the
 * request with the SDK's CallToolRequestSchema before any handler runs, and a request without `params`, or whose
 * `params` has no `name`, then fails with the zod error's JSON as its message, as -32603 on the protocol layer. Here the request schema only names the method, and this file checks `params` itself: -32602 with
 * one line saying what is wrong. The result check the Server wrapper made (CallToolResultSchema) is made here too.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { CallToolRequestParamsSchema, CallToolResultSchema, ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from '../../shared/zod.js';
import { logger } from '../../shared/logger.js';

/** Schemas of either zod API (`zod` or `zod/mini`: the catalog's are mini ones), parsed with the function form. */
export interface ToolEntry {
  input: z.core.$ZodType;
  output?: z.core.$ZodType;
  run(args: unknown): Promise<CallToolResult>;
}
export type ToolTable = ReadonlyMap<string, ToolEntry>;

/** Only the method: `params` is checked by toolCallParams, so a malformed one is -32602 and not the parser's dump. */
const ToolCallRequest = z.looseObject({ method: z.literal('tools/call'), params: z.optional(z.unknown()) });

export function answerToolCalls(server: McpServer, tools: ToolTable): void {
  Protocol.prototype.setRequestHandler.call(server.server, ToolCallRequest, async (request: z.infer<typeof ToolCallRequest>) => {
    const params = toolCallParams(request.params);
    const tool = tools.get(params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
    const parsed = await z.safeParseAsync(tool.input, params.arguments ?? {});
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
      const summary = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
      throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for tool ${params.name}: ${summary}`, { issues });
    }
    const result = await run(params.name, tool, parsed.data);
    const checked = CallToolResultSchema.safeParse(result);
    if (!checked.success) {
      logger.error('mcp tool result is not a CallToolResult', { tool: params.name });
      throw new McpError(ErrorCode.InternalError, `Tool ${params.name} produced an invalid result`);
    }
    return checked.data;
  });
}

/**
 * A single JSON-RPC request whose `params` is there but is not an object (a string, a number, null, an array): the
 * SDK's transport refuses the whole message as a -32700 parse error with HTTP 400, though the JSON parsed; MCP's
 * params are objects, so it is -32602 here, answered for the request's id. undefined: anything else, the SDK's.
 */
export function paramsNotAnObject(body: string): { jsonrpc: '2.0'; id: string | number; error: { code: number; message: string } } | undefined {
  let message: unknown;
  try {
    message = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!isObject(message) || message.jsonrpc !== '2.0' || typeof message.method !== 'string' || !('params' in message) || isObject(message.params)) return undefined;
  const { id, method } = message;
  if (typeof id !== 'string' && !(typeof id === 'number' && Number.isInteger(id))) return undefined;
  const hint = method === 'tools/call' ? ` (${TOOL_CALL_SHAPE})` : '';
  return { jsonrpc: '2.0', id, error: { code: ErrorCode.InvalidParams, message: new McpError(ErrorCode.InvalidParams, `Invalid params: params of ${method} must be an object${hint}`).message } };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const TOOL_CALL_SHAPE = 'tools/call takes params {"name": <tool>, "arguments": {…}}';

/** `params` of a tools/call: an object naming the tool, its arguments an object when present; else -32602 in one line. */
function toolCallParams(params: unknown) {
  const parsed = CallToolRequestParamsSchema.safeParse(params);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${['params', ...issue.path.map(String)].join('.')}: ${issue.message}`);
  throw new McpError(ErrorCode.InvalidParams, `Invalid params: ${problems.join('; ').replace(/\s+/g, ' ')} (${TOOL_CALL_SHAPE})`);
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
