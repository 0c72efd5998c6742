/**
 * `GET /api/purchases` as both OpenAPI documents describe it (lambdas/protocols/discovery/openapi.ts, the generation
 * surface's; lambdas/agents/openapi.ts, the agent studio's): one description of the list (lambdas/purchases/entry.ts)
 * and of the sign-in it takes, so the two cannot drift apart. Pure data: no handler code.
 */

/** The security scheme of a sign-in-with-x (x402 extension): the SIGN-IN-WITH-X header. */
export const SIGN_IN_SCHEME = {
  type: 'apiKey',
  in: 'header',
  name: 'SIGN-IN-WITH-X',
  description:
    'x402 sign-in-with-x (CAIP-122 / EIP-4361): base64 JSON of a message signed by the paying wallet, built from the 402 ' +
    "declaration (`extensions[\"sign-in-with-x\"]`) for this origin and route; each one is used once. The official client hook " +
    '(@x402/extensions createSIWxClientHook with @x402/fetch) makes it from the 402 by itself.',
} as const;

export const PURCHASE_LIST_SCHEMA = {
  type: 'object',
  required: ['address', 'purchases', 'nextCursor'],
  properties: {
    address: { type: 'string', description: 'The signed-in wallet' },
    purchases: {
      type: 'array',
      items: {
        type: 'object',
        required: ['kind', 'id', 'item', 'status', 'amount', 'priceUsd', 'transaction', 'url', 'createdAt'],
        properties: {
          kind: { type: 'string', enum: ['job', 'run'] },
          id: { type: 'string' },
          item: { type: 'string', description: 'The product (jobs) or agent (runs) bought' },
          status: { type: 'string' },
          amount: { type: 'string', pattern: '^[0-9]+$', description: 'Paid, in USDC base units (6 decimals)' },
          priceUsd: { type: 'string' },
          transaction: { type: ['string', 'null'], description: 'The settlement transaction; null when the payment did not settle' },
          url: { type: 'string', format: 'uri', description: "The job's poll URL or the run's URL" },
          createdAt: { type: 'string', format: 'date-time' },
          refund: { type: 'object', properties: { status: { type: 'string' }, transaction: { type: ['string', 'null'] } } },
        },
      },
    },
    nextCursor: { type: ['string', 'null'], description: 'Pass as `cursor` for the next page; null on the last' },
  },
} as const;

/**
 * The operation; `responses` adds the surface's own error answers (its 4xx body for a bad `limit` or `cursor`, its
 * 5xx) to the 200 and 402 that are the same on both.
 */
export function purchasesOperation(route: { operationId?: string; summary?: string }, what: string, responses: Record<string, unknown>) {
  return {
    operationId: route.operationId,
    summary: route.summary,
    description:
      `Free. ${what}, newest first, for the wallet that signs in (x402 sign-in-with-x): each with its URL, price and transaction. ` +
      'Without a sign-in (or with one refused: another origin or route, expired, already used, not signed by its address) the answer is ' +
      '402 with the `sign-in-with-x` declaration and no `accepts` (nothing to pay). Only x402 payments name a wallet.',
    security: [{ SignInWithX: [] }],
    parameters: [
      { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
      { name: 'cursor', in: 'query', required: false, description: "The previous page's nextCursor (this wallet's only)", schema: { type: 'string' } },
    ],
    responses: {
      '200': { description: "The wallet's purchases", content: { 'application/json': { schema: PURCHASE_LIST_SCHEMA } } },
      '402': {
        description: 'Sign in: PAYMENT-REQUIRED (and the body) carry the sign-in-with-x declaration for this route; `error` says why a sign-in was refused',
        content: { 'application/json': { schema: { type: 'object', required: ['x402Version', 'error', 'accepts', 'extensions'] } } },
      },
      ...responses,
    },
  };
}
