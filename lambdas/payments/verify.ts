/**
 * Verification of an x402 `exact` (EIP-3009) payment against the requirement of the endpoint being paid.
 * Cheap, local checks run first; the two chain reads (balance, nonce state) run last and in parallel, so a malformed
 * or mismatched payment never costs an RPC round trip. A reason string becomes the `error` of the 402; a failing
 * RPC throws PaymentBackendError instead, because "we could not check" must not be answered as "you did not pay".
 */
import { getAddress, isAddressEqual, recoverTypedDataAddress, type Address, type PublicClient } from 'viem';
import { publicClientFor } from './chain-client.js';
import { DependencyError } from '../shared/errors.js';
import { canonicalNetwork } from '../shared/networks.js';
import type { ChainChecks, Hex, PaymentPayload, PaymentRequirement, PaymentVerifier, VerifiedPayment, VerifyResult } from './types.js';
import { transferWithAuthorizationTypes, usdcAbi } from './usdc-abi.js';

/** Settlement needs this many seconds of validity left; x402 facilitators use the same margin. */
export const SETTLE_MARGIN_SECONDS = 6;

/** A dependency (chain RPC, facilitator) failed: answer 5xx without charging, not 402. */
/** The chain, a facilitator or a token issuer could not answer: a DependencyError (503, nothing charged). */
export class PaymentBackendError extends DependencyError {
  override name = 'PaymentBackendError';
}

export interface VerifierConfig {
  chainId: number;
  rpcUrl?: string;
}

export interface ViemPaymentVerifierOptions {
  config: VerifierConfig;
  /** Overrides config.rpcUrl; tests and the embedded runtime pass their own. */
  publicClient?: Pick<PublicClient, 'readContract'>;
  rpcUrl?: string;
  /** Unix seconds. */
  now?: () => number;
}

export function normaliseNetwork(network: string): string {
  return canonicalNetwork(network);
}

export function unixNow(): number {
  return Math.floor(Date.now() / 1000);
}

export { publicClientFor };

/** The EIP-712 domain of the token an authorization is signed for. */
export interface TokenDomain {
  name: string;
  version: string;
  chainId: number;
  asset: string;
}

/** The address that signed an EIP-3009 authorization over `domain`; undefined when it recovers to none. */
export async function authorizationSigner(payload: PaymentPayload, domain: TokenDomain): Promise<Address | undefined> {
  const { authorization, signature } = payload.payload;
  try {
    return await recoverTypedDataAddress({
      domain: { name: domain.name, version: domain.version, chainId: domain.chainId, verifyingContract: getAddress(domain.asset) },
      types: transferWithAuthorizationTypes,
      primaryType: 'TransferWithAuthorization',
      message: {
        from: getAddress(authorization.from),
        to: getAddress(authorization.to),
        value: authorization.value,
        validAfter: authorization.validAfter,
        validBefore: authorization.validBefore,
        nonce: authorization.nonce as Hex,
      },
      signature: signature as Hex,
    });
  } catch {
    return undefined;
  }
}

type OffChainResult = { ok: true; payment: VerifiedPayment } | { ok: false; reason: string };

function sameAddress(a: string, b: string): boolean {
  try {
    return isAddressEqual(a as Address, b as Address);
  } catch {
    return false; // not an address at all
  }
}

function exactUint(value: string): bigint | undefined {
  return /^\d+$/.test(value) ? BigInt(value) : undefined;
}

/**
 * Every check that needs no chain access: terms, amounts, validity window and the EIP-712 signature.
 * Shared by the local verifier and the remote-facilitator verifier.
 */
