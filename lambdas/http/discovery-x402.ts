/** GET /.well-known/x402 and /.well-known/x402.json — the x402 discovery index; one builder, so identical bytes. */
import { documentEntry, jsonDocument } from '../protocols/discovery/serve.js';
import { discoveryIndex } from '../protocols/discovery/x402-index.js';
import { offerSignerAddress } from '../payments/offer-receipt.js';

export const handler = documentEntry({ build: (ctx) => jsonDocument(discoveryIndex(ctx)), offerSigner: () => offerSignerAddress() });
