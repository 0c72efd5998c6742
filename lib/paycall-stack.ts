/**
 * The service on AWS: one HTTP API per served surface (lambdas/surfaces/surface.ts; lib/surface-api.ts) with one
 * Lambda per route of the route table, DynamoDB tables (lib/storage.ts), an S3 asset bucket behind CloudFront
 * (lib/assets.ts), one Standard state machine per product (lib/workflow.ts) whose tasks are WORKFLOW_TASKS, and the
 * scheduled SWEEPER. Functions are built by lib/functions.ts; each reads its configuration from the environment
 * variables named in lambdas/shared/config.ts ENV.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import type * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import type * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as events from 'aws-cdk-lib/aws-events';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as eventsTargets from 'aws-cdk-lib/aws-events-targets';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import * as ssm from 'aws-cdk-lib/aws-ssm';
import type { Construct } from 'constructs';
import { PRODUCT_IDS, PRODUCTS, type ProductId } from '../lambdas/products/catalog.js';
import { ENV, WEBHOOK_MACHINE_ENV } from '../lambdas/shared/config.js';
import { stackMetricNamespace } from '../lambdas/shared/metric-names.js';
import { CANCELLING_PROVIDERS, PROVIDER_SECRETS, providerEnvName, providerSecret, type ProviderSecret } from '../lambdas/render/providers.js';
import { AP2_ENV } from '../lambdas/payments/ap2/merchant.js';
import { GENERATION_CATALOG, providerEnvironment, providersServedBy, providerStatements, type GenerationCatalog, type StackProduct } from './render-providers.js';
import { BUYER_JOBS_INDEX, OPEN_JOBS_INDEX, OPEN_REFUNDS_INDEX, OPEN_WEBHOOKS_INDEX } from '../lambdas/store/jobs.js';
import { BUYER_RUNS_INDEX, OPEN_RUNS_INDEX } from '../lambdas/store/runs.js';
import { LEDGER_BY_TIME_INDEX, OPEN_TOPUPS_INDEX } from '../lambdas/store/credits.js';
import { TOKEN_ENV } from '../lambdas/payments/token/config.js';
import { REFUND_ENV } from '../lambdas/payments/refund.js';
import { OFFER_SIGNER_ENV } from '../lambdas/payments/offer-receipt.js';
import { JOB_SECRETS_ENV } from '../lambdas/jobs/job-secrets.js';
import { routeTable, SIGN_IN_AUTHORIZER, SWEEPER, WORKFLOW_TASKS } from '../lambdas/surfaces/routes.js';
import { RENDER_FUNCTIONS } from '../lambdas/workflow/render-functions.js';
import { servedSurfaces } from '../lambdas/surfaces/surface.js';
import { loadStackConfig, type StackConfig, type StackConfigInput } from './config.js';
import { createTables, type Tables } from './storage.js';
import { createAssetDelivery } from './assets.js';
import { createMonitoring, type Monitoring } from './monitoring.js';
import { FunctionFactory, type FunctionEntry, type RouteRole } from './functions.js';
import { SurfaceApi } from './surface-api.js';
import { createEdge, type Edge } from './edge.js';
import { CLOUDFRONT_HOSTED_ZONE_ID, createApiDomain, customDomainOf, domainOutputs, importCertificate, requireCertificateRegion, type CustomDomain } from './custom-domain.js';
import { loadReasoningConfig, reasoningEnvironment, reasoningStatement, type AgentReasoningConfig } from './agent-reasoning.js';
import { ProductWorkflow } from './workflow.js';
import { WEBHOOK_STATE_MACHINE_OUTPUT, WebhookWorkflow } from './webhook-workflow.js';
import { SecretGrants, STORE_ACTIONS, grantItems, grantObjects } from './grants.js';

export { type FunctionEntry, type RouteRole };

/** Project root (where package.json, package-lock.json and lambdas/ live). */
export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Which environment variable carries each product's state machine ARN (from the catalog). */
export const STATE_MACHINE_ENV = Object.fromEntries(PRODUCT_IDS.map((p) => [p, PRODUCTS[p].workflow.arnEnv])) as Record<ProductId, string>;

/** The output naming a product's state machine: MusicWorkflow → MusicStateMachineArn. */
export function stateMachineOutputId(product: Pick<StackProduct, 'workflow'>): string {
  return product.workflow.constructId.replace(/Workflow$/, 'StateMachineArn');
}

export interface PaycallStackProps extends StackProps {
  /** Overrides of the context configuration (lib/config.ts); props win over context. */
  config?: Partial<StackConfigInput>;
  /**
   * Use an inline placeholder instead of bundling an entry file that does not exist (yet). Only for assertion
   * tests and lib/local/asl.ts, which need the template's shape, never the code. Default false: a missing entry
   * fails synthesis.
   */
  allowMissingEntries?: boolean;
  /**
   * The generation catalog the stack is built from: each product's routes, state machine, grants, outputs, alarms
   * and settings. Default: the real one (GENERATION_CATALOG); a test adds a product from a fixture entry.
   */
  products?: GenerationCatalog;
}

