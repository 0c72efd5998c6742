/**
 * Where a priced MCP tool's official x402 bazaar declaration rides: its definition's `_meta` in `tools/list`, under
 * this key (an x402-namespaced key, as `x402/payment` is for a payment). Our tools answer no x402 PaymentRequired to
 * put an `extensions.bazaar` in (the generation surface's answer the payment pointer, the agent studio's bill
 * workspace credit), so the listing is where a catalog reads what each tool takes. The declarations are generated
 * (lambdas/jobs/bazaar.source.ts, lambdas/agents/bazaar.source.ts).
 */
export const BAZAAR_META_KEY = 'x402/bazaar';
