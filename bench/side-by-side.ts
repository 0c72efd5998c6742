/**
 * `npm run bench:reference`: only the side-by-side section of `npm run bench` (bench/block-time.ts): our paid path next
 * to the official @x402/express + in-process @x402/core facilitator on the same local chain, at each block setting
 * (BENCH_BLOCKS, default automine,2000,200), 1 to 64 buyers. Prints figures; asserts nothing.
 */
import { compareWithReferenceReported } from './reference.js';

process.exit((await compareWithReferenceReported()) ? 0 : 1);
