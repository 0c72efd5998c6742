/**
 * A paid run of an agent with model reasoning (ADR 0009, 0023) asks the model while its transfer waits for a block (issue
 * 25), on the embedded runtime's real parts: the run use case, the purchase skeleton, the payment core's self-settler
 * on the local chain, the ledger and runs in DynamoDB Local, and the Converse adapter against the Bedrock fake. The
 * chain makes a block only when the test mines one, so "while the transfer waits" is a state, not a race: the model is
 * asked with the transfer in the pool and no block holding it, and the block is mined only once the model answered.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbedded, type EmbeddedRuntime } from '../../lib/local/runtime.js';
import { startBedrockFake, type BedrockFake } from '../../lib/local/providers/bedrock.js';
import { AGENTS } from '../../lambdas/agents/registry.js';
import type { AgentReasoner } from '../../lambdas/agents/reasoning/converse.js';
import { verifiedPayment } from '../support/verified-payment.js';

const BANK_REC = AGENTS.find((a) => a.slug.startsWith('bank-rec-discrepancy-finder'))!;
const MODEL = 'amazon.nova-pro-v1:0';
const INPUT = {
  bankStatement: ['Date,Description,Amount', '11/02/2026,Deposit INV-2001,"2,400.00"', '11/05/2026,CHECK 3101,(850.00)', '11/30/2026,Interest paid,3.15'].join('\n'),
  bookEntries: ['Date,Memo,Debit,Credit,Check No', '2026-11-01,INV-2001 receipt,2400.00,,', '2026-11-03,Rent November,,850.00,3101'].join('\n'),
};

let runtime: EmbeddedRuntime;
let fake: BedrockFake;
let stateDir: string;

beforeAll(async () => {
  stateDir = mkdtempSync(join(tmpdir(), 'reasoning-block-'));
  runtime = await startEmbedded({ generationPort: 0, chainPort: 0, stateDir, log: () => {}, renderWaitMs: 100, sweepIntervalMs: 0 });
  Object.assign(process.env, { AWS_ACCESS_KEY_ID: process.env.AWS_ACCESS_KEY_ID ?? 'local', AWS_SECRET_ACCESS_KEY: process.env.AWS_SECRET_ACCESS_KEY ?? 'local' });
  fake = await startBedrockFake({ stateDir, apiKey: 'unused', log: () => {} });
}, 120_000);

afterAll(async () => {
  await fake?.stop();
  await runtime?.stop();
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
});

const rpc = (method: string, ...params: unknown[]) => runtime.chain.provider.request({ method, params }) as Promise<any>;

describe('a paid reasoning run: the model works while the transfer waits for its block', () => {
  it('the model is asked with the transfer pending and unmined; the run settles with the model’s answer, recorded with the receipt', async () => {
    const { runAgent } = await import('../../lambdas/agents/run.js');
    const { RunStore } = await import('../../lambdas/store/runs.js');
    const { DynamoPaymentLedger } = await import('../../lambdas/store/ledger.js');
    const { paymentCore } = await import('../../lambdas/payments/backend.js');
    const { ConverseReasoner } = await import('../../lambdas/agents/reasoning/converse.js');
    const { reasoningConfig } = await import('../../lambdas/agents/reasoning/config.js');

    const { payment } = await verifiedPayment(runtime.chain, BANK_REC.price);

    const model = new ConverseReasoner(reasoningConfig({ AGENT_REASONING: BANK_REC.slug, AGENT_REASONING_MODEL: MODEL, BEDROCK_RUNTIME_ENDPOINT: fake.url })!);
    const seen: { pendingTransactions: number; latestBefore: bigint }[] = [];
    const reasoner: AgentReasoner = {
      covers: (agent) => model.covers(agent),
      async reason(...args) {
        const pending = await rpc('eth_getBlockByNumber', 'pending', false);
        seen.push({ pendingTransactions: pending.transactions.length, latestBefore: BigInt(await rpc('eth_blockNumber')) });
        const answered = await model.reason(...args);
        // The block comes only now, after the model answered: a settlement waiting for it cannot have been first.
        await rpc('evm_mine');
        return answered;
      },
    };

    await rpc('evm_setAutomine', false);
    let outcome;
    try {
      outcome = await runAgent(
        { runs: new RunStore(), ledger: new DynamoPaymentLedger(), settle: (p, o) => paymentCore().settle(p, o), reasoner },
        { agent: BANK_REC, input: INPUT, dryRun: false, payment, deadline: Date.now() + 20_000 },
      );
    } finally {
      await rpc('evm_setAutomine', true);
    }

    expect(seen).toHaveLength(1);
    expect(seen[0].pendingTransactions).toBe(1);
    expect(outcome).toMatchObject({ type: 'done', answer: { settled: true, outputs: { engine: `bank-rec/rules@1+bedrock:${MODEL}` } } });
    if (outcome.type !== 'done') throw new Error(outcome.type);
    const receipt = await rpc('eth_getTransactionReceipt', outcome.receipt!.transaction);
    expect(BigInt(receipt.blockNumber)).toBe(seen[0].latestBefore + 1n);
    // The fake reads these plain exports as the engine does: the readings agree and the engine's result answers.
    expect(outcome.answer.result).toEqual((BANK_REC.engine.analyse as (i: unknown) => unknown)(INPUT));
    const record = await new RunStore().get(outcome.answer.runId);
    expect(record).toMatchObject({ status: 'done', transaction: outcome.receipt!.transaction, engine: `bank-rec/rules@1+bedrock:${MODEL}` });
  }, 60_000);
});
