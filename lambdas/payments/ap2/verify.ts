/**
 * AP2 v0.2 mandates checked as the merchant and as the payment processor, before any money moves. Steps:
 * 1. the checkout mandate's chain (trusted root, each hop's key and binding, times, our `aud`);
 * 2. its closed mandate: `vct` mandate.checkout.1, `checkout_jwt` signed by our merchant key and not expired, for
 *    this agent at this price, `checkout_hash` = base64url(sha-256(checkout_jwt)), the key binding's `nonce` = the
 *    checkout's nonce; every open checkout constraint (allowed merchants, line items; any other type fails);
 * 3. the payment mandate's chain (the same rules, the same nonce);
 * 4. its closed mandate: `vct` mandate.payment.1, `transaction_id` = checkout_hash, `payee.id` = our payTo,
 *    `payment_amount` = the price in US cents (1 USDC = 1 USD), a payment instrument; every open payment constraint
 *    (amount range, allowed payees, payment reference, allowed instruments, allowed PISPs, budget of this payment,
 *    execution date; agent recurrence, which needs a history we do not keep, and any unknown type fail).
 * Single use of the nonce is the caller's (a conditional write); `risk_data` is carried, never read.
 */
import { Ap2Refusal, b64urlSha256, verifyChain, type VerifiedChain } from './sd-jwt.js';
import { MERCHANT, ourCheckout, priceInCents, trustedIssuer, type CheckoutClaims, type Sale } from './merchant.js';

export const CHECKOUT_MANDATE_KEY = 'ap2.mandates.CheckoutMandateSdJwt';
export const PAYMENT_MANDATE_KEY = 'ap2.mandates.PaymentMandateSdJwt';
export const RISK_DATA_KEY = 'risk_data';

export interface PresentedMandates {
  checkoutMandate?: unknown;
  paymentMandate?: unknown;
  riskData?: unknown;
}

export interface AuthorizedCheckout {
  /** The checkout's nonce, to be used once. */
  nonce: string;
  /** Unix seconds: the checkout's expiry (how long the nonce must stay used). */
  expiresAt: number;
  checkoutHash: string;
  /** The receipt's `reference`: the hash of the closed checkout mandate presented. */
  reference: string;
}

export type MandateVerdict = { ok: true; checkout: AuthorizedCheckout } | { ok: false; refusal: Ap2Refusal; reference: string };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function refuse(code: Ap2Refusal['code'], message: string): never {
  throw new Ap2Refusal(code, message);
}

/** The hash a receipt references: of the checkout mandate as presented (empty when none was). */
export function referenceOf(mandates: PresentedMandates): string {
  return typeof mandates.checkoutMandate === 'string' ? b64urlSha256(mandates.checkoutMandate) : '';
}

export async function verifyMandates(mandates: PresentedMandates, sale: Sale, now: number): Promise<MandateVerdict> {
  const reference = referenceOf(mandates);
  try {
    return { ok: true, checkout: await verifyOrThrow(mandates, sale, now, reference) };
  } catch (error) {
    if (error instanceof Ap2Refusal) return { ok: false, refusal: error, reference };
    throw error;
  }
}

