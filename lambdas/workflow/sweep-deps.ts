/** The sweeper's dependencies, built once per process (the scheduled Lambda and the embedded runtime's start). */
import { JobRefundStore } from '../store/job-refunds.js';
import { JobWebhookStore } from '../store/job-webhooks.js';
import { DynamoPaymentLedger } from '../store/ledger.js';
import { RunStore } from '../store/runs.js';
import { CreditStore } from '../store/credits.js';
import { WebhookStarter, WorkflowStarter } from '../store/workflow.js';
import { paidOnChain } from '../payments/core/paid-on-chain.js';
import type { SweepDeps } from './sweeper.js';
import { refunder } from './refund-deps.js';
import { preconfirmedDeps } from './preconfirmed-deps.js';
import { paymentConfig, webhookConfig, workflowConfig } from '../shared/config.js';

let deps: SweepDeps | undefined;
export function sweepDeps(): SweepDeps {
  paymentConfig();
  workflowConfig();
  webhookConfig();
  if (!deps) {
    // The refund writes ride on the job store the sweeper uses for everything else.
    const jobs = new JobRefundStore();
    deps = {
      jobs,
      runs: new RunStore(),
      topUps: new CreditStore(),
      ledger: new DynamoPaymentLedger(),
      workflow: new WorkflowStarter(),
      paidOnChain: (payment) => paidOnChain(payment),
      refunds: { jobs, refunder: refunder(), preconfirmed: preconfirmedDeps() },
      webhooks: { jobs: new JobWebhookStore(), starter: new WebhookStarter() },
    };
  }
  return deps;
}
