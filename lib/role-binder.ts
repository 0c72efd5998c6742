/**
 * A function's role (lib/roles.ts ROLES) made real in one call: its grants, and the environment variables that name
 * what it was granted (a secret's name, the webhook machine's ARN, the model's settings), so that a function never
 * learns a name it may not read and never gets a grant its code has no name for.
 */
import type { Stack } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { ENV, WEBHOOK_MACHINE_ENV } from '../lambdas/shared/config.js';
import { CANCELLING_PROVIDERS, PROVIDER_SECRETS, providerSecret, type ProviderSecret } from '../lambdas/render/providers.js';
import { AP2_ENV } from '../lambdas/payments/ap2/merchant.js';
import { REFUND_ENV } from '../lambdas/payments/refund.js';
import { OFFER_SIGNER_ENV } from '../lambdas/payments/offer-receipt.js';
import { JOB_SECRETS_ENV } from '../lambdas/jobs/job-secrets.js';
import type { StackConfig } from './config.js';
import type { Tables } from './storage.js';
import { providerEnvironment } from './render-providers.js';
import { reasoningEnvironment, reasoningStatement, type AgentReasoningConfig } from './agent-reasoning.js';
import { grantItems, grantObjects, type SecretGrants } from './grants.js';
import type { RoleGrants, SecretName, TableName } from './roles.js';

/** The operator's secrets the stack imports by name (the ones a role names; unset ones are not configured). */
export type ImportedSecrets = Partial<Record<'settlerKey' | 'tokenSellerKey' | 'refundKey' | 'serviceKey' | 'offerSigningKey' | 'ap2MerchantKey' | 'rpcUrl', secretsmanager.ISecret>>;

/**
 * How each plain secret is read: `read` is CDK's grantRead (GetSecretValue and DescribeSecret), `value` GetSecretValue
 * alone (what lambdas/shared/secrets.ts sends) on the name's ARN; `env` is the variable that tells the function its
 * name, where no shared setting already does (the settler's and the token seller's are in every function's
 * environment, the RPC URL's too: lib/paycall-stack.ts commonEnvironment).
 */
export const SECRET_USE: Record<Exclude<SecretName, 'preconfRpcUrl' | 'cancellingVendorKeys'>, { grant: 'read' | 'value'; env?: string }> = {
  settlerKey: { grant: 'read' },
  tokenSellerKey: { grant: 'read' },
  refundKey: { grant: 'read', env: REFUND_ENV.secretId },
  serviceKey: { grant: 'value', env: JOB_SECRETS_ENV.secretId },
  offerSigningKey: { grant: 'value', env: OFFER_SIGNER_ENV.secretId },
  ap2MerchantKey: { grant: 'read', env: AP2_ENV.keySecretId },
  rpcUrl: { grant: 'value' },
};

export interface RoleResources {
  stack: Stack;
  config: StackConfig;
  tables: Tables;
  bucket: s3.IBucket;
  secrets: ImportedSecrets;
  /** Every read of a secret goes through it (the decrypt grant of a customer managed key). */
  secretGrants: SecretGrants;
  /** Each product's machine, by product id (asked for when a role names one: the machines are made after the binder). */
  machines: () => Record<string, sfn.StateMachine>;
  webhookMachine: () => sfn.StateMachine;
  reasoning?: AgentReasoningConfig;
  /** A vendor's API key secret, imported once (the render functions share it). */
  vendorKey: (which: ProviderSecret) => secretsmanager.ISecret;
}

export class RoleBinder {
  private preconfRpcUrlSecret?: secretsmanager.ISecret;

  constructor(private readonly r: RoleResources) {}