async function verifyOrThrow(mandates: PresentedMandates, sale: Sale, now: number, reference: string): Promise<AuthorizedCheckout> {
  const { checkoutMandate, paymentMandate } = mandates;
  if (typeof checkoutMandate !== 'string' || checkoutMandate === '') refuse('invalid_mandate', `${CHECKOUT_MANDATE_KEY} (a compact dSD-JWT chain) is required`);
  if (typeof paymentMandate !== 'string' || paymentMandate === '') refuse('invalid_mandate', `${PAYMENT_MANDATE_KEY} (a compact dSD-JWT chain) is required`);
  const check = { trusted: trustedIssuer, audience: MERCHANT.id, now };

  // The merchant's part: the checkout mandate.
  const checkoutChain = await verifyChain(checkoutMandate, check);
  const closed = checkoutChain.closed;
  if (closed.vct !== 'mandate.checkout.1') refuse('invalid_mandate', `the checkout mandate's vct must be mandate.checkout.1, not ${JSON.stringify(closed.vct ?? null)}`);
  if (typeof closed.checkout_jwt !== 'string') refuse('invalid_mandate', 'the checkout mandate discloses no checkout_jwt');
  if (closed.checkout_hash !== b64urlSha256(closed.checkout_jwt)) refuse('invalid_mandate', 'checkout_hash is not the sha-256 of checkout_jwt');
  const checkout = await ourCheckout(closed.checkout_jwt);
  if (!checkout) refuse('invalid_mandate', 'checkout_jwt is not a checkout this merchant signed');
  checkCheckout(checkout, sale, now);
  if (checkoutChain.nonce !== checkout.nonce) refuse('invalid_mandate', "the checkout mandate's key-binding nonce is not the nonce of the checkout it names");
  for (const open of checkoutChain.open) checkOpenCheckout(open, checkout);

  // The processor's part: the payment mandate.
  const paymentChain = await verifyChain(paymentMandate, check);
  if (paymentChain.nonce !== checkout.nonce) refuse('invalid_mandate', "the payment mandate's key-binding nonce is not the checkout's nonce");
  const payment = paymentChain.closed;
  if (payment.vct !== 'mandate.payment.1') refuse('invalid_mandate', `the payment mandate's vct must be mandate.payment.1, not ${JSON.stringify(payment.vct ?? null)}`);
  if (payment.transaction_id !== closed.checkout_hash) refuse('invalid_mandate', "the payment mandate's transaction_id is not this checkout's hash");
  checkPayee(payment.payee, sale.payTo, 'the payment mandate');
  const cents = priceInCents(sale.agent.price)!;
  const amount = payment.payment_amount;
  if (!isObject(amount) || amount.currency !== 'USD' || !Number.isSafeInteger(amount.amount) || amount.amount !== cents) {
    refuse('invalid_mandate', `payment_amount must be {"amount": ${cents}, "currency": "USD"} (the price in US cents; 1 USDC = 1 USD)`);
  }
  if (!isObject(payment.payment_instrument) || typeof payment.payment_instrument.id !== 'string') refuse('invalid_mandate', 'the payment mandate names no payment_instrument');
  const openCheckoutHash = b64urlSha256(checkoutChain.hops[0].serialized);
  for (const open of paymentChain.open) checkOpenPayment(open, payment, cents, sale.payTo, openCheckoutHash, now);

  return { nonce: checkout.nonce, expiresAt: checkout.exp, checkoutHash: closed.checkout_hash as string, reference };
}

function checkCheckout(checkout: CheckoutClaims, sale: Sale, now: number): void {
  if (checkout.iss !== MERCHANT.id) refuse('invalid_mandate', `the checkout's iss is not ${MERCHANT.id}`);
  if (typeof checkout.exp !== 'number' || checkout.exp <= now) refuse('invalid_mandate', 'the checkout has expired; ask for a new one (a dry run)');
  if (checkout.agent !== sale.agent.slug) refuse('invalid_mandate', `the checkout is for agent '${String(checkout.agent)}', not '${sale.agent.slug}'`);
  if (checkout.price_usdc !== sale.agent.price.toString()) refuse('invalid_mandate', "the checkout's price is not the agent's price");
  if (typeof checkout.nonce !== 'string' || checkout.nonce === '') refuse('invalid_mandate', 'the checkout has no nonce');
}

function checkPayee(payee: unknown, payTo: string, what: string): void {
  if (!isObject(payee) || typeof payee.id !== 'string' || payee.id.toLowerCase() !== payTo.toLowerCase()) {
    refuse('invalid_mandate', `${what}'s payee.id must be our payTo address ${payTo}`);
  }
}

function constraintsOf(open: Record<string, unknown>, vct: string): Record<string, unknown>[] {
  if (open.vct !== vct) refuse('invalid_mandate', `an open mandate in the chain must have vct ${vct}, not ${JSON.stringify(open.vct ?? null)}`);
  if (!Array.isArray(open.constraints) || !open.constraints.every(isObject)) refuse('invalid_mandate', 'an open mandate has no constraints array');
  return open.constraints as Record<string, unknown>[];
}

