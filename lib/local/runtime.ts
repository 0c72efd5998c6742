/**
 * The embedded default: the whole generation surface on loopback with real parts — DynamoDB Local, the state
 * machines CDK synthesises run by a local Step Functions endpoint, an in-process EVM chain with a USDC-like
 * token at Base's USDC address, a file asset store — wired to the same handlers that run on AWS, through the
 * same environment variables the stack sets.
 */
import { mkdirSync, writeFileSync, copyFileSync, existsSync, renameSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SurfaceId } from '../../lambdas/surfaces/routes.js';
import { GENERATION, servedSurfaces, surfaceRoutes } from '../../lambdas/surfaces/surface.js';
import { ENV } from '../../lambdas/shared/config.js';
import { WEBHOOK_LOOPBACK_ENV } from '../../lambdas/webhooks/address.js';
import { startGateway, type Gateway } from './gateway.js';
import { devWallet, type DevBuyer } from './dev-wallet.js';
import { chosenProviders, startLocalProviders } from './providers/index.js';
import { reasoningContext, startLocalReasoning } from './agent-reasoning.js';
import type { ProductId } from '../../lambdas/products/catalog.js';
import { PRODUCT_IDS } from '../../lambdas/products/products.js';
import { providerContextKey, type ProviderName } from '../../lambdas/render/providers.js';
import { startDynamoLocal, ensureTables, type LocalDynamo } from './dynamodb.js';
import { startLocalChain, type LocalChain } from './chain.js';
import type { NetworkId } from '../../lambdas/shared/networks.js';
import { startLocalTokenIssuer } from './token-issuer.js';
import { LOCAL_ASSETS_BUCKET, localTableName, synthesizeForLocal, type LocalTableDefinition } from './asl.js';
import { startLocalS3 } from './s3-server.js';
import { sellerKeySecret, settlerKeyPoolSecret, startLocalSecretsManager, templateSecrets } from './secrets-server.js';
import { SECRETS_MANAGER_ENDPOINT } from '../../lambdas/shared/secrets.js';
import { AP2_ENV } from '../../lambdas/payments/ap2/merchant.js';
import { JOB_SECRETS_ENV } from '../../lambdas/jobs/job-secrets.js';
import { localKeyFile } from './service-key.js';
import { OFFER_SIGNER_ENV } from '../../lambdas/payments/offer-receipt.js';
import { localAp2Keys } from './ap2-issuer.js';
import { TOKEN_ENV } from '../../lambdas/payments/token/config.js';
import { REFUND_ENV } from '../../lambdas/payments/refund.js';
import { installIamEnforcement } from './iam/enforce.js';
import { LocalFunctions } from './functions/registry.js';
import { startLocalStepFunctions } from './stepfunctions.js';
import { readAssetForServing } from '../../lambdas/store/file-assets.js';
import { PLACEHOLDER_COVER_KEY } from '../../lambdas/jobs/urls.js';
import { SIGN_IN_AUTHORIZER, SWEEPER } from '../../lambdas/surfaces/routes.js';
import { functionIdOf } from '../function-map.js';
import { SURFACE_STAGE_VARIABLE } from '../../lambdas/sign-in/context.js';
import { startPreconfRpc } from './preconf-rpc.js';
import type { SweepResult } from '../../lambdas/workflow/sweeper.js';

