/**
 * Who is paying, from the payment header alone (before the payment is verified or settled): the key under which a
 * paid answer may be replayed (X-Idempotency-Key), so a replay goes only to the party that paid for it.
 *
 * - x402: the address that signed the authorization over the seller's token domain. Recovering it needs no chain
 *   read, and nobody can produce a signature that recovers to another's address; a payload signed over any other
 *   domain recovers to some unrelated address and never matches a payer's record.
 * - agent-payment token: the token itself (its digest). A token is a bearer instrument: whoever holds it is the
 *   party, and a new token is a new party.
 */
import { createHash } from 'node:crypto';
import { networkOf } from '../../shared/networks.js';
import { USDC_DOMAIN } from '../types.js';
import { authorizationSigner } from '../verify.js';
import type { PaymentTerms } from './challenge.js';
import type { PaymentHeader } from './header.js';

export async function payingParty(header: PaymentHeader, terms: PaymentTerms): Promise<string | undefined> {
  switch (header.kind) {
    case 'token':
      return `token:${createHash('sha256').update(header.token).digest('hex').slice(0, 32)}`;
    case 'x402': {
      const network = networkOf(terms.network);
      const domain = { name: network.tokenName, version: USDC_DOMAIN.version, chainId: network.chainId, asset: terms.usdcAddress };
      const signer = await authorizationSigner(header.payload, domain);
      return signer ? `x402:${signer.toLowerCase()}` : undefined;
    }
    default:
      return undefined;
  }
}