  /** Grants `fn` its role and sets the variables that name what it was granted. `starts`: RouteDef.starts of its routes. */
  bind(fn: lambda.Function, role: RoleGrants, starts: readonly string[] = []): void {
    const { tables } = this.r;
    const machines = role.start || role.stop || role.describe ? this.r.machines() : {};
    for (const [name, grant] of Object.entries(role.tables ?? {})) grantItems(fn, tables[name as TableName], grant.actions, grant.indexes);
    for (const secret of role.secrets ?? []) this.secret(fn, secret);
    if (role.start) {
      const products = role.start === 'all' ? Object.keys(machines) : starts;
      if (!products.length) throw new Error(`lib/role-binder.ts: ${fn.node.id} starts its own product's machine, but its routes start none (RouteDef.starts)`);
      for (const product of products) machines[product].grantStartExecution(fn);
    }
    if (role.stop) for (const machine of Object.values(machines)) machine.grantExecution(fn, 'states:StopExecution');
    if (role.describe) for (const machine of Object.values(machines)) machine.grantExecution(fn, 'states:DescribeExecution');
    if (role.webhooks) {
      const webhookMachine = this.r.webhookMachine();
      webhookMachine.grantStartExecution(fn);
      fn.addEnvironment(WEBHOOK_MACHINE_ENV, webhookMachine.stateMachineArn);
    }
    if (role.bucket) grantObjects(fn, this.r.bucket, role.bucket);
    if (role.reasoning && this.r.reasoning) {
      fn.addToRolePolicy(reasoningStatement(this.r.stack, this.r.reasoning));
      for (const [name, value] of Object.entries(reasoningEnvironment(this.r.reasoning))) fn.addEnvironment(name, value);
    }
    // No issuer configured: an empty key set, so every mandate is refused (the variable is always there).
    if (role.ap2Issuers) fn.addEnvironment(AP2_ENV.trustedIssuers, this.r.config.ap2TrustedIssuers ?? '{"keys":[]}');
  }

  private secret(fn: lambda.Function, name: SecretName): void {
    if (name === 'preconfRpcUrl') return this.preconfRpcUrl(fn);
    if (name === 'cancellingVendorKeys') return this.cancellingVendorKeys(fn);
    const secret = this.r.secrets[name];
    if (!secret) return; // not configured (no RPC URL secret, no token issuer, a remote facilitator's settler)
    const use = SECRET_USE[name];
    if (use.grant === 'read') this.r.secretGrants.read(fn, secret);
    else this.r.secretGrants.value(fn, secret);
    if (use.env) fn.addEnvironment(use.env, secret.secretName);
  }

  /**
   * The preconfirmation endpoint (context `preconfRpcUrl` or `preconfRpcUrlSecretName`; ADR 0021): the endpoint's URL,
   * or its secret's name and GetSecretValue on that secret alone.
   */
  private preconfRpcUrl(fn: lambda.Function): void {
    const { preconfRpcUrl, preconfRpcUrlSecretName } = this.r.config;
    if (preconfRpcUrl) fn.addEnvironment(ENV.preconfRpcUrl, preconfRpcUrl);
    if (!preconfRpcUrlSecretName) return;
    fn.addEnvironment(ENV.preconfRpcUrlSecretId, preconfRpcUrlSecretName);
    this.preconfRpcUrlSecret ??= secretsmanager.Secret.fromSecretNameV2(this.r.stack, 'PreconfRpcUrl', preconfRpcUrlSecretName);
    this.r.secretGrants.value(fn, this.preconfRpcUrlSecret);
  }

  /**
   * A job at a provider whose queue takes cancellations (fal's) is canceled there (lambdas/jobs/cancel.ts): the
   * provider's key and settings, whichever product it is sold with now (a job of theirs may still be in flight).
   */
  private cancellingVendorKeys(fn: lambda.Function): void {
    for (const provider of CANCELLING_PROVIDERS) {
      const which = providerSecret(provider);
      if (which) {
        const key = this.r.vendorKey(which);
        this.r.secretGrants.read(fn, key);
        fn.addEnvironment(PROVIDER_SECRETS[which].env, key.secretName);
      }
      for (const [name, value] of Object.entries(providerEnvironment(provider, this.r.config))) fn.addEnvironment(name, value);
    }
  }
}
