/**
 * The agent reading adapter (lambdas/agents/reasoning/, ADR 0023) driving the real `@aws-sdk/client-bedrock-runtime`
 * ConverseCommand against the Bedrock fake's Converse route (lib/local/providers/bedrock-converse.ts): the model reads
 * the documents into the family's typed reading, the reading is grounded, the engine decides on it, and the two
 * readings' decisions are compared. Each of the fake's readings is shown handled: faithful (the deterministic result,
 * the model named), wrong but grounded (caught by a stated total, else the conservative answer with both readings in
 * the note), ungrounded (the deterministic result, logged by check and path, never the values), disagreeing (the
 * conservative answer, whichever reading gave it); and every failure (off-schema, timeout, throttling, …) answers the
 * deterministic result. The documents are small, their answers obvious; the engines' wording is not relied on.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Evidence } from '../../lambdas/agents/engines/port.js';
import { startBedrockFake, type BedrockFake } from '../../lib/local/providers/bedrock.js';
import { findAgent, type AgentDefinition } from '../../lambdas/agents/registry.js';
import { READINGS } from '../../lambdas/agents/reasoning/readings.js';
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

const SANCTIONED = ['Vendor: Harbor Light Trading LLC', 'Tax ID: 12-3456789', 'Address: 12 Main Street, Springfield IL', 'Incorporated: 2010', 'Country: Iran'].join('\n');
const DENIED = ['Vendor: Harbor Light Trading LLC', 'Tax ID: 12-3456789', 'Address: 12 Main Street, Springfield IL', 'Incorporated: 2010', 'We have no operations in Iran.'].join('\n');
const BANK = ['Date,Description,Amount', '11/02/2026,Deposit INV-2001,"2,400.00"', '11/05/2026,CHECK 3101,(850.00)'].join('\n');
const BANK_WITH_BALANCES = ['Date,Description,Amount', ',Opening balance,1000.00', '11/02/2026,Deposit INV-2001,"2,400.00"', '11/05/2026,CHECK 3101,(850.00)', ',Closing balance,2550.00'].join('\n');
const BANK_BOOKS = ['Date,Memo,Debit,Credit,Check No', '2026-11-01,INV-2001 receipt,2400.00,,', '2026-11-03,Rent November,,850.00,3101'].join('\n');
const MEALS = 'Meals are capped at $75 per person per day.';
const PO = ['PO Number: PO-7781', 'Vendor: Acme', 'WID-10 Widget 10 x $2.50 = $25.00', 'GAD-20 Gadget 2 x $5.00 = $10.00', 'Total: $35.00'].join('\n');

/** The warnings logged while `run` ran, as one string (what the logs would hold). */
async function logged<T>(run: () => Promise<T>): Promise<{ value: T; warnings: string }> {
  const warn = vi.spyOn(logger, 'warn');
  const value = await run();
  return { value, warnings: JSON.stringify(warn.mock.calls) };
}

