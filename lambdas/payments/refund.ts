/**
 * Moves a failed job's money back to its payer, at most once whatever retries or crashes happen: the refund is an
 * EIP-3009 `transferWithAuthorization` from the refund wallet to the payer whose nonce is derived from the job id,
 * so the token contract itself refuses a second one (a nonce can be used once). It is settled by the same settler
 * (gas key pool, leases) as the buyers' payments. Before sending, the chain is asked whether that nonce is already
 * used — then the refund happened, and its transaction is read back from the `AuthorizationUsed` log.
 *
 * The refund wallet's key is a secret (`REFUND_KEY_SECRET_ID`, or `REFUND_KEY_FILE` on one machine): on AWS a wallet
 * the operator keeps funded with USDC for refunds; on the embedded default the dev pay-to account, which received the
 * payments.
 */
import { encodeFunctionData, keccak256, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { loadSecret } from '../shared/secrets.js';
import { paymentConfig } from '../shared/config.js';
import { authorizationUsed } from './reconcile.js';
import { EVENT_TOPICS, findAuthorizationEvent } from './core/paid-on-chain.js';
import { transferWithAuthorizationTypes, usdcAbi } from './usdc-abi.js';
import { rpcRequest } from './reconcile.js';
import { refundWalletMetric } from './gas-metric.js';
import { parseKeyPool } from './secrets.js';
import { networkOf } from '../shared/networks.js';
import { USDC_DOMAIN, X402_VERSION, type Hex, type PaymentSettler, type VerifiedPayment } from './types.js';

export const REFUND_ENV = { secretId: 'REFUND_KEY_SECRET_ID', file: 'REFUND_KEY_FILE' } as const;

/** How many of the core's 10,000-block getLogs windows to look back through (~28 h of Base). */
const REFUND_SEARCH_WINDOWS = 5;

/** How long the refund authorization stays valid (retries within it reuse the same nonce, so it is still at most once). */
const REFUND_VALIDITY_SECONDS = 24 * 3600;

export type RefundResult =
  | { ok: true; transaction: Hex }
  /** `retry`: worth trying again (the chain or the settler was unavailable, or the outcome is unknown). */
  | { ok: false; retry: boolean; reason: string };

export interface Refunder {
  refund(input: { jobId: string; payer: Hex; amount: bigint }): Promise<RefundResult>;
}

/** The EIP-3009 nonce of a job's refund: one per job, so the chain accepts at most one refund for it. */
export function refundNonce(jobId: string): Hex {
  return keccak256(toHex(`paycall-refund:${jobId}`));
}

export function loadRefundKey(env: NodeJS.ProcessEnv = process.env): Promise<Hex> {
  return loadSecret(
    { file: env[REFUND_ENV.file], secretId: env[REFUND_ENV.secretId] },
    {
      describe: 'refund key',
      // One key, as the settler keys are written ({"privateKey": "0x…"} or the bare key).
      parse: (raw, where) => {
        const keys = parseKeyPool(raw, where);
        if (keys.length !== 1) throw new Error(`The refund key in ${where} must be exactly one key`);
        return keys[0];
      },
      configureHint: `set ${REFUND_ENV.file} or ${REFUND_ENV.secretId}`,
    },
  );
}

export interface ChainRefunderOptions {
  settler: PaymentSettler;
  refundKey?: () => Promise<Hex>;
  now?: () => number;
  /** The USDC an address holds (base units); defaults to `balanceOf` over the configured RPC. */
  balanceOf?: (asset: Hex, owner: Hex) => Promise<bigint>;
}

/** `balanceOf(owner)` on the token, one eth_call. */
export async function usdcBalance(rpcUrl: string, asset: Hex, owner: Hex): Promise<bigint> {
  const data = encodeFunctionData({ abi: usdcAbi, functionName: 'balanceOf', args: [owner] });
  const result = await rpcRequest(rpcUrl, 'eth_call', [{ to: asset, data }, 'latest']);
  if (typeof result !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(result)) throw new Error(`balanceOf returned ${String(result)}`);
  return BigInt(result);
}

export class ChainRefunder implements Refunder {
  private readonly refundKey: () => Promise<Hex>;
  private readonly now: () => number;
  private readonly balanceOf: (asset: Hex, owner: Hex) => Promise<bigint>;

  constructor(private readonly options: ChainRefunderOptions) {
    this.refundKey = options.refundKey ?? (() => loadRefundKey());
    this.now = options.now ?? Date.now;
    this.balanceOf = options.balanceOf ?? ((asset, owner) => usdcBalance(paymentConfig().rpcUrl, asset, owner));
  }

  async refund({ jobId, payer, amount }: { jobId: string; payer: Hex; amount: bigint }): Promise<RefundResult> {
    const config = paymentConfig();
    let account: ReturnType<typeof privateKeyToAccount>;
    try {
      account = privateKeyToAccount(await this.refundKey());
    } catch (error) {
      return { ok: false, retry: true, reason: `Refund key unavailable: ${(error as Error).message}` };
    }
    const asset = config.usdcAddress as Hex;
    const nonce = refundNonce(jobId);
    const nonceKey = `${config.network}:${asset}:${account.address}:${nonce}`;
    // The token's domain name is the network's: Base's USDC is "USD Coin", Base Sepolia's "USDC".
    const domain = { name: networkOf(config.network).tokenName, version: USDC_DOMAIN.version };

    // Already refunded (a retry after a crash, or a concurrent attempt that won): find its transaction.
    try {
      if (await authorizationUsed(nonceKey, config.rpcUrl)) return await this.sentBefore(account.address, nonce, config.rpcUrl);
    } catch (error) {
      return { ok: false, retry: true, reason: `Cannot read the chain: ${(error as Error).message}` };
    }

    const nowSeconds = Math.floor(this.now() / 1000);
    const authorization = { from: account.address, to: payer, value: amount, validAfter: 0n, validBefore: BigInt(nowSeconds + REFUND_VALIDITY_SECONDS), nonce };
    const signature = await account.signTypedData({
      domain: { ...domain, chainId: config.chainId, verifyingContract: asset },
      types: transferWithAuthorizationTypes,
      primaryType: 'TransferWithAuthorization',
      message: authorization,
    });
    // The refund is an x402 `exact` payment from the refund wallet to the payer, settled as any other.
    const requirement = {
      scheme: 'exact' as const,
      network: config.network,
      maxAmountRequired: amount.toString(),
      amount: amount.toString(),
      asset,
      payTo: payer,
      maxTimeoutSeconds: REFUND_VALIDITY_SECONDS,
      resource: `refund:${jobId}`,
      description: `Refund of job ${jobId}`,
      mimeType: 'application/json',
      extra: { ...domain, decimals: USDC_DOMAIN.decimals, priceUsd: '' },
    };
    const payment: VerifiedPayment = {
      kind: 'x402',
      payer: account.address,
      amount,
      network: config.network,
      asset,
      payTo: payer,
      nonceKey,
      payload: { x402Version: X402_VERSION, resource: { url: requirement.resource }, accepted: requirement, payload: { signature, authorization } },
      requirement,
    };
    const settled = await this.options.settler.settle(payment, { deadline: this.now() + 60_000 });
    await this.publishBalance(asset, account.address);
    if (settled.ok) return { ok: true, transaction: settled.transaction };
    // Broadcast with an unknown outcome, or no free key: the next attempt asks the chain first. Refused before
    // broadcast (the refund wallet is short of USDC, say): failed until an operator acts; still retried.
    return { ok: false, retry: settled.broadcast || settled.unavailable === true || settled.retryAfterSeconds !== undefined, reason: settled.reason };
  }

  /**
   * The wallet's USDC after an attempt, for the RefundWalletLow alarm: only refunds spend it, so this is when it
   * changes. A failed read publishes nothing and never fails the refund.
   */
  private async publishBalance(asset: Hex, wallet: Hex): Promise<void> {
    try {
      refundWalletMetric(wallet, await this.balanceOf(asset, wallet));
    } catch {
      // the next refund reads it again
    }
  }

  /**
   * The transaction that used the refund's nonce, from its AuthorizationUsed log (the payment core's search), as far
   * back as the refund authorization can have been valid (~28 h of Base).
   */
  private async sentBefore(authorizer: Hex, nonce: Hex, rpcUrl: string): Promise<RefundResult> {
    const event = await findAuthorizationEvent(rpcUrl, paymentConfig().usdcAddress as Hex, authorizer, nonce, { maxWindows: REFUND_SEARCH_WINDOWS });
    if (event?.topics[0] === EVENT_TOPICS.authorizationUsed) return { ok: true, transaction: event.transactionHash };
    return { ok: false, retry: true, reason: 'The refund was used on chain but its transaction was not found' };
  }
}
