/**
 * The five MCP tools of the generation surface (spec, "MCP tools of the generation surface"). Names, titles,
 * prices and input schemas come from the catalog, so a price or a field changes in one place.
 *
 * - `create_music`, `agent_video`, `agent_image` (x402): answer the payment pointer and run nothing; the client
 *   then pays the HTTP endpoint, which is the only place a job is created or money moves.
 * - `create_music_with_token`: music paid with an agent-payment token, through the token port (a seam).
 * - `get_music_with_token`: the free poll of a song.
 */
import { z } from 'zod';
import * as mini from '../../shared/zod.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { PRODUCT_IDS, PRODUCTS, formatUsd, musicRequestSchema, type ProductId } from '../../products/catalog.js';
import type { PaymentTerms } from '../../jobs/offers.js';
import { logger } from '../../shared/logger.js';
import { paymentInstructions, paymentPointer, paymentPointerSchema } from '../payment-pointer.js';
import type { PayWithToken } from './token-port.js';
import type { ToolEntry, ToolTable } from './calls.js';
import { BAZAAR_META_KEY } from './bazaar.js';
import { MCP_BAZAAR } from './bazaar.generated.js';

export const TOKEN_MUSIC_TOOL = 'create_music_with_token';
export const TOKEN_POLL_TOOL = 'get_music_with_token';
export const TOOL_NAMES = [...PRODUCT_IDS, TOKEN_MUSIC_TOOL, TOKEN_POLL_TOOL] as const;

/** The song row of `GET /api/songs/{songId}`, or undefined when that route would answer 404. */
export type ReadSong = (songId: string, baseUrl: string) => Promise<Record<string, unknown> | undefined>;

export interface ToolDeps {
  baseUrl: string;
  payWithToken: PayWithToken;
  readSong: ReadSong;
  /** Defaults to the configured terms (the same ones the 402 challenge advertises). */
  terms?: PaymentTerms;
}

// The catalog's schemas are zod/mini ones (lambdas/shared/zod.ts), extended with its function form.
const tokenMusicSchema = mini.safeExtend(musicRequestSchema, {
  token: z
    .string()
    .min(1)
    .describe('Third-party agent-payment token (pay+jwt or kya-pay+jwt) scoped to the music seller service'),
});

const pollSchema = z.object({
  // DynamoDB rejects an empty key and keys over 1 KB; no songId we issue comes near that.
  songId: z.string().min(1).max(200).describe('The songId returned when the job was accepted'),
});

export function x402ToolDescription(product: ProductId, baseUrl: string): string {
  const p = PRODUCTS[product];
  return (
    `${p.description} Price: ${formatUsd(p.amount)} USDC per call, paid over x402 on Base at POST ${baseUrl}${p.path}. ` +
    'Calling this tool does not generate anything and charges nothing: it returns a payment pointer ' +
    '(structuredContent) naming the endpoint, price and receiver; send the same arguments to that endpoint with payment.'
  );
}

interface ToolConfig<I extends z.core.$ZodType> {
  title: string;
  description: string;
  inputSchema: I;
  outputSchema?: z.core.$ZodType;
  annotations: ToolAnnotations;
  _meta?: Record<string, unknown>;
}

/**
 * Registers the five tools on McpServer, which lists them, and returns the table `answerToolCalls` runs them from
 * (McpServer's own call path would answer protocol errors as tool results).
 */
export function registerTools(server: McpServer, deps: ToolDeps): ToolTable {
  const table = new Map<string, ToolEntry>();
  const tool = <I extends z.core.$ZodType>(name: string, config: ToolConfig<I>, run: (args: z.output<I>) => Promise<CallToolResult>) => {
    // `input` parses the arguments before `run` sees them (answerToolCalls), hence the cast.
    const entry: ToolEntry = { input: config.inputSchema, output: config.outputSchema, run: (args) => run(args as z.output<I>) };
    server.registerTool(name, { ...config, inputSchema: entry.input }, (args) => entry.run(args));
    table.set(name, entry);
  };

  for (const product of PRODUCT_IDS) {
    const p = PRODUCTS[product];
    tool(
      product,
      {
        title: p.title,
        description: x402ToolDescription(product, deps.baseUrl),
        inputSchema: p.schema,
        outputSchema: paymentPointerSchema,
        // No side effects: the tool only describes how to pay.
        annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
        // A priced tool: its official bazaar declaration (lambdas/protocols/mcp/bazaar.ts).
        _meta: { [BAZAAR_META_KEY]: MCP_BAZAAR[product] },
      },
      async (): Promise<CallToolResult> => {
        const pointer = paymentPointer(product, deps.baseUrl, deps.terms);
        return {
          structuredContent: pointer,
          // Text for clients that ignore structuredContent (MCP recommends the serialized JSON alongside).
          content: [
            { type: 'text', text: paymentInstructions(product, pointer) },
            { type: 'text', text: JSON.stringify(pointer) },
          ],
        };
      },
    );
  }

  tool(
    TOKEN_MUSIC_TOOL,
    {
      title: 'Create music (agent-payment token)',
      description:
        `${PRODUCTS.create_music.description} Paid with a third-party agent-payment token (pay+jwt, kya-pay+jwt) ` +
        `scoped to the music seller service, ${formatUsd(PRODUCTS.create_music.amount)} per song; queues a job and ` +
        `returns its songId and pollUrl. Poll with ${TOKEN_POLL_TOOL}.`,
      inputSchema: tokenMusicSchema,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    async ({ token, ...request }) => deps.payWithToken(token, 'create_music', request, deps.baseUrl),
  );

  tool(
    TOKEN_POLL_TOOL,
    {
      title: 'Get music (poll)',
      description:
        'Polls a songId for the finished track; free. model_version `pending`: poll again; `failed`: final; ' +
        'any other value: audio_url is the finished MP3.',
      inputSchema: pollSchema,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ songId }) => pollSong(songId, deps),
  );
  return table;
}

async function pollSong(songId: string, deps: ToolDeps): Promise<CallToolResult> {
  let row: Record<string, unknown> | undefined;
  try {
    row = await deps.readSong(songId, deps.baseUrl);
  } catch (error) {
    // The SDK would otherwise put the storage error's message in the tool result.
    logger.error('mcp song poll failed', { songId, error: error instanceof Error ? error.message : String(error) });
    return toolError('The song store is unavailable; nothing was charged. Retry shortly.');
  }
  if (!row) return toolError(`Song '${songId}' not found`);
  return { structuredContent: row, content: [{ type: 'text', text: JSON.stringify(row) }] };
}

function toolError(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}