describe('a faithful reading: the engine decides the same on it, the deterministic result answers and the model is named', () => {
  it('vendor risk: Converse with the family’s reading as the forced tool, the profile as its lines; the result is the engine’s', async () => {
    const input = { vendorProfile: SANCTIONED };
    const expected = rules(VENDOR_RISK, input);
    expect(expected.decision).toBe('decline');
    const calls = fake.requests.length;
    const { result, engine } = await reasoner().reason(VENDOR_RISK, input, expected);
    expect(engine).toBe(`vendor-risk/rules@1+bedrock:${MODEL}`);
    expect(result).toEqual(expected);

    const sent = fake.requests.slice(calls);
    expect(sent).toHaveLength(1);
    // Over the Bedrock runtime client's own HTTP/2 handler (the function bundles no HTTP/1.1 one for it).
    expect(sent[0]).toMatchObject({ method: 'POST', path: `/model/${encodeURIComponent(MODEL)}/converse`, modelId: MODEL, region: 'us-east-1', status: 200, httpVersion: '2.0' });
    const body = sent[0].body as Record<string, any>;
    expect(body.toolConfig.toolChoice).toEqual({ tool: { name: 'vendor-risk_reading' } });
    expect(body.toolConfig.tools[0].toolSpec.inputSchema.json).toEqual(READINGS['vendor-risk'].shape.json);
    expect(body.system[0].text).toContain('Vendor risk read');
    expect(body.messages[0].content[0].text).toContain(`<input>{"vendorProfile":${JSON.stringify(SANCTIONED.split('\n'))}}</input>`);
    expect(body.inferenceConfig).toEqual({ maxTokens: 8192, temperature: 0 });
  });

  it('every family: a plain document read faithfully agrees with the deterministic reading', async () => {
    const cases: [AgentDefinition, Record<string, string>][] = [
      [BANK_REC, { bankStatement: BANK_WITH_BALANCES, bookEntries: BANK_BOOKS }],
      [EXPENSE, { expense: 'Team dinner, 1 person, $120.00, receipt attached\nTaxi to airport $18.00 (receipt)', expensePolicy: MEALS }],
      [PO_MATCH, { purchaseOrder: PO, invoice: PO }],
    ];
    for (const [agent, input] of cases) {
      const expected = rules(agent, input);
      const { result, engine } = await reasoner().reason(agent, input, expected);
      expect([engine, result], agent.slug).toEqual([`${agent.engine.id}+bedrock:${MODEL}`, expected]);
    }
  });
});

