/**
 * Self-settlement: the service submits the buyer's EIP-3009 authorization itself and pays the gas.
 *
 * The one fact the caller needs from a failure is whether money may have moved, so every step before the raw
 * transaction leaves this process reports broadcast=false (simulation and gas estimation refuse a doomed
 * authorization without spending anything), and everything from the send onward reports broadcast=true.
 */
import {
  BaseError,
  ContractFunctionRevertedError,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  http,
  keccak256,
  parseSignature,
  type Chain,
  type PublicClient,
  type WalletClient,
} from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { loadSettlerKey, type SettlerKeySource } from './secrets.js';
import type { ChargeOptions, Hex, PaymentSettler, SettleResult, VerifiedPayment } from './types.js';

/**
 * The shortest receipt wait, whatever the deadline: short enough to stay inside the answer margin (3 s) when
 * verification was slow; a transfer not confirmed by then takes the 202-and-reconcile path, which is safe.
 */
const MIN_RECEIPT_WAIT_MS = 1_000;
import { usdcAbi } from './usdc-abi.js';
import { publicClientFor, shortMessage } from './verify.js';

export { RemoteFacilitatorSettler, RemoteFacilitatorVerifier, type FacilitatorOptions } from './facilitator.js';

export interface SelfSettlerConfig extends SettlerKeySource {
  chainId: number;
  rpcUrl: string;
}

export interface SelfSettlerOptions {
  config: SelfSettlerConfig;
  /** Defaults to the shared client for config.rpcUrl. */
  publicClient?: PublicClient;
  loadKey?: () => Promise<Hex>;
  receiptTimeoutMs?: number;
}

interface Signer {
  account: PrivateKeyAccount;
  wallet: WalletClient;
}

const signers = new Map<string, Signer>();
// Sends from one key are serialised so each picks up the previous one's pending nonce; receipts are awaited outside.
const sendQueues = new Map<string, Promise<unknown>>();

function chainFor(chainId: number, rpcUrl: string): Chain {
  return defineChain({
    id: chainId,
    name: `eip155:${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}

function signerFor(key: Hex, chainId: number, rpcUrl: string): Signer {
  const account = privateKeyToAccount(key);
  const id = `${chainId}:${rpcUrl}:${account.address}`;
  let signer = signers.get(id);
  if (!signer) {
    const wallet = createWalletClient({
      account,
      chain: chainFor(chainId, rpcUrl),
      transport: http(rpcUrl, { retryCount: 0, timeout: 15_000 }),
    });
    signer = { account, wallet };
    signers.set(id, signer);
  }
  return signer;
}

function serialised<T>(queueKey: string, task: () => Promise<T>): Promise<T> {
  const previous = sendQueues.get(queueKey) ?? Promise.resolve();
  const next = previous.then(task, task);
  sendQueues.set(
    queueKey,
    next.catch(() => undefined),
  );
  return next;
}

/** The revert reason when there is one ("FiatTokenV2: authorization is used or canceled"), else viem's summary. */
export function revertReason(error: unknown): string {
  if (error instanceof BaseError) {
    const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError);
    if (reverted instanceof ContractFunctionRevertedError && reverted.reason) return reverted.reason;
  }
  return shortMessage(error);
}

export class SelfSettler implements PaymentSettler {
  private readonly config: SelfSettlerConfig;
  private readonly publicClient: PublicClient;
  private readonly loadKey: () => Promise<Hex>;
  private readonly receiptTimeoutMs: number;

  constructor(options: SelfSettlerOptions) {
    this.config = options.config;
    this.publicClient = options.publicClient ?? publicClientFor(options.config.rpcUrl);
    this.loadKey = options.loadKey ?? (() => loadSettlerKey(options.config));
    this.receiptTimeoutMs = options.receiptTimeoutMs ?? 60_000;
  }

  async settle(payment: VerifiedPayment, options: ChargeOptions = {}): Promise<SettleResult> {
    let signer: Signer;
    try {
      signer = signerFor(await this.loadKey(), this.config.chainId, this.config.rpcUrl);
    } catch (error) {
      return { ok: false, reason: `Settler key unavailable: ${(error as Error).message}`, broadcast: false };
    }

    const { authorization, signature } = payment.payload.payload;
    let parts: ReturnType<typeof parseSignature>;
    try {
      parts = parseSignature(signature as Hex);
    } catch {
      return { ok: false, reason: 'Malformed payment signature', broadcast: false };
    }
    const v = Number(parts.v ?? BigInt(parts.yParity + 27));
    const args = [
      payment.payer,
      authorization.to as Hex,
      authorization.value,
      authorization.validAfter,
      authorization.validBefore,
      authorization.nonce as Hex,
      v,
      parts.r,
      parts.s,
    ] as const;
    const call = { address: payment.asset, abi: usdcAbi, functionName: 'transferWithAuthorization', args } as const;

    try {
      await this.publicClient.simulateContract({ ...call, account: signer.account });
    } catch (error) {
      return { ok: false, reason: `Settlement refused before broadcast: ${revertReason(error)}`, broadcast: false };
    }

    let sending: Hex | undefined;
    let hash: Hex;
    try {
      hash = await serialised(signer.account.address, async () => {
        const request = await signer.wallet.prepareTransactionRequest({
          account: signer.account,
          chain: signer.wallet.chain,
          to: payment.asset,
          data: encodeFunctionData(call),
        });
        const serializedTransaction = await signer.wallet.signTransaction({ ...request, chain: signer.wallet.chain });
        sending = keccak256(serializedTransaction);
        await signer.wallet.sendRawTransaction({ serializedTransaction });
        return sending;
      });
    } catch (error) {
      // Once the raw transaction has left, a failed or timed-out send proves nothing about whether it landed.
      const broadcast = sending !== undefined;
      const stage = broadcast ? `sending transaction ${sending}` : 'preparing the transaction';
      return { ok: false, reason: `Settlement failed while ${stage}: ${revertReason(error)}`, broadcast };
    }

    let status: 'success' | 'reverted';
    try {
      // Bounded by the caller's deadline: past it the outcome is unknown (broadcast) and the chain decides later.
      const untilDeadline = (options.deadline ?? Infinity) - Date.now();
      const timeout = Math.max(MIN_RECEIPT_WAIT_MS, Math.min(this.receiptTimeoutMs, untilDeadline));
      const receipt = await this.publicClient.waitForTransactionReceipt({ hash, timeout });
      status = receipt.status;
    } catch (error) {
      return { ok: false, reason: `Settlement transaction ${hash} not confirmed: ${shortMessage(error)}`, broadcast: true };
    }
    if (status !== 'success') {
      // A reverted transferWithAuthorization moved nothing and left the authorization unused (and the mined
      // transaction can never be included again), so the lock may be released like any refusal before broadcast.
      return { ok: false, reason: `Settlement transaction ${hash} reverted`, broadcast: false };
    }
    return { ok: true, transaction: hash, network: payment.network, payer: payment.payer };
  }
}
