/**
 * Stack configuration: read from CDK context (cdk.json or `-c key=value`) and/or stack props, validated once with
 * zod. Errors name the context key so a bad `cdk synth -c payTo=0x12` says exactly what to fix.
 *
 * Nothing secret lives here: the pay-to address defaults to an SSM parameter resolved at deploy time, and the
 * settler key is a Secrets Manager secret *name* (the functions read the value at run time).
 */
import type { Construct } from 'constructs';
import { z } from 'zod';
import { NETWORK_IDS, NETWORKS } from '../lambdas/shared/networks.js';
import { PRODUCT_IDS, PRODUCTS, type Product, type ProductId } from '../lambdas/products/products.js';
import { PROVIDER_SECRETS, RENDER_PROVIDERS, providersFor, type ProviderName, type ProviderSecret } from '../lambdas/render/providers.js';
import { GENERATION_CATALOG, PROVIDER_CHECK_SECONDS, type GenerationCatalog, type StackProduct } from './render-providers.js';
import { PROBE_LIMIT, PROBE_WINDOW_SECONDS } from '../lambdas/middleware/rate-limit.js';
import { gasRunway, refundWalletFloor, usdcToBaseUnits } from './runway.js';

/**
 * The edge's per-IP rule counts over 5 minutes (WAF's windows: 60, 120, 300, 600 s); its default limit is the
 * unpaid-probe quota over that window (20 per 60 s: 100), so the edge refuses what the functions would refuse anyway.
 */
export const EDGE_WINDOW_SECONDS = 300;
export const EDGE_DEFAULT_RATE_LIMIT = Math.ceil((PROBE_LIMIT * EDGE_WINDOW_SECONDS) / PROBE_WINDOW_SECONDS);
/** AWS WAF's bounds on a rate-based rule's limit. */
export const WAF_RATE_LIMIT_MIN = 10;
export const WAF_RATE_LIMIT_MAX = 2_000_000_000;
/** The edge's ceiling on every request of an address, paid ones included: 10 a second held for the 5 minutes. */
export const EDGE_DEFAULT_TOTAL_RATE_LIMIT = 3_000;
const EDGE_LIMIT = { message: `must be a whole number of requests from ${WAF_RATE_LIMIT_MIN} to ${WAF_RATE_LIMIT_MAX}` };

/** Base mainnet USDC (FiatTokenV2_2). */
export const BASE_USDC_ADDRESS = NETWORKS['eip155:8453'].usdcAddress;
export const BASE_CHAIN_ID = NETWORKS['eip155:8453'].chainId;
/** Base (an OP Stack chain) makes a block every 2 s, on mainnet and Sepolia alike. */
export const BASE_BLOCK_TIME_MS = 2000;

/** CloudWatch Logs accepts only these retention periods (aws-logs RetentionDays). */
export const LOG_RETENTION_DAYS = [
  1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653,
] as const;

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte hex address');
const providerOf = (product: ProductId) =>
  z.enum(providersFor(product) as [ProviderName, ...ProviderName[]], { message: `must be one of ${providersFor(product).join(', ')}` }).default('local');
/**
 * The members of a per-product setting, one context key per product in catalog order (`musicProvider`,
 * `videoCheckSeconds`, ...): a new product gets its keys from its catalog entry.
 */
function perProduct<K extends string, T>(key: (product: Product) => K, member: (product: ProductId) => T): Record<K, T> {
  const members = {} as Record<K, T>;
  for (const product of PRODUCT_IDS) {
    const name = key(PRODUCTS[product]);
    if (Object.hasOwn(members, name)) throw new Error(`products share the context key "${name}": each needs its own category`);
    members[name] = member(product);
  }
  return members;
}
/**
 * A per-product context key: the product's category, then `suffix` (`imageMaxChecks`; `imageProvider`, as
 * lambdas/render/providers.ts providerContextKey names it). A product of the stack's catalog (a fixture's too) is
 * configured by its category's keys.
 */
const productKey =
  <S extends string>(suffix: S) =>
  (product: Pick<Product<string>, 'category'>): `${Product['category']}${S}` =>
    `${product.category}${suffix}`;
const providerKey = productKey('Provider');
const checkSecondsKey = productKey('CheckSeconds');
const maxChecksKey = productKey('MaxChecks');
const secretName = (fallback: string) =>
  z.string().regex(/^[a-zA-Z0-9/_+=.@-]{1,512}$/, `must be a Secrets Manager secret name like ${fallback}`).default(fallback);
