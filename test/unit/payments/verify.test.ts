import { describe, expect, it } from 'vitest';
import { getAddress, type Address } from 'viem';
import { PaymentBackendError, ViemPaymentVerifier } from '../../../lambdas/payments/verify.js';
import type { PaymentPayload } from '../../../lambdas/payments/types.js';
import {
  BASE_USDC,
  PAY_TO,
  decode,
  impostor,
  newBuyer,
  requirementFor,
  signWithTimes,
  signedPayment,
  wirePayment,
} from './fixtures.js';

interface ChainState {
  balance?: bigint;
  used?: boolean;
  fail?: Error;
}

/** A stand-in for viem's public client that records the reads and answers from `state`. */
function stubClient(state: ChainState = {}) {
  const calls: { functionName: string; address: string; args: readonly unknown[] }[] = [];
  const client = {
    readContract: async (request: { functionName: string; address: string; args: readonly unknown[] }) => {
      calls.push({ functionName: request.functionName, address: request.address, args: request.args });
      if (state.fail) throw state.fail;
      return request.functionName === 'balanceOf' ? (state.balance ?? 10_000_000n) : (state.used ?? false);
    },
  };
  return { client: client as never, calls };
}

function verifier(state: ChainState = {}, now = () => Math.floor(Date.now() / 1000)) {
  const stub = stubClient(state);
  return { verifier: new ViemPaymentVerifier({ config: { chainId: 8453 }, publicClient: stub.client, now }), calls: stub.calls };
}

const requirement = requirementFor();
const OTHER: Address = '0x2222222222222222222222222222222222222222';

async function expectRefused(payload: PaymentPayload, reason: string, state: ChainState = {}, now?: () => number) {
  const { verifier: v, calls } = verifier(state, now);
  expect(await v.verify(payload, requirement)).toEqual({ ok: false, reason });
  return calls;
}

describe('Payment verification: a correctly signed payment is accepted', () => {
  it('accepts an x402 client payload and returns the verified payment', async () => {
    const buyer = newBuyer();
    const payload = await signedPayment(buyer, requirement);
    const { verifier: v, calls } = verifier();
    const result = await v.verify(payload, requirement);
    const nonce = payload.payload.authorization.nonce;
    expect(result).toEqual({
      ok: true,
      payment: {
        kind: 'x402',
        payer: buyer.address,
        amount: 500000n,
        network: 'eip155:8453',
        asset: BASE_USDC,
        payTo: PAY_TO,
        nonceKey: `eip155:8453:${BASE_USDC}:${buyer.address}:${nonce}`.toLowerCase(),
        payload,
        requirement,
      },
    });
    expect(calls).toEqual([
      { functionName: 'balanceOf', address: BASE_USDC, args: [buyer.address] },
      { functionName: 'authorizationState', address: BASE_USDC, args: [buyer.address, nonce] },
    ]);
  });

  it('accepts the network alias base for eip155:8453 on either side', async () => {
    const wire = await wirePayment(newBuyer(), requirement);
    wire.accepted.network = 'base';
    const { verifier: v } = verifier();
    const viaPayload = await v.verify(decode(wire), requirement);
    expect(viaPayload.ok && viaPayload.payment.network).toBe('eip155:8453');
    const viaRequirement = await v.verify(decode(wire), requirementFor({ network: 'base' }));
    expect(viaRequirement.ok && viaRequirement.payment.nonceKey.startsWith('eip155:8453:')).toBe(true);
  });

  it('compares the asset case-insensitively', async () => {
    const wire = await wirePayment(newBuyer(), requirement);
    wire.accepted.asset = BASE_USDC.toLowerCase();
    const { verifier: v } = verifier();
    expect((await v.verify(decode(wire), requirement)).ok).toBe(true);
  });
});

describe('Payment verification: the signature recovers to authorization.from', () => {
  it('refuses a signature made by another key than from', async () => {
    const claimed = newBuyer().address;
    const payload = await signedPayment(impostor(newBuyer(), claimed), requirement);
    const calls = await expectRefused(payload, `Invalid signature: signer does not match authorization.from ${claimed}`);
    expect(calls).toEqual([]);
  });

  it('refuses a signature over different terms (forged validBefore)', async () => {
    const buyer = newBuyer();
    const wire = await wirePayment(buyer, requirement);
    wire.payload.authorization.validBefore = String(Number(wire.payload.authorization.validBefore) + 3600);
    await expectRefused(decode(wire), `Invalid signature: signer does not match authorization.from ${buyer.address}`);
  });

  it('refuses a malformed signature with a reason instead of throwing', async () => {
    const wire = await wirePayment(newBuyer(), requirement);
    wire.payload.signature = '0x1234';
    await expectRefused(decode(wire), 'Invalid signature: not a recoverable EIP-712 signature');
  });
});

