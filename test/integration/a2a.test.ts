/**
 * The agent card's A2A 1.0 JSON-RPC interface at {base_url}/a2a, driven by @a2a-js/sdk's client (JSON-RPC
 * transport) against the running embedded service: each skill answers SendMessage with a direct agent message
 * carrying the same payment pointer the MCP tool of that skill gives.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientFactory, JsonRpcTransportFactory, type Client as A2aClient } from '@a2a-js/sdk/client';
import { Role, type AgentCard } from '@a2a-js/sdk';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { PRODUCT_IDS } from '../../lambdas/products/catalog.js';
import { fetchFrom, runtime } from '../support/buyer.js';

const IP = '127.0.0.23';
const f = fetchFrom(IP) as typeof fetch;
const factory = new ClientFactory({ transports: [new JsonRpcTransportFactory({ fetchImpl: f })] });

let mcp: McpClient;
beforeAll(async () => {
  mcp = new McpClient({ name: 'integration-test', version: '0.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${runtime().baseUrl}/api/mcp`), { fetch: fetchFrom(IP) }));
});
afterAll(async () => {
  await mcp?.close();
});

/** A card naming only the interface under test, so this file does not depend on the published card's other content. */
function cardFor(url: string): AgentCard {
  return {
    name: 'test',
    description: 'test',
    version: '0',
    supportedInterfaces: [{ url, protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' }],
    provider: undefined,
    capabilities: { streaming: false, pushNotifications: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['application/json'],
    defaultOutputModes: ['application/json'],
    skills: [],
    signatures: [],
  } as AgentCard;
}

async function sendToSkill(client: A2aClient, skillId: string) {
  return client.sendMessage({
    tenant: '',
    configuration: undefined,
    metadata: undefined,
    message: {
      messageId: crypto.randomUUID(),
      contextId: '',
      taskId: '',
      role: Role.ROLE_USER,
      parts: [{ content: { $case: 'data', value: { prompt: 'a lighthouse in a storm' } }, metadata: undefined, filename: '', mediaType: 'application/json' }],
      metadata: { skillId },
      extensions: [],
      referenceTaskIds: [],
    },
  });
}

function dataParts(result: unknown): unknown[] {
  const message = result as { role: Role; parts: { content?: { $case: string; value: unknown } }[] };
  expect(message.role).toBe(Role.ROLE_AGENT);
  return message.parts.filter((p) => p.content?.$case === 'data').map((p) => p.content!.value);
}

describe('A2A message send at {base_url}/a2a (JSON-RPC, A2A-Version 1.0)', () => {
  it.each(PRODUCT_IDS)('skill %s answers a ROLE_AGENT message whose data part is the MCP tool’s payment pointer', async (skill) => {
    const client = await factory.createFromAgentCard(cardFor(`${runtime().baseUrl}/a2a`));
    const result = await sendToSkill(client, skill);
    const tool = await mcp.callTool({ name: skill, arguments: { prompt: 'a lighthouse in a storm' } });
    expect(dataParts(result)).toEqual([tool.structuredContent]);
  });

  it('answers an unknown skill with a JSON-RPC error', async () => {
    const client = await factory.createFromAgentCard(cardFor(`${runtime().baseUrl}/a2a`));
    await expect(sendToSkill(client, 'general_video')).rejects.toMatchObject({ message: "Unknown skill 'general_video'" });
  });

  it('answers get and cancel of any task with TaskNotFound', async () => {
    const client = await factory.createFromAgentCard(cardFor(`${runtime().baseUrl}/a2a`));
    await expect(client.getTask({ tenant: '', id: 'task-1' })).rejects.toMatchObject({ name: 'TaskNotFoundError' });
    await expect(client.cancelTask({ tenant: '', id: 'task-1', metadata: undefined })).rejects.toMatchObject({ name: 'TaskNotFoundError' });
  });
});

describe('A document must not advertise what does not answer: the published agent card', () => {
  it('resolves to a JSON-RPC interface at {base_url}/a2a whose every skill answers the payment pointer', async () => {
    const client = await factory.createFromUrl(runtime().baseUrl);
    const card = await client.getAgentCard();
    expect(card.supportedInterfaces.find((i) => i.protocolBinding === 'JSONRPC')?.url).toBe(`${runtime().baseUrl}/a2a`);
    expect(card.skills.map((s) => s.id).sort()).toEqual([...PRODUCT_IDS].sort());
    for (const skill of card.skills) {
      const tool = await mcp.callTool({ name: skill.id, arguments: { prompt: 'x' } });
      expect(dataParts(await sendToSkill(client, skill.id))).toEqual([tool.structuredContent]);
    }
  });
});
