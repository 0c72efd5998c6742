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