describe('Payment verification: value equals amount, to equals payTo', () => {
  it('refuses a payment to another payTo', async () => {
    const payload = await signedPayment(newBuyer(), requirementFor({ payTo: OTHER }));
    await expectRefused(payload, `Wrong payTo ${OTHER}: payment must go to ${PAY_TO}`);
  });

  it('refuses an authorization whose to differs from payTo even when accepted repeats payTo', async () => {
    const wire = await wirePayment(newBuyer(), requirementFor({ payTo: OTHER }));
    wire.accepted = requirement;
    await expectRefused(decode(wire), `authorization.to ${getAddress(OTHER)} does not equal payTo ${PAY_TO}`);
  });

  it('refuses a smaller amount stated in accepted', async () => {
    const payload = await signedPayment(newBuyer(), requirementFor({ amount: '400000', maxAmountRequired: '400000' }));
    await expectRefused(payload, 'accepted.amount 400000 does not equal the required amount 500000');
  });

  it('refuses an authorization value that differs from amount', async () => {
    const wire = await wirePayment(newBuyer(), requirementFor({ amount: '400000', maxAmountRequired: '400000' }));
    wire.accepted = requirement;
    await expectRefused(decode(wire), 'authorization.value 400000 does not equal the required amount 500000');
  });

  it('refuses a larger value too (exact scheme)', async () => {
    const wire = await wirePayment(newBuyer(), requirementFor({ amount: '500001', maxAmountRequired: '500001' }));
    wire.accepted = requirement;
    await expectRefused(decode(wire), 'authorization.value 500001 does not equal the required amount 500000');
  });
});

describe('Payment verification: the validAfter/validBefore window is valid now', () => {
  const now = 1_800_000_000;
  const clock = () => now;

  it('refuses an expired authorization', async () => {
    const payload = await signWithTimes(newBuyer(), requirement, 0n, BigInt(now - 1));
    await expectRefused(
      payload,
      `Authorization expired or expiring: validBefore ${now - 1} must be later than now + 6s (${now + 6})`,
      {},
      clock,
    );
  });

  it('refuses a validBefore too close to settle', async () => {
    const payload = await signWithTimes(newBuyer(), requirement, 0n, BigInt(now + 6));
    await expectRefused(
      payload,
      `Authorization expired or expiring: validBefore ${now + 6} must be later than now + 6s (${now + 6})`,
      {},
      clock,
    );
  });

  it('accepts validBefore one second past the margin', async () => {
    const payload = await signWithTimes(newBuyer(), requirement, BigInt(now), BigInt(now + 7));
    const { verifier: v } = verifier({}, clock);
    expect((await v.verify(payload, requirement)).ok).toBe(true);
  });

  it('refuses an authorization that is not yet valid', async () => {
    const payload = await signWithTimes(newBuyer(), requirement, BigInt(now + 60), BigInt(now + 600));
    await expectRefused(payload, `Authorization not yet valid: validAfter ${now + 60} is after now (${now})`, {}, clock);
  });
});

describe('Payment verification: token and network match the requirement', () => {
  it('refuses another network', async () => {
    const payload = await signedPayment(newBuyer(), requirementFor({ network: 'eip155:84532' }));
    await expectRefused(payload, "Wrong network 'eip155:84532': payment must be on eip155:8453");
  });

  it('refuses another asset', async () => {
    const payload = await signedPayment(newBuyer(), requirementFor({ asset: OTHER }));
    await expectRefused(payload, `Wrong asset ${OTHER}: payment must be in ${BASE_USDC}`);
  });

  it('refuses another scheme', async () => {
    const wire = await wirePayment(newBuyer(), requirement);
    wire.accepted.scheme = 'upto';
    await expectRefused(decode(wire), "Unsupported scheme 'upto': only 'exact' is accepted");
  });
});

