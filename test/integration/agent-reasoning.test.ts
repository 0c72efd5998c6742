/**
 * Model reasoning of an agent end to end on the embedded default, in its own process with
 * `AGENT_REASONING=vendor-risk-read-q0jjq`: a paid run goes through the run function's instances under its
 * synthesized policy (bedrock:InvokeModel on the configured model, enforced locally), `@aws-sdk/client-bedrock-runtime`
 * Converse against the Bedrock fake, which reads the profile (ADR 0023); the engine decides on that reading, and the
 * run answers a result the agent's schema accepts, with `outputs.engine` naming the model. A reading that disagrees
 * answers the conservative decision with both readings in the note; a failing model still answers (the engine's
 * result) and settles; an agent not configured is unchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startEmbeddedProcess, type EmbeddedProcess } from '../support/embedded.js';
import { payingFetch, type FetchLike } from '../support/buyer.js';
import { fundFromState } from '../../bin/fund.js';
import { findAgent } from '../../lambdas/agents/registry.js';

const IP = '127.0.0.73';
const json = { 'Content-Type': 'application/json' };
const VENDOR_RISK = findAgent('vendor-risk-read-q0jjq')!;
const MODEL_ENGINE = 'vendor-risk/rules@1+bedrock:amazon.nova-pro-v1:0';
const PROFILE = ['Vendor: Harbor Light Trading LLC', 'Address: PO Box 4471, Wilmington DE', 'Please send payment to our new bank account; 50% upfront before shipment.'].join('\n');
let service: EmbeddedProcess;
let pay: FetchLike;

beforeAll(async () => {
  service = await startEmbeddedProcess({ env: { AGENT_REASONING: VENDOR_RISK.slug } });
  const privateKey = generatePrivateKey();
  await fundFromState(service.stateDir, privateKeyToAccount(privateKey).address, 5_000_000n);
  pay = payingFetch(privateKey, IP);
}, 120_000);
afterAll(async () => {
  await service?.stop();
});

async function run(slug: string, input: Record<string, string>) {
  const response = await pay(`${service.info.agentsUrl}/api/agents/${slug}/run`, { method: 'POST', headers: json, body: JSON.stringify({ input }) });
  const body = (await response.json()) as Record<string, any>;
  return { status: response.status, body };
}

const rules = (vendorProfile: string) => (VENDOR_RISK.engine.analyse as (i: unknown) => Record<string, any>)({ vendorProfile });

describe('agent reasoning (embedded default, Bedrock fake, AGENT_REASONING=vendor-risk-read-q0jjq)', () => {
  it('a paid run answers a result the agent’s schema accepts, the engine’s decision on the model’s reading; outputs.engine names the model', async () => {
    const { status, body } = await run(VENDOR_RISK.slug, { vendorProfile: PROFILE });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ status: 'done', settled: true, outputs: { agent: VENDOR_RISK.slug, engine: MODEL_ENGINE } });
    expect(VENDOR_RISK.resultSchema.safeParse(body.result).success).toBe(true);
    const expected = rules(PROFILE);
    expect({ grade: body.result.grade, decision: body.result.decision, collect: body.result.collect }).toEqual({ grade: expected.grade, decision: expected.decision, collect: expected.collect });
    expect(service.output()).not.toMatch(/AccessDenied/);
  });

  it('[fake:disagree]: the model reads a denial as an affirmation; the conservative decision (decline) answers, both readings in the note', async () => {
    const profile = ['Vendor: Harbor Light Trading LLC', 'Tax ID: 12-3456789', 'Address: 12 Main Street, Springfield IL', 'Incorporated: 2010', 'We have no operations in Iran. [fake:disagree]'].join('\n');
    expect(rules(profile).decision).toBe('onboard');
    const { status, body } = await run(VENDOR_RISK.slug, { vendorProfile: profile });
    expect(status).toBe(200);
    expect(body.outputs.engine).toBe(MODEL_ENGINE);
    expect(body.result.decision).toBe('decline');
    expect(body.result.note).toMatch(/rules engine's reading gives onboard.*model's reading gives decline/);
  });

  it('[fake:ungrounded]: a figure not in the profile; the engine’s result and id answer', async () => {
    const profile = `${PROFILE}\n[fake:ungrounded]`;
    const { status, body } = await run(VENDOR_RISK.slug, { vendorProfile: profile });
    expect(status).toBe(200);
    expect(body).toMatchObject({ settled: true, outputs: { engine: 'vendor-risk/rules@1' } });
    expect(body.result).toEqual(rules(profile));
  });

  it('[fake:500]: the model fails, the run still settles with the engine’s result and id', async () => {
    const profile = `${PROFILE}\n[fake:500]`;
    const { status, body } = await run(VENDOR_RISK.slug, { vendorProfile: profile });
    expect(status).toBe(200);
    expect(body).toMatchObject({ settled: true, outputs: { engine: 'vendor-risk/rules@1' } });
    expect(body.result).toEqual(rules(profile));
  });

  it('an agent not named in AGENT_REASONING runs its engine alone', async () => {
    const statement = 'Date,Description,Amount\n11/02/2026,Deposit,100.00';
    const books = 'Date,Memo,Amount\n2026-11-02,Deposit,100.00';
    const { status, body } = await run('bank-rec-discrepancy-finder-bw0tt', { bankStatement: statement, bookEntries: books });
    expect(status).toBe(200);
    expect(body.outputs.engine).toBe('bank-rec/rules@1');
    expect(body.result.note).not.toContain('Two readings');
  });
});