export class PaycallStack extends Stack {
  readonly config: StackConfig;
  /** The generation surface's HTTP API. */
  readonly api: apigwv2.HttpApi;
  readonly tables: Tables;
  readonly assetsBucket: s3.Bucket;
  readonly assetsDistribution: cloudfront.Distribution;
  /** The generation products it was built from (PaycallStackProps.products). */
  readonly products: GenerationCatalog;
  /** Each product's state machine, by product id. */
  readonly stateMachines: Record<string, sfn.StateMachine>;
  /** The webhook delivery machine (docs/decisions/0018, lib/webhook-workflow.ts). */
  webhookMachine!: sfn.StateMachine;
  /** Functions by route/task id (and SWEEPER.id). */
  readonly functions: Record<string, NodejsFunction>;
  /** Synthesised logical id of each AWS::Lambda::Function → what it runs. */
  readonly functionEntries: Record<string, FunctionEntry>;
  /** CloudFront and AWS WAF in front of both APIs (lib/edge.ts), with `edge=cloudfront-waf`. */
  readonly edge?: Edge;
  /** Alarms (all to one SNS topic) and the dashboard (lib/monitoring.ts). */
  readonly monitoring: Monitoring;
  /** The settlement key secret (self mode), imported by name. */
  readonly settlerKeySecret?: secretsmanager.ISecret;
  readonly refundKeySecret: secretsmanager.ISecret;
  /** The secret holding the RPC URL (`rpcUrlSecretName`), imported by name; unset, RPC_URL is the URL itself. */
  readonly rpcUrlSecret?: secretsmanager.ISecret;
  private readonly tokenSellerKey?: secretsmanager.ISecret;
  /** AP2 v0.2: the merchant's signing key (checkouts, receipts), read by the agent run functions. */
  private readonly ap2MerchantKey: secretsmanager.ISecret;
  /** Per-job secrets (cancel tokens) derive from it: the paid generation routes and the cancel route read it. */
  private readonly serviceKey: secretsmanager.ISecret;
  /** Signs x402 offers and receipts (lambdas/payments/offer-receipt.ts; docs/decisions/0019). */
  private readonly offerSigningKey: secretsmanager.ISecret;
  /** Model reasoning of agents' paid runs (lib/agent-reasoning.ts), when the context names agents. */
  private readonly reasoning?: AgentReasoningConfig;
  /** Every read of a secret goes through it: with `secretsKmsKeyArn`, the reader may decrypt with that key too. */
  private readonly secrets: SecretGrants;