const EMAIL = /^[^\s@,;:<>()[\]"]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/;
const emails = (text: string) => text.split(',').map((e) => e.trim()).filter(Boolean);
/** Standard topics only (no `.fifo`): the partition, region, account and name of the topic. */
export const SNS_TOPIC_ARN = /^arn:aws(-[a-z]+)*:sns:[a-z]{2}(-[a-z]+)+-\d:\d{12}:[A-Za-z0-9_-]{1,256}$/;
/** A host name of at least two labels (api.example.com), lower case, no scheme, port, path or trailing dot. */
export const DOMAIN_NAME = /^(?=.{4,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const domainName = z.string().regex(DOMAIN_NAME, 'must be a host name like api.example.com (lower case, no scheme or path)');
/** An ACM certificate: its partition, region, account and id; the region is read back from it (certificateRegion). */
export const CERTIFICATE_ARN = /^arn:aws(-[a-z]+)*:acm:([a-z]{2}(-[a-z]+)+-\d):\d{12}:certificate\/[0-9a-f-]{36}$/;
const certificateArn = z.string().regex(CERTIFICATE_ARN, 'must be an ACM certificate ARN like arn:aws:acm:us-east-1:123456789012:certificate/<id>');
export const certificateRegion = (arn: string): string => CERTIFICATE_ARN.exec(arn)![2];
/**
 * A KMS key by its key ARN (a multi-Region key's `mrk-` id too): an IAM policy cannot name a key by its alias. The
 * region is read back from it (kmsKeyRegion): Secrets Manager encrypts a secret only with a key of its own region.
 */
export const KMS_KEY_ARN = /^arn:aws(-[a-z]+)*:kms:([a-z]{2}(-[a-z]+)+-\d):\d{12}:key\/(mrk-[0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;
export const kmsKeyRegion = (arn: string): string => KMS_KEY_ARN.exec(arn)![2];
/** Keys of which at most one may be set: the URL either in the context or in a secret. */
export const EXCLUSIVE_KEYS = [
  ['rpcUrl', 'rpcUrlSecretName'],
  ['preconfRpcUrl', 'preconfRpcUrlSecretName'],
] as const;
/** Context values given with `-c key=value` arrive as strings: accept "30" for 30 and "true" for true. */
const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
/** A reservation: a whole number of executions, 0 (or unset) meaning none reserved; normalised to undefined then. */
const RESERVATION = { message: 'must be a whole number of executions from 0 (none reserved) to 1000' };
const reservation = z.coerce
  .number(RESERVATION)
  .int(RESERVATION)
  .min(0, RESERVATION)
  .max(1000, RESERVATION)
  .optional()
  .transform((n) => (n ? n : undefined));

export const stackConfigSchema = z
  .object({
    /** x402 network id: Base mainnet (production) or Base Sepolia (`eip155:84532`, a staging stack). */
    network: z.enum(NETWORK_IDS).default('eip155:8453'),
    /** Defaults to Circle's USDC on the chosen network. */
    usdcAddress: address.optional(),
    /** Literal receiving address. When absent, `payToParameter` is resolved at deploy time. */
    payTo: address.optional(),
    /** SSM String parameter holding the receiving address (used when `payTo` is not set). */
    payToParameter: z
      .string()
      .regex(/^[a-zA-Z0-9_.\-/]{1,2048}$/, 'must be an SSM parameter name like /paycall/pay-to')
      .default('/paycall/pay-to'),
    /**
     * Defaults to the network's public endpoint. A provider's URL (which carries its API key) belongs in a Secrets
     * Manager secret instead: `rpcUrlSecretName` names it (SecretString the URL, or JSON {"url": "…"}), the functions
     * get the name and read the URL at run time (lambdas/payments/rpc-url.ts). One or the other, not both.
     */
    rpcUrl: z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).optional(),
    rpcUrlSecretName: z
      .string()
      .regex(/^[a-zA-Z0-9/_+=.@-]{1,512}$/, 'must be a Secrets Manager secret name like paycall/rpc-url')
      .optional(),
    /**
     * A Flashblocks-aware RPC endpoint of the network (Base's preconfirmations: docs/decisions/0021), or the secret
     * holding it (`preconfRpcUrlSecretName`, as `rpcUrlSecretName`). Set, a generation job's paid 202 goes out on its
     * transfer's preconfirmed receipt (about 200 ms after the send on Base) and its delivery waits for the sealed block;
     * agent runs and top-ups, which deliver at once, still wait for the block. One or the other, not both.
     */
    preconfRpcUrl: z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).optional(),
    preconfRpcUrlSecretName: z
      .string()
      .regex(/^[a-zA-Z0-9/_+=.@-]{1,512}$/, 'must be a Secrets Manager secret name like paycall/preconf-rpc-url')
      .optional(),
    facilitatorMode: z.enum(['self', 'remote']).default('self'),
    facilitatorUrl: z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).optional(),
    /** Secrets Manager secret name of the settlement gas key (self mode). Never a key value. */
    settlerKeySecretName: z
      .string()
      .regex(/^[a-zA-Z0-9/_+=.@-]{1,512}$/, 'must be a Secrets Manager secret name like paycall/settler-key')
      .default('paycall/settler-key'),
    /**
     * The render provider of each product (lambdas/render/providers.ts): `local` (the synthesiser) or a model
     * adapter — image `bedrock-stability`; video `google-veo`, `fal-veo`; music `google-lyria`, `minimax-music`.
     */
    ...perProduct(providerKey, providerOf),
    /** Bedrock: the region whose Stability models are used (they are offered in us-west-2) and the model id. */
    bedrockRegion: z.string().regex(/^[a-z]{2}(-[a-z]+)+-\d$/, 'must be an AWS region like us-west-2').default('us-west-2'),
    bedrockImageModel: z
      .enum(['stability.stable-image-core-v1:1', 'stability.stable-image-ultra-v1:1', 'stability.sd3-5-large-v1:0'])
      .default('stability.stable-image-core-v1:1'),
    /** The Gemini API model of the google-lyria adapter (LYRIA_MODEL): Lyria 3 Pro, full songs with vocals (provider notes §3, §7). */
    lyriaModel: z
      .string()
      .regex(/^lyria-[a-z0-9.-]+$/, 'must be a Lyria model id like lyria-3-pro-preview')
      .default('lyria-3-pro-preview'),
    /** MiniMax's music model of the minimax-music adapter (MINIMAX_MUSIC_MODEL). */
    minimaxModel: z
      .string()
      .regex(/^music-[a-z0-9.-]+$/, 'must be a MiniMax music model id like music-2.6')
      .default('music-2.6'),
    /** The Gemini API model of the google-veo adapter (VEO_MODEL); the fast variant by default (provider notes §7). */
    veoModel: z
      .string()
      .regex(/^veo-[a-z0-9.-]+$/, 'must be a Veo model id like veo-3.1-fast-generate-preview')
      .default('veo-3.1-fast-generate-preview'),
    /** The fal.ai model of the fal-veo adapter (FAL_VIDEO_MODEL): Veo 3.1 Fast through fal's queue (provider notes §7). */
    falVideoModel: z
      .string()
      .regex(/^fal-ai\/veo3[a-z0-9.]*(\/[a-z0-9-]+)?$/, 'must be a fal Veo model id like fal-ai/veo3.1/fast')
      .default('fal-ai/veo3.1/fast'),
    /** Secrets Manager name of the refund wallet's key ({"privateKey": "0x…"}): refunds of failed paid jobs are paid from it. */
    refundKeySecretName: z
      .string()
      .regex(/^[a-zA-Z0-9/_+=.@-]{1,512}$/, 'must be a Secrets Manager secret name like paycall/refund-key')
      .default('paycall/refund-key'),
    /** Secrets Manager names of the vendors' API keys (read at run time by the task functions; never a key value). */
    geminiApiKeySecretName: secretName(PROVIDER_SECRETS.gemini.defaultName),
    falKeySecretName: secretName(PROVIDER_SECRETS.fal.defaultName),
    minimaxApiKeySecretName: secretName(PROVIDER_SECRETS.minimax.defaultName),
    /**
     * Gas runway (lib/runway.ts, docs/deploy.md "Gas and refund runway"). A settlement key with less native gas than settlerGasFloorWei (wei)
     * takes no new settlement; unset, the floor is ten settlements' worth of gasPerSettlementWei. SettlerGasLow fires
     * when a key would last fewer than runwayHours at expectedPaidPerHour settlements (refunds included) above that
     * floor; RefundWalletLow when the refund wallet holds less than refundWalletFloorUsdc, else runwayHours of
     * expectedRefundsPerDay refunds at the dearest product's price.
     */
    settlerGasFloorWei: z.coerce.string().regex(/^\d+$/, 'must be a whole number of wei').optional(),
    gasPerSettlementWei: z.coerce.string().regex(/^[1-9]\d*$/, 'must be a whole number of wei above 0').default('2000000000000'),
    expectedPaidPerHour: int(0, 10_000_000).default(100),
    runwayHours: int(1, 24 * 90).default(24),
    expectedRefundsPerDay: int(0, 10_000_000).default(10),
    refundWalletFloorUsdc: z.coerce.string().regex(/^\d+(\.\d{1,6})?$/, 'must be an amount of USDC like 50 or 12.5 (at most 6 decimals)').optional(),
    /**
     * Agent-payment tokens (pay+jwt, kya-pay+jwt): the issuer's id, key set and charge URLs, our seller service id,
     * and the Secrets Manager name of our seller API key. All four URLs/ids together, or none (tokens refused).
     */
    tokenIssuer: z.string().min(1).optional(),
    tokenJwksUrl: z.url({ protocol: /^https$/, message: 'must be an https URL' }).optional(),
    tokenChargeUrl: z.url({ protocol: /^https$/, message: 'must be an https URL' }).optional(),
    tokenSellerId: z.string().min(1).optional(),
    tokenSellerKeySecretName: z
      .string()
      .regex(/^[a-zA-Z0-9/_+=.@-]{1,512}$/, 'must be a Secrets Manager secret name like paycall/token-seller-key')
      .default('paycall/token-seller-key'),
    /**
     * AP2 v0.2 merchant authorization (experimental, the agent studio's run functions): the Secrets Manager name of
     * the merchant's ES256 key (a P-256 private JWK, JSON; docs/deploy.md runbook step 10) and the key set of the mandate issuers we
     * trust (JSON `{"keys":[…]}` of public P-256 JWKs with kid; unset: every mandate is refused).
     */
    ap2MerchantKeySecretName: secretName('paycall/ap2-merchant-key'),
    /**
     * The service key per-job secrets derive from (a job's cancel token, lambdas/jobs/job-secrets.ts): 32 random bytes,
     * hex, created once by the operator (docs/deploy.md runbook step 6).
     */
    serviceKeySecretName: secretName('paycall/service-key'),
    /**
     * The key that signs x402 offers and receipts (the offer-receipt extension, lambdas/payments/offer-receipt.ts;
     * docs/decisions/0019): a secp256k1 private key, 32 bytes of hex (`0x` optional), created once by the operator
     * (docs/deploy.md runbook step 6), never the pay-to wallet's. Its address is published in `/.well-known/x402`.
     */
    offerSigningKeySecretName: secretName('paycall/offer-signing-key'),
    /**
     * The customer managed KMS key the operator's secrets above are encrypted with, when not Secrets Manager's default
     * (aws/secretsmanager): every function that reads a secret may then kms:Decrypt with it, through Secrets Manager of
     * the stack's region only (lib/grants.ts SecretGrants). Unset, a secret under another key cannot be read.
     */
    secretsKmsKeyArn: z
      .string()
      .regex(KMS_KEY_ARN, 'must be a KMS key ARN like arn:aws:kms:us-east-1:123456789012:key/<key id> (a key ARN, not an alias)')
      .optional(),
    ap2TrustedIssuers: z
      .string()
      .refine((text) => {
        try {
          const set = JSON.parse(text) as { keys?: { kid?: unknown; kty?: unknown; crv?: unknown; d?: unknown }[] };
          return Array.isArray(set.keys) && set.keys.every((k) => typeof k.kid === 'string' && k.kty === 'EC' && k.crv === 'P-256' && k.d === undefined);
        } catch {
          return false;
        }
      }, 'must be a JSON key set {"keys":[…]} of public P-256 JWKs, each with a kid')
      .optional(),
    /**
     * Ship the static linux-x64 ffmpeg from node_modules with the render task (which then runs on x86_64).
     * false: every function is arm64 and music/video renders need FFMPEG_PATH from elsewhere (e.g. a layer).
     */
    bundleFfmpeg: z
      .union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')])
      .default(true),
    /** Public base URL of the API when it sits behind a custom domain (PUBLIC_BASE_URL); unset = request host. */
    publicBaseUrl: z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).optional(),
    /**
     * A custom domain per surface (lib/custom-domain.ts): the host name and the ACM certificate that covers it, both or
     * neither. The certificate lives in the stack's region (an HTTP API's regional domain; with the edge, us-east-1,
     * where CloudFront takes it too). The surface's documents then name https://<domain> (publicBaseUrl still wins).
     */
    domainName: domainName.optional(),
    certificateArn: certificateArn.optional(),
    agentsDomainName: domainName.optional(),
    agentsCertificateArn: certificateArn.optional(),
    /**
     * Who hears the alarms (lib/monitoring.ts): e-mail addresses, comma-separated, each subscribed to the alarm topic
     * (SNS mails each a link to confirm), and/or a standard SNS topic in the stack's region that every alarm also
     * publishes to (a pager's, a chat's). Unset: the alarms reach the topic and nobody (docs/deploy.md runbook step 13).
     */
    alarmEmail: z
      .string()
      .refine((text) => emails(text).length > 0 && emails(text).every((e) => EMAIL.test(e)), 'must be an e-mail address, or several separated by commas')
      .transform(emails)
      .optional(),
    alarmTopicArn: z.string().regex(SNS_TOPIC_ARN, 'must be a standard SNS topic ARN like arn:aws:sns:us-east-1:123456789012:oncall').optional(),
    logRetentionDays: z.coerce
      .number()
      .refine((n) => (LOG_RETENTION_DAYS as readonly number[]).includes(n), {
        message: `must be one of ${LOG_RETENTION_DAYS.join(', ')}`,
      })
      .default(30),
    /** How long a paid POST with asyncMode off waits for the job before answering 202 (API Gateway caps at 30 s). */
    blockingWaitMs: int(0, 28_000).default(25_000),
    /**
     * How often a settlement's receipt is asked for while the paid answer waits (ms, RECEIPT_POLL_MS): the answer goes
     * out at most this long after the transfer's block. Lower is faster and costs more RPC requests (about one per
     * interval during the wait for the next block: on Base, a second on average).
     */
    receiptPollMs: int(10, 5_000).default(50),
    /**
     * The chain's block interval (ms, BLOCK_TIME_MS; default Base's 2000, mainnet's and Sepolia's alike). The receipt wait sleeps
     * until just before the next block is due and polls only around it (lambdas/payments/block-clock.ts): about four
     * requests per paid answer instead of one per `receiptPollMs` of the wait. 0: poll from the send throughout.
     */
    blockTimeMs: int(0, 60_000).optional(),
    /** Seconds the state machine waits between render checks. */
    renderCheckSeconds: int(1, 300).default(5),
    /** Checks after which a still-running render is failed with RenderTimeout. */
    renderMaxChecks: int(1, 10_000).default(120),
    /**
     * Per product, the Wait between checks and the check limit. Unset: the chosen provider's own interval (google-veo
     * and fal-veo 10 s: a Veo render takes tens of seconds to minutes), else renderCheckSeconds; the limit defaults to
     * renderMaxChecks.
     */
    ...perProduct(checkSecondsKey, () => int(1, 300).optional()),
    ...perProduct(maxChecksKey, () => int(1, 10_000).optional()),
    /** Whole-execution timeout of each state machine. */
    workflowTimeoutMinutes: int(1, 7 * 24 * 60).default(60),
    /**
     * Reserved concurrency (ReservedConcurrentExecutions), one key per kind of function that may want it: each render
     * provider's function, separately (it encodes or calls its vendor: bounds that provider's load, ADR 0016) and the sweeper (1 keeps
     * sweeps from overlapping; correctness does not need it, see lambdas/workflow/sweeper.ts). Unset or 0: nothing
     * reserved, the function draws on the account's unreserved pool. Never Lambda's own 0, which throttles every
     * invoke. The default reserves nothing because Lambda keeps 100 executions of the account's quota unreserved:
     * a new account's quota (as low as 10) cannot reserve any, so a default reservation would fail stack creation.
     * Throttled task invokes are retried by the state machine.
     */
    renderReservedConcurrency: reservation,
    sweeperReservedConcurrency: reservation,
    /** API stage throttling (every route of every surface): steady requests per second and burst. */
    apiRateLimit: int(1, 100_000).default(50),
    apiBurstLimit: int(1, 100_000).default(100),
    /**
     * The edge before both APIs (lib/edge.ts): `cloudfront-waf` puts a CloudFront distribution in front of each and
     * one AWS WAF web ACL with per-IP rate-based rules on both; `none` (the default) serves the APIs directly. A
     * distribution's web ACL lives in us-east-1, so with the edge on the stack must be deployed there.
     */
    edge: z.enum(['none', 'cloudfront-waf'], { message: 'must be none or cloudfront-waf' }).default('none'),
    /** Requests per IP per 5 minutes past which the edge answers 429 (WAF allows 10 to 2e9); default the probe quota's. */
    edgeRateLimit: z.coerce
      .number(EDGE_LIMIT)
      .int(EDGE_LIMIT)
      .min(WAF_RATE_LIMIT_MIN, EDGE_LIMIT)
      .max(WAF_RATE_LIMIT_MAX, EDGE_LIMIT)
      .default(EDGE_DEFAULT_RATE_LIMIT),
    /**
     * Requests per IP per 5 minutes, paid or not, past which the edge answers 429: a flood that sends made-up payment
     * headers to escape edgeRateLimit stops here. Raise it for a buyer who pays that often from one address.
     */
    edgeTotalRateLimit: z.coerce
      .number(EDGE_LIMIT)
      .int(EDGE_LIMIT)
      .min(WAF_RATE_LIMIT_MIN, EDGE_LIMIT)
      .max(WAF_RATE_LIMIT_MAX, EDGE_LIMIT)
      .default(EDGE_DEFAULT_TOTAL_RATE_LIMIT),
  })
  .superRefine((c, ctx) => {
    const tokenKeys = ['tokenIssuer', 'tokenJwksUrl', 'tokenChargeUrl', 'tokenSellerId'] as const;
    const setTokenKeys = tokenKeys.filter((k) => c[k] !== undefined);
    if (setTokenKeys.length > 0 && setTokenKeys.length < tokenKeys.length) {
      for (const k of tokenKeys.filter((k) => c[k] === undefined)) {
        ctx.addIssue({ code: 'custom', path: [k], message: `is required when ${setTokenKeys.join(', ')} is set` });
      }
    }
    for (const [domain, certificate] of [['domainName', 'certificateArn'], ['agentsDomainName', 'agentsCertificateArn']] as const) {
      if ((c[domain] === undefined) !== (c[certificate] === undefined)) {
        const [missing, set] = c[domain] === undefined ? [domain, certificate] : [certificate, domain];
        ctx.addIssue({ code: 'custom', path: [missing], message: `is required when ${set} is set (a custom domain needs both)` });
      }
    }
    if (c.domainName !== undefined && c.domainName === c.agentsDomainName) {
      ctx.addIssue({ code: 'custom', path: ['agentsDomainName'], message: 'must differ from domainName (one host name per surface)' });
    }
    if (c.edgeTotalRateLimit < c.edgeRateLimit) {
      ctx.addIssue({ code: 'custom', path: ['edgeTotalRateLimit'], message: `must be at least edgeRateLimit (${c.edgeRateLimit})` });
    }
    for (const [url, secret] of EXCLUSIVE_KEYS) {
      if (c[url] !== undefined && c[secret] !== undefined) {
        ctx.addIssue({ code: 'custom', path: [secret], message: `must not be set with ${url} (the URL is either in the secret or in the context)` });
      }
    }
    if (c.facilitatorMode === 'remote' && !c.facilitatorUrl) {
      ctx.addIssue({
        code: 'custom',
        path: ['facilitatorUrl'],
        message: 'is required when facilitatorMode is "remote"',
      });
    }
  });

export type StackConfigInput = z.input<typeof stackConfigSchema>;
export type StackConfig = Omit<z.output<typeof stackConfigSchema>, 'usdcAddress' | 'rpcUrl' | 'settlerGasFloorWei'> & {
  usdcAddress: string;
  rpcUrl: string;
  /** The floor the settler keeps (wei, decimal): the given one, else derived (lib/runway.ts). */
  settlerGasFloorWei: string;
  /** SettlerGasLow's threshold (wei): the floor plus runwayHours of settlements at expectedPaidPerHour. */
  settlerGasAlarmWei: bigint;
  /** RefundWalletLow's threshold (USDC base units). */
  refundWalletFloorBaseUnits: bigint;
  chainId: number;
  /** The provider of each product (from its `<category>Provider` key, providerContextKey). */
  renderProviders: Record<string, ProviderName>;
  /** The vendor API keys the chosen providers read: which, and the secret's name. */
  /** The Secrets Manager name of each vendor's API key (each provider's render function reads its own). */
  providerSecretNames: Record<ProviderSecret, string>;
  /** Each product's Wait between render checks (seconds) and its check limit. */
  renderChecks: Record<string, { seconds: number; maxChecks: number }>;
};

export const CONFIG_KEYS = Object.keys(stackConfigSchema.shape) as (keyof StackConfigInput)[];
export type ConfigKey = keyof StackConfigInput;

/**
 * An example of a context key, as `-c key=value` gives it. test/infra/nag.test.ts synthesises every key of the schema
 * from this table with cdk-nag, each alone and then all together, and test/infra/config-options.test.ts fails for a
 * key without an example: an option cannot be added without its `cdk synth` being checked.
 */
export interface ConfigExample {
  /** The value; a function of the stack's region where it names something that must live there (an ARN). */
  value: string | ((region: string) => string);
  /** Keys synthesised with it, from their own examples: those it needs to mean anything (a pair, a mode) or that tune it. */
  with?: readonly ConfigKey[];
  /**
   * It changes only values the template holds anyway (an environment variable, a threshold, a name inside an ARN),
   * never which resources, statements or properties there are: synthesised once with every other such key, a
   * template the nag test holds to the default's shape.
   */
  valuesOnly?: true;
}

const values = (value: string): ConfigExample => ({ value, valuesOnly: true });
const TOKEN_KEYS = ['tokenIssuer', 'tokenJwksUrl', 'tokenChargeUrl', 'tokenSellerId', 'tokenSellerKeySecretName'] as const;
const certificate = (n: number) => (region: string) => `arn:aws:acm:${region}:123456789012:certificate/0000000${n}-1111-2222-3333-444444444444`;

/** One example per context key of the schema, in its order. */
export const CONFIG_EXAMPLES: Record<ConfigKey, ConfigExample> = {
  network: values('eip155:84532'),
  usdcAddress: values('0x3333333333333333333333333333333333333333'),
  payTo: values('0x2222222222222222222222222222222222222222'),
  payToParameter: values('/paycall/staging/pay-to'),
  rpcUrl: values('https://base.example.com'),
  rpcUrlSecretName: { value: 'paycall/rpc-url' },
  preconfRpcUrl: values('https://preconf.base.example.com'),
  preconfRpcUrlSecretName: { value: 'paycall/preconf-rpc-url' },
  facilitatorMode: { value: 'remote', with: ['facilitatorUrl'] },
  facilitatorUrl: { value: 'https://facilitator.example.com', with: ['facilitatorMode'] },
  settlerKeySecretName: values('paycall/staging/settler-key'),
  // A model adapter rather than the default synthesiser (the nag test also synthesises every other provider).
  ...perProduct(providerKey, (product): ConfigExample => ({ value: providersFor(product).filter((p) => p !== 'local').at(-1)! })),
  bedrockRegion: values('us-east-1'),
  bedrockImageModel: values('stability.stable-image-ultra-v1:1'),
  lyriaModel: values('lyria-3-clip-preview'),
  minimaxModel: values('music-2.5'),
  veoModel: values('veo-3.1-generate-preview'),
  falVideoModel: values('fal-ai/veo3.1'),
  refundKeySecretName: values('paycall/staging/refund-key'),
  geminiApiKeySecretName: values('paycall/staging/gemini-api-key'),
  falKeySecretName: values('paycall/staging/fal-key'),
  minimaxApiKeySecretName: values('paycall/staging/minimax-api-key'),
  settlerGasFloorWei: values('30000000000000'),
  gasPerSettlementWei: values('3000000000000'),
  expectedPaidPerHour: values('1000'),
  runwayHours: values('48'),
  expectedRefundsPerDay: values('50'),
  refundWalletFloorUsdc: values('12.5'),
  // The four of the issuer come together (the schema refuses some without the others); the seller key's name with them.
  tokenIssuer: { value: 'https://issuer.example.com', with: TOKEN_KEYS.filter((k) => k !== 'tokenIssuer') },
  tokenJwksUrl: { value: 'https://issuer.example.com/jwks.json', with: ['tokenIssuer'] },
  tokenChargeUrl: { value: 'https://issuer.example.com/charge', with: ['tokenIssuer'] },
  tokenSellerId: { value: 'seller-1', with: ['tokenIssuer'] },
  tokenSellerKeySecretName: { value: 'paycall/staging/token-seller-key', with: ['tokenIssuer'] },
  ap2MerchantKeySecretName: values('paycall/staging/ap2-merchant-key'),
  serviceKeySecretName: values('paycall/staging/service-key'),
  offerSigningKeySecretName: values('paycall/staging/offer-signing-key'),
  secretsKmsKeyArn: { value: (region) => `arn:aws:kms:${region}:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab` },
  ap2TrustedIssuers: values(
    '{"keys":[{"kty":"EC","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0","kid":"issuer-1"}]}',
  ),
  bundleFfmpeg: { value: 'false' },
  publicBaseUrl: values('https://api.example.com'),
  domainName: { value: 'api.example.com', with: ['certificateArn'] },
  certificateArn: { value: certificate(1), with: ['domainName'] },
  agentsDomainName: { value: 'agents.example.com', with: ['agentsCertificateArn'] },
  agentsCertificateArn: { value: certificate(2), with: ['agentsDomainName'] },
  // Two addresses, as the runbook's example: each is a resource of the template.
  alarmEmail: { value: 'ops@example.com,oncall@example.com' },
  alarmTopicArn: { value: (region) => `arn:aws:sns:${region}:123456789012:oncall` },
  logRetentionDays: values('90'),
  blockingWaitMs: values('20000'),
  receiptPollMs: values('100'),
  blockTimeMs: values('1000'),
  renderCheckSeconds: values('10'),
  renderMaxChecks: values('60'),
  ...perProduct(checkSecondsKey, () => values('20')),
  ...perProduct(maxChecksKey, () => values('30')),
  workflowTimeoutMinutes: values('120'),
  renderReservedConcurrency: { value: '10' },
  sweeperReservedConcurrency: { value: '1' },
  apiRateLimit: values('20'),
  apiBurstLimit: values('40'),
  edge: { value: 'cloudfront-waf', with: ['edgeRateLimit', 'edgeTotalRateLimit'] },
  edgeRateLimit: { value: '200', with: ['edge'] },
  edgeTotalRateLimit: { value: '5000', with: ['edge'] },
};

/** The example value of `key` for a stack in `region`. */
export function exampleValue(key: ConfigKey, region: string): string {
  const example = CONFIG_EXAMPLES[key];
  if (!example) throw new Error(`lib/config.ts CONFIG_EXAMPLES has no example of the context key "${key}"`);
  return typeof example.value === 'function' ? example.value(region) : example.value;
}

/** The context the examples of `keys` give, with the keys each is synthesised with (theirs too, transitively), for `region`. */
export function exampleContext(keys: readonly ConfigKey[], region: string): Record<string, string> {
  const context: Record<string, string> = {};
  const pending = [...keys];
  for (let key = pending.shift(); key !== undefined; key = pending.shift()) {
    if (Object.hasOwn(context, key)) continue;
    context[key] = exampleValue(key, region);
    pending.push(...(CONFIG_EXAMPLES[key].with ?? []));
  }
  return context;
}

export class StackConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StackConfigError';
  }
}

