/**
 * Issue 11's size goal for the poll functions (bench/bundles.ts: a document or poll GET function ≤ 150 KiB minified),
 * checked on every run rather than only when the bench is read: each poll entry is bundled as CDK bundles it
 * (lib/bundling/aliases.ts), nothing written. They once grew past it by carrying the whole route table, which a
 * poll never reads (see the pure marks on ROUTES and PRODUCTS).
 */
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { bundleAliases, functionBuildOptions } from '../../../lib/bundling/aliases.js';
import { PROJECT_ROOT } from '../../../lib/local/runtime.js';

const POLL_ENTRIES = ['lambdas/http/get-song.ts', 'lambdas/http/get-video.ts', 'lambdas/http/get-image.ts'];

describe('Poll functions: each bundle is within 150 KiB', () => {
  it.each(POLL_ENTRIES)('bundles %s within 150 KiB', async (entry) => {
    const options = functionBuildOptions(join(PROJECT_ROOT, entry), join(PROJECT_ROOT, 'poll.mjs'), bundleAliases(PROJECT_ROOT));
    const result = await build({ ...options, write: false, metafile: true });
    const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
    expect(bytes).toBeLessThanOrEqual(150 * 1024);
  });
});
