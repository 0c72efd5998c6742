/**
 * Removes, when each test file ends, the `cdk.out*` directories its CDK apps made. An `App` without an `outdir`
 * synthesises into a new temporary directory (about 25 MB: the staged assets) that nothing removes: runs of the suite
 * had left over five thousand of them (78 GB) and filled this machine's disk.
 *
 * The directories are found by watching `fs.mkdtempSync` (aws-cdk-lib's FileSystem.mkdtemp calls it through the one
 * `fs` module of the process), so only this process's are removed, never another worker's in use. Not `CDK_OUTDIR`:
 * with it set, every App synthesises again when the process exits (aws-cdk-lib's autoSynth), after this cleanup.
 */
import fs from 'node:fs';
import { basename } from 'node:path';
import { afterAll } from 'vitest';

const made: string[] = [];
const mkdtempSync = fs.mkdtempSync;
fs.mkdtempSync = ((prefix: string, options?: unknown) => {
  const dir = mkdtempSync(prefix, options as never) as unknown as string;
  if (basename(prefix).startsWith('cdk.out')) made.push(dir);
  return dir;
}) as typeof fs.mkdtempSync;

afterAll(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