function ids(list: unknown): string[] {
  return Array.isArray(list) ? list.filter(isObject).map((entry) => entry.id).filter((id): id is string => typeof id === 'string') : [];
}

function checkOpenCheckout(open: Record<string, unknown>, checkout: CheckoutClaims): void {
  for (const constraint of constraintsOf(open, 'mandate.checkout.open.1')) {
    switch (constraint.type) {
      case 'checkout.allowed_merchants':
        if (!ids(constraint.allowed).includes(checkout.merchant.id)) refuse('unresolved_constraint', `checkout.allowed_merchants does not allow ${checkout.merchant.id}`);
        break;
      case 'checkout.line_items': {
        const requirements = Array.isArray(constraint.items) ? constraint.items.filter(isObject) : [];
        if (requirements.length === 0) refuse('unresolved_constraint', 'checkout.line_items has no requirement');
        for (const requirement of requirements) {
          const acceptable = ids(requirement.acceptable_items);
          const matching = checkout.line_items.filter((line) => acceptable.includes(line.item.id));
          if (matching.length !== 1 || matching[0].quantity !== requirement.quantity) {
            refuse('unresolved_constraint', `checkout.line_items requirement ${JSON.stringify(requirement.id ?? null)} is not met by this checkout`);
          }
        }
        break;
      }
      default:
        refuse('unresolved_constraint', `unknown checkout constraint ${JSON.stringify(constraint.type ?? null)}`);
    }
  }
}

function checkOpenPayment(open: Record<string, unknown>, payment: Record<string, unknown>, cents: number, payTo: string, openCheckoutHash: string, now: number): void {
  for (const constraint of constraintsOf(open, 'mandate.payment.open.1')) {
    switch (constraint.type) {
      case 'payment.amount_range':
        if (constraint.currency !== 'USD' || (typeof constraint.max === 'number' && cents > constraint.max) || (typeof constraint.min === 'number' && cents < constraint.min)) {
          refuse('unresolved_constraint', 'payment.amount_range does not allow this amount');
        }
        break;
      case 'payment.budget':
        if (constraint.currency !== 'USD' || typeof constraint.max !== 'number' || cents > Math.round(constraint.max * 100)) refuse('unresolved_constraint', 'payment.budget does not allow this amount');
        break;
      case 'payment.allowed_payees':
        if (!ids(constraint.allowed).some((id) => id.toLowerCase() === payTo.toLowerCase())) refuse('unresolved_constraint', 'payment.allowed_payees does not allow our payTo');
        break;
      case 'payment.reference':
        if (constraint.conditional_transaction_id !== openCheckoutHash) refuse('unresolved_constraint', 'payment.reference does not name the open checkout mandate presented');
        break;
      case 'payment.allowed_payment_instruments':
        if (!ids(constraint.allowed).includes((payment.payment_instrument as { id: string }).id)) refuse('unresolved_constraint', 'payment.allowed_payment_instruments does not allow the instrument');
        break;
      case 'payment.allowed_pisps':
        if (!isObject(payment.pisp) || !ids(constraint.allowed).includes(String(payment.pisp.id))) refuse('unresolved_constraint', 'payment.allowed_pisps does not allow the PISP');
        break;
      case 'payment.execution_date': {
        const today = new Date(now * 1000).toISOString().slice(0, 10);
        const notBefore = typeof constraint.not_before === 'string' ? constraint.not_before.slice(0, 10) : undefined;
        const notAfter = typeof constraint.not_after === 'string' ? constraint.not_after.slice(0, 10) : undefined;
        if ((notBefore && today < notBefore) || (notAfter && today > notAfter)) refuse('unresolved_constraint', 'payment.execution_date does not allow today');
        break;
      }
      default:
        // payment.agent_recurrence needs the payer's history, which we do not keep: unresolved, as any unknown type.
        refuse('unresolved_constraint', `payment constraint ${JSON.stringify(constraint.type ?? null)} cannot be resolved here`);
    }
  }
}

export type { VerifiedChain };
