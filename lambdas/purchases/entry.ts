/**
 * `GET /api/purchases` (sign-in-with-x, docs/decisions/0020; additive to the spec), one on each surface: the signed-in wallet's purchases on that
 * surface — its jobs on the generation surface, its paid runs on the agent studio — newest first, `limit` (1–100,
 * default 20) a page, `cursor` the previous page's `nextCursor`. A buyer's history without an account: the proof is a
 * sign-in-with-x from the paying address (checked by the sign-in authorizer before this function runs: lambdas/http/sign-in-authorizer.ts), fresh for each request (its nonce is used once),
 * which the official client hook makes by itself from the 402. Each purchase names its poll or run URL (capabilities
 * that only the payer was given: this list goes to the payer alone), its price and its transaction.
 *
 * Answers: 200 `{ address, purchases: [...], nextCursor }` (no-store); 402 with the sign-in declaration (no sign-in,
 * or one refused: another origin or route, expired, replayed, a signature not from its address); the surface's
 * 4xx for a bad `limit` or a cursor that is not this wallet's. Only x402 payments name a wallet: jobs paid with an
 * agent-payment token and runs billed from workspace credit are not listed (their history is the token's issuer's and
 * the workspace ledger's).
 */
import middy from '@middy/core';
import { frame } from '../middleware/http-frame.js';
import { checkAtColdStart, httpConfig, storeConfig } from '../shared/config.js';
import { baseUrl, json, type HttpEvent, type HttpResult } from '../shared/http.js';
import { pageLimit } from '../shared/paging.js';
import { formatUsd } from '../shared/money.js';
import { signedIn } from '../sign-in/context.js';
import { purchasesOf, type BuyerIndex } from '../store/purchases.js';
import type { Surface } from '../surfaces/surface.js';

/** One purchase as the list shows it. */
export interface PurchaseView {
  kind: 'job' | 'run';
  id: string;
  /** The product (jobs) or agent (runs) bought. */
  item: string;
  status: string;
  /** What was paid, in USDC base units (6 decimals), and in dollars. */
  amount: string;
  priceUsd: string;
  transaction: string | null;
  /** Where it is fetched: the job's poll URL, the run's URL. */
  url: string;
  createdAt: string;
  [extra: string]: unknown;
}

export interface PurchaseSource<T> {
  index: () => BuyerIndex;
  view: (item: T, base: string) => PurchaseView;
}

export function price(amount: string | undefined): Pick<PurchaseView, 'amount' | 'priceUsd'> {
  const units = amount ?? '0';
  return { amount: units, priceUsd: formatUsd(BigInt(units)) };
}

export function purchasesEntry<T>(surface: Surface, source: PurchaseSource<T>) {
  checkAtColdStart(storeConfig, httpConfig);
  return middy<HttpEvent, HttpResult>()
    .use(frame(surface))
    .handler(async (event) => {
      const query = event.queryStringParameters ?? {};
      const limit = pageLimit(query);
      const base = baseUrl(event, surface);
      const address = signedIn(event, {
        description: 'Purchases of the signed-in wallet, newest first',
        missing: 'SIGN-IN-WITH-X header is required: sign in with the wallet that paid',
      });
      const page = await purchasesOf<T>(source.index(), address.toLowerCase(), limit, query.cursor);
      return json(200, { address, purchases: page.items.map((item) => source.view(item, base)), nextCursor: page.nextCursor }, { 'Cache-Control': 'no-store' });
    });
}
