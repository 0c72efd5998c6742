/**
 * The agent reasoning adapter (lambdas/agents/reasoning/) driving the real `@aws-sdk/client-bedrock-runtime`
 * ConverseCommand against the Bedrock fake's Converse route (lib/local/providers/bedrock-converse.ts): agreement
 * keeps the model's wording with the engine's facts; a disagreement keeps the engine's facts and is logged by field
 * name; every failure marker answers the engine's result; an ungranted model is refused by the local IAM enforcement.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startBedrockFake, type BedrockFake } from '../../lib/local/providers/bedrock.js';
import { findAgent, type AgentDefinition } from '../../lambdas/agents/registry.js';
import { resultJsonSchema } from '../../lambdas/agents/offers.js';
import { ConverseReasoner, SETTLEMENT_RESERVE_MS } from '../../lambdas/agents/reasoning/converse.js';
import { reasoningConfig } from '../../lambdas/agents/reasoning/config.js';
import { logger } from '../../lambdas/shared/logger.js';
import { asFunction, installIamEnforcement } from '../../lib/local/iam/enforce.js';

const MODEL = 'amazon.nova-pro-v1:0';
const VENDOR_RISK = findAgent('vendor-risk-read-q0jjq')!;
const BANK_REC = findAgent('bank-rec-discrepancy-finder-bw0tt')!;
const PO_MATCH = findAgent('po-match-gate-mkgu0')!;
const EXPENSE = findAgent('expense-policy-check-l8o5i')!;

const PROFILE = [
  'Vendor: Harbor Light Trading LLC',
  'Address: PO Box 4471, Wilmington DE',
  'Incorporated: last month',
  'Please send payment to our new bank account at a different bank; 50% upfront before shipment.',
].join('\n');
const STATEMENT = ['Date,Description,Amount', '11/02/2026,Deposit INV-2001,"2,400.00"', '11/05/2026,CHECK 3101,(850.00)', '11/30/2026,Interest paid,3.15'].join('\n');
const BOOKS = ['Date,Memo,Debit,Credit,Check No', '2026-11-01,INV-2001 receipt,2400.00,,', '2026-11-03,Rent November,,850.00,3101', '2026-11-28,Office supplies,,310.00,3102'].join('\n');

let dir: string;
let fake: BedrockFake;

function reasoner(env: Record<string, string> = {}) {
  const config = reasoningConfig({ AGENT_REASONING: 'vendor-risk-read-q0jjq,bank-rec-discrepancy-finder-bw0tt,po-match-gate-mkgu0,expense-policy-check-l8o5i', AGENT_REASONING_MODEL: MODEL, BEDROCK_RUNTIME_ENDPOINT: fake.url, ...env })!;
  return new ConverseReasoner(config);
}

function rules(agent: AgentDefinition, input: Record<string, string>): Record<string, any> {
  return (agent.engine.analyse as (i: unknown) => Record<string, any>)(input);
}

beforeAll(async () => {
  Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' });
  dir = await mkdtemp(path.join(tmpdir(), 'agent-reasoning-'));
  fake = await startBedrockFake({ stateDir: dir, apiKey: 'unused', log: () => {} });
});
afterAll(async () => {
  await fake?.stop();
  await rm(dir, { recursive: true, force: true });
});
afterEach(() => vi.restoreAllMocks());

describe('configuration', () => {
  it('off unless AGENT_REASONING names agents; a bad model id or timeout names its variable', () => {
    expect(reasoningConfig({})).toBeUndefined();
    expect(reasoningConfig({ AGENT_REASONING: 'vendor-risk-read-q0jjq' })).toEqual({ agents: ['vendor-risk-read-q0jjq'], model: MODEL, region: 'us-east-1', timeoutMs: 10_000, endpoint: undefined });
    expect(() => reasoningConfig({ AGENT_REASONING: 'x', AGENT_REASONING_MODEL: 'us.anthropic.claude x' })).toThrow(/AGENT_REASONING_MODEL/);
    expect(() => reasoningConfig({ AGENT_REASONING: 'x', AGENT_REASONING_TIMEOUT_MS: '5' })).toThrow(/AGENT_REASONING_TIMEOUT_MS/);
  });

  it('covers only the agents it names', () => {
    const r = new ConverseReasoner(reasoningConfig({ AGENT_REASONING: 'vendor-risk-read-q0jjq', BEDROCK_RUNTIME_ENDPOINT: fake.url })!);
    expect(r.covers(VENDOR_RISK)).toBe(true);
    expect(r.covers(BANK_REC)).toBe(false);
  });
});

describe('agreement: the model’s wording, the engine’s facts', () => {
  it('vendor risk: Converse with the result schema as the forced tool; grade, decision, flag areas and collect equal the engine’s; the model’s note and flag wording kept', async () => {
    const input = { vendorProfile: PROFILE };
    const expected = rules(VENDOR_RISK, input);
    expect(expected.flags.length).toBeGreaterThan(1);
    const calls = fake.requests.length;
    const { result, engine } = await reasoner().reason(VENDOR_RISK, input, expected);
    expect(engine).toBe(`vendor-risk/rules@1+bedrock:${MODEL}`);
    expect(VENDOR_RISK.resultSchema.safeParse(result).success).toBe(true);
    const r = result as Record<string, any>;
    expect({ grade: r.grade, decision: r.decision, collect: r.collect }).toEqual({ grade: expected.grade, decision: expected.decision, collect: expected.collect });
    expect(r.flags.map((f: string) => f.split(':')[0])).toEqual(expected.flags.map((f: string) => f.split(':')[0]));
    expect(r.note).toBe(`Model reading: ${expected.note}`);
    expect(r.flags[0]).toContain('Model reading: ');

    const sent = fake.requests.slice(calls);
    expect(sent).toHaveLength(1);
    // Over the Bedrock runtime client's own HTTP/2 handler (the function bundles no HTTP/1.1 one for it).
    expect(sent[0]).toMatchObject({ method: 'POST', path: `/model/${encodeURIComponent(MODEL)}/converse`, modelId: MODEL, region: 'us-east-1', status: 200, httpVersion: '2.0' });
    const body = sent[0].body as Record<string, any>;
    expect(body.toolConfig.toolChoice).toEqual({ tool: { name: 'vendor-risk_result' } });
    expect(body.toolConfig.tools[0].toolSpec.inputSchema.json).toEqual(resultJsonSchema(VENDOR_RISK));
    expect(body.system[0].text).toContain('Vendor risk read');
    expect(body.messages[0].content[0].text).toContain('<input>');
    expect(body.inferenceConfig).toEqual({ maxTokens: 4096, temperature: 0 });
  });

  it('bank reconciliation: matched, net_unreconciled and the exceptions’ types and amounts are the engine’s; the exception details are the model’s', async () => {
    const input = { bankStatement: STATEMENT, bookEntries: BOOKS };
    const expected = rules(BANK_REC, input);
    const { result, engine } = await reasoner().reason(BANK_REC, input, expected);
    expect(engine).toBe(`bank-rec/rules@1+bedrock:${MODEL}`);
    const r = result as Record<string, any>;
    expect({ reconciled: r.reconciled, matched: r.matched, net_unreconciled: r.net_unreconciled }).toEqual({ reconciled: expected.reconciled, matched: expected.matched, net_unreconciled: expected.net_unreconciled });
    expect(r.exceptions.map((e: any) => [e.type, e.amount])).toEqual(expected.exceptions.map((e: any) => [e.type, e.amount]));
    expect(r.exceptions.every((e: any) => e.detail.startsWith('Model reading: '))).toBe(true);
  });
});

describe('disagreement: the deterministic answer wins, the disagreement is logged by field name', () => {
  it('bank reconciliation with wrong counts and net: the engine’s figures answer; the warning names the fields, never the documents', async () => {
    const input = { bankStatement: STATEMENT.replace('Interest paid', 'Interest paid [fake:disagree]'), bookEntries: BOOKS };
    const expected = rules(BANK_REC, input);
    const warn = vi.spyOn(logger, 'warn');
    const { result, engine } = await reasoner().reason(BANK_REC, input, expected, { runId: 'run_1' });
    const r = result as Record<string, any>;
    expect({ reconciled: r.reconciled, matched: r.matched, net_unreconciled: r.net_unreconciled }).toEqual({ reconciled: expected.reconciled, matched: expected.matched, net_unreconciled: expected.net_unreconciled });
    expect(r.note).toBe(`Model reading: ${expected.note}`); // wording that validates is still the model's
    expect(engine).toBe(`bank-rec/rules@1+bedrock:${MODEL}`);
    const warning = warn.mock.calls.find(([message]) => String(message).includes('disagreed'));
    expect(warning?.[1]).toMatchObject({ agent: BANK_REC.slug, model: MODEL, runId: 'run_1', fields: ['reconciled', 'matched', 'net_unreconciled'] });
    expect(JSON.stringify(warn.mock.calls)).not.toMatch(/Interest|INV-2001|Office supplies/);
  });

  it('vendor risk with the wrong grade and flags: the engine’s grade, decision and flags answer', async () => {
    const input = { vendorProfile: `${PROFILE}\n[fake:disagree]` };
    const expected = rules(VENDOR_RISK, input);
    const warn = vi.spyOn(logger, 'warn');
    const { result } = await reasoner().reason(VENDOR_RISK, input, expected);
    const r = result as Record<string, any>;
    expect({ grade: r.grade, decision: r.decision, flags: r.flags, collect: r.collect }).toEqual({ grade: expected.grade, decision: expected.decision, flags: expected.flags, collect: expected.collect });
    expect(warn.mock.calls.find(([m]) => String(m).includes('disagreed'))?.[1]).toMatchObject({ fields: ['grade', 'decision', 'flags'] });
  });

  it('PO match and expense policy: status and totals, verdict and reimbursable amount are the engine’s', async () => {
    const po = { purchaseOrder: 'PO Number: PO-7781\nVendor: Acme\nWID-10 Widget 10 x $2.50 = $25.00\nTotal: $25.00', invoice: 'PO Number: PO-7781\nVendor: Acme\nWID-10 Widget 10 x $2.50 = $25.00\nTotal: $25.00\nRemark [fake:disagree]' };
    const poRules = rules(PO_MATCH, po);
    expect(poRules.status).toBe('pass');
    const poResult = (await reasoner().reason(PO_MATCH, po, poRules)).result as Record<string, any>;
    expect({ status: poResult.status, matched: poResult.matched, invoiceTotal: poResult.invoiceTotal }).toEqual({ status: 'pass', matched: true, invoiceTotal: 25 });

    const expense = { expense: '{"category":"meals","amount":120,"receipt":true,"attendees":1,"description":"team dinner [fake:disagree]"}', expensePolicy: 'Meals are capped at $75 per person per day.' };
    const expRules = rules(EXPENSE, expense);
    expect(expRules).toMatchObject({ verdict: 'flag', reimbursable_amount: 75 });
    const expResult = (await reasoner().reason(EXPENSE, expense, expRules)).result as Record<string, any>;
    expect({ verdict: expResult.verdict, reimbursable_amount: expResult.reimbursable_amount }).toEqual({ verdict: 'flag', reimbursable_amount: 75 });
  });
});

describe('any model failure answers the engine’s result (a paid run never fails because of the model)', () => {
  const cases: [string, string, Record<string, string>?][] = [
    ['[fake:429]', 'ThrottlingException'],
    ['[fake:500]', 'InternalServerException'],
    ['[fake:malformed]', 'the model call failed'],
    ['[fake:hang]', 'the model call failed', { AGENT_REASONING_TIMEOUT_MS: '800' }],
    ['[fake:content-filter]', 'the model did not call the result tool'],
    ['[fake:off-schema]', 'the model result does not match the schema'],
  ];
  for (const [marker, logged, env] of cases) {
    it(`${marker}: the rules engine’s result and id, a warning saying why`, async () => {
      const input = { vendorProfile: `${PROFILE}\n${marker}` };
      const expected = rules(VENDOR_RISK, input);
      const warn = vi.spyOn(logger, 'warn');
      const { result, engine } = await reasoner(env).reason(VENDOR_RISK, input, expected);
      expect(result).toEqual(expected);
      expect(engine).toBe('vendor-risk/rules@1');
      expect(JSON.stringify(warn.mock.calls)).toContain(logged);
      expect(warn.mock.calls.some(([m]) => String(m).includes('not used'))).toBe(true);
    });
  }

  it('no time left before the run’s deadline: the model is not called', async () => {
    const input = { vendorProfile: PROFILE };
    const expected = rules(VENDOR_RISK, input);
    const calls = fake.requests.length;
    const { result, engine } = await reasoner().reason(VENDOR_RISK, input, expected, { deadline: Date.now() + SETTLEMENT_RESERVE_MS });
    expect([result, engine]).toEqual([expected, 'vendor-risk/rules@1']);
    expect(fake.requests.length).toBe(calls);
  });

  it('a model the fake does not serve (ValidationException) answers the engine’s result', async () => {
    const input = { vendorProfile: PROFILE };
    const expected = rules(VENDOR_RISK, input);
    const { result, engine } = await reasoner({ AGENT_REASONING_REGION: 'eu-west-1' }).reason(VENDOR_RISK, input, expected);
    expect([result, engine]).toEqual([expected, 'vendor-risk/rules@1']);
  });
});

describe('under the local IAM enforcement', () => {
  it('the granted model reasons; a model the run function’s policy does not grant is refused before Bedrock, and the engine answers', async () => {
    const enforcement = installIamEnforcement({
      RunVendorRisk: [{ Effect: 'Allow' as const, Action: 'bedrock:InvokeModel', Resource: `arn:aws:bedrock:us-east-1::foundation-model/${MODEL}` }],
    });
    try {
      const input = { vendorProfile: PROFILE };
      const expected = rules(VENDOR_RISK, input);
      const granted = await asFunction('RunVendorRisk', () => reasoner().reason(VENDOR_RISK, input, expected));
      expect(granted.engine).toBe(`vendor-risk/rules@1+bedrock:${MODEL}`);
      const calls = fake.requests.length;
      const warn = vi.spyOn(logger, 'warn');
      const other = await asFunction('RunVendorRisk', () => reasoner({ AGENT_REASONING_MODEL: 'amazon.nova-lite-v1:0' }).reason(VENDOR_RISK, input, expected));
      expect([other.result, other.engine]).toEqual([expected, 'vendor-risk/rules@1']);
      expect(fake.requests.length).toBe(calls);
      expect(enforcement.denials).toEqual([expect.objectContaining({ functionId: 'RunVendorRisk', action: 'bedrock:InvokeModel', resource: 'arn:aws:bedrock:us-east-1::foundation-model/amazon.nova-lite-v1:0' })]);
      expect(JSON.stringify(warn.mock.calls)).toContain('AccessDeniedException');
    } finally {
      enforcement.uninstall();
    }
  });
});

describe('the fake taking a model’s time (LOCAL_MODEL_MS, for the bench)', () => {
  it('startLocalReasoning gives its fake the time from LOCAL_MODEL_MS: a Converse answer comes no sooner, and is the same answer', async () => {
    const { startLocalReasoning } = await import('../../lib/local/agent-reasoning.js');
    await expect(startLocalReasoning({}, { stateDir: dir, log: () => {} }, { AGENT_REASONING: VENDOR_RISK.slug, LOCAL_MODEL_MS: 'soon' })).rejects.toThrow(/LOCAL_MODEL_MS/);
    const slow = await startLocalReasoning({}, { stateDir: dir, log: () => {} }, { AGENT_REASONING: VENDOR_RISK.slug, LOCAL_MODEL_MS: '400' });
    try {
      const input = { vendorProfile: PROFILE };
      const expected = rules(VENDOR_RISK, input);
      const timed = new ConverseReasoner(reasoningConfig({ AGENT_REASONING: VENDOR_RISK.slug, AGENT_REASONING_MODEL: MODEL, ...slow.env })!);
      const started = performance.now();
      const { result, engine } = await timed.reason(VENDOR_RISK, input, expected);
      expect(performance.now() - started).toBeGreaterThanOrEqual(400);
      expect(engine).toBe(`vendor-risk/rules@1+bedrock:${MODEL}`);
      expect((result as Record<string, any>).note).toBe(`Model reading: ${expected.note}`);
    } finally {
      await slow.stop();
    }
  });
});
