/**
 * Packages a function's bundle takes from elsewhere (esbuild's `alias`): lib/functions.ts passes them to CDK's
 * esbuild and bench/bundles.ts to its own, so the bench measures what deploys. Only the bundles see them: the
 * embedded runtime and the tests import the real packages.
 *
 * - `aws-xray-sdk-core` → aws-xray-sdk-core.mjs: the SDK's namespace without the AWS SDK v2 patchers and semver,
 *   the plugins and SQL (about 37 KB of every function; see that file and test/unit/observability/xray-bundle.test.ts).
 */
import path from 'node:path';

export function bundleAliases(projectRoot: string): Record<string, string> {
  return { 'aws-xray-sdk-core': path.join(projectRoot, 'lib', 'bundling', 'aws-xray-sdk-core.mjs') };
}

/** The same as esbuild command-line arguments (CDK's `esbuildArgs` turns `--alias: [...]` into `--alias:a=b`). */
export function bundleAliasArgs(projectRoot: string): Record<string, string[]> {
  return { '--alias': Object.entries(bundleAliases(projectRoot)).map(([from, to]) => `${from}=${to}`) };
}

/**
 * esbuild options of a function bundle as CDK builds it (lib/functions.ts `bundling()`: minified ESM for node22,
 * `@aws-sdk/*` external, a `require` for CommonJS dependencies), for the builds outside CDK: the bench's size and
 * cold-import figures and the X-Ray bundle test.
 */
export function functionBuildOptions(entry: string, outfile: string, alias: Record<string, string>) {
  return {
    entryPoints: [entry],
    bundle: true,
    platform: 'node' as const,
    target: 'node22',
    format: 'esm' as const,
    minify: true,
    outfile,
    external: ['@aws-sdk/*'],
    alias,
    banner: { js: "import { createRequire as __cr } from 'module'; const require = __cr(import.meta.url);" },
    logLevel: 'silent' as const,
  };
}
