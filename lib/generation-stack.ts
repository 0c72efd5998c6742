/**
 * The generation surface on AWS: HTTP API → one Lambda per route (lib/routes.ts ROUTES, surface `generation`),
 * DynamoDB tables, an S3 asset bucket behind CloudFront (OAC), one Standard state machine per product
 * (lib/workflow.ts) whose tasks are WORKFLOW_TASKS, and the scheduled SWEEPER.
 *
 * Every function reads its configuration from the environment variables named in lambdas/shared/config.ts ENV.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CfnOutput, Duration, RemovalPolicy, Size, Stack, type StackProps } from 'aws-cdk-lib';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as eventsTargets from 'aws-cdk-lib/aws-events-targets';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat, SourceMapMode } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import * as ssm from 'aws-cdk-lib/aws-ssm';
import type { Construct } from 'constructs';
import { PRODUCT_IDS, type ProductId } from '../lambdas/products/catalog.js';
import { ENV } from '../lambdas/shared/config.js';
import { TOKEN_ENV } from '../lambdas/payments/token/config.js';
import { loadStackConfig, type StackConfig, type StackConfigInput } from './config.js';
import { ROUTES, SWEEPER, WORKFLOW_TASKS, type RouteDef, type WorkflowTaskDef } from './routes.js';
import { ProductWorkflow } from './workflow.js';

/** Project root (where package.json, package-lock.json and lambdas/ live). */
export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Which environment variable carries each product's state machine ARN. */
export const STATE_MACHINE_ENV: Record<ProductId, string> = {
  create_music: ENV.musicStateMachineArn,
  agent_video: ENV.videoStateMachineArn,
  agent_image: ENV.imageStateMachineArn,
};

/**
 * Workflow tasks that run ffmpeg (the local render provider encodes audio/video during submit). There is no arm64
 * ffmpeg installed and no Docker to fetch one, so these run on x86_64 with the static linux-x64 binary that
 * @ffmpeg-installer already put in node_modules, copied into the bundle as bin/ffmpeg (FFMPEG_PATH).
 */
export const FFMPEG_TASKS = new Set(['SubmitRender']);
const FFMPEG_SOURCE = 'node_modules/@ffmpeg-installer/linux-x64/ffmpeg';
const FFMPEG_LAMBDA_PATH = '/var/task/bin/ffmpeg';

/** Construct ids of the workflows, by product. */
const WORKFLOW_IDS: Record<ProductId, string> = {
  create_music: 'MusicWorkflow',
  agent_video: 'VideoWorkflow',
  agent_image: 'ImageWorkflow',
};

/** `paid`: x402 POSTs (write all tables, start executions); `read`: every other route (read the jobs table only). */
export type RouteRole = 'paid' | 'read' | 'none';

/** What a deployed function runs: the local runner maps synthesised logical ids back to these entries. */
export type FunctionEntry =
  | { kind: 'route'; id: string; entry: string; role: RouteRole; route: RouteDef }
  | { kind: 'task'; id: string; entry: string; task: WorkflowTaskDef }
  | { kind: 'sweeper'; id: string; entry: string };

export interface GenerationStackProps extends StackProps {
  /** Overrides of the context configuration (lib/config.ts); props win over context. */
  config?: Partial<StackConfigInput>;
  /**
   * Use an inline placeholder instead of bundling an entry file that does not exist (yet). Only for assertion
   * tests and lib/local/asl.ts, which need the template's shape, never the code. Default false: a missing entry
   * fails synthesis.
   */
  allowMissingEntries?: boolean;
}

/**
 * Paid routes are the x402 POSTs; every other route (poll GETs, the song share page) only reads jobs. RouteDef has
 * no finer grant field: a free route that needs nothing else (discovery documents) still gets jobs read, which is
 * read-only and harmless.
 */
function routeRole(route: RouteDef): RouteRole {
  return route.access ?? (route.paid ? 'paid' : 'read');
}

