/**
 * The AgentCard schema the cards are held to (test/support/a2a-agent-card-schema.ts) is A2A 1.0's: a card using
 * every member the proto defines, each security scheme and OAuth flow included, is what @a2a-js/sdk's generated
 * AgentCard (from the same proto) reads and writes back unchanged, and the schema accepts it; every object is closed,
 * so a member A2A does not define is refused wherever it is, the extension params (a Struct) alone being free.
 */
import { describe, expect, it } from 'vitest';
import { AgentCard } from '@a2a-js/sdk';
import { AGENT_CARD_SCHEMA, agentCardProblems } from '../../support/a2a-agent-card-schema.js';

const scopes = { read: 'read things' };
const FULL_CARD = {
  name: 'Recipe Agent',
  description: 'Helps with recipes.',
  supportedInterfaces: [
    { url: 'https://agent.example/a2a', protocolBinding: 'HTTP+JSON', tenant: 't-1', protocolVersion: '1.0' },
    { url: 'https://agent.example/rpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
  ],
  provider: { url: 'https://example.com', organization: 'Example' },
  version: '1.2.3',
  documentationUrl: 'https://example.com/docs',
  capabilities: {
    streaming: true,
    pushNotifications: true,
    extensions: [{ uri: 'https://example.com/ext/v1', description: 'An extension', required: true, params: { any: ['json', 1, { deep: true }] } }],
    extendedAgentCard: true,
  },
  securitySchemes: {
    key: { apiKeySecurityScheme: { description: 'a key', location: 'header', name: 'X-Key' } },
    bearer: { httpAuthSecurityScheme: { description: 'a bearer', scheme: 'Bearer', bearerFormat: 'JWT' } },
    code: {
      oauth2SecurityScheme: {
        description: 'oauth',
        flows: { authorizationCode: { authorizationUrl: 'https://a.example/auth', tokenUrl: 'https://a.example/token', refreshUrl: 'https://a.example/r', scopes, pkceRequired: true } },
        oauth2MetadataUrl: 'https://a.example/.well-known/oauth-authorization-server',
      },
    },
    client: { oauth2SecurityScheme: { flows: { clientCredentials: { tokenUrl: 'https://a.example/token', refreshUrl: 'https://a.example/r', scopes } } } },
    device: { oauth2SecurityScheme: { flows: { deviceCode: { deviceAuthorizationUrl: 'https://a.example/device', tokenUrl: 'https://a.example/token', refreshUrl: 'https://a.example/r', scopes } } } },
    implicit: { oauth2SecurityScheme: { flows: { implicit: { authorizationUrl: 'https://a.example/auth', refreshUrl: 'https://a.example/r', scopes } } } },
    password: { oauth2SecurityScheme: { flows: { password: { tokenUrl: 'https://a.example/token', refreshUrl: 'https://a.example/r', scopes } } } },
    oidc: { openIdConnectSecurityScheme: { description: 'oidc', openIdConnectUrl: 'https://a.example/.well-known/openid-configuration' } },
    mtls: { mtlsSecurityScheme: { description: 'mtls' } },
  },
  securityRequirements: [{ schemes: { bearer: { list: ['any'] }, code: { list: ['read'] } } }],
  defaultInputModes: ['application/json'],
  defaultOutputModes: ['application/json', 'text/plain'],
  skills: [
    {
      id: 'recipes',
      name: 'Recipes',
      description: 'Finds recipes',
      tags: ['cooking'],
      examples: ['a cake'],
      inputModes: ['text/plain'],
      outputModes: ['application/json'],
      securityRequirements: [{ schemes: { key: { list: ['read'] } } }],
    },
  ],
  signatures: [{ protected: 'eyJhbGciOiJFUzI1NiJ9', signature: 'c2ln', header: { kid: 'k1' } }],
  iconUrl: 'https://example.com/icon.png',
};

/** Every object schema of the schema, with its path. */
function objectSchemas(node: unknown, path = '#'): [string, Record<string, unknown>][] {
  if (typeof node !== 'object' || node === null) return [];
  const entries = Object.entries(node as Record<string, unknown>).flatMap(([key, value]) => objectSchemas(value, `${path}/${key}`));
  return (node as { type?: unknown }).type === 'object' ? [[path, node as Record<string, unknown>], ...entries] : entries;
}

describe('the A2A 1.0 AgentCard schema', () => {
  it('accepts a card with every member of the proto, which the SDK reads and writes back unchanged', () => {
    expect(AgentCard.toJSON(AgentCard.fromJSON(FULL_CARD))).toEqual(FULL_CARD);
    expect(agentCardProblems(FULL_CARD)).toEqual([]);
  });

  it('closes every object but the Struct of an extension\'s params and a signature\'s header', () => {
    const open = objectSchemas(AGENT_CARD_SCHEMA.$defs)
      .filter(([, schema]) => schema.additionalProperties !== false && !(typeof schema.additionalProperties === 'object'))
      .map(([path]) => path);
    expect(open).toEqual(['#/AgentExtension/properties/params', '#/AgentCardSignature/properties/header']);
  });

  it('refuses a member A2A does not define, at the top, in capabilities, in a skill, in an interface', () => {
    const cases: [string, (card: any) => void, string][] = [
      ['top level (0.3 url)', (card) => (card.url = 'https://agent.example/a2a'), '/: must NOT have additional properties (url)'],
      ['capabilities', (card) => (card.capabilities.payments = ['x402']), '/capabilities: must NOT have additional properties (payments)'],
      ['a skill', (card) => (card.skills[0].priceUsdc = 0.5), '/skills/0: must NOT have additional properties (priceUsdc)'],
      ['an interface', (card) => (card.supportedInterfaces[0].transport = 'HTTP+JSON'), '/supportedInterfaces/0: must NOT have additional properties (transport)'],
      ['an extension', (card) => (card.capabilities.extensions[0].name = 'x'), '/capabilities/extensions/0: must NOT have additional properties (name)'],
    ];
    for (const [where, change, problem] of cases) {
      const card = structuredClone(FULL_CARD);
      change(card);
      expect(agentCardProblems(card), where).toEqual([problem]);
    }
  });

  it('refuses a card without a member the proto requires, and a security scheme of two kinds', () => {
    const { skills: _skills, ...noSkills } = FULL_CARD;
    expect(agentCardProblems(noSkills)).toEqual(["/: must have required property 'skills'"]);
    const twoKinds = structuredClone(FULL_CARD) as any;
    twoKinds.securitySchemes.key.mtlsSecurityScheme = {};
    expect(agentCardProblems(twoKinds)).toEqual(['/securitySchemes/key: must NOT have more than 1 properties']);
  });
});
