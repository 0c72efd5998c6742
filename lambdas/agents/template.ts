/**
 * The portable template bundle of an agent (GET /api/agents/{agent}/template): a JSON attachment holding the flow
 * (the agent's definition, schemas, example and price), a run client (an ES module that pays with the official
 * `@x402/fetch` client) and a README. The run client is served as text and runs unchanged: a test writes it to
 * a file and runs it against the embedded service.
 */
import type { DiscoveryContext } from '../protocols/discovery/context.js';
import type { AgentListing } from './listing.js';
import { agentInputSchema, engineId, publishedExample, resultJsonSchema } from './published.js';
import { agentIdentity, agentLinks } from './documents.js';
import { usdcNumber } from './money.js';

export function templateBundle(agent: AgentListing, ctx: DiscoveryContext) {
  const links = agentLinks(ctx.base, agent);
  const example = publishedExample(agent);
  return {
    format: 'paycall-agent-template/1',
    agent: agent.slug,
    flow: {
      ...agentIdentity(agent),
      engine: engineId(agent),
      steps: [{ id: 'analyse', engine: engineId(agent), input: 'input', output: 'result' }],
      inputSchema: agentInputSchema(agent),
      resultSchema: resultJsonSchema(agent),
      example,
      price: { amount: agent.price.toString(), amountUsdc: usdcNumber(agent.price), currency: 'USDC', network: ctx.terms.network },
      run: { method: 'POST', url: links.run, body: '{ "input": { … }, "dryRun": false }' },
      humanReview: agent.humanReview,
    },
    runClient: { filename: 'run.mjs', language: 'javascript', source: runClientSource(agent, links.run!, ctx.terms.network, example.input) },
    readme: { filename: 'README.md', text: readme(agent, links.run!) },
  };
}

function runClientSource(agent: AgentListing, runUrl: string, network: string, exampleInput: Record<string, string>): string {
  return `// Runs "${agent.name}" (${agent.slug}) once and prints the answer. Priced runs are paid with x402 by the
// official client: npm install @x402/fetch @x402/evm viem
//   BUYER_PRIVATE_KEY=0x… node run.mjs [input.json]
// Environment: BUYER_PRIVATE_KEY (a wallet holding USDC; no gas needed), AGENT_RUN_URL (default below),
// DRY_RUN=1 for a free preview. input.json holds the agent's input object; without it the example input is sent.
import { readFile } from 'node:fs/promises';
import { wrapFetchWithPaymentFromConfig } from '@x402/fetch';
import { ExactEvmScheme } from '@x402/evm';
import { privateKeyToAccount } from 'viem/accounts';

const url = process.env.AGENT_RUN_URL ?? ${JSON.stringify(runUrl)};
const input = process.argv[2] ? JSON.parse(await readFile(process.argv[2], 'utf8')) : ${JSON.stringify(exampleInput, null, 2).replace(/\n/g, '\n  ')};
const body = JSON.stringify({ input, ...(process.env.DRY_RUN === '1' ? { dryRun: true } : {}) });

let pay = fetch;
if (process.env.BUYER_PRIVATE_KEY) {
  const account = privateKeyToAccount(process.env.BUYER_PRIVATE_KEY);
  pay = wrapFetchWithPaymentFromConfig(fetch, { schemes: [{ network: ${JSON.stringify(network)}, client: new ExactEvmScheme(account) }] });
}
const response = await pay(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
const answer = await response.json().catch(() => null);
console.log(JSON.stringify({ status: response.status, paymentResponse: response.headers.get('PAYMENT-RESPONSE'), answer }, null, 2));
process.exit(response.ok ? 0 : 1);
`;
}

function readme(agent: AgentListing, runUrl: string): string {
  return `# ${agent.name}

${agent.description}

- Run: \`POST ${runUrl}\` with \`{ "input": { … } }\` (the flow's inputSchema); \`"dryRun": true\` is a free preview.
- Price: ${agent.price === 0n ? 'free' : `${usdcNumber(agent.price)} USDC per successful run, paid with x402 (PAYMENT-SIGNATURE); nothing is charged when the run fails`}.
- Human review: ${agent.humanReview.join(' ') || 'none stated.'}

## Run it

    npm install @x402/fetch @x402/evm viem
    BUYER_PRIVATE_KEY=0x… node run.mjs            # the example input
    BUYER_PRIVATE_KEY=0x… node run.mjs input.json # your input object

The answer is \`{ runId, status, totalCostUsdc, outputs, result, settled }\`; keep the runId (support finds any
paid run by it) and the PAYMENT-RESPONSE header (the settlement transaction).
`;
}
