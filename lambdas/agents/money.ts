/** USDC base units (6 decimals, bigint) as the JSON number of the spec's `totalCostUsdc` (lambdas/shared/money.ts). */
export { usdcNumber } from '../shared/money.js';