export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface EmbeddedOptions {
  generationPort: number;
  /** Ports of the other surfaces (0 = any free port); a surface without one takes its default. */
  surfacePorts?: Partial<Record<SurfaceId, number>>;
  chainPort: number;
  stateDir: string;
  /** Port of the local agent-payment token issuer (0 = any free port). */
  tokenIssuerPort?: number;
  /** Wait budget of `?async=false` (ms). */
  blockingWaitMs?: number;
  /** Seconds a render state machine waits between checks (local runs shorten the synthesised waits). */
  renderWaitMs?: number;
  /**
   * Ms between the end of one sweep and the start of the next (default 10 s; 0: only the start-up sweep). On AWS an
   * EventBridge rule runs the sweeper every few minutes; locally a shorter interval costs nothing.
   */
  sweepIntervalMs?: number;
  log?: (line: string) => void;
  /** The render provider of each product (default: RENDER_PROVIDER_<PRODUCT> from the environment, else local). */
  renderProviders?: Record<ProductId, ProviderName>;
  /** The network the local chain stands in for (lib/local/chain.ts); default Base mainnet. */
  network?: NetworkId;
  /** Ms between the local chain's blocks, as Base's 2000 (lib/local/chain.ts); undefined or 0: a block per transaction. */
  blockIntervalMs?: number;
  /**
   * A Flashblocks-aware endpoint in front of the chain (lib/local/preconf-rpc.ts; docs/decisions/0021), given to the
   * stack as its preconfirmation endpoint: a generation job's 202 goes out on the preconfirmed receipt, its delivery
   * waits for the sealed block. Meaningful with `blockIntervalMs` (under automine every transaction is sealed at once).
   */
  preconfirmations?: boolean;
  /** How many settlement keys the chain funds and the settler leases from (lib/local/chain.ts; default 4). */
  settlerKeys?: number;
  /** More CDK context for the synthesized stack (e.g. `renderReservedConcurrency`), as `cdk deploy -c` would take. */
  context?: Record<string, string>;
  /**
   * Tests only: awaited before a state machine's task state invokes its function, as a task waits on AWS for a
   * throttled function (its render function's reservation full) — so a job can be held `queued` before its render
   * is submitted, and a race between a task and an HTTP route can be ordered.
   */
  beforeTask?: (stateName: string, input: unknown) => Promise<void>;
  /**
   * Ms the webhook machine waits between attempts (tests shorten it); by default it keeps its synthesised schedule
   * (5 s, then 5 min, …: lambdas/webhooks/deliver.ts), as on AWS, whatever `renderWaitMs` does to the renders.
   */
  webhookWaitMs?: number;
}

export interface RuntimeInfo {
  /** The generation surface's base URL; every other served surface adds its own key (Surface.urlKey). */
  baseUrl: string;
  [surfaceUrlKey: string]: unknown;
  rpcUrl: string;
  chainId: number;
  usdcAddress: string;
  payTo: string;
  buyers: { address: string; privateKey: string }[];
  /** The local agent-payment token issuer (JWKS, charge; mint and fund from loopback). */
  tokenIssuerUrl: string;
}

const DEFAULT_SWEEP_INTERVAL_MS = 10_000;
/** The secret the functions read the local chain's RPC URL from (RPC_URL stays for in-process code and tools). */
const LOCAL_RPC_URL_SECRET = 'paycall/rpc-url';
const LOCAL_PRECONF_RPC_URL_SECRET = 'paycall/preconf-rpc-url';
/** The service key's secret, as the default stack names it (lib/config.ts serviceKeySecretName). */
const LOCAL_SERVICE_KEY_SECRET = 'paycall/service-key';
/** The offer-signing key's secret, likewise (lib/config.ts offerSigningKeySecretName). */
const LOCAL_OFFER_SIGNING_KEY_SECRET = 'paycall/offer-signing-key';

export interface EmbeddedRuntime {
  info: RuntimeInfo;
  chain: LocalChain;
  /** DynamoDB Local's JVM process (the bench reads its CPU time). */
  dynamodbPid: number | undefined;
  /** DynamoDB Local's endpoint (the bench times the emulator's own writes beside the paid path's). */
  dynamodbEndpoint: string;
  /** The OS thread ids of the function instances running now (the bench splits this process's CPU time by them). */
  functionThreadIds(): number[];
  /** The same, by function id. */
  functionThreadIdsById(): Record<string, number[]>;
  /** Starts `count` instances of a function ahead of traffic, one after another, as provisioned concurrency would. */
  prewarm(functionId: string, count: number): Promise<void>;
  stop(): Promise<void>;
}

type TaskHandler = (input: unknown) => Promise<unknown>;

