/**
 * The service on AWS, as a core stack and one nested stack per served surface (lib/surface-stack.ts: its HTTP API,
 * lib/surface-api.ts, with one Lambda per route of the route table, and their alarms). The core holds DynamoDB tables (lib/storage.ts), an S3 asset bucket behind CloudFront
 * (lib/assets.ts), one Standard state machine per product (lib/workflow.ts) whose tasks are WORKFLOW_TASKS, and the
 * scheduled SWEEPER. Functions are built by lib/functions.ts; each reads its configuration from the environment
 * variables named in lambdas/shared/config.ts ENV.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import type * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as events from 'aws-cdk-lib/aws-events';
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
import { ENV } from '../lambdas/shared/config.js';
import { stackMetricNamespace } from '../lambdas/shared/metric-names.js';
import { PROVIDER_SECRETS, providerEnvName, providerSecret, type ProviderSecret } from '../lambdas/render/providers.js';
import { GENERATION_CATALOG, providerEnvironment, providersServedBy, providerStatements, type GenerationCatalog, type StackProduct } from './render-providers.js';
import { TOKEN_ENV } from '../lambdas/payments/token/config.js';
import { routeTable, SIGN_IN_AUTHORIZER, SWEEPER, WORKFLOW_TASKS } from '../lambdas/surfaces/routes.js';
import { RENDER_FUNCTIONS } from '../lambdas/workflow/render-functions.js';
import { servedSurfaces } from '../lambdas/surfaces/surface.js';
import { loadStackConfig, type StackConfig, type StackConfigInput } from './config.js';
import { createTables, type Tables } from './storage.js';
import { createAssetDelivery } from './assets.js';
import { createMonitoring, type Monitoring } from './monitoring.js';
import { FunctionFactory, type FunctionEntry, type RouteRole } from './functions.js';
import { routeFunctions, surfacePrefix } from './function-map.js';
import { otherRole, RENDER_GRANTS, ROLES } from './roles.js';
import { RoleBinder } from './role-binder.js';
import { authorizerName, SurfaceStack, surfaceStackId } from './surface-stack.js';
import { createEdgeShared, edgeOutput, type Edge } from './edge.js';
import { CLOUDFRONT_HOSTED_ZONE_ID, customDomainOf, domainOutputs, requireCertificateRegion } from './custom-domain.js';
import { Alarms } from './alarms.js';
import { loadReasoningConfig } from './agent-reasoning.js';
import { ProductWorkflow } from './workflow.js';
import { WEBHOOK_STATE_MACHINE_OUTPUT, WebhookWorkflow } from './webhook-workflow.js';
import { SecretGrants } from './grants.js';

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
  /** The generation surface's HTTP API (in its nested stack). */
  readonly api!: apigwv2.HttpApi;
  /** One nested stack per served surface (lib/surface-stack.ts). */
  readonly surfaceStacks: SurfaceStack[];
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
  /** Agent-payment tokens' seller key, when an issuer is configured (the paid routes verify and charge tokens). */
  private readonly tokenSellerKey?: secretsmanager.ISecret;
  /** Every read of a secret goes through it: with `secretsKmsKeyArn`, the reader may decrypt with that key too. */
  private readonly secretGrants: SecretGrants;
  /** Every function's role made real: its grants and the settings that name them (lib/roles.ts, lib/role-binder.ts). */
  private readonly roles: RoleBinder;

  constructor(scope: Construct, id: string, props: PaycallStackProps = {}) {
    super(scope, id, props);
    const products = (this.products = props.products ?? GENERATION_CATALOG);
    const config = (this.config = loadStackConfig(this, props.config, products));
    const logRetention = config.logRetentionDays as logs.RetentionDays;
    const secretGrants = (this.secretGrants = new SecretGrants(this, config.secretsKmsKeyArn));
    this.tables = createTables(this);
    const assets = createAssetDelivery(this, PROJECT_ROOT);
    this.assetsBucket = assets.bucket;
    this.assetsDistribution = assets.distribution;
    const byName = (id: string, name: string) => secretsmanager.Secret.fromSecretNameV2(this, id, name);
    if (config.facilitatorMode === 'self') this.settlerKeySecret = byName('SettlerKey', config.settlerKeySecretName);
    // The wallet refunds of failed paid jobs are paid from (a name only; the functions read the key at run time).
    this.refundKeySecret = byName('RefundKey', config.refundKeySecretName);
    if (config.tokenIssuer) this.tokenSellerKey = byName('TokenSellerKey', config.tokenSellerKeySecretName);
    if (config.rpcUrlSecretName) this.rpcUrlSecret = byName('RpcUrl', config.rpcUrlSecretName);
    this.roles = new RoleBinder({
      stack: this,
      config,
      tables: this.tables,
      bucket: this.assetsBucket,
      secrets: {
        settlerKey: this.settlerKeySecret,
        tokenSellerKey: this.tokenSellerKey,
        refundKey: this.refundKeySecret,
        // AP2 v0.2: the merchant's signing key (checkouts, receipts).
        ap2MerchantKey: byName('Ap2MerchantKey', config.ap2MerchantKeySecretName),
        // Per-job secrets (cancel tokens, webhook signatures) derive from it.
        serviceKey: byName('ServiceKey', config.serviceKeySecretName),
        // Signs x402 offers and receipts (lambdas/payments/offer-receipt.ts; docs/decisions/0019).
        offerSigningKey: byName('OfferSigningKey', config.offerSigningKeySecretName),
        rpcUrl: this.rpcUrlSecret,
      },
      secretGrants,
      // Made by workflows() below, before any function is bound to a role that names them.
      machines: () => this.stateMachines,
      webhookMachine: () => this.webhookMachine,
      reasoning: loadReasoningConfig(this),
      vendorKey: (which) => this.vendorKey(which),
    });
    const factory = new FunctionFactory(this, { projectRoot: PROJECT_ROOT, logRetention, allowMissingEntries: props.allowMissingEntries });
    this.functions = factory.functions;
    this.functionEntries = factory.entries;

    const commonEnv = this.commonEnvironment(assets.publicUrl);
    this.stateMachines = this.workflows(factory, commonEnv, logRetention);
    const startEnv: Record<string, string> = { ...commonEnv };
    for (const product of Object.values(products)) startEnv[product.workflow.arnEnv] = this.stateMachines[product.id].stateMachineArn;
    const functionMap = routeFunctions(routeTable(products));

    // The sign-in authorizer (docs/decisions/0020), shared by both APIs; named, so the surfaces' stacks can name it
    // without referring to it (lib/surface-stack.ts).
    const signInAuthorizerName = authorizerName(this.stackName);
    const signInAuthorizer = factory.make(SIGN_IN_AUTHORIZER.id, SIGN_IN_AUTHORIZER, commonEnv, { kind: 'authorizer', id: SIGN_IN_AUTHORIZER.id, entry: SIGN_IN_AUTHORIZER.entry, task: SIGN_IN_AUTHORIZER }, false, {
      functionName: signInAuthorizerName,
    });
    this.roles.bind(signInAuthorizer, ROLES[otherRole(SIGN_IN_AUTHORIZER.id)]);
    const alarms = new Alarms(this, { alarmEmails: config.alarmEmail ?? [], alarmTopicArn: config.alarmTopicArn });
    const withEdge = config.edge === 'cloudfront-waf';
    const edgeShared = withEdge ? createEdgeShared(this, { rateLimit: config.edgeRateLimit, totalRateLimit: config.edgeTotalRateLimit, logBucket: assets.logBucket }) : undefined;
    const surfaceStacks: SurfaceStack[] = [];
    for (const surface of servedSurfaces()) {
      // The base URL the surface's documents name: publicBaseUrl (generation only) > its custom domain > the edge's
      // distribution (withEdge) > the request's own host (nothing pinned).
      const domain = customDomainOf(config, surface.id);
      const domainUrl = domain ? `https://${domain.name}` : undefined;
      const publicBaseUrl = (surface.id === 'generation' ? config.publicBaseUrl : undefined) ?? domainUrl;
      // The agent studio starts no execution and takes no agent-payment tokens: it gets neither's variables.
      const surfaceEnv = surface.id === 'generation' ? { ...startEnv, ...this.tokenEnvironment() } : commonEnv;
      const environment = { ...surfaceEnv, ...(publicBaseUrl ? { [surface.baseUrlEnv]: publicBaseUrl } : {}) };
      const prefix = surfacePrefix(surface.id);
      if (domain) requireCertificateRegion(this, prefix, domain, withEdge);
      const surfaceStack = new SurfaceStack(this, surfaceStackId(surface.id), {
        surface,
        routeFunctions: functionMap.filter((fn) => fn.surface === surface.id),
        functions: factory,
        environment,
        bind: (fn, { role, starts }) => this.roles.bind(fn, ROLES[role], starts),
        signInAuthorizerName,
        throttle: { rateLimit: config.apiRateLimit, burstLimit: config.apiBurstLimit },
        logRetention,
        alarms,
        domain,
        edge: edgeShared,
        pinned: publicBaseUrl !== undefined,
        coreStackName: this.stackName,
        outputs: this,
      });
      surfaceStacks.push(surfaceStack);
      const { api } = surfaceStack.surfaceApi;
      // API Gateway may invoke the authorizer for this API's routes (the permission CDK would put in the surface's stack).
      signInAuthorizer.addPermission(`${prefix}SignInAuthorizerInvoke`, {
        principal: new iam.ServicePrincipal('apigateway.amazonaws.com'),
        sourceArn: this.formatArn({ service: 'execute-api', resource: api.apiId, resourceName: 'authorizers/*' }),
      });
      // The authorizer names each surface's routes by the same base URL as the surface's functions.
      if (publicBaseUrl) signInAuthorizer.addEnvironment(surface.baseUrlEnv, publicBaseUrl);
      const edge = surfaceStack.edgeDistribution;
      if (edge) {
        edgeOutput(this, prefix, edge.url);
        if (domain) domainOutputs(this, prefix, domain, edge.distribution.distributionDomainName, CLOUDFRONT_HOSTED_ZONE_ID);
        if (!publicBaseUrl) signInAuthorizer.addEnvironment(surface.baseUrlEnv, edge.url);
      }
      if (surface.id === 'generation') this.api = api;
    }
    this.surfaceStacks = surfaceStacks;
    if (edgeShared) {
      this.edge = {
        webAcl: edgeShared.webAcl,
        originToken: edgeShared.originToken,
        distributions: Object.fromEntries(surfaceStacks.flatMap((s) => (s.edgeDistribution ? [[s.surfaceApi.prefix, s.edgeDistribution]] : []))),
      };
    }
    if (!this.api) throw new Error('the generation surface has no routes');
    this.sweeper(factory, startEnv);
    const coreFunctions = Object.fromEntries(Object.entries(this.functions).filter(([, fn]) => Stack.of(fn) === this));
    this.monitoring = createMonitoring(this, {
      stateMachines: this.stateMachines,
      products,
      functions: coreFunctions,
      tables: { ...this.tables },
      apiSurfaces: new Set(surfaceStacks.map((s) => s.surfaceApi.surface)),
      alarms,
      settlerGasFloorWei: config.settlerGasFloorWei,
      settlerGasAlarmWei: config.settlerGasAlarmWei,
      refundWalletFloorBaseUnits: config.refundWalletFloorBaseUnits,
    });
    new CfnOutput(this, 'AssetsUrl', { value: assets.publicUrl, description: 'Public base URL of generated assets' });
    // A job's execution is named by its job id: <machine ARN with :execution: for :stateMachine:>:<jobId> (docs/deploy.md, the runbook).
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
   * already references them: that would be a dependency cycle) and they never start executions (lib/roles.ts).
   */
  private workflows(factory: FunctionFactory, env: Record<string, string>, logRetention: logs.RetentionDays): Record<string, sfn.StateMachine> {
    const { config } = this;
    const taskFns: Record<string, NodejsFunction> = {};
    for (const task of WORKFLOW_TASKS) taskFns[task.id] = factory.make(task.id, task, env, { kind: 'task', id: task.id, entry: task.entry, task });
    // One function per render provider (ADR 0016), every provider whether or not a product is configured to it now,
    // so a job sold with one finishes there after the operator chooses another. Each gets its own settings, API key
    // and grants only (a song vendor's also those of the image provider that draws its cover), and its own
    // reservation: renders of one provider do not starve another's.
    for (const render of RENDER_FUNCTIONS) {
      const served = providersServedBy(render.provider, config);
      const secrets = served.flatMap((name) => {
        const which = providerSecret(name);
        return which ? [{ env: PROVIDER_SECRETS[which].env, secret: this.vendorKey(which) }] : [];
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
      this.roles.bind(fn, RENDER_GRANTS);
      for (const { secret } of secrets) this.secretGrants.read(fn, secret);
      for (const name of served) for (const statement of providerStatements(this, name, config)) fn.addToRolePolicy(statement);
    }
    // Webhooks (docs/decisions/0018): their own machine, its task signing with the job's secret; the tasks that end jobs
    // start it (the machine references neither, so no cycle). Then every task gets its role (lib/roles.ts).
    this.webhookMachine = new WebhookWorkflow(this, 'WebhookWorkflow', { deliver: taskFns.DeliverWebhook, logRetention }).stateMachine;
    for (const task of WORKFLOW_TASKS) this.roles.bind(taskFns[task.id], ROLES[otherRole(task.id)]);

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

  /** Restarts durable jobs whose execution never started, reconciles reserved ones and open paid runs, fails jobs stuck past their deadline. */
  private sweeper(factory: FunctionFactory, env: Record<string, string>): void {
    // Nothing reserved by default (a new account cannot reserve any), so a sweep that runs long or is retried may
    // overlap the next one. Two sweeps race on the same items harmlessly: each ledger write is conditional on the
    // state it moves from, a refund's nonce is the job's, an execution is named by its job id.
    // `sweeperReservedConcurrency=1` keeps them apart.
    const sweeper = factory.make(SWEEPER.id, SWEEPER, env, { kind: 'sweeper', id: SWEEPER.id, entry: SWEEPER.entry }, false, {
      reservedConcurrency: this.config.sweeperReservedConcurrency,
    });
    this.roles.bind(sweeper, ROLES[otherRole(SWEEPER.id)]);
    new events.Rule(this, 'SweeperSchedule', {
      description: `Run ${SWEEPER.id} every ${SWEEPER.everyMinutes} minute(s)`,
      schedule: events.Schedule.rate(Duration.minutes(SWEEPER.everyMinutes)),
      targets: [new eventsTargets.LambdaFunction(sweeper, { retryAttempts: 2 })],
    });
  }
}
