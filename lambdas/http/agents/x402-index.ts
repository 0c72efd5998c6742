/**
 * GET /.well-known/x402 on the agent studio: the x402 index of the priced published agents, with the offer-signing
 * key's address (`offerReceipt.signer`, lambdas/payments/offer-receipt.ts). Its own entry, so only this function holds
 * the key's grant and the signer's code; served as every document is (ETag, Cache-Control, 304).
 */
import { documentEntry, jsonDocument } from '../../protocols/discovery/serve.js';
import { AGENT_STUDIO } from '../../surfaces/surface.js';
import { agentX402Index } from '../../agents/documents.js';
import { offerSignerAddress } from '../../payments/offer-receipt.js';

export const handler = documentEntry({
  surface: AGENT_STUDIO,
  build: (ctx) => jsonDocument(agentX402Index(ctx)),
  offerSigner: () => offerSignerAddress(),
});
