/**
 * How an offer's official x402 `bazaar` declaration (`info` + `schema`) is built: by @x402/extensions itself, its
 * `declareDiscoveryExtension`, and for an HTTP route its resource-server extension's `enrichDeclaration` (which adds
 * the route's method, as the package's own middleware would per request). The declarations of the products
 * (lambdas/jobs/bazaar.source.ts) and of the agents (lambdas/agents/bazaar.source.ts) are built with these;
 * bin/generate-schemas.ts writes them to `*bazaar*.generated.ts` files and test/unit/discovery/bazaar.test.ts compares
 * the two and runs `validateDiscoveryExtension` on what is served. No function imports a bazaar source: the
 * package's bazaar chunk carries ajv (over 100 KiB), which no function bundle may.
 */
import { bazaarResourceServerExtension, declareDiscoveryExtension, type DeclareDiscoveryExtensionInput } from '@x402/extensions/bazaar';
import type { BazaarDeclaration } from './types.js';

/** The declaration of a POST route with a JSON body: an example body, its schema and an example answer. */
export function declarePost(example: Record<string, unknown>, bodySchema: Record<string, unknown>, answer?: unknown): BazaarDeclaration {
  const output = answer === undefined ? {} : { output: { example: answer } };
  const { bazaar } = declareDiscoveryExtension({ bodyType: 'json', input: example, inputSchema: bodySchema, ...output });
  type Context = Parameters<NonNullable<typeof bazaarResourceServerExtension.enrichDeclaration>>[1];
  const context = { method: 'POST', adapter: {} } as unknown as Context;
  const { info, schema } = bazaarResourceServerExtension.enrichDeclaration!(bazaar, context) as BazaarDeclaration;
  return { info, schema };
}

/** The transport both MCP servers speak. */
const MCP_TRANSPORT = 'streamable-http';

/** The declaration of a priced MCP tool: the package's MCP form (no method: a tool is called, not routed). */
export function declareTool(toolName: string, inputSchema: Record<string, unknown>, example: Record<string, unknown>, answer?: unknown): BazaarDeclaration {
  const config = { toolName, transport: MCP_TRANSPORT, inputSchema, example, ...(answer === undefined ? {} : { output: { example: answer } }) };
  const { info, schema } = declareDiscoveryExtension(config).bazaar as unknown as BazaarDeclaration;
  return { info, schema };
}
