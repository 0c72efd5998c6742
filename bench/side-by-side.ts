/**
 * `npm run bench:reference`: only the side-by-side section of `npm run bench` (our paid path over HTTP next to the
 * official @x402/express + in-process @x402/core facilitator on the same local chain), on a fresh embedded runtime.
 * Prints figures; asserts nothing.
 */
import { benchRuntime, compareWithReferenceReported } from './reference.js';

const { runtime, close } = await benchRuntime();
const ok = await compareWithReferenceReported(runtime);
await close();
process.exit(ok ? 0 : 1);
