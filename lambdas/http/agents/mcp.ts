/**
 * POST /api/mcp of the agent studio (and GET, answered 405): MCP over stateless Streamable HTTP, one tool per eligible
 * published agent (lambdas/agents/mcp-tools.ts), priced calls billed from workspace credit (docs/decisions/0015).
 * The Middy chain: frame (the agent studio's Error bodies) ▸ optional workspace bearer (none: no workspace; a
 * malformed or unknown key: 401 with `WWW-Authenticate: Bearer error="invalid_token"`, before any JSON-RPC is read)
 * ▸ the MCP exchange, whose tools see the workspace the bearer named.
 */
import type { Context } from 'aws-lambda';
import middy from '@middy/core';
import { frame } from '../../middleware/http-frame.js';
import { handleMcp } from '../../protocols/mcp/handle.js';
import { createAgentMcpServer } from '../../agents/mcp-tools.js';
import type { CreditRunDeps } from '../../agents/credit-run.js';
import { configuredReasoner } from '../../agents/reasoning/converse.js';
import { reasoningConfig } from '../../agents/reasoning/config.js';
import { CreditStore } from '../../store/credits.js';
import { RunStore } from '../../store/runs.js';
import { checkAtColdStart, storeConfig } from '../../shared/config.js';
import type { HttpEvent, HttpResult } from '../../shared/http.js';
import { AGENT_STUDIO } from '../../surfaces/surface.js';
import { optionalWorkspaceOf, workspaceBearer } from './workspace-auth.js';

checkAtColdStart(storeConfig, reasoningConfig);

let deps: CreditRunDeps | undefined;
function creditRunDeps(): CreditRunDeps {
  deps ??= { runs: new RunStore(), credits: credits(), reasoner: configuredReasoner() };
  return deps;
}
let store: CreditStore | undefined;
const credits = () => (store ??= new CreditStore());

export const handler = middy<HttpEvent, HttpResult, Error, Context>()
  .use(frame(AGENT_STUDIO))
  .use(workspaceBearer(credits, { optional: true }))
  .handler((event, context) =>
    handleMcp(event, {
      surface: AGENT_STUDIO,
      server: (baseUrl) => createAgentMcpServer({ ...creditRunDeps(), baseUrl, workspace: optionalWorkspaceOf(context) }),
    }),
  );
