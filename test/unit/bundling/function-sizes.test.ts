/**
 * Every function the stack deploys, bundled once as CDK bundles it (esbuild with its own aliases,
 * lib/bundling/aliases.ts) and checked three ways from that one build:
 *
 * - It builds, and within its size goal (lib/bundling/goals.ts: documents and polls 150 KiB, any other buyer-path
 *   function 400 KiB, no goal for the MCP servers; the tasks, render functions and sweeper BACKGROUND_KIB). A bundle
 *   that does not build is a stack that does not deploy: the infra tests synthesise without bundling, so this is
 *   where a missing stub export or an unresolved import shows (the sign-in code, docs/decisions/0020, once broke
 *   every bundle that imported it, unnoticed). What a bundle leaves out must be there when it runs: its bare imports
 *   that esbuild left external are the AWS SDK (the runtime's) and the Powertools packages the layer holds
 *   (lib/bundling/externals.ts), nothing else; but for a library's guarded dynamic import of an optional package
 *   that is not installed here either (the SIWE library's `await import('ethers')` in a try), which then fails on
 *   Lambda as it fails in the tests.
 * - It loads as Lambda loads it: `index.mjs` imported in a fresh Node process, with Lambda's environment and the
 *   stack's configuration (lib/bundling/deployed-env.ts), from a directory whose node_modules holds only what
 *   Lambda provides (the AWS SDK, the Powertools layer), and exports `handler`. Every function checks its
 *   configuration at import, and a stub a function reaches at import would throw here, not first when deployed.
 * - Its project code imports no package that package.json lists only in devDependencies (read from the build's
 *   metafile: each project file's imports, by their specifier); nor do the CDK app and the embedded runtime.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build, type Metafile } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleAliases, functionBuildOptions } from '../../../lib/bundling/aliases.js';
import { DEPLOYED_CONFIG, lambdaRuntimeEnv } from '../../../lib/bundling/deployed-env.js';
import { POWERTOOLS_PACKAGES } from '../../../lib/bundling/externals.js';
import { functionBundles, type FunctionBundle } from '../../../lib/bundling/goals.js';
import { PROJECT_ROOT } from '../../../lib/local/runtime.js';

/** A package the runtime or the Powertools layer provides (a subpath of one, as `@aws-lambda-powertools/logger/middleware`). */
const PROVIDED = new RegExp(`^(@aws-sdk/[a-z0-9-]+|@aws-lambda-powertools/(${POWERTOOLS_PACKAGES.join('|')}))(/|$)`);
/** What a Lambda function can import besides its bundle: the runtime's AWS SDK and the Powertools layer. */
const ON_LAMBDA = ['@aws-sdk', '@aws-lambda-powertools'];

const FUNCTIONS = functionBundles();
const dir = mkdtempSync(join(tmpdir(), 'function-bundles-'));
mkdirSync(join(dir, 'node_modules'));
for (const scope of ON_LAMBDA) symlinkSync(join(PROJECT_ROOT, 'node_modules', scope), join(dir, 'node_modules', scope), 'dir');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const built = new Map<string, Promise<{ file: string; metafile: Metafile }>>();

/** The function's bundle, built once for every check: `<dir>/<id>/index.mjs`, as CDK names it. */
function bundleOf({ id, entry, path }: FunctionBundle) {
  if (!built.has(id)) {
    const file = join(dir, id, 'index.mjs');
    built.set(id, build({ ...functionBuildOptions(join(PROJECT_ROOT, entry), file, bundleAliases(PROJECT_ROOT, path)), metafile: true }).then(({ metafile }) => ({ file, metafile })));
  }
  return built.get(id)!;
}

const byId = FUNCTIONS.map((f) => [f.id, f] as const);

describe.concurrent('Every function bundles as CDK bundles it, within its size goal', () => {
  it.for(byId)('%s', async ([id, fn], { expect }) => {
    const { metafile } = await bundleOf(fn);
    const outputs = Object.values(metafile.outputs);
    const absentOptional = (i: { path: string; kind: string }) => i.kind === 'dynamic-import' && !existsSync(join(PROJECT_ROOT, 'node_modules', i.path));
    const external = outputs.flatMap((output) => output.imports.filter((i) => i.external && !isBuiltin(i.path) && !absentOptional(i)).map((i) => i.path));
    expect(external.filter((path) => !PROVIDED.test(path)), `${id} imports what nothing provides on Lambda`).toEqual([]);
    const kib = outputs.reduce((sum, output) => sum + output.bytes, 0) / 1024;
    if (fn.goal !== null) expect(kib, `${id}: ${kib.toFixed(1)} KiB`).toBeLessThanOrEqual(fn.goal);
  });
});

describe.concurrent("Every function's bundle loads in a fresh Node process as Lambda loads it, and exports its handler", () => {
  it.for(byId)('%s', async ([id, fn], { expect }) => {
    const { file } = await bundleOf(fn);
    const script = `const m = await import(${JSON.stringify(pathToFileURL(file).href)}); console.log(typeof m.handler);`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      cwd: join(dir, id),
      env: { PATH: process.env.PATH, LAMBDA_TASK_ROOT: join(dir, id), ...lambdaRuntimeEnv(id), ...DEPLOYED_CONFIG },
      encoding: 'utf8',
      timeout: 45_000,
    });
    expect(stdout.trim(), `${id}'s handler`).toBe('function');
  });
});

describe('Production code imports no package listed only in devDependencies', () => {
  const manifest = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
  const devOnly = new Set(Object.keys(manifest.devDependencies).filter((name) => !(name in manifest.dependencies)));
  const packageOf = (specifier: string) =>
    specifier.startsWith('.') || specifier.startsWith('/') || isBuiltin(specifier) ? undefined : specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
  /** `file → specifier` for each import of a project file (not a package's) of a devDependency-only package. */
  const devImports = (metafile: Metafile) =>
    Object.entries(metafile.inputs)
      .filter(([file]) => !file.split('/').includes('node_modules'))
      .flatMap(([file, input]) => input.imports.map((i) => ({ file, specifier: i.original ?? i.path })))
      .filter(({ specifier }) => devOnly.has(packageOf(specifier) ?? ''))
      .map(({ file, specifier }) => `${file} → ${specifier}`);

  it('knows the devDependencies it guards against', () => {
    expect(devOnly.has('vitest') && devOnly.has('esbuild')).toBe(true);
  });

  it('no function bundle (lambdas/ and what it reaches)', async () => {
    const found = new Set<string>();
    for (const fn of FUNCTIONS) for (const line of devImports((await bundleOf(fn)).metafile)) found.add(line);
    expect([...found]).toEqual([]);
  });

  // The CDK app (`cdk synth`/`cdk deploy`), the embedded default (`npm start`) and the operator's commands beside it.
  it.each(['bin/app.ts', 'bin/local.ts', 'bin/fund.ts', 'bin/mint-token.ts', 'bin/powertools-parameter.ts'])('nor %s (and the lib/ code it reaches)', async (entry) => {
    const { metafile } = await build({ entryPoints: [join(PROJECT_ROOT, entry)], bundle: true, platform: 'node', format: 'esm', packages: 'external', write: false, metafile: true, outdir: dir, logLevel: 'silent' });
    expect(devImports(metafile)).toEqual([]);
  });
});