describe('[fake:wrong] a reading every item of which is grounded, with a line left out', () => {
  it('where the document states a total (the bank’s opening and closing balances) the sum does not reconcile: the deterministic result answers', async () => {
    const input = { bankStatement: BANK_WITH_BALANCES.replace('Opening balance', 'Opening balance [fake:wrong]'), bookEntries: BANK_BOOKS };
    const expected = rules(BANK_REC, input);
    expect(expected.reconciled).toBe(true);
    const { value, warnings } = await logged(() => reasoner().reason(BANK_REC, input, expected, { runId: 'run_1' }));
    expect(value).toEqual({ result: expected, engine: 'bank-rec/rules@1' });
    expect(warnings).toContain('the model reading is not grounded in the documents');
    expect(warnings).toContain('"check":"items do not add up to the stated total","at":"bankStatement.closingBalance"');
    expect(warnings).not.toMatch(/INV-2001|2,400|2550|Rent/);
  });

  it('with no total to catch it, a decision it makes more permissive is not given: the sanctioned country it left out still declines, both readings in the note', async () => {
    const input = { vendorProfile: SANCTIONED.replace('Vendor:', '[fake:wrong] Vendor:') };
    const expected = rules(VENDOR_RISK, input);
    expect(expected.decision).toBe('decline');
    const explained = (VENDOR_RISK.engine.explain as unknown as (i: unknown) => { evidence: Evidence[] })(input);
    const { result, engine, evidence } = await reasoner().reason(VENDOR_RISK, input, expected, { evidence: explained.evidence });
    const r = result as Record<string, any>;
    expect(engine).toBe(`vendor-risk/rules@1+bedrock:${MODEL}`);
    expect({ decision: r.decision, flags: r.flags }).toEqual({ decision: 'decline', flags: expected.flags });
    // The engine's findings answer (a sentence added to the note): its evidence on the buyer's profile stands beside them.
    expect(evidence).toEqual((VENDOR_RISK.engine.explain as unknown as (i: unknown) => { evidence: unknown }).call(VENDOR_RISK.engine, input).evidence);
    expect(r.note.startsWith(expected.note)).toBe(true);
    expect(r.note).toMatch(/rules engine's reading gives decline.*model's reading gives onboard.*rules engine's reading, is given/);
    expect(VENDOR_RISK.resultSchema.safeParse(r).success).toBe(true);
  });

  it('a decision it makes stricter is given, for a person to look at (a bank line missed: not reconciled), both readings in the note', async () => {
    const input = { bankStatement: BANK.replace('Description', 'Description [fake:wrong]'), bookEntries: BANK_BOOKS };
    const expected = rules(BANK_REC, input);
    expect(expected.reconciled).toBe(true);
    const { result, evidence } = await reasoner().reason(BANK_REC, input, expected);
    const r = result as Record<string, any>;
    expect(r.reconciled).toBe(false);
    expect(r.note).toMatch(/rules engine's reading gives reconciled; the model's reading gives not reconciled.*model's reading, is given/);
    // The engine's evidence on the model's reading, each cited line turned back into the buyer's line it was read from.
    expect(evidence?.length).toBeGreaterThan(0);
    for (const source of evidence!.flatMap((e) => e.sources)) expect(input[source.field as keyof typeof input].split('\n')[source.line! - 1]).toContain(source.quote);
  });
});

describe('the model reading answers: its evidence cites the buyer’s lines, through the reading’s laid-out rendering', () => {
  /** Every source of the evidence quotes the buyer's own line (fields the model reads and the policy alike). */
  const onBuyersLines = (evidence: Evidence[] | undefined, input: Record<string, string>) => {
    expect(evidence?.length).toBeGreaterThan(0);
    for (const source of evidence!.flatMap((e) => e.sources)) expect(input[source.field].split('\n')[source.line! - 1]).toContain(source.quote);
  };

  it('expense: the model leaves the taxi out (less reimbursed): its answer, the over-cap dinner cited at the claim’s line 1', async () => {
    const input = { expense: 'Team dinner $120.00 receipt attached\nTaxi $18.00 (receipt) [fake:wrong]', expensePolicy: MEALS };
    const expected = rules(EXPENSE, input);
    const { result, evidence } = await reasoner().reason(EXPENSE, input, expected);
    const r = result as Record<string, any>;
    expect(r.reimbursable_amount).toBeLessThan(expected.reimbursable_amount);
    expect(r.note).toMatch(/model's reading, is given/);
    onBuyersLines(evidence, input);
    expect(evidence!.flatMap((e) => e.sources).find((s) => s.field === 'expense')).toMatchObject({ line: 1 });
  });

  it('PO match: the model finds no PO number on the invoice (hold): its answer, each finding on the buyer’s lines', async () => {
    const input = { purchaseOrder: PO, invoice: `${PO}\n[fake:disagree]` };
    const expected = rules(PO_MATCH, input);
    const { result, evidence } = await reasoner().reason(PO_MATCH, input, expected);
    expect((result as Record<string, any>).status).toBe('hold');
    onBuyersLines(evidence, input);
  });
});

describe('[fake:ungrounded] a figure that is not in the documents: the reading is not used', () => {
  const cases: [string, AgentDefinition, Record<string, string>, string, string][] = [
    ['expense: an amount not on its line', EXPENSE, { expense: 'Team dinner $50.00 receipt attached [fake:ungrounded]\nTaxi $18.00 (receipt)', expensePolicy: MEALS }, 'amount not on its line', 'expense.items[0].amount'],
    ['bank rec: an amount not on its line', BANK_REC, { bankStatement: BANK, bookEntries: `${BANK_BOOKS}\n[fake:ungrounded]` }, 'amount not on its line', 'bankStatement.transactions[0].amount'],
    ['PO match: a line total not on its line', PO_MATCH, { purchaseOrder: PO, invoice: `${PO}\n[fake:ungrounded]` }, 'amount not on its line', 'invoice.lines[0].amount'],
    ['vendor risk: a tax number the profile does not have', VENDOR_RISK, { vendorProfile: `${DENIED}\n[fake:ungrounded]` }, 'figure in text not on its line', 'vendorProfile.statements[0].text'],
  ];
  cases.push(['expense: a count of attendees the claim does not write (it would raise the cap)', EXPENSE, { expense: '{"category":"meals","amount":120,"receipt":true,"attendees":1,"description":"team dinner [fake:disagree]"}', expensePolicy: MEALS }, 'count not in its field', 'expense.items[0].count']);
  for (const [name, agent, input, check, at] of cases) {
    it(`${name}: the deterministic result and id; logged by check and path, never the values`, async () => {
      const expected = rules(agent, input);
      const { value, warnings } = await logged(() => reasoner().reason(agent, input, expected));
      expect(value).toEqual({ result: expected, engine: agent.engine.id });
      expect(warnings).toContain(`"check":"${check}","at":"${at}"`);
      expect(warnings).not.toMatch(/dinner|Taxi|INV-2001|Widget|Harbor|98-7654321|150\.00|2500/);
    });
  }
});

describe('[fake:disagree] a grounded reading of a fact another way: the conservative answer, whichever reading gave it, both in the note', () => {
  it('vendor risk: the model reads the denial as an affirmation (decline); the deterministic reading onboards: decline, noted', async () => {
    const input = { vendorProfile: `${DENIED}\n[fake:disagree]` };
    const expected = rules(VENDOR_RISK, input);
    expect(expected.decision).toBe('onboard');
    const { value, warnings } = await logged(() => reasoner().reason(VENDOR_RISK, input, expected, { runId: 'run_2' }));
    const r = value.result as Record<string, any>;
    expect(value.engine).toBe(`vendor-risk/rules@1+bedrock:${MODEL}`);
    expect(r.decision).toBe('decline');
    expect(r.note).toMatch(/rules engine's reading gives onboard.*model's reading gives decline.*flags only in the model's reading: sanctioned jurisdiction.*model's reading, is given/);
    expect(warnings).toContain('disagree');
    expect(warnings).toContain('"answered":"model"');
    expect(warnings).not.toMatch(/Iran|Harbor/);
  });

  it('expense: the model reads one more attendee (approve, more reimbursed); the deterministic reading flags: the flag and the lower amount, noted', async () => {
    // The count the model reads must be written in the claim (here in the description), else the reading is not used.
    const input = { expense: '{"category":"meals","amount":120,"receipt":true,"attendees":1,"description":"team dinner, table for 2 [fake:disagree]"}', expensePolicy: MEALS };
    const expected = rules(EXPENSE, input);
    expect(expected).toMatchObject({ verdict: 'flag', reimbursable_amount: 75 });
    const r = (await reasoner().reason(EXPENSE, input, expected)).result as Record<string, any>;
    expect({ verdict: r.verdict, reimbursable_amount: r.reimbursable_amount, violations: r.violations }).toEqual({ verdict: 'flag', reimbursable_amount: 75, violations: expected.violations });
    expect(r.note).toMatch(/rules engine's reading gives flag, 75\.00 reimbursable; the model's reading gives approve, 120\.00 reimbursable.*rules engine's reading, is given/);
  });

  it('PO match: the model finds no PO number on the invoice (hold); the deterministic reading passes: hold, noted', async () => {
    const input = { purchaseOrder: PO, invoice: `${PO}\n[fake:disagree]` };
    const expected = rules(PO_MATCH, input);
    expect(expected.status).toBe('pass');
    const r = (await reasoner().reason(PO_MATCH, input, expected)).result as Record<string, any>;
    expect({ status: r.status, matched: r.matched }).toEqual({ status: 'hold', matched: false });
    expect(r.note).toMatch(/rules engine's reading gives pass.*model's reading gives hold/);
  });

  it('bank rec: the model reads the last bank line’s direction the other way: not reconciled, noted', async () => {
    const input = { bankStatement: `${BANK}\n[fake:disagree]`, bookEntries: BANK_BOOKS };
    const expected = rules(BANK_REC, input);
    expect(expected.reconciled).toBe(true);
    const r = (await reasoner().reason(BANK_REC, input, expected)).result as Record<string, any>;
    expect(r.reconciled).toBe(false);
    expect(r.note).toMatch(/Two readings of the documents disagree/);
  });
});

describe('any model failure answers the engine’s result (a paid run never fails because of the model)', () => {
  const cases: [string, string, Record<string, string>?][] = [
    ['[fake:429]', 'ThrottlingException'],
    ['[fake:500]', 'InternalServerException'],
    ['[fake:malformed]', 'the model call failed'],
    ['[fake:hang]', 'the model call failed', { AGENT_REASONING_TIMEOUT_MS: '800' }],
    ['[fake:content-filter]', 'the model did not call the reading tool'],
    ['[fake:off-schema]', 'the model reading does not match the schema'],
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
      expect(result).toEqual(expected);
    } finally {
      await slow.stop();
    }
  });
});
