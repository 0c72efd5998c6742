/**
 * The agent studio's A2A 1.0 HTTP+JSON interfaces (per agent at /api/agents/<slug>/a2a, and the root at /api/a2a)
 * against the embedded service. The official client (@a2a-js/sdk, its REST transport) finds each card where A2A
 * clients look (`.well-known/agent-card.json` relative to the URL it is given) and pays with @x402/fetch as its
 * fetchImpl: a priced send answers the run route's 402, the retry with PAYMENT-SIGNATURE runs and settles once, and
 * the same message resent is the same answer, uncharged. Every other operation, and every error, is checked on the
 * wire too: google.rpc.Status bodies typed by ErrorInfo.reason, in application/a2a+json.
 */
import { describe, expect, it } from 'vitest';
import { evidenceProblems } from '../support/evidence.js';
import { ClientFactory, ClientFactoryOptions, RestTransportFactory, type Client } from '@a2a-js/sdk/client';
import { AgentCard, Role, type Message } from '@a2a-js/sdk';
import {
  isRestError,
  PushNotificationNotSupportedError,
  RequestMalformedError,
  TaskNotFoundError,
  UnsupportedOperationError,
  VersionNotSupportedError,
} from '@a2a-js/sdk/errors';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import { wrapFetchWithPayment as wrapFetchV1 } from 'x402-fetch';
import { privateKeyToAccount } from 'viem/accounts';
import { fetchFrom, freshBuyer, payingFetch, runtime, transfersFrom, type FetchLike } from '../support/buyer.js';
import { challengeOf, signedHeader } from '../support/sign.js';

const BANK_REC = 'bank-rec-discrepancy-finder-bw0tt';
const FREE = 'export-to-transactions-x7f3a';
const A2A_JSON = 'application/a2a+json';
const V1 = { 'A2A-Version': '1.0', 'Content-Type': 'application/json' };

// The reconciliation of agent-runs.test.ts, worked by hand there: 3 matched; +3.15, +310.00, −975.00 unexplained.
const STATEMENT = ['Date,Description,Amount', '11/02/2026,Deposit INV-2001,"2,400.00"', '11/05/2026,CHECK 3101,(850.00)', '11/09/2026,Wire to Northwind Traders,"-1,200.00"', '11/30/2026,Interest paid,3.15'].join('\n');
const BOOKS = ['Date,Memo,Debit,Credit,Check No', '2026-11-01,INV-2001 receipt,2400.00,,', '2026-11-03,Rent November,,850.00,3101', '2026-11-09,Northwind wire,,1200.00,', '2026-11-28,Office supplies,,310.00,3102', '2026-11-29,Deposit INV-2002,975.00,,'].join('\n');
const BANK_INPUT = { bankStatement: STATEMENT, bookEntries: BOOKS };

function expectRightReconciliation(result: any) {
  expect(result).toMatchObject({ reconciled: false, matched: 3, net_unreconciled: -661.85 });
  expect(Object.fromEntries(result.exceptions.map((e: any) => [e.type, e.amount]))).toEqual({ missing_in_books: 3.15, outstanding_check: 310, missing_on_bank: -975 });
}

/** The SDK client of an interface URL, its card found the SDK's way, its calls made through `fetchImpl`. */
async function clientFor(url: string, fetchImpl: FetchLike): Promise<Client> {
  const options = ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { transports: [new RestTransportFactory({ fetchImpl: fetchImpl as typeof fetch })] });
  return new ClientFactory(options).createFromUrl(url);
}

function userMessage(data: unknown, metadata?: Record<string, unknown>, messageId: string = crypto.randomUUID()): Message {
  return {
    messageId,
    contextId: '',
    taskId: '',
    role: Role.ROLE_USER,
    parts: [{ content: { $case: 'data', value: data }, metadata: undefined, filename: '', mediaType: 'application/json' }],
    metadata,
    extensions: [],
    referenceTaskIds: [],
  };
}

const send = (client: Client, message: Message) => client.sendMessage({ tenant: '', message, configuration: undefined, metadata: undefined }) as Promise<Message>;
const dataOf = (reply: Message) => (reply.parts[0].content as { $case: 'data'; value: any }).value;

