/**
 * CDK app entry (`npx cdk synth`, `npx cdk deploy`). Configuration comes from cdk.json `context` and `-c key=value`
 * (see lib/config.ts); synth needs no AWS account: the pay-to address is resolved from SSM at deploy time unless
 * `-c payTo=0x...` is given, and the settler key is a Secrets Manager secret name.
 *
 * cdk-nag (AwsSolutions and Serverless packs, lib/nag.ts) checks every synthesis: an unacknowledged finding fails it,
 * and the report is cdk.out/validation-report.json.
 */
import { App } from 'aws-cdk-lib';
import { PaycallStack } from '../lib/paycall-stack.js';
import { StackConfigError } from '../lib/config.js';
import { applyNag } from '../lib/nag.js';

const app = new App();
// The stack builds the whole service (the core, and a nested stack per surface: lib/paycall-stack.ts), but its default name stays the one every
// deployment so far was made under: a new name would be a new stack beside the old one, with new tables.
const stackName = (app.node.tryGetContext('stackName') as string | undefined) ?? 'PaycallGeneration';

try {
  const stack = new PaycallStack(app, stackName, {
    description: 'x402 pay-per-call service: generation (music, video, image) and the agent studio',
    env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  });
  applyNag(app, stack);
} catch (error) {
  if (error instanceof StackConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
app.synth();
