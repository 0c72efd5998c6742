/**
 * The agent studio's MCP server (spec, "MCP on the agent-studio surface"; docs/decisions/0015): the official SDK's
 * McpServer, built fresh per request like the generation surface's, pinned to MCP 2025-06-18, with one tool per
 * eligible published agent, all generated from the registry:
 *
 * - eligible: published (not a company employee, not a relay), with an immutable Live deployment (`isToolEligible`),
 *   and not configured to require AP2 mandates (MCP has no channel for them);
 * - tool name = the agent's slug; `inputSchema` = its input schema; `outputSchema` = its result schema;
 * - a call runs the agent and answers its result as `structuredContent` (and as JSON text); a priced agent's call is
 *   billed from the bearer's workspace credit (lambdas/agents/credit-run.ts), free agents need no key;
 * - no key, or credit short of the price: a tool error (`isError`) naming the shortfall and the top-up route, nothing
 *   done; its figures ride in `_meta`, never in `structuredContent` (a client checks that against the outputSchema
 *   even on an error);
 * - an unknown tool, arguments that fail the input schema, or input the agent's engine cannot read: JSON-RPC -32602
 *   (MCP 2025-06-18's rule, lambdas/protocols/mcp/calls.ts).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { answerToolCalls, type ToolEntry } from '../protocols/mcp/calls.js';
import { pinInitialize } from '../protocols/mcp/server.js';
import { BAZAAR_META_KEY } from '../protocols/mcp/bazaar.js';
import { AGENT_MCP_BAZAAR } from './bazaar-mcp.generated.js';
import { routePath } from '../surfaces/routes.js';
import { usdcNumber } from './money.js';
import { ap2ModeOf, isToolEligible, publishedAgents, type AgentDefinition } from './registry.js';
import { runOnCredit, type CreditRunDeps, type CreditRunOutcome } from './credit-run.js';
import type { Workspace } from '../store/credits.js';

export const AGENT_SERVER_INFO = { name: 'paycall-agent-studio', version: '1.0.0' } as const;

/** Where a tool result's run facts and a credit refusal's figures ride (`_meta`; the vendor key of A2A metadata). */
export const RUN_META_KEY = 'x-service/run';
export const CREDIT_META_KEY = 'x-service/credit';

/** The top-up tiers a refusal suggests (lambdas/credits/offers.ts is their source). */
const TOP_UP_HINT = 'tier=1, 5 or 20 (USDC)';

const INSTRUCTIONS =
  'Published business agents (vendor risk, bank reconciliation, expense policy, PO matching, …), one tool each. ' +
  'Priced tools are billed from prepaid workspace credit: send Authorization: Bearer <workspaceKey> (POST /api/workspaces ' +
  'creates a workspace and shows its key once) and top it up with POST /api/gateway/topup?tier=1|5|20 paid over x402 ' +
  '(USDC on Base). Free tools need no key. A call that fails on our side, or that the credit does not cover, is not billed.';

export interface AgentMcpDeps extends CreditRunDeps {
  /** The agent studio's base URL, for the routes a refusal names. */
  baseUrl: string;
  /** The workspace the request's bearer named; absent without a bearer. */
  workspace?: Workspace;
}

/** The agents MCP lists and runs, in registry order. */
export function toolAgents(): AgentDefinition[] {
  return publishedAgents().filter((agent) => isToolEligible(agent) && ap2ModeOf(agent) !== 'required');
}

export function createAgentMcpServer(deps: AgentMcpDeps): McpServer {
  const server = new McpServer(AGENT_SERVER_INFO, { instructions: INSTRUCTIONS });
  const table = new Map<string, ToolEntry>();
  for (const agent of toolAgents()) {
    const entry: ToolEntry = { input: agent.inputSchema, output: agent.resultSchema, run: (args) => callAgent(deps, agent, args as Record<string, unknown>) };
    server.registerTool(
      agent.slug,
      {
        title: agent.name,
        description: toolDescription(agent),
        inputSchema: agent.inputSchema,
        outputSchema: agent.resultSchema,
        // An analysis of the arguments alone: no side effect but the bill, and a priced call bills every time.
        annotations: { readOnlyHint: true, idempotentHint: agent.price === 0n, openWorldHint: false },
        // A priced tool carries its official bazaar declaration (lambdas/protocols/mcp/bazaar.ts).
        ...(AGENT_MCP_BAZAAR[agent.slug] ? { _meta: { [BAZAAR_META_KEY]: AGENT_MCP_BAZAAR[agent.slug] } } : {}),
      },
      (args: unknown) => entry.run(args),
    );
    table.set(agent.slug, entry);
  }
  answerToolCalls(server, table);
  pinInitialize(server, AGENT_SERVER_INFO, INSTRUCTIONS);
  return server;
}

function toolDescription(agent: AgentDefinition): string {
  const billing =
    agent.price === 0n
      ? 'Free: no workspace key needed.'
      : `Price: ${usdc(agent.price)} per successful call, billed from the workspace credit of the bearer key; a call that fails is not billed.`;
  return `${agent.description} ${billing}`;
}

async function callAgent(deps: AgentMcpDeps, agent: AgentDefinition, input: Record<string, unknown>): Promise<CallToolResult> {
  return present(await runOnCredit(deps, { agent, input, workspace: deps.workspace }), agent, deps.baseUrl);
}

function present(outcome: CreditRunOutcome, agent: AgentDefinition, base: string): CallToolResult {
  switch (outcome.type) {
    case 'done': {
      const { result, ...facts } = outcome.answer;
      return {
        structuredContent: result as Record<string, unknown>,
        content: [{ type: 'text', text: JSON.stringify(result) }],
        _meta: { [RUN_META_KEY]: { ...facts, creditsCharged: usdcNumber(outcome.charged) } },
      };
    }
    case 'invalid-input':
      throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for tool ${agent.slug}: ${outcome.field}: ${outcome.message}`, {
        issues: [{ path: outcome.field, message: outcome.message }],
      });
    case 'no-workspace':
      return creditRefusal(
        `${agent.slug} costs ${usdc(outcome.price)} per call, billed from workspace credit, and no workspace key was sent. ` +
          `Create a workspace with POST ${base}${routePath('CreateWorkspace')}, top it up with POST ${base}${routePath('GatewayTopUp')}?tier=1 ` +
          `(${TOP_UP_HINT}, paid over x402) and send Authorization: Bearer <workspaceKey>. Nothing was run or billed.`,
        { priceUsdc: usdcNumber(outcome.price), shortfallUsdc: usdcNumber(outcome.price), topUp: `${base}${routePath('GatewayTopUp')}`, createWorkspace: `${base}${routePath('CreateWorkspace')}` },
      );
    case 'insufficient-credit': {
      const shortfall = outcome.price - outcome.balance;
      return creditRefusal(
        `Insufficient credit: ${agent.slug} costs ${usdc(outcome.price)}, the workspace holds ${usdc(outcome.balance)}; ` +
          `${usdc(shortfall)} short. Top up with POST ${base}${routePath('GatewayTopUp')}?tier=1 (${TOP_UP_HINT}, paid over x402, ` +
          'with this bearer). Nothing was billed.',
        { priceUsdc: usdcNumber(outcome.price), balanceUsdc: usdcNumber(outcome.balance), shortfallUsdc: usdcNumber(shortfall), topUp: `${base}${routePath('GatewayTopUp')}` },
      );
    }
  }
}

function usdc(amount: bigint): string {
  return `${usdcNumber(amount)} USDC`;
}

function creditRefusal(text: string, figures: Record<string, unknown>): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }], _meta: { [CREDIT_META_KEY]: figures } };
}