export async function startEmbedded(options: EmbeddedOptions): Promise<EmbeddedRuntime> {
  const log = options.log ?? ((line: string) => console.log(line));
  const stateDir = resolve(options.stateDir);
  // The asset bucket's objects, behind the local S3 endpoint (and served at /assets/ as CloudFront serves it).
  const assetsDir = join(stateDir, 's3', LOCAL_ASSETS_BUCKET);
  mkdirSync(assetsDir, { recursive: true });
  const stops: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch((e) => log(`[local] stop failed: ${(e as Error).message}`));
  };

  const functions = new LocalFunctions(PROJECT_ROOT, log);
  try {
    let markReady!: () => void;
    const ready = new Promise<void>((r) => (markReady = r));
    // One gateway per served surface, as CDK builds one HTTP API per surface; the generation gateway also serves
    // /assets/ (the CloudFront distribution's role).
    const gateways = {} as Record<SurfaceId, Gateway>;
    // The playground's dev wallet: the chain's funded buyers, known once the chain is up (requests wait for `ready`).
    let devBuyers: DevBuyer[] = [];
    const local = devWallet(() => devBuyers);
    for (const surface of servedSurfaces()) {
      // A run that asks for any free generation port (tests, bench) gets any free port for every surface.
      const fallback = options.generationPort === 0 ? 0 : surface.port.default;
      const port = surface.id === GENERATION.id ? options.generationPort : (options.surfacePorts?.[surface.id] ?? fallback);
      gateways[surface.id] = await startGateway({
        port,
        routes: surfaceRoutes(surface),
        ...(surface.id === GENERATION.id ? { assets: async (key: string) => readAssetForServing(assetsDir, key) } : {}),
        ready,
        local,
        invoke: (route, event) => functions.get(functionIdOf(route)).invoke(event),
        // As each API's stage names its surface, and its sign-in routes run the one authorizer first (lib/surface-api.ts).
        stageVariables: { [SURFACE_STAGE_VARIABLE]: surface.id },
        authorize: (event) => functions.get(SIGN_IN_AUTHORIZER.id).invoke(event),
      });
      stops.push(() => gateways[surface.id].close());
    }
    const gateway = gateways[GENERATION.id];

    // The render provider of each product; the stack is synthesised for that choice (its environment, grants and
    // secret names are what the functions then get).
    const chosenRender = options.renderProviders ?? chosenProviders();
    const [definitions, chain, dynamo, issuer, s3, providers] = await Promise.all([
      synthesizeForLocal({
        cacheDir: join(stateDir, 'synth-cache'),
        context: {
          ...Object.fromEntries(PRODUCT_IDS.map((product) => [providerContextKey(product), chosenRender[product]])),
          ...reasoningContext(),
          // The chain's URL is read from a secret, as a keyed provider URL is on AWS (and the grants are exercised).
          rpcUrlSecretName: LOCAL_RPC_URL_SECRET,
          ...(options.preconfirmations ? { preconfRpcUrlSecretName: LOCAL_PRECONF_RPC_URL_SECRET } : {}),
          // The local chain's pace, as the network's is on AWS: no schedule under automine (a block per transaction).
          blockTimeMs: String(options.blockIntervalMs ?? 0),
          ...options.context,
          // A stack for the chain's network (a Sepolia staging stack when it stands in for Sepolia).
          ...(options.network ? { network: options.network } : {}),
        },
      }),
      startLocalChain({ port: options.chainPort, stateDir, network: options.network, blockIntervalMs: options.blockIntervalMs, settlerCount: options.settlerKeys }),
      startDynamoLocal({ dir: join(stateDir, 'dynamodb') }),
      startLocalTokenIssuer({ port: options.tokenIssuerPort ?? 0, stateDir }),
      startLocalS3({ dir: join(stateDir, 's3'), buckets: [LOCAL_ASSETS_BUCKET] }),
      startLocalProviders(chosenRender, { stateDir, log }),
    ]);
    stops.push(() => providers.stop());
    // Model reasoning of agents (AGENT_REASONING): Converse on the Bedrock fake.
    const reasoning = await startLocalReasoning(providers.env, { stateDir, log });
    stops.push(() => reasoning.stop());
    devBuyers = chain.buyers;
    stops.push(() => s3.stop());
    stops.push(() => chain.stop());
    stops.push(() => dynamo.stop());
    stops.push(() => issuer.stop());
    // The secrets the template names, served as Secrets Manager serves them; the functions read them through the
    // SDK and their grants. The runtime itself (and `npm run fund`, `npm run mint-token`) keeps reading the files.
    // AP2 v0.2 (lib/local/ap2-issuer.ts): the merchant key, read by the run functions through Secrets Manager and
    // their grant, and the local test issuer the service trusts.
    const preconf = options.preconfirmations ? await startPreconfRpc({ chainRpcUrl: chain.rpcUrl }) : undefined;
    if (preconf) stops.push(() => preconf.stop());
    const ap2 = await localAp2Keys(stateDir);
    const serviceKey = localKeyFile(stateDir, 'service-key');
    const offerSigningKey = localKeyFile(stateDir, 'offer-signing-key');
    const secrets = await startLocalSecretsManager({
      secrets: templateSecrets(definitions.environments, {
        [ENV.settlerKeySecretId]: settlerKeyPoolSecret(chain.settlerKeyFile),
        [TOKEN_ENV.sellerKeySecretId]: sellerKeySecret(issuer.sellerKeyFile),
        // Refunds are read through Secrets Manager (no file variable), so the refund task's grant is exercised.
        [REFUND_ENV.secretId]: settlerKeyPoolSecret(chain.refundKeyFile),
        [AP2_ENV.keySecretId]: ap2.merchantKey,
        [JOB_SECRETS_ENV.secretId]: serviceKey.value,
        [OFFER_SIGNER_ENV.secretId]: offerSigningKey.value,
        [ENV.rpcUrlSecretId]: async () => chain.rpcUrl,
        ...(preconf ? { [ENV.preconfRpcUrlSecretId]: async () => preconf.url } : {}),
        ...providers.secretValues,
      }),
    });
    stops.push(() => secrets.stop());

    const env: Record<string, string> = {
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      [ENV.dynamodbEndpoint]: dynamo.endpoint,
      [ENV.assetsBucket]: LOCAL_ASSETS_BUCKET,
      [ENV.s3Endpoint]: s3.url,
      [ENV.assetsPublicUrl]: `${gateway.url}/assets`,
      [ENV.network]: chain.network,
      [ENV.chainId]: String(chain.chainId),
      [ENV.usdcAddress]: chain.usdcAddress,
      [ENV.payTo]: chain.payTo,
      [ENV.rpcUrl]: chain.rpcUrl,
      [ENV.facilitatorMode]: 'self',
      [ENV.settlerKeyFile]: chain.settlerKeyFile,
      [SECRETS_MANAGER_ENDPOINT]: secrets.endpoint,
      // The render provider of each product (RENDER_PROVIDER_<PRODUCT>, default local) and the fakes' endpoints.
      ...providers.env,
      ...reasoning.env,
      [ENV.blockingWaitMs]: String(options.blockingWaitMs ?? 25_000),
      // Webhook receivers on this machine (loopback, http too) are allowed here, and only here (lambdas/webhooks/address.ts).
      [WEBHOOK_LOOPBACK_ENV]: 'true',
      // The local agent-payment token issuer, configured the way the real issuer's URLs are on AWS.
      ...issuer.env,
      [AP2_ENV.trustedIssuers]: ap2.trustedIssuers,
      // In-process handlers (tests, the bench) read the merchant key from its file, as the runtime reads the settler's:
      // no template names this variable, so no function instance sees it (they read the secret through their grant).
      [AP2_ENV.keyFile]: ap2.merchantKeyFile,
      // In-process handlers read the service key through the local Secrets Manager under the name the template gives.
      [JOB_SECRETS_ENV.secretId]: LOCAL_SERVICE_KEY_SECRET,
      [OFFER_SIGNER_ENV.secretId]: LOCAL_OFFER_SIGNING_KEY_SECRET,
    };
    await createTables(dynamo, definitions.tables, env);
    // Every AWS call a function makes is checked against its role's policy in the synthesized template (in each
    // function's own instances; here for the start-up sweep, which runs as the sweeper).
    const iam = installIamEnforcement(definitions.policies, log);
    functions.define(definitions);
    stops.push(() => functions.stop());
    log(`[local] IAM enforced: the AWS calls of ${Object.keys(definitions.policies).length} functions are checked against their synthesized policies`);
    stops.push(async () => iam.uninstall());
    // Before any handler module loads: functions check their configuration at cold start.
    Object.assign(process.env, env);

    const webhookWait = { machine: definitions.webhookMachine.stateMachineArn, waitTimeMs: options.webhookWaitMs ?? null };
    const machines = await Promise.all(
      [...Object.values(definitions.stateMachines), definitions.webhookMachine].map(async (machine) => {
        const taskHandlers: Record<string, TaskHandler> = {};
        for (const [stateName, task] of Object.entries(machine.taskStates)) {
          const { beforeTask } = options;
          taskHandlers[stateName] = beforeTask
            ? async (input) => {
                await beforeTask(stateName, input);
                return functions.get(task.id).invoke(input);
              }
            : (input) => functions.get(task.id).invoke(input);
        }
        const wait = machine.stateMachineArn === webhookWait.machine ? { waitTimeMs: webhookWait.waitTimeMs } : {};
        return { envVar: machine.envVar, stateMachineArn: machine.stateMachineArn, name: machine.name, definition: machine.definition, taskHandlers, ...wait };
      }),
    );
    const sfn = await startLocalStepFunctions({ port: 0, definitions: machines, waitTimeMs: options.renderWaitMs ?? 250 });
    stops.push(() => sfn.stop());
    for (const machine of machines) process.env[machine.envVar] = machine.stateMachineArn;
    process.env[ENV.sfnEndpoint] = sfn.endpoint;

    installPlaceholderCover(assetsDir);
    markReady();

    // Executions do not outlive the process: restart the unfinished jobs of an earlier run.
    const { sweepNow, startPeriodicSweep } = await import('./sweep-now.js');
    const swept = await sweepNow();
    if (swept.started.length) log(`[local] resumed ${swept.started.length} unfinished job(s) from the last run`);
    // Then as the schedule runs it on AWS: an invocation of the sweeper function's own instances (its policy applies).
    const sweepIntervalMs = options.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS;
    if (sweepIntervalMs > 0) {
      const sweeper = functions.get(SWEEPER.id);
      const schedule = startPeriodicSweep(
        async () => {
          const result = (await sweeper.invoke(scheduledEvent())) as SweepResult;
          const summary = sweepSummary(result);
          if (summary) log(`[local] sweep (${SWEEPER.id}): ${summary}`);
        },
        sweepIntervalMs,
        (error) => log(`[local] scheduled sweep failed: ${error.message}`),
      );
      stops.push(() => schedule.stop());
    }

    const info: RuntimeInfo = {
      ...Object.fromEntries(servedSurfaces().map((surface) => [surface.urlKey, gateways[surface.id].url])),
      baseUrl: gateway.url,
      rpcUrl: chain.rpcUrl,
      chainId: chain.chainId,
      usdcAddress: chain.usdcAddress,
      payTo: chain.payTo,
      buyers: chain.buyers,
      tokenIssuerUrl: issuer.url,
    };
    const runtimeFile = join(stateDir, 'runtime.json');
    writeFileSync(`${runtimeFile}.tmp`, JSON.stringify(info, null, 2), { mode: 0o600 });
    renameSync(`${runtimeFile}.tmp`, runtimeFile);
    return { info, chain, dynamodbPid: dynamo.pid, dynamodbEndpoint: dynamo.endpoint, functionThreadIds: () => functions.threadIds(), functionThreadIdsById: () => functions.threadIdsByFunction(), prewarm: (id, count) => functions.prewarm(id, count), stop: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** What EventBridge sends a scheduled target (the sweeper reads none of it). */
function scheduledEvent() {
  return { version: '0', 'detail-type': 'Scheduled Event', source: 'aws.events', time: new Date().toISOString(), detail: {} };
}

/** The changes a sweep made, e.g. `reconciled 1, started 1`; empty when it only looked. */
function sweepSummary(result: SweepResult): string {
  const changes = ['reconciled', 'started', 'voided', 'failed', 'runsSettled', 'runsVoided', 'runsUnknown'] as const;
  return changes
    .filter((key) => result[key].length > 0)
    .map((key) => `${key} ${result[key].length}`)
    .join(', ');
}

async function createTables(
  dynamo: LocalDynamo,
  tables: LocalTableDefinition[],
  env: Record<string, string>,
): Promise<void> {
  const defs = tables.map((t) => ({ ...t, tableName: localTableName(t.envName) }));
  await ensureTables(dynamo.client, defs);
  for (const t of defs) env[t.envName] = t.tableName;
}

function installPlaceholderCover(assetsDir: string): void {
  const target = join(assetsDir, PLACEHOLDER_COVER_KEY);
  if (existsSync(target)) return;
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(join(PROJECT_ROOT, 'assets', PLACEHOLDER_COVER_KEY), target);
}