/**
 * Validate a raw configuration object; throws StackConfigError naming each offending context key. The per-product
 * settings are those of `products`, the stack's catalog.
 */
export function parseStackConfig(raw: Record<string, unknown>, products: GenerationCatalog = GENERATION_CATALOG): StackConfig {
  const result = stackConfigSchema.safeParse(raw);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const key = issue.path.length ? issue.path.map(String).join('.') : '(root)';
      const given = issue.path.length ? raw[String(issue.path[0])] : undefined;
      const shown = given === undefined ? '' : ` (got ${JSON.stringify(given)})`;
      return `context key "${key}" ${issue.message}${shown}`;
    });
    throw new StackConfigError(`Invalid stack configuration: ${problems.join('; ')}`);
  }
  const network = NETWORKS[result.data.network];
  const d = result.data;
  const catalog = Object.values(products);
  const byProduct = <T>(value: (product: StackProduct) => T): Record<string, T> => Object.fromEntries(catalog.map((p) => [p.id, value(p)]));
  const renderProviders = byProduct((product): ProviderName => d[providerKey(product)]);
  // The schema checked each key against the real product of its category; a catalog product sharing it (a
  // fixture) must be renderable by the provider chosen too.
  const unfit = catalog.filter((p) => !p.providers.includes(renderProviders[p.id]));
  if (unfit.length) {
    const problems = unfit.map((p) => `context key "${providerKey(p)}" names ${renderProviders[p.id]}, which cannot render ${p.id} (${p.providers.join(', ')})`);
    throw new StackConfigError(`Invalid stack configuration: ${problems.join('; ')}`);
  }
  const secretNames: Record<ProviderSecret, string> = {
    gemini: result.data.geminiApiKeySecretName,
    fal: result.data.falKeySecretName,
    minimax: result.data.minimaxApiKeySecretName,
  };
  const renderChecks = byProduct((product): { seconds: number; maxChecks: number } => ({
    seconds: d[checkSecondsKey(product)] ?? PROVIDER_CHECK_SECONDS[renderProviders[product.id]] ?? d.renderCheckSeconds,
    maxChecks: d[maxChecksKey(product)] ?? d.renderMaxChecks,
  }));
  const gas = gasRunway({
    settlerGasFloorWei: d.settlerGasFloorWei === undefined ? undefined : BigInt(d.settlerGasFloorWei),
    gasPerSettlementWei: BigInt(d.gasPerSettlementWei),
    expectedPaidPerHour: BigInt(d.expectedPaidPerHour),
    runwayHours: BigInt(d.runwayHours),
  });
  const refundWalletFloorBaseUnits = refundWalletFloor({
    refundWalletFloorBaseUnits: d.refundWalletFloorUsdc === undefined ? undefined : usdcToBaseUnits(d.refundWalletFloorUsdc),
    expectedRefundsPerDay: BigInt(d.expectedRefundsPerDay),
    runwayHours: BigInt(d.runwayHours),
    highestPriceBaseUnits: catalog.reduce((max, p) => (p.amount > max ? p.amount : max), 0n),
  });
  return {
    ...result.data,
    settlerGasFloorWei: gas.floorWei.toString(),
    settlerGasAlarmWei: gas.alarmWei,
    refundWalletFloorBaseUnits,
    renderProviders,
    providerSecretNames: secretNames,
    renderChecks,
    usdcAddress: result.data.usdcAddress ?? network.usdcAddress,
    rpcUrl: result.data.rpcUrl ?? network.rpcUrl,
    chainId: network.chainId,
    blockTimeMs: result.data.blockTimeMs ?? BASE_BLOCK_TIME_MS,
  };
}

/**
 * Read every known key from the construct tree's context (cdk.json `context`, `-c key=value`), let explicit
 * props win, and validate. Empty strings count as "not set" so `-c payTo=` falls back to the SSM parameter.
 */
export function loadStackConfig(scope: Construct, overrides: Partial<StackConfigInput> = {}, products: GenerationCatalog = GENERATION_CATALOG): StackConfig {
  const raw: Record<string, unknown> = {};
  for (const key of CONFIG_KEYS) {
    const fromProps = overrides[key];
    const value = fromProps !== undefined ? fromProps : scope.node.tryGetContext(key);
    if (value !== undefined && value !== null && value !== '') raw[key] = value;
  }
  return parseStackConfig(raw, products);
}

/**
 * The `context` of cdk.json, for in-process apps (tests, lib/local/asl.ts) that should synthesise exactly what
 * `cdk synth` does (same feature flags, same defaults).
 */
export async function readCdkJsonContext(projectRoot: string): Promise<Record<string, unknown>> {
  const { readFile } = await import('node:fs/promises');
  const { join } = await import('node:path');
  const json = JSON.parse(await readFile(join(projectRoot, 'cdk.json'), 'utf8')) as { context?: Record<string, unknown> };
  return json.context ?? {};
}
