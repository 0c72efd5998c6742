/**
 * Environment configuration, read and validated once per cold start. The same variable names are set by the CDK
 * stack (lib/) on AWS and by the embedded runtime (lib/local/) on one machine; nothing here knows which.
 */
import { z } from 'zod';
import { NETWORK_IDS } from './networks.js';

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte hex address');

export const ENV = {
  jobsTable: 'JOBS_TABLE',
  paymentsTable: 'PAYMENTS_TABLE',
  idempotencyTable: 'IDEMPOTENCY_TABLE',
  rateLimitTable: 'RATE_LIMIT_TABLE',
  settlerLeasesTable: 'SETTLER_LEASES_TABLE',
  runsTable: 'RUNS_TABLE',
  settlerGasFloorWei: 'SETTLER_GAS_FLOOR_WEI',
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
  facilitatorMode: 'FACILITATOR_MODE',
  facilitatorUrl: 'FACILITATOR_URL',
  settlerKeySecretId: 'SETTLER_KEY_SECRET_ID',
  settlerKeyFile: 'SETTLER_KEY_FILE',
  publicBaseUrl: 'PUBLIC_BASE_URL',
  agentsPublicBaseUrl: 'AGENTS_PUBLIC_BASE_URL',
  renderProvider: 'RENDER_PROVIDER',
  blockingWaitMs: 'BLOCKING_WAIT_MS',
  dynamodbEndpoint: 'DYNAMODB_ENDPOINT',
  sfnEndpoint: 'SFN_ENDPOINT',
  s3Endpoint: 'S3_ENDPOINT',
  ffmpegPath: 'FFMPEG_PATH',
} as const;

function memo<T>(read: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= read());
}

function parse<T extends z.ZodRawShape>(shape: T, what: string): z.infer<z.ZodObject<T>> {
  const result = z.object(shape).safeParse(process.env);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${String(i.path[0])}: ${i.message}`).join('; ');
    throw new Error(`Invalid ${what} configuration: ${problems}`);
  }
  return result.data;
}

/** Tables and optional local endpoints used by every function that touches storage. */
export const storeConfig = memo(() => {
  const env = parse(
    {
      JOBS_TABLE: z.string().min(1),
      PAYMENTS_TABLE: z.string().min(1).optional(),
      IDEMPOTENCY_TABLE: z.string().min(1).optional(),
      RATE_LIMIT_TABLE: z.string().min(1).optional(),
      SETTLER_LEASES_TABLE: z.string().min(1).optional(),
      RUNS_TABLE: z.string().min(1).optional(),
      DYNAMODB_ENDPOINT: z.string().url().optional(),
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
    dynamodbEndpoint: env.DYNAMODB_ENDPOINT,
  };
});

/** Payment terms and settlement: what the 402 advertises and how a payment is verified and settled. */
export const paymentConfig = memo(() => {
  const env = parse(
    {
      X402_NETWORK: z.enum(NETWORK_IDS).default('eip155:8453'),
      CHAIN_ID: z.coerce.number().int().positive().default(8453),
      USDC_ADDRESS: address,
      PAY_TO_ADDRESS: address,
      RPC_URL: z.string().url(),
      FACILITATOR_MODE: z.enum(['self', 'remote']).default('self'),
      FACILITATOR_URL: z.string().url().optional(),
      SETTLER_KEY_SECRET_ID: z.string().min(1).optional(),
      SETTLER_KEY_FILE: z.string().min(1).optional(),
      /** A settlement key with less native gas than this (wei) takes no new settlement. */
      SETTLER_GAS_FLOOR_WEI: z.string().regex(/^\d+$/).default('20000000000000'),
    },
    'payment',
  );
  if (`eip155:${env.CHAIN_ID}` !== env.X402_NETWORK) {
    // The EIP-712 domain's chainId must be the network's, or no signature would ever recover to its payer.
    throw new Error(`Invalid payment configuration: CHAIN_ID ${env.CHAIN_ID} does not match X402_NETWORK ${env.X402_NETWORK}`);
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
    rpcUrl: env.RPC_URL,
    facilitatorMode: env.FACILITATOR_MODE,
    facilitatorUrl: env.FACILITATOR_URL,
    settlerKeySecretId: env.SETTLER_KEY_SECRET_ID,
    settlerKeyFile: env.SETTLER_KEY_FILE,
    settlerGasFloorWei: BigInt(env.SETTLER_GAS_FLOOR_WEI),
  };
});
export type PaymentConfig = ReturnType<typeof paymentConfig>;

/** Where finished assets live and how buyers reach them. */
export const assetConfig = memo(() => {
  const env = parse(
    {
      ASSETS_BUCKET: z.string().min(1).optional(),
      ASSETS_DIR: z.string().min(1).optional(),
      ASSETS_PUBLIC_URL: z.string().url(),
      S3_ENDPOINT: z.string().url().optional(),
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

/** The state machine of each product, and the local endpoint when not on AWS. */
export const workflowConfig = memo(() => {
  const env = parse(
    {
      MUSIC_STATE_MACHINE_ARN: z.string().min(1),
      VIDEO_STATE_MACHINE_ARN: z.string().min(1),
      IMAGE_STATE_MACHINE_ARN: z.string().min(1),
      SFN_ENDPOINT: z.string().url().optional(),
    },
    'workflow',
  );
  return {
    stateMachineArns: {
      create_music: env.MUSIC_STATE_MACHINE_ARN,
      agent_video: env.VIDEO_STATE_MACHINE_ARN,
      agent_image: env.IMAGE_STATE_MACHINE_ARN,
    },
    sfnEndpoint: env.SFN_ENDPOINT,
  };
});

export const httpConfig = memo(() => {
  const env = parse(
    {
      PUBLIC_BASE_URL: z.string().url().optional(),
      AGENTS_PUBLIC_BASE_URL: z.string().url().optional(),
      BLOCKING_WAIT_MS: z.coerce.number().int().min(0).max(28_000).default(25_000),
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

export const renderConfig = memo(() => {
  const env = parse(
    {
      RENDER_PROVIDER: z.enum(['local']).default('local'),
      FFMPEG_PATH: z.string().min(1).optional(),
    },
    'render',
  );
  return { provider: env.RENDER_PROVIDER, ffmpegPath: env.FFMPEG_PATH };
});

/** What a function that purchases jobs reads (the paid routes, the MCP token tool). */
export const PURCHASE_CONFIG = [storeConfig, paymentConfig, httpConfig, assetConfig, workflowConfig, renderConfig] as const;

/** Called at module scope of an entry: a broken deployment fails the function's init, not a buyer's request. */
export function checkAtColdStart(...parts: readonly (() => unknown)[]): void {
  for (const part of parts) part();
}