  constructor(scope: Construct, id: string, props: PaycallStackProps = {}) {
    super(scope, id, props);
    const products = (this.products = props.products ?? GENERATION_CATALOG);
    const config = (this.config = loadStackConfig(this, props.config, products));
    this.reasoning = loadReasoningConfig(this);
    this.secrets = new SecretGrants(this, config.secretsKmsKeyArn);
    const logRetention = config.logRetentionDays as logs.RetentionDays;
    this.tables = createTables(this);
    const assets = createAssetDelivery(this, PROJECT_ROOT);
    this.assetsBucket = assets.bucket;
    this.assetsDistribution = assets.distribution;
    if (config.facilitatorMode === 'self') {
      this.settlerKeySecret = secretsmanager.Secret.fromSecretNameV2(this, 'SettlerKey', config.settlerKeySecretName);
    }
    // The wallet refunds of failed paid jobs are paid from (a name only; the functions read the key at run time).
    this.refundKeySecret = secretsmanager.Secret.fromSecretNameV2(this, 'RefundKey', config.refundKeySecretName);
    if (config.tokenIssuer) {
      this.tokenSellerKey = secretsmanager.Secret.fromSecretNameV2(this, 'TokenSellerKey', config.tokenSellerKeySecretName);
    }
    this.ap2MerchantKey = secretsmanager.Secret.fromSecretNameV2(this, 'Ap2MerchantKey', config.ap2MerchantKeySecretName);
    this.serviceKey = secretsmanager.Secret.fromSecretNameV2(this, 'ServiceKey', config.serviceKeySecretName);
    this.offerSigningKey = secretsmanager.Secret.fromSecretNameV2(this, 'OfferSigningKey', config.offerSigningKeySecretName);
    if (config.rpcUrlSecretName) this.rpcUrlSecret = secretsmanager.Secret.fromSecretNameV2(this, 'RpcUrl', config.rpcUrlSecretName);
    const factory = new FunctionFactory(this, { projectRoot: PROJECT_ROOT, logRetention, allowMissingEntries: props.allowMissingEntries });
    this.functions = factory.functions;
    this.functionEntries = factory.entries;

    const commonEnv = this.commonEnvironment(assets.publicUrl);
    this.stateMachines = this.workflows(factory, commonEnv, logRetention);
    const startEnv: Record<string, string> = { ...commonEnv };
    for (const product of Object.values(products)) startEnv[product.workflow.arnEnv] = this.stateMachines[product.id].stateMachineArn;
    const routes = routeTable(products);

    // The sign-in authorizer (docs/decisions/0020), shared by both APIs: it checks a sign-in-with-x and uses its nonce once (a
    // conditional PutItem in the idempotency table); nothing else.
    const signInAuthorizer = factory.make(SIGN_IN_AUTHORIZER.id, SIGN_IN_AUTHORIZER, commonEnv, { kind: 'authorizer', id: SIGN_IN_AUTHORIZER.id, entry: SIGN_IN_AUTHORIZER.entry, task: SIGN_IN_AUTHORIZER });
    grantItems(signInAuthorizer, this.tables.idempotency, ['PutItem']);
    let generationApi: apigwv2.HttpApi | undefined;
    const surfaceApis: { surfaceApi: SurfaceApi; baseUrlEnv: string; pinned: boolean; domain?: CustomDomain }[] = [];
    const withEdge = config.edge === 'cloudfront-waf';
    for (const surface of servedSurfaces()) {
      // The base URL the surface's documents name: publicBaseUrl (generation only) > its custom domain > the edge's
      // distribution (withEdge) > the request's own host (nothing pinned).
      const domain = customDomainOf(config, surface.id);
      const domainUrl = domain ? `https://${domain.name}` : undefined;
      const publicBaseUrl = (surface.id === 'generation' ? config.publicBaseUrl : undefined) ?? domainUrl;
      // The agent studio starts no execution and takes no agent-payment tokens: it gets neither's variables.
      const surfaceEnv = surface.id === 'generation' ? { ...startEnv, ...this.tokenEnvironment() } : commonEnv;
      const environment = { ...surfaceEnv, ...(publicBaseUrl ? { [surface.baseUrlEnv]: publicBaseUrl } : {}) };
      const surfaceApi = new SurfaceApi(this, {
        surface,
        routes: routes.filter((route) => route.surface === surface.id),
        functions: factory,
        environment,
        grant: (fn, role) => this.grantRoute(fn, role),
        signInAuthorizer,
        throttle: { rateLimit: config.apiRateLimit, burstLimit: config.apiBurstLimit },
        logRetention,
      });
      surfaceApis.push({ surfaceApi, baseUrlEnv: surface.baseUrlEnv, pinned: publicBaseUrl !== undefined, domain });
      // The authorizer names each surface's routes by the same base URL as the surface's functions.
      if (publicBaseUrl) signInAuthorizer.addEnvironment(surface.baseUrlEnv, publicBaseUrl);
      if (domain) requireCertificateRegion(this, surfaceApi.prefix, domain, withEdge);
      // With the edge, the domain names the distribution instead (withEdge), so its calls pass the web ACL.
      if (domain && !withEdge) createApiDomain(this, surfaceApi.prefix, surfaceApi.api, domain);
      if (surface.id === 'generation') generationApi = surfaceApi.api;
    }
    if (withEdge) this.edge = this.withEdge(surfaceApis, assets.logBucket, signInAuthorizer);
    if (!generationApi) throw new Error('the generation surface has no routes');
    this.api = generationApi;
    this.sweeper(factory, startEnv);
    this.monitoring = createMonitoring(this, {
      stateMachines: this.stateMachines,
      products,
      functions: this.functions,
      tables: { ...this.tables },
      apis: surfaceApis.map(({ surfaceApi }) => surfaceApi),
      settlerGasFloorWei: config.settlerGasFloorWei,
      settlerGasAlarmWei: config.settlerGasAlarmWei,
      refundWalletFloorBaseUnits: config.refundWalletFloorBaseUnits,
      alarmEmails: config.alarmEmail ?? [],
      alarmTopicArn: config.alarmTopicArn,
    });
    new CfnOutput(this, 'AssetsUrl', { value: assets.publicUrl, description: 'Public base URL of generated assets' });
    // A job's execution is named by its job id: <machine ARN with :execution: for :stateMachine:>:<jobId> (README).
    for (const product of Object.values(products)) {
      new CfnOutput(this, stateMachineOutputId(product), {
        value: this.stateMachines[product.id].stateMachineArn,
        description: `The ${product.id} state machine; a job's execution is this ARN with :execution: for :stateMachine:, then :<jobId>`,
      });
    }
    // A job's webhook deliveries run as one execution of their own machine, named by the job id too.
    new CfnOutput(this, WEBHOOK_STATE_MACHINE_OUTPUT, {
      value: this.webhookMachine.stateMachineArn,
      description: "The webhook delivery state machine; a job's delivery execution is this ARN with :execution: for :stateMachine:, then :<jobId>",
    });
  }

