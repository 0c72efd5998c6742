/**
 * What a deployed function's environment looks like, for the builds outside CDK that run a bundle (bench/bundles.ts,
 * test/unit/bundling/function-sizes.test.ts): what Lambda sets in every function (LAMBDA_RUNTIME_ENV) and the
 * configuration the stack gives the functions (names, addresses, ARNs: DEPLOYED_CONFIG), which each function checks
 * at import, at cold start, and refuses to load without. Not a copy of any one function's environment: the union of
 * what the functions read at import, with values of the deployed shape.
 */
import { AP2_ENV } from '../../lambdas/payments/ap2/merchant.js';
import { ENV, WEBHOOK_MACHINE_ENV } from '../../lambdas/shared/config.js';

/** What the Lambda runtime sets in a Node.js 22 function's environment (the handler's name and its region). */
export function lambdaRuntimeEnv(functionName: string): Record<string, string> {
  return {
    AWS_REGION: 'us-east-1',
    AWS_DEFAULT_REGION: 'us-east-1',
    AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
    AWS_LAMBDA_FUNCTION_NAME: functionName,
    AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '1024',
    _HANDLER: 'index.handler',
    TZ: ':UTC',
  };
}

const ARN = 'arn:aws:states:us-east-1:123456789012:stateMachine';

/** The stack's configuration of its functions, as each reads it at import (lambdas/shared/config.ts). */
export const DEPLOYED_CONFIG: Record<string, string> = {
  [ENV.jobsTable]: 'jobs',
  [ENV.paymentsTable]: 'payments',
  [ENV.idempotencyTable]: 'idempotency',
  [ENV.rateLimitTable]: 'rate-limits',
  [ENV.runsTable]: 'runs',
  [ENV.settlerLeasesTable]: 'settler-leases',
  [ENV.workspacesTable]: 'workspaces',
  [ENV.creditLedgerTable]: 'credit-ledger',
  [AP2_ENV.keySecretId]: 'paycall/ap2-merchant-key',
  [AP2_ENV.trustedIssuers]: '{"keys":[]}',
  [ENV.usdcAddress]: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  [ENV.payTo]: '0x2222222222222222222222222222222222222222',
  [ENV.rpcUrl]: 'https://mainnet.base.org',
  [ENV.chainId]: '8453',
  [ENV.settlerKeySecretId]: 'paycall/settler-keys',
  [ENV.assetsBucket]: 'assets',
  [ENV.assetsPublicUrl]: 'https://assets.example.com',
  [ENV.publicBaseUrl]: 'https://api.example.com',
  [ENV.agentsPublicBaseUrl]: 'https://agents.example.com',
  [ENV.musicStateMachineArn]: `${ARN}:music`,
  [ENV.videoStateMachineArn]: `${ARN}:video`,
  [ENV.imageStateMachineArn]: `${ARN}:image`,
  // Webhooks (docs/decisions/0018): the functions that end jobs (and the cancel route) start the webhook machine; checked at cold start.
  [WEBHOOK_MACHINE_ENV]: `${ARN}:webhooks`,
};
