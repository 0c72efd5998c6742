/** The agent card's A2A 1.0 JSON-RPC interface at {base_url}/a2a: skills answer the MCP tools' payment pointer. */
import { describe, expect, it } from 'vitest';
import { PRODUCT_IDS } from '../../../lambdas/products/catalog.js';
import { paymentPointer } from '../../../lambdas/protocols/payment-pointer.js';
import { answerA2a, type A2aContext } from '../../../lambdas/protocols/a2a/dispatch.js';
import { BASE, TERMS } from './fixtures.js';

let ids = 0;
const ctx: A2aContext = { baseUrl: BASE, version: '1.0', terms: TERMS, newId: () => `id-${++ids}` };
const rpc = (method: string, params: unknown, id: number | string = 1) => JSON.stringify({ jsonrpc: '2.0', id, method, params });
const send = (message: Record<string, unknown>, metadata?: Record<string, unknown>) =>
  answerA2a(rpc('SendMessage', { message: { messageId: 'm1', role: 'ROLE_USER', ...message }, ...(metadata ? { metadata } : {}) }), ctx) as any;
const dataPart = { data: { prompt: 'a red fox' }, mediaType: 'application/json' };

describe('A2A message send: a skill answers with a direct ROLE_AGENT message carrying the payment pointer', () => {
  it.each(PRODUCT_IDS)('%s, named in message.metadata.skillId', (skill) => {
    const reply = send({ parts: [dataPart], metadata: { skillId: skill } });
    expect(reply.id).toBe(1);
    const message = reply.result.message;
    expect(message).toMatchObject({ role: 'ROLE_AGENT', messageId: expect.any(String), contextId: expect.any(String), metadata: { skillId: skill } });
    expect(message.taskId).toBeUndefined();
    const data = message.parts.filter((p: any) => 'data' in p);
    expect(data).toEqual([{ data: paymentPointer(skill, BASE, TERMS), mediaType: 'application/json' }]);
    expect(message.parts.find((p: any) => 'text' in p).text).toContain('Payment required');
  });

  it('keeps the caller’s contextId', () => {
    expect(send({ contextId: 'ctx-9', parts: [dataPart], metadata: { skillId: 'agent_image' } }).result.message.contextId).toBe('ctx-9');
  });

  it('takes the skill from the request metadata when the message has none', () => {
    expect(send({ parts: [dataPart] }, { skillId: 'agent_video' }).result.message.metadata).toEqual({ skillId: 'agent_video' });
  });

  it('infers the skill from text that names exactly one skill id', () => {
    const reply = send({ parts: [{ text: 'Please run create_music: a song about the sea' }] });
    expect(reply.result.message.parts[0].data).toEqual(paymentPointer('create_music', BASE, TERMS));
  });

  it('answers invalid params for an unknown skill, listing the skills', () => {
    const reply = send({ parts: [dataPart], metadata: { skillId: 'general_video' } });
    expect(reply.error).toEqual({ code: -32602, message: "Unknown skill 'general_video'", data: { skills: [...PRODUCT_IDS] } });
  });

  it('answers invalid params when no skill, or more than one, is named', () => {
    expect(send({ parts: [{ text: 'make me something nice' }] }).error.code).toBe(-32602);
    expect(send({ parts: [{ text: 'agent_video or agent_image?' }] }).error.message).toMatch(/More than one skill/);
    expect((answerA2a(rpc('SendMessage', {}), ctx) as any).error.code).toBe(-32602);
  });
});

describe('A2A versioning: A2A-Version must be 1.0', () => {
  it.each([undefined, '0.3', '2.0'])('answers VersionNotSupported for %s', (version) => {
    const reply = answerA2a(rpc('SendMessage', { message: { parts: [dataPart], metadata: { skillId: 'agent_image' } } }), { ...ctx, version }) as any;
    expect(reply.error).toMatchObject({ code: -32009, data: { supported: ['1.0'] } });
  });
});

describe('A2A tasks, streaming and push notifications', () => {
  it('answers TaskNotFound to get and cancel of any task id (no tasks are retained)', () => {
    expect((answerA2a(rpc('GetTask', { id: 't1' }), ctx) as any).error).toMatchObject({ code: -32001, message: expect.stringContaining("'t1'") });
    expect((answerA2a(rpc('CancelTask', { id: 't1' }), ctx) as any).error.code).toBe(-32001);
  });
  it('answers TaskNotFound to a SendMessage that continues or refers to a task: it never created one', () => {
    const onTask = send({ taskId: 'task-7', parts: [dataPart], metadata: { skillId: 'agent_image' } });
    expect(onTask.error).toMatchObject({ code: -32001, message: expect.stringContaining("'task-7'") });
    expect(send({ referenceTaskIds: ['task-8'], parts: [dataPart], metadata: { skillId: 'agent_image' } }).error.code).toBe(-32001);
    // The SDK's empty defaults name no task.
    expect(send({ taskId: '', referenceTaskIds: [], parts: [dataPart], metadata: { skillId: 'agent_image' } }).result.message.role).toBe('ROLE_AGENT');
  });
  it('lists no tasks', () => {
    expect((answerA2a(rpc('ListTasks', {}), ctx) as any).result).toEqual({ tasks: [], nextPageToken: '', pageSize: 0, totalSize: 0 });
  });
  it('answers UnsupportedOperation to streaming and PushNotificationNotSupported to push configs', () => {
    expect((answerA2a(rpc('SendStreamingMessage', {}), ctx) as any).error.code).toBe(-32004);
    expect((answerA2a(rpc('SubscribeToTask', { id: 't' }), ctx) as any).error.code).toBe(-32004);
    expect((answerA2a(rpc('CreateTaskPushNotificationConfig', {}), ctx) as any).error.code).toBe(-32003);
  });
});

describe('JSON-RPC 2.0 envelope', () => {
  it('answers method not found, keeping the request id', () => {
    expect(answerA2a(rpc('message/send', {}, 'abc'), ctx)).toEqual({ jsonrpc: '2.0', id: 'abc', error: { code: -32601, message: 'Method not found: message/send' } });
    expect((answerA2a(rpc('toString', {}), ctx) as any).error.code).toBe(-32601);
  });
  it('answers parse error and invalid request with id null', () => {
    expect(answerA2a('{not json', ctx)).toMatchObject({ id: null, error: { code: -32700 } });
    expect(answerA2a('[]', ctx)).toMatchObject({ id: null, error: { code: -32600 } });
    expect(answerA2a(JSON.stringify({ jsonrpc: '1.0', id: 3, method: 'SendMessage' }), ctx)).toMatchObject({ id: 3, error: { code: -32600 } });
  });
  it('does not reply to a notification', () => {
    expect(answerA2a(JSON.stringify({ jsonrpc: '2.0', method: 'SendMessage', params: {} }), ctx)).toBeUndefined();
  });
});
