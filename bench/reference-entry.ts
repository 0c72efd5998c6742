/**
 * The reference's deployable module, for the cold-import comparison of `npm run bench` (bench/bundles.ts): what a
 * user who picks the official x402 stack instead of ours ships as one paid endpoint. An Express app with
 * `@x402/express`'s payment middleware, an `x402ResourceServer` with the exact EVM scheme (server side) and a remote
 * facilitator (`HTTPFacilitatorClient`, as such a server is deployed: it holds no key), one paid route at $0.15.
 * Importing it builds the app as a cold start does; nothing listens and nothing is called.
 */
import express from 'express';
import { paymentMiddleware, x402ResourceServer } from '@x402/express';
import { HTTPFacilitatorClient } from '@x402/core/server';
import { ExactEvmScheme } from '@x402/evm/exact/server';

const payTo = '0x2222222222222222222222222222222222222222';
const resourceServer = new x402ResourceServer(new HTTPFacilitatorClient({ url: 'https://x402.org/facilitator' })).register(
  'eip155:8453',
  new ExactEvmScheme(),
);

export const app = express();
app.use(express.json());
app.use(
  paymentMiddleware(
    { 'POST /agent/image': { accepts: { scheme: 'exact', price: '$0.15', network: 'eip155:8453', payTo }, description: 'Generate an image' } },
    resourceServer,
  ),
);
app.post('/agent/image', (req, res) => {
  res.status(200).json({ status: 'accepted', prompt: (req.body as { prompt?: string })?.prompt ?? null });
});