/** What a call threw (the SDK types A2A errors from the ErrorInfo reason). */
async function thrown(call: () => Promise<unknown>): Promise<any> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw');
}

describe('A2A 1.0 HTTP+JSON: the cards', () => {
  it('the SDK finds each agent card at .well-known/agent-card.json beside /a2a, and /a2a serves the same A2A 1.0 AgentCard', async () => {
    const { agentsUrl } = runtime();
    const f = fetchFrom('127.0.0.81');
    const wellKnown = await (await f(`${agentsUrl}/api/agents/${BANK_REC}/.well-known/agent-card.json`)).json();
    const atA2a = await f(`${agentsUrl}/api/agents/${BANK_REC}/a2a`);
    expect(atA2a.status).toBe(200);
    expect(await atA2a.json()).toEqual(wellKnown);
    expect(wellKnown.supportedInterfaces).toEqual([{ url: `${agentsUrl}/api/agents/${BANK_REC}/a2a`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }]);
    expect(wellKnown.capabilities).toMatchObject({ streaming: false, pushNotifications: false });
    expect(wellKnown.capabilities.extensions.map((e: any) => e.uri)).toContain('https://github.com/google-agentic-commerce/ap2/v1');
    // The spec's capability, provider and pricing are still there: the provider a member of the card, capability and
    // pricing in the studio's data-only extension (the card holds nothing A2A 1.0 does not define).
    expect(wellKnown.provider).toMatchObject({ organization: 'Paycall' });
    const data = wellKnown.capabilities.extensions.find((e: any) => e.uri === `${agentsUrl}/api/services`);
    expect(data).toMatchObject({ required: false, params: { capability: { slug: BANK_REC }, pricing: { amount: '60000', currency: 'USDC' } } });
    // The SDK's reading of the card (protobuf JSON) keeps the interface and the skill.
    const card = AgentCard.fromJSON(wellKnown);
    expect(card.skills.map((s) => s.id)).toEqual([BANK_REC]);
    expect(card.skills[0].tags.length).toBeGreaterThan(0);
  });

  it('the aggregate card at /api/a2a is the root card: the root interface, one skill per published agent', async () => {
    const { agentsUrl } = runtime();
    const f = fetchFrom('127.0.0.81');
    const root = await (await f(`${agentsUrl}/api/a2a`)).json();
    expect(root).toEqual(await (await f(`${agentsUrl}/.well-known/agent-card.json`)).json());
    // where the SDK, given the root interface URL, looks for it
    expect(await (await f(`${agentsUrl}/api/.well-known/agent-card.json`)).json()).toEqual(root);
    expect(root.supportedInterfaces).toEqual([{ url: `${agentsUrl}/api/a2a`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }]);
    const catalog = await (await f(`${agentsUrl}/api/catalog`)).json();
    expect(root.skills.map((s: any) => s.id)).toEqual(catalog.agents.map((a: any) => a.slug));
  });

  it('unknown and unpublished agents have no card (404)', async () => {
    const { agentsUrl } = runtime();
    for (const agent of ['no-such-agent', 'vendor-risk-next-z5v1q']) expect((await fetchFrom('127.0.0.81')(`${agentsUrl}/api/agents/${agent}/a2a`)).status).toBe(404);
  });
});