describe('Payment verification: the wallet holds enough USDC and the nonce is fresh', () => {
  it('refuses a payer whose balance is below the amount', async () => {
    const buyer = newBuyer();
    const payload = await signedPayment(buyer, requirement);
    await expectRefused(payload, `Insufficient USDC balance: ${buyer.address} holds 499999, needs 500000`, {
      balance: 499_999n,
    });
  });

  it('accepts a balance of exactly the amount', async () => {
    const payload = await signedPayment(newBuyer(), requirement);
    const { verifier: v } = verifier({ balance: 500_000n });
    expect((await v.verify(payload, requirement)).ok).toBe(true);
  });

  it('refuses an authorization nonce already used on chain', async () => {
    const payload = await signedPayment(newBuyer(), requirement);
    const nonce = payload.payload.authorization.nonce;
    await expectRefused(payload, `Authorization nonce ${nonce} has already been used or canceled`, { used: true });
  });

  it('throws PaymentBackendError when the chain cannot be read', async () => {
    const payload = await signedPayment(newBuyer(), requirement);
    const { verifier: v } = verifier({ fail: new Error('connect ECONNREFUSED 127.0.0.1:8545') });
    const error = await v.verify(payload, requirement).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentBackendError);
    expect((error as Error).name).toBe('PaymentBackendError');
    expect((error as Error).message).toBe(
      'Could not read payment state from the chain: connect ECONNREFUSED 127.0.0.1:8545',
    );
  });
});

describe('deferChainChecks verifies on the off-chain checks and leaves the chain reads in flight', () => {
  it('a payer without the balance is verified at once; its chainChecks then refuse with the same reason', async () => {
    const buyer = newBuyer();
    const payload = await signedPayment(buyer, requirement);
    const { verifier: v } = verifier({ balance: 499_999n });
    const result = await v.verify(payload, requirement, { deferChainChecks: true });
    if (!result.ok) throw new Error(result.reason);
    expect(await result.payment.chainChecks).toEqual({ ok: false, reason: `Insufficient USDC balance: ${buyer.address} holds 499999, needs 500000` });
  });

  it('a payment the chain accepts: chainChecks ok', async () => {
    const payload = await signedPayment(newBuyer(), requirement);
    const result = await verifier().verifier.verify(payload, requirement, { deferChainChecks: true });
    expect(result.ok && (await result.payment.chainChecks)).toEqual({ ok: true });
  });

  it('a chain that cannot be read: chainChecks never rejects, it says unavailable', async () => {
    const payload = await signedPayment(newBuyer(), requirement);
    const { verifier: v } = verifier({ fail: new Error('connect ECONNREFUSED 127.0.0.1:8545') });
    const result = await v.verify(payload, requirement, { deferChainChecks: true });
    expect(result.ok && (await result.payment.chainChecks)).toEqual({ ok: false, unavailable: 'Could not read payment state from the chain: connect ECONNREFUSED 127.0.0.1:8545' });
  });

  it('an off-chain refusal is still a refusal at once, with no chain read', async () => {
    const payload = await signedPayment(newBuyer(), requirementFor({ payTo: OTHER }));
    const { verifier: v, calls } = verifier();
    expect((await v.verify(payload, requirement, { deferChainChecks: true })).ok).toBe(false);
    expect(calls).toEqual([]);
  });
});

describe('A payment is bound to its resource', () => {
  it('refuses a payment whose payload names another route, with no chain read', async () => {
    const payload = await signedPayment(newBuyer(), requirement);
    const other = { ...payload, resource: { url: 'http://127.0.0.1:3000/agent/image' } };
    const calls = await expectRefused(other, `The payment is for http://127.0.0.1:3000/agent/image, not ${requirement.resource}`);
    expect(calls).toEqual([]);
  });

  it('refuses a payment whose accepted requirement names another route or another window', async () => {
    const payload = await signedPayment(newBuyer(), requirement);
    await expectRefused(
      { ...payload, accepted: { ...payload.accepted, resource: 'http://127.0.0.1:3000/agent/video' } },
      `The payment is for http://127.0.0.1:3000/agent/video, not ${requirement.resource}`,
    );
    await expectRefused({ ...payload, accepted: { ...payload.accepted, maxTimeoutSeconds: 60 } }, `accepted.maxTimeoutSeconds 60 does not equal ${requirement.maxTimeoutSeconds}`);
  });

  it('refuses a payment that names no resource at all', async () => {
    const payload = await signedPayment(newBuyer(), requirement);
    const { resource: _r, ...bare } = payload;
    const { resource: _a, ...accepted } = bare.accepted as Record<string, unknown>;
    await expectRefused({ ...bare, accepted } as PaymentPayload, `The payment names no resource: it must name ${requirement.resource}`);
  });
});
