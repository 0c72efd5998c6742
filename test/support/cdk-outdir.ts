/**
 * Each test file's CDK apps synthesise into one temporary directory of its own, removed when the file ends. Without
 * it every `new App()` without an `outdir` leaves a `cdk.out*` directory (about 25 MB: the staged assets) in the
 * system's temp dir for good: runs of the suite had left over five thousand of them (78 GB) and filled this machine's
 * disk. The apps of one file synthesise one after another, so sharing the directory is safe.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const outdir = mkdtempSync(join(tmpdir(), 'paycall-test-cdk-'));
// aws-cdk-lib's App takes its outdir from CDK_OUTDIR when none is given (cx-api OUTDIR_ENV).
process.env.CDK_OUTDIR = outdir;
afterAll(() => rmSync(outdir, { recursive: true, force: true }));
