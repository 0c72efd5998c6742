/**
 * GET /.well-known/jwks.json of the agent studio: the AP2 merchant's public key set (ES256), which verifies the checkout
 * JWTs we offer and the checkout receipts we answer (lambdas/payments/ap2/merchant.ts; docs/protocols.md, "AP2"). The private key
 * is read through this function's grant on the merchant key secret; a missing key is a 503 (nothing to publish).
 */
import middy from '@middy/core';
import { frame } from '../../middleware/http-frame.js';
import { merchantPublicJwks } from '../../payments/ap2/merchant.js';
import { json, type HttpEvent, type HttpResult } from '../../shared/http.js';
import { AGENT_STUDIO } from '../../surfaces/surface.js';

export const handler = middy<HttpEvent, HttpResult>()
  .use(frame(AGENT_STUDIO))
  // Keys rotate rarely; a verifier that meets an unknown kid fetches again.
  .handler(async () => json(200, await merchantPublicJwks(), { 'Cache-Control': 'public, max-age=300' }));