  /**
   * The edge in front of every API: each surface's documents name its distribution (unless a custom domain pins
   * the base URL), and every route function learns the origin token that makes the viewer's address believable.
   */
  private withEdge(surfaceApis: { surfaceApi: SurfaceApi; baseUrlEnv: string; pinned: boolean; domain?: CustomDomain }[], logBucket: s3.IBucket, signInAuthorizer: lambda.Function): Edge {
    const apis = surfaceApis.map(({ surfaceApi: { prefix, api }, domain }) => ({
      prefix,
      api,
      ...(domain ? { domain: { name: domain.name, certificate: importCertificate(this, prefix, domain) } } : {}),
    }));
    const edge = createEdge(this, { apis, rateLimit: this.config.edgeRateLimit, totalRateLimit: this.config.edgeTotalRateLimit, logBucket });
    for (const { surfaceApi, domain } of surfaceApis) {
      if (domain) domainOutputs(this, surfaceApi.prefix, domain, edge.distributions[surfaceApi.prefix].distribution.distributionDomainName, CLOUDFRONT_HOSTED_ZONE_ID);
    }
    for (const { surfaceApi, baseUrlEnv, pinned } of surfaceApis) {
      for (const fn of surfaceApi.functions) {
        if (!pinned) fn.addEnvironment(baseUrlEnv, edge.distributions[surfaceApi.prefix].url);
        fn.addEnvironment(ENV.edgeOriginToken, edge.originToken);
      }
      if (!pinned) signInAuthorizer.addEnvironment(baseUrlEnv, edge.distributions[surfaceApi.prefix].url);
    }
    return edge;
  }

  /** What every function reads: tables, assets, payment terms; no secret values (only secret names). */
  private commonEnvironment(assetsPublicUrl: string): Record<string, string> {
    const { config } = this;
    const { jobs, payments, idempotency, rateLimit, settlerLeases, runs, workspaces, creditLedger } = this.tables;
    const payTo = config.payTo ?? ssm.StringParameter.valueForStringParameter(this, config.payToParameter);
    return {
      NODE_OPTIONS: '--enable-source-maps',
      // Metrics, hence alarms, per stack: a staging stack in the account writes and alarms on its own namespace.
      [ENV.metricsNamespace]: stackMetricNamespace(this.stackName),
      [ENV.jobsTable]: jobs.tableName,
      [ENV.paymentsTable]: payments.tableName,
      [ENV.idempotencyTable]: idempotency.tableName,
      [ENV.rateLimitTable]: rateLimit.tableName,
      [ENV.settlerLeasesTable]: settlerLeases.tableName,
      [ENV.runsTable]: runs.tableName,
      [ENV.workspacesTable]: workspaces.tableName,
      [ENV.creditLedgerTable]: creditLedger.tableName,
      [ENV.settlerGasFloorWei]: config.settlerGasFloorWei,
      [ENV.assetsBucket]: this.assetsBucket.bucketName,
      [ENV.assetsPublicUrl]: assetsPublicUrl,
      [ENV.network]: config.network,
      [ENV.chainId]: String(config.chainId),
      [ENV.usdcAddress]: config.usdcAddress,
      [ENV.payTo]: payTo,
      // A keyed RPC URL stays in its secret: the functions get its name (lambdas/payments/rpc-url.ts), never the URL.
      ...(this.rpcUrlSecret ? { [ENV.rpcUrlSecretId]: this.rpcUrlSecret.secretName } : { [ENV.rpcUrl]: config.rpcUrl }),
      [ENV.facilitatorMode]: config.facilitatorMode,
      // providerEnvName upper-cases any id: it is typed for the real products only.
      ...Object.fromEntries(Object.keys(this.products).map((product) => [providerEnvName(product as ProductId), config.renderProviders[product]])),
      [ENV.blockingWaitMs]: String(config.blockingWaitMs),
      [ENV.receiptPollMs]: String(config.receiptPollMs),
      [ENV.blockTimeMs]: String(config.blockTimeMs),
      ...(config.facilitatorMode === 'remote' ? { [ENV.facilitatorUrl]: config.facilitatorUrl! } : {}),
      ...(this.settlerKeySecret ? { [ENV.settlerKeySecretId]: this.settlerKeySecret.secretName } : {}),
    };
  }

  /** Agent-payment tokens, when an issuer is configured: the paid routes verify and charge them. */
  private tokenEnvironment(): Record<string, string> {
    const { config } = this;
    if (!this.tokenSellerKey) return {};
    return {
      [TOKEN_ENV.issuer]: config.tokenIssuer!,
      [TOKEN_ENV.jwksUrl]: config.tokenJwksUrl!,
      [TOKEN_ENV.chargeUrl]: config.tokenChargeUrl!,
      [TOKEN_ENV.sellerId]: config.tokenSellerId!,
      [TOKEN_ENV.sellerKeySecretId]: this.tokenSellerKey.secretName,
    };
  }

