/**
 * Environment configuration, read and validated once per cold start. The same variable names are set by the CDK
 * stack (lib/) on AWS and by the embedded runtime (lib/local/) on one machine; nothing here knows which.
 */
import { METRICS_NAMESPACE_ENV } from './metric-names.js';
import { NETWORK_IDS } from './networks.js';

export const ENV = {
  jobsTable: 'JOBS_TABLE',
  paymentsTable: 'PAYMENTS_TABLE',
  idempotencyTable: 'IDEMPOTENCY_TABLE',
  rateLimitTable: 'RATE_LIMIT_TABLE',
  settlerLeasesTable: 'SETTLER_LEASES_TABLE',
  runsTable: 'RUNS_TABLE',
  workspacesTable: 'WORKSPACES_TABLE',
  creditLedgerTable: 'CREDIT_LEDGER_TABLE',
  settlerGasFloorWei: 'SETTLER_GAS_FLOOR_WEI',
  receiptPollMs: 'RECEIPT_POLL_MS',
  blockTimeMs: 'BLOCK_TIME_MS',
  preconfRpcUrl: 'PRECONF_RPC_URL',
  preconfRpcUrlSecretId: 'PRECONF_RPC_URL_SECRET_ID',
  assetsBucket: 'ASSETS_BUCKET',
  assetsDir: 'ASSETS_DIR',
  assetsPublicUrl: 'ASSETS_PUBLIC_URL',
  musicStateMachineArn: 'MUSIC_STATE_MACHINE_ARN',
  videoStateMachineArn: 'VIDEO_STATE_MACHINE_ARN',
  imageStateMachineArn: 'IMAGE_STATE_MACHINE_ARN',
  network: 'X402_NETWORK',
  chainId: 'CHAIN_ID',
  usdcAddress: 'USDC_ADDRESS',
  payTo: 'PAY_TO_ADDRESS',
  rpcUrl: 'RPC_URL',
  /** Instead of RPC_URL: the Secrets Manager secret holding it (lambdas/payments/rpc-url.ts). */
  rpcUrlSecretId: 'RPC_URL_SECRET_ID',
  facilitatorMode: 'FACILITATOR_MODE',
  facilitatorUrl: 'FACILITATOR_URL',
  settlerKeySecretId: 'SETTLER_KEY_SECRET_ID',
  settlerKeyFile: 'SETTLER_KEY_FILE',
  publicBaseUrl: 'PUBLIC_BASE_URL',
  agentsPublicBaseUrl: 'AGENTS_PUBLIC_BASE_URL',
  /** Set only behind the CloudFront edge (lib/edge.ts): the value its origin header carries (lambdas/shared/http.ts clientId). */
  edgeOriginToken: 'EDGE_ORIGIN_TOKEN',
  blockingWaitMs: 'BLOCKING_WAIT_MS',
  dynamodbEndpoint: 'DYNAMODB_ENDPOINT',
  sfnEndpoint: 'SFN_ENDPOINT',
  s3Endpoint: 'S3_ENDPOINT',
  ffmpegPath: 'FFMPEG_PATH',
  /** The stack's metrics namespace (lambdas/shared/metric-names.ts). */
  metricsNamespace: METRICS_NAMESPACE_ENV,
} as const;

export function memo<T>(read: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= read());
}

/**
 * One variable's rule: its value, or the problem with it. Checked by hand rather than with a schema library, so a
 * function that only reads its environment does not carry one; every rule answers a set-but-empty variable as a
 * problem, as a missing required one.
 */
export type Rule<T> = (raw: string | undefined) => { value: T } | { problem: string };
type Rules = Record<string, Rule<unknown>>;
type Read<R extends Rules> = { [K in keyof R]: R[K] extends Rule<infer T> ? T : never };

export const ok = <T>(value: T) => ({ value });
const isUrl = (raw: string) => URL.canParse(raw);

