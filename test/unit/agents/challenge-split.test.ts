/**
 * The agent studio's 402 serves two client generations from one challenge: PAYMENT-REQUIRED is pure x402 v2 (every
 * entry on a CAIP-2 network, so a strict v2 parser that validates each entry accepts it: x402-conformance
 * RS-PR-006), and the body holds only the entries an x402 v1 client can parse (x402-fetch 1.x throws on a CAIP-2
 * entry), the same terms under the network's v1 name.
 */
import { describe, expect, it } from 'vitest';
import { PaymentRequiredV2Schema } from '@x402/core/schemas';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import { agentErrors } from '../../../lambdas/surfaces/error-presenters.js';
import { paymentRequired } from '../../../lambdas/middleware/payment.js';
import { paymentChallenge, REASON_MISSING, type PaymentTerms } from '../../../lambdas/payments/core/challenge.js';
import { agentOffer } from '../../../lambdas/agents/published.js';
import { findAgent } from '../../../lambdas/agents/registry.js';

const TERMS: Record<string, PaymentTerms> = {
  'Base': { network: 'eip155:8453', usdcAddress: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', payTo: '0x000000000000000000000000000000000000dEaD' },
  'Base Sepolia': { network: 'eip155:84532', usdcAddress: '0x036CbD53842c5426634e7929541eC2318f3dCF7e', payTo: '0x000000000000000000000000000000000000dEaD' },
};
const V1_NAME: Record<string, string> = { 'eip155:8453': 'base', 'eip155:84532': 'base-sepolia' };

describe("The agent studio's 402: PAYMENT-REQUIRED for v2 clients, the body for v1 clients", () => {
  for (const [title, terms] of Object.entries(TERMS)) {
    it(`on ${title}: the header holds only the CAIP-2 entry and passes @x402/core's v2 schema; the body only the v1 entry`, () => {
      const agent = findAgent('bank-rec-discrepancy-finder-bw0tt')!;
      // As the payment middleware raises it (it splits the challenge by reader) and the agent studio presents it.
      const challenge = paymentChallenge(agentOffer(agent, 'https://agents.test'), terms, REASON_MISSING);
      const answer = agentErrors(paymentRequired({ type: 'challenge', challenge, headers: {} }));
      expect(answer.statusCode).toBe(402);

      const header = decodePaymentRequiredHeader(String(answer.headers!['PAYMENT-REQUIRED'])) as any;
      // What a strict v2 client does with the header: validate the whole PaymentRequired, every entry included.
      expect(PaymentRequiredV2Schema.safeParse(header).error).toBeUndefined();
      expect(header.accepts.map((entry: any) => entry.network)).toEqual([terms.network]);

      const body = JSON.parse(String(answer.body));
      expect(body.accepts.map((entry: any) => entry.network)).toEqual([V1_NAME[terms.network]]);
      // The same challenge and the same terms, only the network named as x402 v1 names it.
      expect(body).toEqual({ ...header, accepts: [{ ...header.accepts[0], network: V1_NAME[terms.network] }] });
    });
  }
});