export class GenerationStack extends Stack {
  readonly config: StackConfig;
  readonly api: apigwv2.HttpApi;
  readonly tables: {
    jobs: dynamodb.Table;
    payments: dynamodb.Table;
    idempotency: dynamodb.Table;
    rateLimit: dynamodb.Table;
  };
  readonly assetsBucket: s3.Bucket;
  readonly assetsDistribution: cloudfront.Distribution;
  readonly stateMachines: Record<ProductId, sfn.StateMachine>;
  /** Functions by route/task id (and SWEEPER.id). */
  readonly functions: Record<string, NodejsFunction> = {};
  /** Synthesised logical id of each AWS::Lambda::Function → what it runs. */
  readonly functionEntries: Record<string, FunctionEntry> = {};
  /** The settlement key secret (self mode), imported by name. */
  readonly settlerKeySecret?: secretsmanager.ISecret;

  constructor(scope: Construct, id: string, props: GenerationStackProps = {}) {
    super(scope, id, props);
    const config = (this.config = loadStackConfig(this, props.config));
    const logRetention = config.logRetentionDays as logs.RetentionDays;

    // ---- Storage -------------------------------------------------------------------------------------------
    const table = (tid: string, partitionKey: string, durable: boolean) =>
      new dynamodb.Table(this, tid, {
        partitionKey: { name: partitionKey, type: dynamodb.AttributeType.STRING },
        billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
        timeToLiveAttribute: 'expiresAt',
        encryption: dynamodb.TableEncryption.AWS_MANAGED,
        pointInTimeRecoverySpecification: durable ? { pointInTimeRecoveryEnabled: true } : undefined,
        // Jobs and payments are the record of what was bought and paid: never deleted with the stack.
        removalPolicy: durable ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
      });
    this.tables = {
      jobs: table('JobsTable', 'jobId', true),
      payments: table('PaymentsTable', 'pk', true),
      idempotency: table('IdempotencyTable', 'pk', false),
      rateLimit: table('RateLimitTable', 'pk', false),
    };
    const { jobs, payments, idempotency, rateLimit } = this.tables;

    const bucket = (this.assetsBucket = new s3.Bucket(this, 'AssetsBucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      // Delivered assets are what buyers paid for.
      removalPolicy: RemovalPolicy.RETAIN,
    }));
    const distribution = (this.assetsDistribution = new cloudfront.Distribution(this, 'AssetsDistribution', {
      comment: 'Generated assets',
      defaultBehavior: {
        origin: origins.S3BucketOrigin.withOriginAccessControl(bucket),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        compress: true,
      },
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
    }));
    const assetsPublicUrl = `https://${distribution.distributionDomainName}`;
    // Static assets the API points at before a render exists (the placeholder cover a pending song shows).
    new s3deploy.BucketDeployment(this, 'StaticAssets', {
      sources: [s3deploy.Source.asset(path.join(PROJECT_ROOT, 'assets', 'static'))],
      destinationBucket: bucket,
      destinationKeyPrefix: 'static/',
      prune: false,
      memoryLimit: 256,
    });

    // ---- Payment settings (no secret values in the template) -----------------------------------------------
    const payTo = config.payTo ?? ssm.StringParameter.valueForStringParameter(this, config.payToParameter);
    if (config.facilitatorMode === 'self') {
      this.settlerKeySecret = secretsmanager.Secret.fromSecretNameV2(this, 'SettlerKey', config.settlerKeySecretName);
    }

    const commonEnv: Record<string, string> = {
      NODE_OPTIONS: '--enable-source-maps',
      [ENV.jobsTable]: jobs.tableName,
      [ENV.paymentsTable]: payments.tableName,
      [ENV.idempotencyTable]: idempotency.tableName,
      [ENV.rateLimitTable]: rateLimit.tableName,
      [ENV.assetsBucket]: bucket.bucketName,
      [ENV.assetsPublicUrl]: assetsPublicUrl,
      [ENV.network]: config.network,
      [ENV.chainId]: String(config.chainId),
      [ENV.usdcAddress]: config.usdcAddress,
      [ENV.payTo]: payTo,
      [ENV.rpcUrl]: config.rpcUrl,
      [ENV.facilitatorMode]: config.facilitatorMode,
      [ENV.renderProvider]: config.renderProvider,
      [ENV.blockingWaitMs]: String(config.blockingWaitMs),
    };
    if (config.facilitatorMode === 'remote') commonEnv[ENV.facilitatorUrl] = config.facilitatorUrl!;
    if (this.settlerKeySecret) commonEnv[ENV.settlerKeySecretId] = this.settlerKeySecret.secretName;
    // Agent-payment tokens, when an issuer is configured: the paid routes verify and charge them.
    const tokenSellerKey = config.tokenIssuer
      ? secretsmanager.Secret.fromSecretNameV2(this, 'TokenSellerKey', config.tokenSellerKeySecretName)
      : undefined;
    const tokenEnv: Record<string, string> = tokenSellerKey
      ? {
          [TOKEN_ENV.issuer]: config.tokenIssuer!,
          [TOKEN_ENV.jwksUrl]: config.tokenJwksUrl!,
          [TOKEN_ENV.chargeUrl]: config.tokenChargeUrl!,
          [TOKEN_ENV.sellerId]: config.tokenSellerId!,
          [TOKEN_ENV.sellerKeySecretId]: tokenSellerKey.secretName,
        }
      : {};

