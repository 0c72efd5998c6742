/** Dependencies of the paid-job use case, built once per process (HTTP paid routes and the MCP token tool). */
import { JobStore } from '../store/jobs.js';
import { PaymentStore } from '../store/payments.js';
import { WorkflowStarter } from '../store/workflow.js';
import { charge } from '../payments/backend.js';
import { renderConfig } from '../shared/config.js';
import type { AcceptDeps } from './accept.js';

let deps: AcceptDeps | undefined;
export function acceptDeps(): AcceptDeps {
  deps ??= { jobs: new JobStore(), payments: new PaymentStore(), workflow: new WorkflowStarter(), charge, providerName: renderConfig().provider };
  return deps;
}
