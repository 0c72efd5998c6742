/** Dependencies of the job purchase, built once per process (HTTP paid routes and the MCP token tool). */
import { JobStore } from '../store/jobs.js';
import { DynamoPaymentLedger } from '../store/ledger.js';
import { WorkflowStarter } from '../store/workflow.js';
import { paymentCore } from '../payments/backend.js';
import { renderConfig } from '../render/config.js';
import type { PurchaseDeps } from './purchase.js';

let deps: PurchaseDeps | undefined;
export function purchaseDeps(): PurchaseDeps {
  deps ??= {
    jobs: new JobStore(),
    ledger: new DynamoPaymentLedger(),
    workflow: new WorkflowStarter(),
    settle: (payment, options) => paymentCore().settle(payment, options),
    providerFor: (product) => renderConfig().providers[product],
  };
  return deps;
}