    // ---- Functions -------------------------------------------------------------------------------------------
    const makeFunction = (
      fid: string,
      def: { entry: string; timeoutSeconds?: number; memoryMb?: number },
      environment: Record<string, string>,
      entry: FunctionEntry,
      withFfmpeg = false,
    ) => {
      const logGroup = new logs.LogGroup(this, `${fid}Logs`, {
        retention: logRetention,
        removalPolicy: RemovalPolicy.DESTROY,
      });
      const entryPath = path.join(PROJECT_ROOT, def.entry);
      const placeholder = props.allowMissingEntries && !existsSync(entryPath);
      const fn = new NodejsFunction(this, fid, {
        description: `${entry.kind} ${fid} (${def.entry})`,
        runtime: lambda.Runtime.NODEJS_22_X,
        architecture: withFfmpeg ? lambda.Architecture.X86_64 : lambda.Architecture.ARM_64,
        memorySize: def.memoryMb ?? 256,
        // Encoding works in /tmp (see lambdas/render/local/workdir.ts).
        ...(withFfmpeg ? { ephemeralStorageSize: Size.gibibytes(2) } : {}),
        timeout: Duration.seconds(def.timeoutSeconds ?? 10),
        tracing: lambda.Tracing.ACTIVE,
        logGroup,
        environment: { ...environment, ...(withFfmpeg ? { [ENV.ffmpegPath]: FFMPEG_LAMBDA_PATH } : {}) },
        projectRoot: PROJECT_ROOT,
        depsLockFilePath: path.join(PROJECT_ROOT, 'package-lock.json'),
        ...(placeholder
          ? {
              code: lambda.Code.fromInline(
                `exports.handler = async () => { throw new Error('placeholder: ${def.entry} was missing at synth'); };`,
              ),
              handler: 'index.handler',
            }
          : {
              entry: entryPath,
              handler: 'handler',
              bundling: {
                minify: true,
                sourceMap: true,
                sourceMapMode: SourceMapMode.DEFAULT,
                sourcesContent: false,
                target: 'node22',
                format: OutputFormat.ESM,
                mainFields: ['module', 'main'],
                // ESM bundles of CommonJS dependencies still call require(): give them one.
                banner:
                  "import { createRequire as __paycallCreateRequire } from 'node:module'; const require = __paycallCreateRequire(import.meta.url);",
                // The nodejs22.x runtime ships AWS SDK v3; keeping it out makes bundles small and bundling fast.
                externalModules: ['@aws-sdk/*'],
                ...(withFfmpeg
                  ? {
                      commandHooks: {
                        beforeBundling: () => [],
                        beforeInstall: () => [],
                        afterBundling: (inputDir: string, outputDir: string) => [
                          `test -x "${inputDir}/${FFMPEG_SOURCE}" || { echo "${FFMPEG_SOURCE} is missing: run npm ci (it ships the linux-x64 ffmpeg)" >&2; exit 1; }`,
                          `mkdir -p "${outputDir}/bin"`,
                          `cp "${inputDir}/${FFMPEG_SOURCE}" "${outputDir}/bin/ffmpeg"`,
                          `chmod 755 "${outputDir}/bin/ffmpeg"`,
                        ],
                      },
                    }
                  : {}),
              },
            }),
      });
      this.functions[fid] = fn;
      this.functionEntries[this.getLogicalId(fn.node.defaultChild as lambda.CfnFunction)] = entry;
      return fn;
    };