export function text(check: (raw: string) => string | undefined = () => undefined): Rule<string> {
  return (raw) => {
    if (raw === undefined) return { problem: 'is required' };
    if (raw === '') return { problem: 'must not be empty' };
    const problem = check(raw);
    return problem ? { problem } : ok(raw);
  };
}
export function optional<T>(rule: Rule<T>): Rule<T | undefined> {
  return (raw) => (raw === undefined ? ok(undefined) : rule(raw));
}
function withDefault<T>(rule: Rule<T>, fallback: T): Rule<T> {
  return (raw) => (raw === undefined ? ok(fallback) : rule(raw));
}
const url = () => text((raw) => (isUrl(raw) ? undefined : 'must be a URL'));
const address = () => text((raw) => (/^0x[0-9a-fA-F]{40}$/.test(raw) ? undefined : 'must be a 0x-prefixed 20-byte hex address'));
function oneOf<const V extends readonly string[]>(values: V): Rule<V[number]> {
  return (raw) => (raw !== undefined && values.includes(raw) ? ok(raw as V[number]) : { problem: `must be one of ${values.join(', ')}` });
}
function integer(min: number, max = Number.MAX_SAFE_INTEGER): Rule<number> {
  return (raw) => {
    const value = raw === undefined || raw.trim() === '' ? NaN : Number(raw);
    return Number.isInteger(value) && value >= min && value <= max ? ok(value) : { problem: `must be an integer from ${min} to ${max}` };
  };
}

export function parse<R extends Rules>(rules: R, what: string): Read<R> {
  const out: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, rule] of Object.entries(rules)) {
    const read = rule(process.env[name]);
    if ('problem' in read) problems.push(`${name}: ${read.problem}`);
    else out[name] = read.value;
  }
  if (problems.length > 0) throw new Error(`Invalid ${what} configuration: ${problems.join('; ')}`);
  return out as Read<R>;
}

/** Tables and optional local endpoints used by every function that touches storage. */
export const storeConfig = /* @__PURE__ */ memo(() => {
  const env = parse(
    {
      JOBS_TABLE: text(),
      PAYMENTS_TABLE: optional(text()),
      IDEMPOTENCY_TABLE: optional(text()),
      RATE_LIMIT_TABLE: optional(text()),
      SETTLER_LEASES_TABLE: optional(text()),
      RUNS_TABLE: optional(text()),
      WORKSPACES_TABLE: optional(text()),
      CREDIT_LEDGER_TABLE: optional(text()),
      DYNAMODB_ENDPOINT: optional(url()),
    },
    'storage',
  );
  return {
    jobsTable: env.JOBS_TABLE,
    paymentsTable: env.PAYMENTS_TABLE,
    idempotencyTable: env.IDEMPOTENCY_TABLE,
    rateLimitTable: env.RATE_LIMIT_TABLE,
    settlerLeasesTable: env.SETTLER_LEASES_TABLE,
    runsTable: env.RUNS_TABLE,
    workspacesTable: env.WORKSPACES_TABLE,
    creditLedgerTable: env.CREDIT_LEDGER_TABLE,
    dynamodbEndpoint: env.DYNAMODB_ENDPOINT,
  };
});

/**
 * What `paymentConfig().rpcUrl` is when RPC_URL_SECRET_ID names the secret holding the URL: this prefix and the
 * secret id (URI-encoded, so the reference is a URL that parses back to itself). It names the secret, never the
 * URL, so it may appear in an error; lambdas/payments/rpc-url.ts resolves it when a request is sent.
 */
export const RPC_URL_SECRET_PREFIX = 'secretsmanager:';

