/**
 * `npm run bench:reference`: only the side-by-side section of `npm run bench` (our paid path over HTTP next to the
 * official @x402/express + in-process @x402/core facilitator on the same local chain), on a fresh embedded runtime.
 * Prints figures; asserts nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbedded } from '../lib/local/runtime.js';
import { compareWithReference } from './reference.js';

const stateDir = mkdtempSync(join(tmpdir(), 'paycall-bench-'));
const runtime = await startEmbedded({ generationPort: 0, chainPort: 0, stateDir, log: () => {} });
let exitCode = 0;
try {
  await compareWithReference(runtime);
} catch (error) {
  console.error('side-by-side comparison failed:', error);
  exitCode = 1;
}
await runtime.stop();
rmSync(stateDir, { recursive: true, force: true });
process.exit(exitCode);
