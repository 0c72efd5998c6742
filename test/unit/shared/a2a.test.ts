/**
 * The agent studio's A2A 1.0 HTTP+JSON pieces without a server: every card is a valid A2A 1.0 AgentCard (the members
 * a2a-lint and the proto require, and nothing else: the AgentCard schema with every object closed) that keeps the
 * spec's capability, provider and pricing, the studio's own facts in its data-only extension; the version rule; the
 * google.rpc.Status bodies the SDK types errors from.
 */
import { describe, expect, it } from 'vitest';
import { AgentCard } from '@a2a-js/sdk';
import {
  PushNotificationNotSupportedError,
  RequestMalformedError,
  TaskNotFoundError,
  UnsupportedOperationError,
  VersionNotSupportedError,
  ContentTypeNotSupportedError,
} from '@a2a-js/sdk/errors';
import { RestTransportFactory } from '@a2a-js/sdk/client';
import { agentCard, rootCard } from '../../../lambdas/agents/documents.js';
import { publishedAgents } from '../../../lambdas/agents/listing.js';
import { A2aError, checkVersion, pushUnsupported, streamingUnsupported, taskNotFound } from '../../../lambdas/shared/a2a.js';
import { a2aErrors } from '../../../lambdas/surfaces/error-presenters.js';
import { AgentInputError, NotFoundError, RateLimitedError, ValidationError } from '../../../lambdas/shared/errors.js';
import type { DiscoveryContext } from '../../../lambdas/protocols/discovery/context.js';
import { agentCardProblems } from '../../support/a2a-agent-card-schema.js';