export async function checkOffChain(
  payload: PaymentPayload,
  requirement: PaymentRequirement,
  chainId: number,
  now: number,
): Promise<OffChainResult> {
  const { accepted } = payload;
  const { authorization, signature } = payload.payload;
  const network = normaliseNetwork(requirement.network);
  const required = exactUint(requirement.amount);
  if (required === undefined) throw new Error(`requirement amount '${requirement.amount}' is not an integer`);

  if (accepted.scheme !== 'exact') return fail(`Unsupported scheme '${accepted.scheme}': only 'exact' is accepted`);
  if (normaliseNetwork(accepted.network) !== network) {
    return fail(`Wrong network '${accepted.network}': payment must be on ${network}`);
  }
  if (accepted.asset.toLowerCase() !== requirement.asset.toLowerCase()) {
    return fail(`Wrong asset ${accepted.asset}: payment must be in ${requirement.asset}`);
  }
  if (!sameAddress(accepted.payTo, requirement.payTo)) {
    return fail(`Wrong payTo ${accepted.payTo}: payment must go to ${requirement.payTo}`);
  }
  if (!sameAddress(authorization.to, requirement.payTo)) {
    return fail(`authorization.to ${authorization.to} does not equal payTo ${requirement.payTo}`);
  }
  // The payment pays for one resource: the one it names (the payload's resource and the requirement it accepted) must
  // be this route's, as the reference resource server requires the accepted requirement to be this route's.
  const named = [payload.resource?.url, (accepted as { resource?: unknown }).resource].filter((url) => url !== undefined);
  if (named.length === 0) return fail(`The payment names no resource: it must name ${requirement.resource}`);
  const other = named.find((url) => url !== requirement.resource);
  if (other !== undefined) return fail(`The payment is for ${String(other)}, not ${requirement.resource}`);
  const window = (accepted as { maxTimeoutSeconds?: unknown }).maxTimeoutSeconds;
  if (window !== undefined && window !== requirement.maxTimeoutSeconds) {
    return fail(`accepted.maxTimeoutSeconds ${String(window)} does not equal ${requirement.maxTimeoutSeconds}`);
  }
  for (const field of ['amount', 'maxAmountRequired'] as const) {
    const stated = accepted[field];
    if (stated !== undefined && exactUint(stated) !== required) {
      return fail(`accepted.${field} ${stated} does not equal the required amount ${required}`);
    }
  }
  if (authorization.value !== required) {
    return fail(`authorization.value ${authorization.value} does not equal the required amount ${required}`);
  }
  if (authorization.validAfter > BigInt(now)) {
    return fail(`Authorization not yet valid: validAfter ${authorization.validAfter} is after now (${now})`);
  }
  if (authorization.validBefore <= BigInt(now + SETTLE_MARGIN_SECONDS)) {
    return fail(
      `Authorization expired or expiring: validBefore ${authorization.validBefore} must be later than now + ${SETTLE_MARGIN_SECONDS}s (${now + SETTLE_MARGIN_SECONDS})`,
    );
  }

  const signer = await authorizationSigner(payload, { name: requirement.extra.name, version: requirement.extra.version, chainId, asset: requirement.asset });
  if (!signer) return fail('Invalid signature: not a recoverable EIP-712 signature');
  if (!sameAddress(signer, authorization.from)) {
    return fail(`Invalid signature: signer does not match authorization.from ${authorization.from}`);
  }

  const payer = getAddress(authorization.from);
  const asset = getAddress(requirement.asset);
  return {
    ok: true,
    payment: {
      kind: 'x402',
      payer,
      amount: required,
      network,
      asset,
      payTo: getAddress(requirement.payTo),
      nonceKey: `${network}:${asset}:${payer}:${authorization.nonce}`.toLowerCase(),
      payload,
      requirement,
    },
  };
}

function fail(reason: string): { ok: false; reason: string } {
  return { ok: false, reason };
}

export class ViemPaymentVerifier implements PaymentVerifier {
  private readonly client: Pick<PublicClient, 'readContract'>;
  private readonly chainId: number;
  private readonly now: () => number;

  constructor(options: ViemPaymentVerifierOptions) {
    const rpcUrl = options.rpcUrl ?? options.config.rpcUrl;
    if (!options.publicClient && !rpcUrl) throw new Error('ViemPaymentVerifier needs a publicClient or an rpcUrl');
    this.client = options.publicClient ?? publicClientFor(rpcUrl as string);
    this.chainId = options.config.chainId;
    this.now = options.now ?? unixNow;
  }

  async verify(payload: PaymentPayload, requirement: PaymentRequirement, options: { deferChainChecks?: boolean } = {}): Promise<VerifyResult> {
    const checked = await checkOffChain(payload, requirement, this.chainId, this.now());
    if (!checked.ok) return checked;
    const { payment } = checked;
    if (options.deferChainChecks) {
      // Left in flight beside the ledger lock (./core/chain-checks.ts): settled here into a value, so it never rejects unheard.
      const chainChecks = this.readChain(payment).then(
        (result): ChainChecks => (result.ok ? { ok: true } : result),
        (error: unknown): ChainChecks => ({ ok: false, unavailable: (error as Error).message }),
      );
      return { ok: true, payment: { ...payment, chainChecks } };
    }
    const result = await this.readChain(payment);
    return result.ok ? { ok: true, payment } : result;
  }

  /** The chain's word on a payment that passed the off-chain checks: its nonce unused, its payer's balance enough. */
  private async readChain(payment: VerifiedPayment): Promise<{ ok: true } | { ok: false; reason: string }> {
    const nonce = payment.payload.payload.authorization.nonce as Hex;
    let balance: bigint;
    let used: boolean;
    try {
      [balance, used] = await Promise.all([
        this.client.readContract({
          address: payment.asset,
          abi: usdcAbi,
          functionName: 'balanceOf',
          args: [payment.payer],
        }),
        this.client.readContract({
          address: payment.asset,
          abi: usdcAbi,
          functionName: 'authorizationState',
          args: [payment.payer, nonce],
        }),
      ]);
    } catch (error) {
      throw new PaymentBackendError(`Could not read payment state from the chain: ${shortMessage(error)}`, {
        cause: error,
      });
    }

    if (used) return fail(`Authorization nonce ${nonce} has already been used or canceled`);
    if (balance < payment.amount) {
      return fail(`Insufficient USDC balance: ${payment.payer} holds ${balance}, needs ${payment.amount}`);
    }
    return { ok: true };
  }
}

export function shortMessage(error: unknown): string {
  const e = error as { shortMessage?: string; message?: string };
  return e?.shortMessage ?? e?.message ?? String(error);
}