    // Workflow tasks first: the state machines need them. They must NOT get the state machine ARNs (the machine
    // already references them: that would be a dependency cycle) and they never start executions.
    const taskFns: Record<string, NodejsFunction> = {};
    for (const task of WORKFLOW_TASKS) {
      taskFns[task.id] = makeFunction(
        task.id,
        task,
        commonEnv,
        { kind: 'task', id: task.id, entry: task.entry, task },
        config.bundleFfmpeg && FFMPEG_TASKS.has(task.id),
      );
    }
    // Least privilege, task by task.
    for (const fn of Object.values(taskFns)) jobs.grantReadWriteData(fn);
    const submitFn = taskFns.SubmitRender;
    const checkFn = taskFns.CheckRender;
    const storeFn = taskFns.StoreAsset;
    if (submitFn) bucket.grantPut(submitFn); // the local provider writes its output itself
    if (checkFn) bucket.grantRead(checkFn); // checks whether outputs are present
    if (storeFn) bucket.grantReadWrite(storeFn); // copies/moves outputs into place

    const workflows = {} as Record<ProductId, sfn.StateMachine>;
    for (const product of PRODUCT_IDS) {
      const wf = new ProductWorkflow(this, WORKFLOW_IDS[product], {
        product,
        functions: taskFns,
        checkIntervalSeconds: config.renderCheckSeconds,
        maxChecks: config.renderMaxChecks,
        timeout: Duration.minutes(config.workflowTimeoutMinutes),
        logRetention,
      });
      workflows[product] = wf.stateMachine;
    }
    this.stateMachines = workflows;

    const startEnv: Record<string, string> = { ...commonEnv };
    for (const product of PRODUCT_IDS) startEnv[STATE_MACHINE_ENV[product]] = workflows[product].stateMachineArn;
    const grantStart = (fn: lambda.IFunction) => {
      for (const product of PRODUCT_IDS) workflows[product].grantStartExecution(fn);
    };

    // HTTP API: one route and one function per generation route.
    const api = (this.api = new apigwv2.HttpApi(this, 'HttpApi', {
      description: 'Pay-per-call generation surface (x402)',
      createDefaultStage: true,
    }));
    const routeEnv: Record<string, string> = {
      ...startEnv,
      ...tokenEnv,
      ...(config.publicBaseUrl ? { [ENV.publicBaseUrl]: config.publicBaseUrl } : {}),
    };
    for (const route of ROUTES.filter((r) => r.surface === 'generation')) {
      const role = routeRole(route);
      const fn = makeFunction(route.id, route, routeEnv, {
        kind: 'route',
        id: route.id,
        entry: route.entry,
        role,
        route,
      });
      if (role === 'paid') {
        for (const t of [jobs, payments, idempotency, rateLimit]) t.grantReadWriteData(fn);
        grantStart(fn);
        this.settlerKeySecret?.grantRead(fn);
        tokenSellerKey?.grantRead(fn);
      } else if (role === 'read') {
        jobs.grantReadData(fn);
      }
      api.addRoutes({
        path: route.path,
        methods: [apigwv2.HttpMethod[route.method]],
        integration: new HttpLambdaIntegration(`${route.id}Integration`, fn),
      });
    }

    // Sweeper: restarts durable jobs whose execution never started, fails jobs stuck past their deadline.
    const sweeper = makeFunction(SWEEPER.id, SWEEPER, startEnv, { kind: 'sweeper', id: SWEEPER.id, entry: SWEEPER.entry });
    jobs.grantReadWriteData(sweeper);
    payments.grantReadWriteData(sweeper);
    grantStart(sweeper);
    new events.Rule(this, 'SweeperSchedule', {
      description: `Run ${SWEEPER.id} every ${SWEEPER.everyMinutes} minutes`,
      schedule: events.Schedule.rate(Duration.minutes(SWEEPER.everyMinutes)),
      targets: [new eventsTargets.LambdaFunction(sweeper, { retryAttempts: 2 })],
    });

    new CfnOutput(this, 'ApiUrl', { value: api.apiEndpoint, description: 'Base URL of the generation surface' });
    new CfnOutput(this, 'AssetsUrl', { value: assetsPublicUrl, description: 'Public base URL of generated assets' });
  }
}