const BASE = 'https://agents.example';
const ctx: DiscoveryContext = {
  base: BASE,
  terms: { network: 'eip155:8453', usdcAddress: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', payTo: `0x${'11'.repeat(20)}` },
  settledBy: 'self',
};

/** The AgentCard members A2A 1.0 requires (a2a.proto REQUIRED fields), as a linter checks them. */
function expectValidA2aCard(card: any, interfaceUrl: string) {
  for (const member of ['name', 'description', 'version']) expect(typeof card[member] === 'string' && card[member] !== '', member).toBe(true);
  expect(card.supportedInterfaces).toEqual([{ url: interfaceUrl, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }]);
  expect(card.provider).toEqual({ organization: 'Paycall', url: BASE });
  expect(card.capabilities).toMatchObject({ streaming: false, pushNotifications: false, extendedAgentCard: false });
  expect(card.capabilities.extensions).toContainEqual(expect.objectContaining({ uri: 'https://github.com/google-agentic-commerce/ap2/v1', required: false }));
  expect(card.defaultInputModes.length).toBeGreaterThan(0);
  expect(card.defaultOutputModes.length).toBeGreaterThan(0);
  expect(card.skills.length).toBeGreaterThan(0);
  for (const skill of card.skills) {
    for (const member of ['id', 'name', 'description']) expect(typeof skill[member] === 'string' && skill[member] !== '', `${skill.id} ${member}`).toBe(true);
    expect(skill.tags.length, skill.id).toBeGreaterThan(0);
  }
  // 0.3's top-level members are gone (a 1.0 reader ignores them; a 0.3 reader would call the wrong endpoint).
  for (const member of ['url', 'preferredTransport', 'protocolVersion']) expect(card, member).not.toHaveProperty(member);
  // Nothing the A2A 1.0 AgentCard does not define, anywhere in it.
  expect(agentCardProblems(card)).toEqual([]);
  // The SDK's own reading keeps what matters.
  const parsed = AgentCard.fromJSON(card);
  expect(parsed.supportedInterfaces[0]).toMatchObject({ url: interfaceUrl, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' });
  expect(parsed.skills.map((s) => s.id)).toEqual(card.skills.map((s: any) => s.id));
}

/** The params of the card's data-only extension: the studio's own facts (URI: the services feed). */
function cardData(card: any) {
  const extension = card.capabilities.extensions.find((e: any) => e.uri === `${BASE}/api/services`);
  expect(extension, 'the data-only extension').toMatchObject({ required: false, params: expect.any(Object) });
  return extension.params;
}

describe('A2A cards of the agent studio', () => {
  for (const agent of publishedAgents()) {
    it(`${agent.slug}: a valid A2A 1.0 AgentCard with its capability, provider and pricing`, () => {
      const card = agentCard(agent, ctx) as any;
      expectValidA2aCard(card, `${BASE}/api/agents/${agent.slug}/a2a`);
      expect(card.skills).toHaveLength(1);
      expect(card.skills[0]).toMatchObject({ id: agent.slug, name: agent.name, tags: [...agent.tags] });
      const data = cardData(card);
      expect(data.capability).toMatchObject({ slug: agent.slug, id: agent.legacyId, kind: agent.kind, a2a: `${BASE}/api/agents/${agent.slug}/a2a` });
      expect(data.capability.endpoint).toMatch(new RegExp(`^${BASE}/api/agents/.+/run$`));
      expect(data.pricing).toMatchObject({ amount: agent.price.toString(), currency: 'USDC' });
      expect(data.links).toMatchObject({ x402: `${BASE}/api/agents/${agent.slug}/.well-known/x402` });
    });
  }

  it('the root card: the root interface, one skill per published agent (named in x-service.agent), pricing and payments kept', () => {
    const card = rootCard(ctx) as any;
    expectValidA2aCard(card, `${BASE}/api/a2a`);
    expect(card.skills.map((s: any) => s.id)).toEqual(publishedAgents().map((a) => a.slug));
    for (const skill of card.skills) expect(skill.description).toContain(`"x-service"].agent = "${skill.id}"`);
    const data = cardData(card);
    expect(data).toMatchObject({ payments: expect.any(Array), dryRun: true, pricing: { currency: 'USDC', network: 'eip155:8453' } });
    // Each skill's price and card, keyed by skill id.
    expect(Object.keys(data.skills)).toEqual(card.skills.map((s: any) => s.id));
    for (const agent of publishedAgents()) {
      expect(data.skills[agent.slug]).toEqual({ priceUsdc: Number(agent.price) / 1e6, card: `${BASE}/api/agents/${agent.slug}/.well-known/agent-card.json` });
    }
  });
});

describe('A2A-Version', () => {
  it('accepts 1.0 and its patch versions', () => {
    for (const version of ['1.0', ' 1.0 ', '1.0.1', '1.0.12']) expect(() => checkVersion(version, undefined), version).not.toThrow();
    expect(() => checkVersion(undefined, '1.0')).not.toThrow();
  });

  it('refuses a missing version (0.3), 0.3, 1.1, 2.0 and junk with VersionNotSupported; the header wins over the query', () => {
    for (const [header, query] of [[undefined, undefined], ['', undefined], ['0.3', undefined], ['1.1', undefined], ['2.0', undefined], ['1', undefined], ['latest', undefined], ['0.3', '1.0']]) {
      let error: unknown;
      try {
        checkVersion(header, query);
      } catch (e) {
        error = e;
      }
      expect(error, `${header}/${query}`).toBeInstanceOf(A2aError);
      expect((error as A2aError).reason).toBe('VERSION_NOT_SUPPORTED');
    }
    expect(() => checkVersion(undefined, undefined)).toThrow("The requested A2A protocol version '0.3' is not supported. Supported versions: 1.0");
  });
});

describe('A2A error bodies (google.rpc.Status, typed by ErrorInfo.reason)', () => {
  /** What the SDK's REST transport makes of an answer. */
  async function sdkErrorOf(answer: { statusCode: number; headers: Record<string, string>; body?: string }) {
    const fetchImpl = (async () => new Response(answer.body, { status: answer.statusCode, headers: answer.headers })) as typeof fetch;
    const transport = await new RestTransportFactory({ fetchImpl }).create('https://x.example/a2a', AgentCard.fromJSON(rootCard(ctx)));
    try {
      await transport.getTask({ tenant: '', id: 't' });
    } catch (error) {
      return error;
    }
    throw new Error('no error');
  }

  it('each A2A error is its spec status and reason, in application/a2a+json, and the SDK types it', async () => {
    const cases = [
      [taskNotFound('t-1'), 404, 'NOT_FOUND', TaskNotFoundError],
      [streamingUnsupported(), 400, 'FAILED_PRECONDITION', UnsupportedOperationError],
      [pushUnsupported(), 400, 'FAILED_PRECONDITION', PushNotificationNotSupportedError],
      [(() => { try { checkVersion(undefined, undefined); } catch (e) { return e; } })(), 400, 'FAILED_PRECONDITION', VersionNotSupportedError],
      [new A2aError('CONTENT_TYPE_NOT_SUPPORTED', 'no'), 415, 'INVALID_ARGUMENT', ContentTypeNotSupportedError],
    ] as const;
    for (const [error, code, status, type] of cases) {
      const answer = a2aErrors(error);
      expect(answer.statusCode).toBe(code);
      expect(answer.headers['Content-Type']).toBe('application/a2a+json');
      const body = JSON.parse(answer.body as string);
      expect(body.error).toMatchObject({ code, status, message: (error as Error).message });
      expect(body.error.details[0]).toMatchObject({ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: (error as A2aError).reason, domain: 'a2a-protocol.org' });
      expect(await sdkErrorOf(answer)).toBeInstanceOf(type);
    }
  });

  it('a body that does not validate and input the agent cannot read are INVALID_PARAMS with a BadRequest naming the member', async () => {
    const invalid = a2aErrors(new ValidationError([{ loc: ['message', 'parts', 0, 'data', 'bankStatement'], msg: 'Field required', type: 'missing' }]));
    expect(invalid.statusCode).toBe(400);
    const body = JSON.parse(invalid.body as string);
    expect(body.error.status).toBe('INVALID_ARGUMENT');
    expect(body.error.details[1]).toEqual({
      '@type': 'type.googleapis.com/google.rpc.BadRequest',
      fieldViolations: [{ field: 'message.parts[0].data.bankStatement', description: 'Field required', reason: 'missing' }],
    });
    expect(await sdkErrorOf(invalid)).toBeInstanceOf(RequestMalformedError);
    const unreadable = JSON.parse(a2aErrors(new AgentInputError('export', 'no table')).body as string);
    expect(unreadable.error.details[0]).toMatchObject({ reason: 'INVALID_PARAMS', metadata: { field: 'export' } });
  });

  it('the run route errors keep their status and headers, with the Error code as an ErrorInfo reason of our own domain', () => {
    const notFound = a2aErrors(new NotFoundError("No published agent 'x'"));
    expect(notFound.statusCode).toBe(404);
    expect(JSON.parse(notFound.body as string).error).toMatchObject({ code: 404, status: 'NOT_FOUND', details: [{ reason: 'NOT_FOUND', domain: 'agent-studio.paycall' }] });
    const limited = a2aErrors(new RateLimitedError(7));
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['Retry-After']).toBe('7');
    expect(JSON.parse(limited.body as string).error).toMatchObject({ status: 'RESOURCE_EXHAUSTED', details: [{ reason: 'RATE_LIMITED' }] });
    const internal = a2aErrors(new Error('boom'));
    expect(internal.statusCode).toBe(500);
    expect(JSON.parse(internal.body as string).error).toMatchObject({ code: 500, status: 'INTERNAL', details: [] });
  });
});