describe('A2A 1.0 HTTP+JSON: message:send with the official client', () => {
  it('a priced live send without payment is the run route 402 (the SDK sees statusCode 402 and PAYMENT-REQUIRED)', async () => {
    const { agentsUrl } = runtime();
    const client = await clientFor(`${agentsUrl}/api/agents/${BANK_REC}/a2a`, fetchFrom('127.0.0.82'));
    const error = await thrown(() => send(client, userMessage(BANK_INPUT)));
    expect(isRestError(error) && error.statusCode).toBe(402);
    const challenge = decodePaymentRequiredHeader(error.headers['payment-required']) as any;
    const run = await fetchFrom('127.0.0.82')(`${agentsUrl}/api/agents/${BANK_REC}/run`, { method: 'POST', headers: V1, body: JSON.stringify({ input: BANK_INPUT }) });
    // The same challenge, but for the signed offers' validUntil (each 402 signs its own, valid from its own second).
    const ofRun = decodePaymentRequiredHeader(run.headers.get('payment-required')!) as any;
    const unsigned = (c: any) => {
      const { 'offer-receipt': offers, ...extensions } = c.extensions;
      return { challenge: { ...c, extensions }, offers: offers.info.offers.map(({ payload: { validUntil, ...terms }, signature, ...offer }: any) => ({ ...offer, payload: terms })) };
    };
    expect(unsigned(challenge)).toEqual(unsigned(ofRun));
  });

  it('@x402/fetch as fetchImpl pays the per-agent send: a ROLE_AGENT message whose data part is the right result, settled once; the same message resent is the same answer, uncharged', async () => {
    const { agentsUrl, payTo } = runtime();
    const buyer = await freshBuyer();
    const seen: Response[] = [];
    const pay = payingFetch(buyer.privateKey, '127.0.0.83');
    const recording: FetchLike = async (input, init) => {
      const response = await pay(input, init);
      seen.push(response.clone());
      return response;
    };
    const client = await clientFor(`${agentsUrl}/api/agents/${BANK_REC}/a2a`, recording);
    const message = userMessage(BANK_INPUT);
    const reply = await send(client, message);
    expect(reply.role).toBe(Role.ROLE_AGENT);
    expect(reply.messageId).not.toBe('');
    expect(reply.contextId).not.toBe('');
    expect(reply.parts).toHaveLength(1);
    expect(reply.parts[0].mediaType).toBe('application/json');
    expectRightReconciliation(dataOf(reply));
    expect(reply.metadata?.['x-service']).toMatchObject({ agent: BANK_REC, status: 'done', settled: true, totalCostUsdc: 0.06 });
    // Each finding's evidence rides in the run's outputs, quoted from the data part the buyer sent.
    const evidence = reply.metadata?.['x-service'].outputs.evidence;
    expect(evidence.length).toBe(dataOf(reply).exceptions.length);
    expect(evidenceProblems('bank-rec', BANK_INPUT, { result: dataOf(reply), evidence })).toEqual([]);
    const paid = seen.at(-1)!;
    expect(paid.headers.get('content-type')).toContain(A2A_JSON);
    expect(decodePaymentResponseHeader(paid.headers.get('payment-response')!)).toMatchObject({ success: true, payer: buyer.address });
    expect(await transfersFrom(buyer.address)).toEqual([{ to: payTo, value: 60_000n }]);

    // messageId is the duplicate key: the same message and payer again → the same reply, nothing charged again.
    const again = await send(client, message);
    expect(again).toEqual(reply);
    expect(await transfersFrom(buyer.address)).toEqual([{ to: payTo, value: 60_000n }]);
    // A new message is a new run.
    const fresh = await send(client, userMessage(BANK_INPUT));
    expect(fresh.metadata?.['x-service'].runId).not.toBe(reply.metadata?.['x-service'].runId);
    expect(await transfersFrom(buyer.address)).toHaveLength(2);
  });

  it('the root interface runs the agent x-service.agent names (slug or legacy id), paid the same way', async () => {
    const { agentsUrl, payTo } = runtime();
    const buyer = await freshBuyer();
    const client = await clientFor(`${agentsUrl}/api/a2a`, payingFetch(buyer.privateKey, '127.0.0.84'));
    const reply = await send(client, userMessage(BANK_INPUT, { 'x-service': { agent: 'agt_bw0tt' } }));
    expectRightReconciliation(dataOf(reply));
    expect(reply.metadata?.['x-service']).toMatchObject({ agent: BANK_REC, settled: true });
    expect(await transfersFrom(buyer.address)).toEqual([{ to: payTo, value: 60_000n }]);
    // The request-level metadata names it too.
    const free = await client.sendMessage({ tenant: '', message: userMessage({ export: STATEMENT }), configuration: undefined, metadata: { 'x-service': { agent: FREE } } });
    expect(dataOf(free as Message)).toMatchObject({ count: 4, net: 353.15 });
  });

  it('a free agent and a dry run need no payment; the dry run shows the preview, not the result', async () => {
    const { agentsUrl } = runtime();
    const plain = fetchFrom('127.0.0.85');
    const free = await send(await clientFor(`${agentsUrl}/api/agents/${FREE}/a2a`, plain), userMessage({ export: STATEMENT }));
    expect(dataOf(free)).toMatchObject({ count: 4, total_in: 2403.15, net: 353.15 });
    expect(free.metadata?.['x-service']).toMatchObject({ settled: false, totalCostUsdc: 0 });
    const dry = await send(await clientFor(`${agentsUrl}/api/agents/${BANK_REC}/a2a`, plain), userMessage(BANK_INPUT, { 'x-service': { dryRun: true } }));
    expect(dataOf(dry).preview).toBe(true);
    expect(JSON.stringify(dataOf(dry))).not.toContain('-661.85');
    expect(dry.metadata?.['x-service']).toMatchObject({ settled: false, dryRun: true, totalCostUsdc: 0.06 });
  });

  it('x402-fetch 1.x (X-PAYMENT, reads the body) pays a send too: the 402 body holds only v1-shaped entries', async () => {
    const { agentsUrl, payTo } = runtime();
    const buyer = await freshBuyer();
    const pay = wrapFetchV1(fetchFrom('127.0.0.86') as typeof fetch, privateKeyToAccount(buyer.privateKey) as never);
    const response = await pay(`${agentsUrl}/api/agents/${BANK_REC}/a2a/message:send`, {
      method: 'POST',
      headers: V1,
      body: JSON.stringify({ message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ data: BANK_INPUT, mediaType: 'application/json' }] } }),
    });
    const body = await response.json();
    expect(response.status, JSON.stringify(body)).toBe(200);
    expectRightReconciliation(body.message.parts[0].data);
    expect(response.headers.get('x-payment-response')).not.toBeNull();
    expect(await transfersFrom(buyer.address)).toEqual([{ to: payTo, value: 60_000n }]);
  });

  it('the other operations through the SDK REST transport: tasks are never kept, push configs are not supported (each answered by the server)', async () => {
    const { agentsUrl } = runtime();
    const asked: string[] = [];
    const plain = fetchFrom('127.0.0.87');
    const recording: FetchLike = (input, init) => {
      asked.push(`${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`);
      return plain(input, init);
    };
    const client = await clientFor(`${agentsUrl}/api/agents/${BANK_REC}/a2a`, recording);
    expect(await thrown(() => client.getTask({ tenant: '', id: 'task-1' }))).toBeInstanceOf(TaskNotFoundError);
    expect(await thrown(() => client.cancelTask({ tenant: '', id: 'task-1', metadata: undefined }))).toBeInstanceOf(TaskNotFoundError);
    const list = await client.listTasks({ tenant: '', contextId: '', status: 0, pageSize: 10, pageToken: '', historyLength: undefined, statusTimestampAfter: undefined, includeArtifacts: undefined } as never);
    expect(list).toMatchObject({ tasks: [], nextPageToken: '', pageSize: 10, totalSize: 0 });
    const resubscribe = await thrown(async () => {
      for await (const _ of client.resubscribeTask({ tenant: '', id: 'task-1' })) void _;
    });
    expect(resubscribe).toBeInstanceOf(UnsupportedOperationError);
    // The Client refuses push configs itself when the card says pushNotifications: false (it reads the card), so
    // these go through its transport, as the Client would send them (A2A-Version included).
    const transport = client.transport;
    const options = { serviceParameters: { 'A2A-Version': '1.0' } };
    const config = { tenant: '', id: 'c1', taskId: 'task-1', url: 'https://example.com/hook', token: '', authentication: undefined };
    expect(await thrown(() => transport.createTaskPushNotificationConfig(config as never, options))).toBeInstanceOf(PushNotificationNotSupportedError);
    expect(await thrown(() => transport.getTaskPushNotificationConfig({ tenant: '', taskId: 'task-1', id: 'c1' }, options))).toBeInstanceOf(PushNotificationNotSupportedError);
    expect(await thrown(() => transport.listTaskPushNotificationConfig({ tenant: '', taskId: 'task-1', pageSize: 0, pageToken: '' }, options))).toBeInstanceOf(PushNotificationNotSupportedError);
    expect(await thrown(() => transport.deleteTaskPushNotificationConfig({ tenant: '', taskId: 'task-1', id: 'c1' }, options))).toBeInstanceOf(PushNotificationNotSupportedError);
    expect(await thrown(() => transport.getExtendedAgentCard({ tenant: '' }, options))).toBeInstanceOf(UnsupportedOperationError);
    expect(await thrown(() => transport.getTask({ tenant: '', id: 'task-1' }))).toBeInstanceOf(VersionNotSupportedError);
    const at = `/api/agents/${BANK_REC}/a2a`;
    expect(asked).toEqual([
      `GET ${at}/tasks/task-1`,
      `POST ${at}/tasks/task-1:cancel`,
      `GET ${at}/tasks`,
      `POST ${at}/tasks/task-1:subscribe`,
      `POST ${at}/tasks/task-1/pushNotificationConfigs`,
      `GET ${at}/tasks/task-1/pushNotificationConfigs/c1`,
      `GET ${at}/tasks/task-1/pushNotificationConfigs`,
      `DELETE ${at}/tasks/task-1/pushNotificationConfigs/c1`,
      `GET ${at}/extendedAgentCard`,
      `GET ${at}/tasks/task-1`,
    ]);
  });

  it('input that does not validate is RequestMalformed (400 INVALID_PARAMS) after the 402, and nothing is charged', async () => {
    const { agentsUrl } = runtime();
    const buyer = await freshBuyer();
    const client = await clientFor(`${agentsUrl}/api/agents/${BANK_REC}/a2a`, payingFetch(buyer.privateKey, '127.0.0.88'));
    const error = await thrown(() => send(client, userMessage({ bankStatement: STATEMENT })));
    expect(error).toBeInstanceOf(RequestMalformedError);
    expect(error.statusCode).toBe(400);
    expect(await transfersFrom(buyer.address)).toEqual([]);
  });
});