  /**
   * The workflow tasks and one state machine per product. Tasks must NOT get the state machine ARNs (the machine
   * already references them: that would be a dependency cycle) and they never start executions.
   */
  private workflows(factory: FunctionFactory, env: Record<string, string>, logRetention: logs.RetentionDays): Record<string, sfn.StateMachine> {
    const { config } = this;
    const taskFns: Record<string, NodejsFunction> = {};
    for (const task of WORKFLOW_TASKS) {
      const taskEnv = task.id === 'RefundPayment' ? { ...env, [REFUND_ENV.secretId]: this.refundKeySecret.secretName } : env;
      taskFns[task.id] = factory.make(task.id, task, taskEnv, { kind: 'task', id: task.id, entry: task.entry, task });
    }
    // One function per render provider (ADR 0016), every provider whether or not a product is configured to it now,
    // so a job sold with one finishes there after the operator chooses another. Each gets its own settings, API key
    // and grants only (a song vendor's also those of the image provider that draws its cover), and its own
    // reservation: renders of one provider do not starve another's.
    const secretOf = (which: ProviderSecret) => this.vendorKey(which);
    for (const render of RENDER_FUNCTIONS) {
      const served = providersServedBy(render.provider, config);
      const secrets = served.flatMap((name) => {
        const which = providerSecret(name);
        return which ? [{ env: PROVIDER_SECRETS[which].env, secret: secretOf(which) }] : [];
      });
      const renderEnv = {
        ...env,
        ...Object.assign({}, ...served.map((name) => providerEnvironment(name, config))),
        ...Object.fromEntries(secrets.map((s) => [s.env, s.secret.secretName])),
      };
      const fn = factory.make(render.id, render, renderEnv, { kind: 'task', id: render.id, entry: render.entry, task: render }, config.bundleFfmpeg && render.ffmpeg, {
        reservedConcurrency: config.renderReservedConcurrency,
      });
      taskFns[render.id] = fn;
      // Outputs, manifests and vendor records under the job's prefix, read back by the check.
      grantObjects(fn, this.assetsBucket, { read: true, write: true });
      for (const { secret } of secrets) this.secrets.read(fn, secret);
      for (const name of served) for (const statement of providerStatements(this, name, config)) fn.addToRolePolicy(statement);
    }
    // Least privilege, task by task: every task reads its job and moves it by conditional updates (never creates one).
    for (const fn of Object.values(taskFns)) grantItems(fn, this.tables.jobs, ['GetItem', 'UpdateItem']);
    // Copies outputs into place (a copy is a Get and a Put); nothing in the bucket is ever deleted.
    if (taskFns.StoreAsset) grantObjects(taskFns.StoreAsset, this.assetsBucket, { read: true, write: true });
    // The refund task signs with the refund wallet and settles through the settler (its key pool and leases).
    if (taskFns.RefundPayment) this.grantRefund(taskFns.RefundPayment);
    // Webhooks (docs/decisions/0018): their own machine, its task signing with the job's secret (from the service key); the two
    // tasks that end jobs start it (the machine references neither, so no cycle).
    this.webhookMachine = new WebhookWorkflow(this, 'WebhookWorkflow', { deliver: taskFns.DeliverWebhook, logRetention }).stateMachine;
    this.grantServiceKey(taskFns.DeliverWebhook);
    this.grantWebhookStart(taskFns.MarkCompleted);
    this.grantWebhookStart(taskFns.MarkFailed);
    // A job answered on a preconfirmed payment is completed once its transfer is in a sealed block (ADR 0021): Mark
    // completed asks the chain (and records the landing on the job, with the UpdateItem it already has).
    this.grantRpcUrl(taskFns.MarkCompleted);

    const machines: Record<string, sfn.StateMachine> = {};
    for (const { id: product, workflow, providers } of Object.values(this.products)) {
      machines[product] = new ProductWorkflow(this, workflow.constructId, {
        product,
        providers,
        functions: taskFns,
        checkIntervalSeconds: config.renderChecks[product].seconds,
        maxChecks: config.renderChecks[product].maxChecks,
        timeout: Duration.minutes(config.workflowTimeoutMinutes),
        logRetention,
      }).stateMachine;
    }
    return machines;
  }

