/**
 * AP2 v0.2 merchant authorization of a priced live run (experimental), after the payment is verified and the body
 * validated and before the run use case settles anything. Mandates presented are verified (lambdas/payments/ap2/
 * verify.ts) and their checkout's nonce used once; a refusal is an Ap2AuthorizationError carrying the signed error
 * receipt. No mandates: the run goes on, unless the agent requires AP2 (then a refusal offering a checkout). The
 * verified checkout rides in `request.context.ap2` for the handler's Success receipt.
 */
import type { Context } from 'aws-lambda';
import type { HttpMiddleware, HttpRequest } from './types.js';
import { Ap2AuthorizationError } from '../shared/errors.js';
import { logger } from '../shared/logger.js';
import { verifyMandates, type AuthorizedCheckout, type PresentedMandates } from '../payments/ap2/verify.js';
import { issueCheckout, signReceipt, type OfferedCheckout, type Sale } from '../payments/ap2/merchant.js';
import type { Ap2ErrorCode } from '../payments/ap2/sd-jwt.js';
import type { CheckoutNonceStore } from '../store/ap2-checkouts.js';

export type Ap2Mode = 'optional' | 'required';

export interface Ap2Options {
  /** A priced live run: nothing else is authorized (dry runs and free agents never are). */
  applies: (request: HttpRequest) => boolean;
  mode: (request: HttpRequest) => Ap2Mode;
  /** The mandates the request presents, or undefined when it presents none. */
  mandates: (request: HttpRequest) => PresentedMandates | undefined;
  sale: (request: HttpRequest) => Sale;
  /** Names the run (agent and surface) in the nonce's record. */
  scope: (request: HttpRequest) => string;
  nonces: CheckoutNonceStore;
  /** Unix seconds. */
  now?: () => number;
}

export interface Ap2Context extends Context {
  ap2?: AuthorizedCheckout;
}

export function ap2Authorization(options: Ap2Options): HttpMiddleware {
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  return {
    name: 'ap2',
    before: async (request) => {
      if (!options.applies(request)) return;
      const presented = options.mandates(request);
      if (!presented) {
        if (options.mode(request) === 'optional') return;
        const checkout = await issueCheckout(options.sale(request), now());
        throw new Ap2AuthorizationError('ap2_mandate_required', 'This agent requires AP2 v0.2 mandates for a priced live run: present a checkout mandate and a payment mandate built on the checkout offered here (on A2A, with the extension activated: A2A-Extensions or message.extensions)', {
          error: 'invalid_mandate',
          checkout,
        });
      }
      const at = now();
      const verdict = await verifyMandates(presented, options.sale(request), at);
      if (!verdict.ok) {
        logger.info('ap2 mandates refused', { ap2Error: verdict.refusal.code, reason: verdict.refusal.message });
        throw await refusal(verdict.refusal.code, verdict.refusal.message, verdict.reference, at);
      }
      if (!(await options.nonces.use(verdict.checkout.nonce, verdict.checkout.expiresAt, options.scope(request), at))) {
        throw await refusal('invalid_mandate', 'the checkout was already used (replayed mandates); ask for a new checkout', verdict.checkout.reference, at);
      }
      Object.assign(request.context, { ap2: verdict.checkout });
    },
  };
}

async function refusal(code: Ap2ErrorCode, message: string, reference: string, at: number) {
  const checkoutReceipt = await signReceipt({ status: 'Error', error: code, error_description: message }, reference, at);
  return new Ap2AuthorizationError('ap2_mandate_refused', `AP2 mandates refused (${code}): ${message}`, { error: code, checkoutReceipt });
}

/** The Success receipt of an authorized run that is done (order_id = the run id). */
export function successReceipt(authorized: AuthorizedCheckout, runId: string, at = Math.floor(Date.now() / 1000)): Promise<string> {
  return signReceipt({ status: 'Success', order_id: runId }, authorized.reference, at);
}

/** A checkout offered with a dry run's answer; a merchant key that cannot be read leaves it out (logged), never fails the dry run. */
export async function offeredCheckout(sale: Sale): Promise<OfferedCheckout | undefined> {
  try {
    return await issueCheckout(sale, Math.floor(Date.now() / 1000));
  } catch (error) {
    logger.warn('ap2 checkout not offered', { error: (error as Error).message });
    return undefined;
  }
}