describe('A2A 1.0 HTTP+JSON: every error route on the wire', () => {
  const f = fetchFrom('127.0.0.89');
  const base = () => `${runtime().agentsUrl}/api/agents/${BANK_REC}/a2a`;
  const root = () => `${runtime().agentsUrl}/api/a2a`;

  async function expectStatus(response: Response, code: number, status: string, reason: string) {
    expect(response.status).toBe(code);
    expect(response.headers.get('content-type')).toContain(A2A_JSON);
    const body = await response.json();
    expect(body.error).toMatchObject({ code, status, message: expect.any(String) });
    expect(body.error.details).toContainEqual(expect.objectContaining({ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'a2a-protocol.org' }));
    return body;
  }

  it('every operation wants A2A-Version 1.0: none means 0.3 (VersionNotSupported); the query parameter and a patch version count; cards need none', async () => {
    const body = JSON.stringify({ message: { messageId: 'm', role: 'ROLE_USER', parts: [{ data: { export: 'x' } }] } });
    const url = `${runtime().agentsUrl}/api/agents/${FREE}/a2a/message:send`;
    const missing = await expectStatus(await f(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body }), 400, 'FAILED_PRECONDITION', 'VERSION_NOT_SUPPORTED');
    expect(missing.error.message).toContain("'0.3'");
    await expectStatus(await f(url, { method: 'POST', headers: { 'A2A-Version': '0.3', 'Content-Type': 'application/json' }, body }), 400, 'FAILED_PRECONDITION', 'VERSION_NOT_SUPPORTED');
    await expectStatus(await f(`${base()}/tasks`), 400, 'FAILED_PRECONDITION', 'VERSION_NOT_SUPPORTED');
    expect((await f(`${base()}/tasks?A2A-Version=1.0`)).status).toBe(200);
    expect((await f(`${base()}/tasks`, { headers: { 'A2A-Version': '1.0.1' } })).status).toBe(200);
    const dryBody = JSON.stringify({ message: { messageId: 'm2', role: 'ROLE_USER', parts: [{ data: { export: STATEMENT } }] } });
    expect((await f(`${url}?A2A-Version=1.0`, { method: 'POST', headers: { 'Content-Type': 'application/a2a+json' }, body: dryBody })).status).toBe(200);
    expect((await f(base())).status).toBe(200);
    expect((await f(root())).status).toBe(200);
  });

  it('message:stream and tasks/{id}:subscribe (POST and GET) are UnsupportedOperation; so is extendedAgentCard', async () => {
    for (const prefix of [base(), root()]) {
      await expectStatus(await f(`${prefix}/message:stream`, { method: 'POST', headers: V1, body: '{}' }), 400, 'FAILED_PRECONDITION', 'UNSUPPORTED_OPERATION');
      await expectStatus(await f(`${prefix}/tasks/t-1:subscribe`, { method: 'POST', headers: V1 }), 400, 'FAILED_PRECONDITION', 'UNSUPPORTED_OPERATION');
      await expectStatus(await f(`${prefix}/tasks/t-1:subscribe`, { headers: V1 }), 400, 'FAILED_PRECONDITION', 'UNSUPPORTED_OPERATION');
      await expectStatus(await f(`${prefix}/extendedAgentCard`, { headers: V1 }), 400, 'FAILED_PRECONDITION', 'UNSUPPORTED_OPERATION');
    }
  });

  it('GET tasks is the empty list with all four members; task get and :cancel (no body) are TaskNotFound', async () => {
    for (const prefix of [base(), root()]) {
      const list = await f(`${prefix}/tasks`, { headers: V1 });
      expect(list.status).toBe(200);
      expect(list.headers.get('content-type')).toContain(A2A_JSON);
      expect(await list.json()).toEqual({ tasks: [], nextPageToken: '', pageSize: 50, totalSize: 0 });
      expect(await (await f(`${prefix}/tasks?pageSize=7`, { headers: V1 })).json()).toMatchObject({ pageSize: 7 });
      const got = await expectStatus(await f(`${prefix}/tasks/t-1`, { headers: V1 }), 404, 'NOT_FOUND', 'TASK_NOT_FOUND');
      expect(got.error.details[0].metadata).toEqual({ taskId: 't-1' });
      const cancel = await expectStatus(await f(`${prefix}/tasks/t-1:cancel`, { method: 'POST', headers: { 'A2A-Version': '1.0' } }), 404, 'NOT_FOUND', 'TASK_NOT_FOUND');
      expect(cancel.error.details[0].metadata).toEqual({ taskId: 't-1' });
    }
  });

  it('every push-config operation (POST, GET, GET by id, DELETE) is PushNotificationNotSupported, whatever the task', async () => {
    for (const prefix of [base(), root()]) {
      const configs = `${prefix}/tasks/t-1/pushNotificationConfigs`;
      await expectStatus(await f(configs, { method: 'POST', headers: V1, body: JSON.stringify({ url: 'https://example.com/hook' }) }), 400, 'FAILED_PRECONDITION', 'PUSH_NOTIFICATION_NOT_SUPPORTED');
      await expectStatus(await f(configs, { headers: V1 }), 400, 'FAILED_PRECONDITION', 'PUSH_NOTIFICATION_NOT_SUPPORTED');
      await expectStatus(await f(`${configs}/c1`, { headers: V1 }), 400, 'FAILED_PRECONDITION', 'PUSH_NOTIFICATION_NOT_SUPPORTED');
      await expectStatus(await f(`${configs}/c1`, { method: 'DELETE', headers: V1 }), 400, 'FAILED_PRECONDITION', 'PUSH_NOTIFICATION_NOT_SUPPORTED');
    }
  });

  it('message:send: content type, body shape and the root agent are checked; unknown agents are 404; answers are application/a2a+json', async () => {
    const freeSend = `${runtime().agentsUrl}/api/agents/${FREE}/a2a/message:send`;
    const ok = { message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ data: { export: STATEMENT }, mediaType: 'application/json' }] } };
    const good = await f(freeSend, { method: 'POST', headers: { 'A2A-Version': '1.0', 'Content-Type': 'application/a2a+json' }, body: JSON.stringify(ok) });
    expect(good.status).toBe(200);
    expect(good.headers.get('content-type')).toContain(A2A_JSON);
    expect((await good.json()).message).toMatchObject({ role: 'ROLE_AGENT', parts: [{ mediaType: 'application/json', data: { count: 4 } }] });

    // ContentTypeNotSupported is 415 (A2A 1.0 §5.4): the request's Content-Type, or a part the agent cannot take.
    await expectStatus(await f(freeSend, { method: 'POST', headers: { 'A2A-Version': '1.0', 'Content-Type': 'text/plain' }, body: JSON.stringify(ok) }), 415, 'INVALID_ARGUMENT', 'CONTENT_TYPE_NOT_SUPPORTED');
    const twoParts = { message: { ...ok.message, messageId: 'two', parts: [...ok.message.parts, { text: 'hi' }] } };
    const withText = await expectStatus(await f(freeSend, { method: 'POST', headers: V1, body: JSON.stringify(twoParts) }), 415, 'INVALID_ARGUMENT', 'CONTENT_TYPE_NOT_SUPPORTED');
    expect(withText.error.details[0].metadata).toEqual({ mediaType: 'text/plain' });
    const textOnly = { message: { ...ok.message, messageId: 'text', parts: [{ text: 'reconcile please' }] } };
    await expectStatus(await f(freeSend, { method: 'POST', headers: V1, body: JSON.stringify(textOnly) }), 415, 'INVALID_ARGUMENT', 'CONTENT_TYPE_NOT_SUPPORTED');
    const csvFile = { message: { ...ok.message, messageId: 'file', parts: [{ raw: Buffer.from(STATEMENT).toString('base64'), mediaType: 'text/csv', filename: 'statement.csv' }] } };
    const csv = await expectStatus(await f(freeSend, { method: 'POST', headers: V1, body: JSON.stringify(csvFile) }), 415, 'INVALID_ARGUMENT', 'CONTENT_TYPE_NOT_SUPPORTED');
    expect(csv.error.details[0].metadata).toEqual({ mediaType: 'text/csv' });
    // Two JSON data parts are a shape problem, not a media type one.
    const twoData = { message: { ...ok.message, messageId: 'two-data', parts: [...ok.message.parts, ...ok.message.parts] } };
    const bad = await expectStatus(await f(freeSend, { method: 'POST', headers: V1, body: JSON.stringify(twoData) }), 400, 'INVALID_ARGUMENT', 'INVALID_PARAMS');
    expect(bad.error.details[1].fieldViolations[0].field).toBe('message.parts');
    const jsonCharset = { message: { ...ok.message, messageId: crypto.randomUUID(), parts: [{ data: { export: STATEMENT }, mediaType: 'application/json; charset=utf-8' }] } };
    expect((await f(freeSend, { method: 'POST', headers: V1, body: JSON.stringify(jsonCharset) })).status).toBe(200);
    const wrongInput = { message: { ...ok.message, messageId: 'wrong', parts: [{ data: { export: STATEMENT, extra: 'x' } }] } };
    await expectStatus(await f(freeSend, { method: 'POST', headers: V1, body: JSON.stringify(wrongInput) }), 400, 'INVALID_ARGUMENT', 'INVALID_PARAMS');
    await expectStatus(await f(freeSend, { method: 'POST', headers: V1, body: 'not json' }), 400, 'INVALID_ARGUMENT', 'INVALID_PARAMS');
    // Input the agent cannot read: INVALID_PARAMS naming the member.
    const unreadable = { message: { ...ok.message, messageId: 'junk', parts: [{ data: { export: 'x'.repeat(1000) } }] } };
    const junk = await expectStatus(await f(freeSend, { method: 'POST', headers: V1, body: JSON.stringify(unreadable) }), 400, 'INVALID_ARGUMENT', 'INVALID_PARAMS');
    expect(junk.error.details[0].metadata).toEqual({ field: 'export' });

    // The root interface needs x-service.agent; an unknown agent is 404 (our reason, not an A2A one).
    await expectStatus(await f(`${root()}/message:send`, { method: 'POST', headers: V1, body: JSON.stringify(ok) }), 400, 'INVALID_ARGUMENT', 'INVALID_PARAMS');
    for (const [url, body] of [
      [`${runtime().agentsUrl}/api/agents/no-such-agent/a2a/message:send`, ok],
      [`${root()}/message:send`, { message: { ...ok.message, metadata: { 'x-service': { agent: 'vendor-risk-next-z5v1q' } } } }],
    ] as const) {
      const missing = await f(url, { method: 'POST', headers: V1, body: JSON.stringify(body) });
      expect(missing.status).toBe(404);
      expect(missing.headers.get('content-type')).toContain(A2A_JSON);
      expect((await missing.json()).error).toMatchObject({ code: 404, status: 'NOT_FOUND', details: [{ reason: 'NOT_FOUND', domain: 'agent-studio.paycall' }] });
    }
    expect((await f(`${runtime().agentsUrl}/api/agents/no-such-agent/a2a/tasks`, { headers: V1 })).status).toBe(404);
  });

  it('a send naming a task (message.taskId or referenceTaskIds) is TaskNotFound on both interfaces, before any payment is read: a paid one is not charged', async () => {
    const buyer = await freshBuyer();
    const message = (extra: Record<string, unknown>, metadata?: Record<string, unknown>) =>
      JSON.stringify({ message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ data: BANK_INPUT, mediaType: 'application/json' }], ...extra, ...(metadata ? { metadata } : {}) } });
    // A good payment for this agent's send, signed by the official client from the send's own 402.
    const withVersion: FetchLike = (url, init) => f(url, { ...init, headers: { ...(init?.headers as Record<string, string>), 'A2A-Version': '1.0' } });
    const payment = await signedHeader(buyer.privateKey, await challengeOf(withVersion, `${base()}/message:send`));
    const paid = { ...V1, 'PAYMENT-SIGNATURE': payment };
    for (const [url, metadata] of [
      [`${base()}/message:send`, undefined],
      [`${root()}/message:send`, { 'x-service': { agent: BANK_REC } }],
    ] as const) {
      for (const [extra, named] of [
        [{ taskId: 'task-we-never-made' }, 'task-we-never-made'],
        [{ referenceTaskIds: ['earlier-task'] }, 'earlier-task'],
        [{ taskId: '', referenceTaskIds: ['', 'other-task'] }, 'other-task'],
      ] as const) {
        // Unpaid: TaskNotFound, not the 402 challenge.
        const unpaid = await expectStatus(await f(url, { method: 'POST', headers: V1, body: message(extra, metadata) }), 404, 'NOT_FOUND', 'TASK_NOT_FOUND');
        expect(unpaid.error.details[0].metadata).toEqual({ taskId: named });
        // Paid: the same, and the payment is neither settled nor spent.
        const refused = await expectStatus(await f(url, { method: 'POST', headers: paid, body: message(extra, metadata) }), 404, 'NOT_FOUND', 'TASK_NOT_FOUND');
        expect(refused.error.details[0].metadata).toEqual({ taskId: named });
      }
    }
    expect(await transfersFrom(buyer.address)).toEqual([]);
    // The payment was good all along: the same header pays a send that names no task, once.
    const answered = await f(`${base()}/message:send`, { method: 'POST', headers: paid, body: message({}) });
    expect(answered.status).toBe(200);
    expect(await transfersFrom(buyer.address)).toEqual([{ to: runtime().payTo, value: 60_000n }]);
  });

  it('the unpaid priced send: 402 before the body is read, the run route challenge (v2 in PAYMENT-REQUIRED, v1 in the body)', async () => {
    const response = await f(`${base()}/message:send`, { method: 'POST', headers: V1, body: '{}' });
    expect(response.status).toBe(402);
    const challenge = decodePaymentRequiredHeader(response.headers.get('payment-required')!) as any;
    expect(challenge.accepts.map((a: any) => a.network)).toEqual(['eip155:8453']);
    const body = await response.json();
    expect(body.accepts.map((a: any) => a.network)).toEqual(['base']);
    expect(body.accepts[0].resource).toBe(`${runtime().agentsUrl}/api/agents/${BANK_REC}/run`);
  });
});