  /**
   * `paid`: the generation tables, StartExecution of its own product's machine and the payment secrets; `run`: the
   * runs table, the payment tables and the settler key (agent runs start no execution and take no tokens), and the
   * reasoning model when configured; `read`: read jobs; `none`: nothing. Each table's actions are its store's
   * (lib/grants.ts STORE_ACTIONS), on the table alone: no route queries an index.
   */
  private grantRoute(fn: lambda.IFunction, role: RouteRole): void {
    const { jobs, payments, idempotency, rateLimit, settlerLeases, runs, workspaces, creditLedger } = this.tables;
    if (role === 'paid') {
      grantItems(fn, jobs, STORE_ACTIONS.jobs);
      grantItems(fn, payments, STORE_ACTIONS.payments);
      grantItems(fn, idempotency, STORE_ACTIONS.idempotency);
      grantItems(fn, rateLimit, STORE_ACTIONS.rateLimit);
      grantItems(fn, settlerLeases, STORE_ACTIONS.settlerLeases);
      this.grantStart(fn, productsStartedBy(fn.node.id, this.products));
      this.secrets.read(fn, this.settlerKeySecret);
      this.secrets.read(fn, this.tokenSellerKey);
      this.grantRpcUrl(fn);
      // The 202 gives the payer the job's cancel token, derived from the service key.
      this.grantServiceKey(fn);
      // Its 402s carry signed offers, its paid answers a signed receipt.
      this.grantOfferSigner(fn);
      // Its job's payment may be answered on a preconfirmed receipt (ADR 0021): the endpoint, or its secret.
      this.grantPreconfRpcUrl(fn as lambda.Function);
    } else if (role === 'run') {
      grantItems(fn, runs, STORE_ACTIONS.runs);
      grantItems(fn, payments, STORE_ACTIONS.payments);
      grantItems(fn, idempotency, STORE_ACTIONS.idempotency);
      grantItems(fn, rateLimit, STORE_ACTIONS.rateLimit);
      grantItems(fn, settlerLeases, STORE_ACTIONS.settlerLeases);
      this.secrets.read(fn, this.settlerKeySecret);
      this.grantRpcUrl(fn);
      this.grantOfferSigner(fn);
      // AP2 (lambdas/payments/ap2): the merchant key signs checkouts and receipts; single-use checkout nonces are
      // written in the idempotency table, which the run functions already have.
      this.grantMerchantKey(fn);
      // No issuer configured: an empty key set, so every mandate is refused (the variable is always there).
      (fn as lambda.Function).addEnvironment(AP2_ENV.trustedIssuers, this.config.ap2TrustedIssuers ?? '{"keys":[]}');
      this.grantReasoning(fn);
    } else if (role === 'workspace') {
      // Create a workspace (PutItem), find one by its key hash (GetItem), read its ledger newest first (Query ByTime).
      grantItems(fn, workspaces, ['PutItem', 'GetItem']);
      grantItems(fn, creditLedger, [], [LEDGER_BY_TIME_INDEX]);
      grantItems(fn, rateLimit, STORE_ACTIONS.rateLimit);
    } else if (role === 'topup') {
      // A top-up is a purchase whose item is a ledger entry and a balance increment (lambdas/credits/topup.ts).
      // The ledger entry is reserved (Put), read back (Get), credited or marked pending (Update) or voided (Delete).
      grantItems(fn, workspaces, ['GetItem', 'UpdateItem']);
      grantItems(fn, creditLedger, ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem']);
      grantItems(fn, payments, STORE_ACTIONS.payments);
      // A retried top-up (X-Idempotency-Key or the payment identifier) answers the first one's 200.
      grantItems(fn, idempotency, STORE_ACTIONS.idempotency);
      this.grantOfferSigner(fn);
      grantItems(fn, rateLimit, STORE_ACTIONS.rateLimit);
      grantItems(fn, settlerLeases, STORE_ACTIONS.settlerLeases);
      this.secrets.read(fn, this.settlerKeySecret);
      this.grantRpcUrl(fn);
    } else if (role === 'credit') {
      // A credit-billed call (lambdas/agents/credit-run.ts): the bearer's workspace (GetItem), then one transaction of
      // its debit entry (PutItem on the ledger; GetItem when the write's outcome must be read back), the balance
      // (UpdateItem) and the finished run (PutItem on runs). Free agents' runs are a PutItem on runs too.
      fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'], resources: [workspaces.tableArn] }));
      fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['dynamodb:PutItem', 'dynamodb:GetItem'], resources: [creditLedger.tableArn] }));
      fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['dynamodb:PutItem'], resources: [runs.tableArn] }));
      this.grantReasoning(fn);
    } else if (role === 'offer-signer') {
      // The x402 index publishes the offer-signing key's address.
      this.grantOfferSigner(fn);
    } else if (role === 'merchant-key') {
      // The AP2 merchant's public key set is published from the private key (GET /.well-known/jwks.json).
      this.grantMerchantKey(fn);
    } else if (role === 'read') {
      grantItems(fn, jobs, ['GetItem']);
    } else if (role === 'cancel') {
      // POST {pollUrl}/cancel (lambdas/jobs/cancel.ts): read the job, fail it on condition it is queued (UpdateItem),
      // stop its execution (on any product's machine: one function serves every product's route), check the token.
      grantItems(fn, jobs, ['GetItem', 'UpdateItem']);
      for (const machine of Object.values(this.stateMachines)) machine.grantExecution(fn, 'states:StopExecution');
      this.grantServiceKey(fn);
      // A canceled job has ended: its webhook is delivered (docs/decisions/0018).
      this.grantWebhookStart(fn);
      // A job at a provider whose queue takes cancellations (fal's) is canceled there (lambdas/jobs/cancel.ts): the
      // render's record (the asset bucket), the provider's key and settings, whichever provider its product is sold
      // with now (a job of theirs may still be in flight).
      grantObjects(fn, this.assetsBucket, { read: true, write: false });
      const cancelFn = fn as lambda.Function;
      for (const provider of CANCELLING_PROVIDERS) {
        const which = providerSecret(provider);
        if (which) {
          const key = this.vendorKey(which);
          this.secrets.read(fn, key);
          cancelFn.addEnvironment(PROVIDER_SECRETS[which].env, key.secretName);
        }
        for (const [name, value] of Object.entries(providerEnvironment(provider, this.config))) cancelFn.addEnvironment(name, value);
      }
    } else if (role === 'purchases') {
      // GET /api/purchases (docs/decisions/0020): the wallet's jobs from their `ByBuyer` index (Query); the sign-in authorizer
      // checked the wallet.
      grantItems(fn, jobs, [], [BUYER_JOBS_INDEX]);
    } else if (role === 'run-read') {
      // GET /api/runs/{runId}: a consistent read of the run; a paid run the sweeper found paid without a result is
      // finished from its kept input (GetItem), recorded once (conditional UpdateItem), its input then dropped (DeleteItem).
      // GET /api/purchases of the agent studio (the same function): the wallet's runs (Query ByBuyer).
      grantItems(fn, runs, ['GetItem', 'UpdateItem', 'DeleteItem'], [BUYER_RUNS_INDEX]);
    } else if (role === 'poll') {
      grantItems(fn, jobs, ['GetItem']);
      this.grantPollReconcile(fn);
    }
  }

  private readonly providerSecrets = new Map<ProviderSecret, secretsmanager.ISecret>();

  /** A vendor's API key secret (imported by name once: the render functions and the cancel route share it). */
  private vendorKey(which: ProviderSecret): secretsmanager.ISecret {
    let secret = this.providerSecrets.get(which);
    if (!secret) {
      secret = secretsmanager.Secret.fromSecretNameV2(this, `${which[0].toUpperCase()}${which.slice(1)}ApiKey`, this.config.providerSecretNames[which]);
      this.providerSecrets.set(which, secret);
    }
    return secret;
  }

  /** The service key (cancel tokens, webhook secrets): its name in the function's environment, read through its grant. */
  private grantServiceKey(fn: lambda.IFunction): void {
    this.grantSecretByName(fn, this.serviceKey, JOB_SECRETS_ENV.secretId);
  }

  /** The offer-signing key (x402 offers and receipts, ADR 0019), likewise. */
  private grantOfferSigner(fn: lambda.IFunction): void {
    this.grantSecretByName(fn, this.offerSigningKey, OFFER_SIGNER_ENV.secretId);
  }

  /**
   * GetSecretValue on one secret alone, named by the stack (fromSecretNameV2: its ARN ends in Secrets Manager's
   * six-character suffix), and its name in `variable`.
   */
  private grantSecretByName(fn: lambda.IFunction, secret: secretsmanager.ISecret, variable: string): void {
    this.secrets.value(fn, secret);
    (fn as lambda.Function).addEnvironment(variable, secret.secretName);
  }

  /** The AP2 merchant key (Secrets Manager), read by name through the function's grant. */
  private grantMerchantKey(fn: lambda.IFunction): void {
    this.secrets.read(fn, this.ap2MerchantKey);
    (fn as lambda.Function).addEnvironment(AP2_ENV.keySecretId, this.ap2MerchantKey.secretName);
  }

  /** Model reasoning: the functions that sell agent runs alone call the model, on exactly the configured one. */
  private grantReasoning(fn: lambda.IFunction): void {
    if (!this.reasoning) return;
    fn.addToRolePolicy(reasoningStatement(this, this.reasoning));
    for (const [name, value] of Object.entries(reasoningEnvironment(this.reasoning))) (fn as lambda.Function).addEnvironment(name, value);
  }

  /**
   * A poll of a reserved job reconciles it (lambdas/workflow/poll-reconcile.ts): it claims the job (UpdateItem on jobs),
   * records the receipt or voids the job in one ledger transaction (UpdateItem on jobs; UpdateItem, or DeleteItem
   * when it releases the lock, on payments), reads a token job's lock (GetItem on payments) and starts the job's
   * execution. Exactly those actions, on the two tables themselves (no index), and StartExecution on every machine:
   * any poll route reconciles the job it reads before it looks at its product.
   */
  private grantPollReconcile(fn: lambda.IFunction): void {
    const { jobs, payments } = this.tables;
    fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['dynamodb:UpdateItem'], resources: [jobs.tableArn] }));
    fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'], resources: [payments.tableArn] }));
    this.grantStart(fn, Object.keys(this.stateMachines));
    this.grantRpcUrl(fn); // it asks the chain whether the payment landed
  }

  /** Refunds (lambdas/payments/refund.ts): the refund wallet's key, the settler's keys and leases. */
  private grantRefund(fn: lambda.IFunction): void {
    this.secrets.read(fn, this.refundKeySecret);
    this.secrets.read(fn, this.settlerKeySecret);
    grantItems(fn, this.tables.settlerLeases, STORE_ACTIONS.settlerLeases);
    this.grantRpcUrl(fn);
  }

  /**
   * A function that reads or writes the chain reads the RPC URL's secret, when there is one: GetSecretValue (all
   * lambdas/shared/secrets.ts calls) on that secret alone. Every function is told its name (commonEnvironment); the
   * ones without this grant never send a chain request.
   */
  private grantRpcUrl(fn: lambda.IFunction): void {
    if (this.rpcUrlSecret) this.secrets.value(fn, this.rpcUrlSecret);
  }

  /**
   * The preconfirmation endpoint (context `preconfRpcUrl` or `preconfRpcUrlSecretName`; ADR 0021), for the paid
   * generation routes only: the endpoint's URL, or its secret's name and GetSecretValue on that secret alone.
   */
  private grantPreconfRpcUrl(fn: lambda.Function): void {
    const { preconfRpcUrl, preconfRpcUrlSecretName } = this.config;
    if (preconfRpcUrl) fn.addEnvironment(ENV.preconfRpcUrl, preconfRpcUrl);
    if (!preconfRpcUrlSecretName) return;
    fn.addEnvironment(ENV.preconfRpcUrlSecretId, preconfRpcUrlSecretName);
    this.preconfRpcUrlSecret ??= secretsmanager.Secret.fromSecretNameV2(this, 'PreconfRpcUrl', preconfRpcUrlSecretName);
    this.secrets.value(fn, this.preconfRpcUrlSecret);
  }

  private preconfRpcUrlSecret?: secretsmanager.ISecret;

  /** StartExecution of the webhook machine, and its ARN: for whatever ends jobs (lambdas/jobs/webhook-start.ts). */
  private grantWebhookStart(fn: lambda.IFunction): void {
    this.webhookMachine.grantStartExecution(fn);
    (fn as lambda.Function).addEnvironment(WEBHOOK_MACHINE_ENV, this.webhookMachine.stateMachineArn);
  }

  /** StartExecution on exactly these products' machines. */
  private grantStart(fn: lambda.IFunction, products: readonly string[]): void {
    for (const product of products) this.stateMachines[product].grantStartExecution(fn);
  }

  /** Restarts durable jobs whose execution never started, reconciles reserved ones and open paid runs, fails jobs stuck past their deadline. */
  private sweeper(factory: FunctionFactory, env: Record<string, string>): void {
    // Nothing reserved by default (a new account cannot reserve any), so a sweep that runs long or is retried may
    // overlap the next one. Two sweeps race on the same items harmlessly: each ledger write is conditional on the
    // state it moves from, a refund's nonce is the job's, an execution is named by its job id.
    // `sweeperReservedConcurrency=1` keeps them apart.
    const sweeperEnv = { ...env, [REFUND_ENV.secretId]: this.refundKeySecret.secretName };
    const sweeper = factory.make(SWEEPER.id, SWEEPER, sweeperEnv, { kind: 'sweeper', id: SWEEPER.id, entry: SWEEPER.entry }, false, {
      reservedConcurrency: this.config.sweeperReservedConcurrency,
    });
    // It retries the refunds still owed (the open-refunds index), as the refund task makes them.
    this.grantRefund(sweeper);
    const { jobs, payments, runs, creditLedger, workspaces } = this.tables;
    // Stale and reserved jobs (OpenJobs), refunds still owed (OpenRefunds); each is moved by a conditional update.
    grantItems(sweeper, jobs, ['GetItem', 'UpdateItem'], [OPEN_JOBS_INDEX, OPEN_REFUNDS_INDEX, OPEN_WEBHOOKS_INDEX]);
    // Webhooks of ended jobs that no delivery took (docs/decisions/0018).
    this.grantWebhookStart(sweeper);
    grantItems(sweeper, payments, STORE_ACTIONS.payments);
    // It reconciles paid agent runs that never recorded their end (a query of the OpenRuns index, then updates).
    // Runs: it ends open ones (conditional updates; the Delete of a run's kept input in the same transaction).
    grantItems(sweeper, runs, ['GetItem', 'UpdateItem', 'DeleteItem'], [OPEN_RUNS_INDEX]);
    // It credits (or voids) top-ups whose settlement's outcome was unknown: the OpenTopUps index, the ledger entry
    // (Update, or Delete when voided) and the workspace's balance (Update).
    grantItems(sweeper, creditLedger, ['GetItem', 'UpdateItem', 'DeleteItem'], [OPEN_TOPUPS_INDEX]);
    grantItems(sweeper, workspaces, ['GetItem', 'UpdateItem']);
    // It restarts any product's job whose execution never started.
    this.grantStart(sweeper, Object.keys(this.stateMachines));
    // It asks whether an execution of a job still runs (WorkflowStarter.state → DescribeExecution).
    for (const machine of Object.values(this.stateMachines)) machine.grantExecution(sweeper, 'states:DescribeExecution');
    new events.Rule(this, 'SweeperSchedule', {
      description: `Run ${SWEEPER.id} every ${SWEEPER.everyMinutes} minute(s)`,
      schedule: events.Schedule.rate(Duration.minutes(SWEEPER.everyMinutes)),
      targets: [new eventsTargets.LambdaFunction(sweeper, { retryAttempts: 2 })],
    });
  }
}

/**
 * The products whose machine a paid function starts: its product's pay route, and the MCP server's token-paid tool,
 * which buys music only (lambdas/protocols/mcp/tools.ts TOKEN_MUSIC_TOOL; its x402 tools answer a payment pointer
 * and start nothing).
 */
export function productsStartedBy(fnId: string, catalog: GenerationCatalog): string[] {
  if (fnId === 'Mcp') return ['create_music'];
  const products = Object.values(catalog).filter((product) => product.routes.pay === fnId).map((product) => product.id);
  if (!products.length) throw new Error(`lib/paycall-stack.ts: paid function ${fnId} starts no product's machine`);
  return products;
}
