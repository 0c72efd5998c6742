/**
 * CDK app entry (`npx cdk synth`, `npx cdk deploy`). Configuration comes from cdk.json `context` and `-c key=value`
 * (see lib/config.ts); synth needs no AWS account: the pay-to address is resolved from SSM at deploy time unless
 * `-c payTo=0x...` is given, and the settler key is a Secrets Manager secret name.
 *
 * cdk-nag (AwsSolutions and Serverless packs, lib/nag.ts) checks every synthesis: an unacknowledged finding fails it,
 * and the report is cdk.out/validation-report.json.
 */
import { App } from 'aws-cdk-lib';
import { GenerationStack } from '../lib/generation-stack.js';
import { StackConfigError } from '../lib/config.js';
import { applyNag } from '../lib/nag.js';

const app = new App();
const stackName = (app.node.tryGetContext('stackName') as string | undefined) ?? 'PaycallGeneration';

try {
  const stack = new GenerationStack(app, stackName, {
    description: 'x402 pay-per-call generation service (music, video, image)',
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