/** Payment terms and settlement: what the 402 advertises and how a payment is verified and settled. */
export const paymentConfig = /* @__PURE__ */ memo(() => {
  const env = parse(
    {
      X402_NETWORK: withDefault(oneOf(NETWORK_IDS), 'eip155:8453'),
      CHAIN_ID: withDefault(integer(1), 8453),
      USDC_ADDRESS: address(),
      PAY_TO_ADDRESS: address(),
      RPC_URL: optional(url()),
      RPC_URL_SECRET_ID: optional(text()),
      FACILITATOR_MODE: withDefault(oneOf(['self', 'remote'] as const), 'self'),
      FACILITATOR_URL: optional(url()),
      SETTLER_KEY_SECRET_ID: optional(text()),
      SETTLER_KEY_FILE: optional(text()),
      /**
       * How often a settlement's receipt is asked for while the buyer waits (ms): on Base a transfer lands in the
       * next 2 s block, so the answer waits for the block and then at most this long (docs/deploy.md "Context options": `receiptPollMs`).
       */
      RECEIPT_POLL_MS: withDefault(integer(10, 5_000), 50),
      /** The chain's block interval (ms): the receipt wait polls around the blocks it expects; 0, from the send throughout. */
      BLOCK_TIME_MS: withDefault(integer(0, 60_000), 0),
      /**
       * A Flashblocks-aware RPC endpoint (Base's preconfirmations), or the secret holding it: a generation job's
       * payment is answered on its preconfirmed receipt, its delivery waits for the sealed block (docs/decisions/0021).
       */
      PRECONF_RPC_URL: optional(url()),
      PRECONF_RPC_URL_SECRET_ID: optional(text()),
      /** A settlement key with less native gas than this (wei) takes no new settlement. */
      SETTLER_GAS_FLOOR_WEI: withDefault(text((raw) => (/^\d+$/.test(raw) ? undefined : 'must be a whole number of wei')), '20000000000000'),
    },
    'payment',
  );
  if (`eip155:${env.CHAIN_ID}` !== env.X402_NETWORK) {
    // The EIP-712 domain's chainId must be the network's, or no signature would ever recover to its payer.
    throw new Error(`Invalid payment configuration: CHAIN_ID ${env.CHAIN_ID} does not match X402_NETWORK ${env.X402_NETWORK}`);
  }
  if ((env.RPC_URL === undefined) === (env.RPC_URL_SECRET_ID === undefined)) {
    throw new Error('Invalid payment configuration: set one of RPC_URL (the URL) and RPC_URL_SECRET_ID (the secret holding it)');
  }
  if (env.FACILITATOR_MODE === 'remote' && !env.FACILITATOR_URL) {
    throw new Error('Invalid payment configuration: FACILITATOR_URL is required when FACILITATOR_MODE=remote');
  }
  if (env.FACILITATOR_MODE === 'self' && !env.SETTLER_KEY_SECRET_ID && !env.SETTLER_KEY_FILE) {
    throw new Error('Invalid payment configuration: self-settlement needs SETTLER_KEY_SECRET_ID or SETTLER_KEY_FILE');
  }
  return {
    network: env.X402_NETWORK,
    chainId: env.CHAIN_ID,
    usdcAddress: env.USDC_ADDRESS as `0x${string}`,
    payTo: env.PAY_TO_ADDRESS as `0x${string}`,
    /** The URL, or a reference to the secret holding it (RPC_URL_SECRET_PREFIX): pass it on, never parse it. */
    rpcUrl: env.RPC_URL ?? `${RPC_URL_SECRET_PREFIX}${encodeURIComponent(env.RPC_URL_SECRET_ID!)}`,
    facilitatorMode: env.FACILITATOR_MODE,
    facilitatorUrl: env.FACILITATOR_URL,
    settlerKeySecretId: env.SETTLER_KEY_SECRET_ID,
    settlerKeyFile: env.SETTLER_KEY_FILE,
    settlerGasFloorWei: BigInt(env.SETTLER_GAS_FLOOR_WEI),
    receiptPollMs: env.RECEIPT_POLL_MS,
    blockTimeMs: env.BLOCK_TIME_MS,
    /** Undefined without one; else the URL, or a reference to the secret holding it (as `rpcUrl`). */
    preconfRpcUrl:
      env.PRECONF_RPC_URL ?? (env.PRECONF_RPC_URL_SECRET_ID === undefined ? undefined : `${RPC_URL_SECRET_PREFIX}${encodeURIComponent(env.PRECONF_RPC_URL_SECRET_ID)}`),
  };
});
export type PaymentConfig = ReturnType<typeof paymentConfig>;

/** Where finished assets live and how buyers reach them. */
export const assetConfig = /* @__PURE__ */ memo(() => {
  const env = parse(
    {
      ASSETS_BUCKET: optional(text()),
      ASSETS_DIR: optional(text()),
      ASSETS_PUBLIC_URL: url(),
      S3_ENDPOINT: optional(url()),
    },
    'asset',
  );
  if (!env.ASSETS_BUCKET && !env.ASSETS_DIR) {
    throw new Error('Invalid asset configuration: set ASSETS_BUCKET (S3) or ASSETS_DIR (file store)');
  }
  return {
    bucket: env.ASSETS_BUCKET,
    dir: env.ASSETS_DIR,
    publicUrl: env.ASSETS_PUBLIC_URL.replace(/\/+$/, ''),
    s3Endpoint: env.S3_ENDPOINT,
  };
});

/** The local Step Functions endpoint when not on AWS: every function that starts or stops an execution reads it. */
export const sfnConfig = /* @__PURE__ */ memo(() => {
  const env = parse({ SFN_ENDPOINT: optional(url()) }, 'workflow');
  return { sfnEndpoint: env.SFN_ENDPOINT };
});

/**
 * The webhook delivery machine (docs/decisions/0018, lib/webhook-workflow.ts): whatever ends a job with a webhook starts it
 * (MarkCompleted, MarkFailed, the cancel route, the sweeper); the product machines' tasks may read it, the machine
 * not referencing them.
 */
export const WEBHOOK_MACHINE_ENV = 'WEBHOOK_STATE_MACHINE_ARN';
export const webhookConfig = /* @__PURE__ */ memo(() => {
  const env = parse({ [WEBHOOK_MACHINE_ENV]: text() }, 'webhook');
  return { stateMachineArn: env[WEBHOOK_MACHINE_ENV] };
});

/** The state machine of each product, and the local endpoint when not on AWS. */
export const workflowConfig = /* @__PURE__ */ memo(() => {
  const env = parse(
    {
      MUSIC_STATE_MACHINE_ARN: text(),
      VIDEO_STATE_MACHINE_ARN: text(),
      IMAGE_STATE_MACHINE_ARN: text(),
    },
    'workflow',
  );
  return {
    stateMachineArns: {
      create_music: env.MUSIC_STATE_MACHINE_ARN,
      agent_video: env.VIDEO_STATE_MACHINE_ARN,
      agent_image: env.IMAGE_STATE_MACHINE_ARN,
    },
    sfnEndpoint: sfnConfig().sfnEndpoint,
  };
});

/**
 * Sign-in-with-x (docs/decisions/0020): the network a wallet signs in on is the one it pays on. Read alone (not through
 * paymentConfig), so the sign-in routes need none of settlement's settings.
 */
export const signInConfig = /* @__PURE__ */ memo(() => parse({ X402_NETWORK: withDefault(oneOf(NETWORK_IDS), 'eip155:8453') }, 'sign-in'));

export const httpConfig = /* @__PURE__ */ memo(() => {
  const env = parse(
    {
      PUBLIC_BASE_URL: optional(url()),
      AGENTS_PUBLIC_BASE_URL: optional(url()),
      BLOCKING_WAIT_MS: withDefault(integer(0, 28_000), 25_000),
    },
    'http',
  );
  const publicBaseUrl = env.PUBLIC_BASE_URL?.replace(/\/+$/, '');
  const publicBaseUrls: Record<string, string | undefined> = {
    PUBLIC_BASE_URL: publicBaseUrl,
    AGENTS_PUBLIC_BASE_URL: env.AGENTS_PUBLIC_BASE_URL?.replace(/\/+$/, ''),
  };
  return { publicBaseUrl, publicBaseUrls, blockingWaitMs: env.BLOCKING_WAIT_MS };
});

/** Behind the CloudFront edge only: the token its origin header carries, proving a request came through it. */
export const edgeConfig = /* @__PURE__ */ memo(() => parse({ EDGE_ORIGIN_TOKEN: optional(text()) }, 'edge'));

/** What a function that purchases jobs reads (the paid routes, the MCP token tool). */
/** What a function that purchases jobs reads besides the render providers (lambdas/render/config.ts). */
export const PURCHASE_CONFIG = [storeConfig, paymentConfig, httpConfig, assetConfig, workflowConfig] as const;

/** Called at module scope of an entry: a broken deployment fails the function's init, not a buyer's request. */
export function checkAtColdStart(...parts: readonly (() => unknown)[]): void {
  for (const part of parts) part();
}
