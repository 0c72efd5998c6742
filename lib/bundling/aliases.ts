/**
 * Packages a function's bundle takes from elsewhere (esbuild's `alias`), and only where a buyer waits on the
 * function's cold start: lib/functions.ts passes them to CDK's esbuild and bench/bundles.ts and the bundle tests to
 * their own, so what is measured and imported is what deploys. Only the bundles see them: the embedded runtime and
 * the tests import the real packages.
 *
 * Which functions: those on a buyer's request path (`buyer`: every route — the 402, a paid call, a poll, a run — and
 * the sign-in authorizer in front of the signed-in routes) have a size goal (lib/bundling/goals.ts) and these
 * aliases. The workflow's tasks, the render functions and the sweeper (`background`) run behind a render of minutes
 * or on a schedule, where no buyer sees a cold start: they bundle every vendor SDK whole (`@google/genai`,
 * `google-auth-library`, `ws`, `@smithy/node-http-handler` as they are), with no alias at all.
 *
 * - `@x402/core/http` → x402-core-http.mjs: a stub of the two names @x402/extensions' offer-receipt and sign-in-with-x
 *   modules import (for client helpers no function calls), about 60 KiB of every function that signs offers and
 *   receipts or checks a sign-in.
 * - `@noble/curves/ed25519`, `tweetnacl` → ed25519.mjs, tweetnacl.mjs: stubs that throw (a refused signature, in the
 *   package) for @x402/extensions' Solana sign-in check, which no function reaches: the service declares only its EVM
 *   network and refuses another chain first (lambdas/sign-in/siwx.ts). About 55 KiB of the sign-in authorizer.
 *
 * test/unit/bundling/vendor-aliases.test.ts bundles each with its alias and makes the calls through it;
 * test/unit/bundling/function-sizes.test.ts bundles every function with its own and imports it as Lambda does.
 */
import path from 'node:path';
import { BUNDLE_EXTERNALS } from './externals.js';

/** Whether a buyer waits on a function's cold start (`buyer`) or nobody does (`background`). */
export type BundlePath = 'buyer' | 'background';

/**
 * A deployed function's path by what it is (lib/functions.ts FunctionEntry's kind): routes and the sign-in
 * authorizer answer a buyer's request; tasks (the workflow's and the render functions) and the sweeper do not.
 */
export function bundlePathOf(kind: 'route' | 'authorizer' | 'task' | 'sweeper'): BundlePath {
  return kind === 'route' || kind === 'authorizer' ? 'buyer' : 'background';
}

/** The aliases of a function's bundle: the stubs for a buyer-path function, none for a background one. */
export function bundleAliases(projectRoot: string, bundlePath: BundlePath = 'buyer'): Record<string, string> {
  if (bundlePath === 'background') return {};
  const stub = (file: string) => path.join(projectRoot, 'lib', 'bundling', file);
  return {
    '@x402/core/http': stub('x402-core-http.mjs'),
    '@noble/curves/ed25519': stub('ed25519.mjs'),
    tweetnacl: stub('tweetnacl.mjs'),
  };
}

/** The same as esbuild command-line arguments (CDK's `esbuildArgs` turns `--alias: [...]` into `--alias:a=b`). */
export function bundleAliasArgs(projectRoot: string, bundlePath: BundlePath): Record<string, string[]> {
  const aliases = Object.entries(bundleAliases(projectRoot, bundlePath));
  return aliases.length === 0 ? {} : { '--alias': aliases.map(([from, to]) => `${from}=${to}`) };
}

/**
 * Which of a package's entry fields esbuild takes (CDK's `mainFields`, lib/functions.ts): the ES module build first,
 * which tree-shakes (the `@smithy/*` packages' CommonJS builds bring all of `@smithy/core`, about 105 KiB).
 */
export const MAIN_FIELDS = ['module', 'main'];

/**
 * esbuild options of a function bundle as CDK builds it (lib/functions.ts `bundling()`: minified ESM for node22,
 * ES module builds first, BUNDLE_EXTERNALS left out, a `require` for CommonJS dependencies), for the builds outside
 * CDK: the bench's size and cold-import figures and the bundle tests.
 */
export function functionBuildOptions(entry: string, outfile: string, alias: Record<string, string>) {
  return {
    entryPoints: [entry],
    bundle: true,
    platform: 'node' as const,
    target: 'node22',
    format: 'esm' as const,
    minify: true,
    mainFields: MAIN_FIELDS,
    outfile,
    external: [...BUNDLE_EXTERNALS],
    alias,
    banner: { js: "import { createRequire as __cr } from 'module'; const require = __cr(import.meta.url);" },
    logLevel: 'silent' as const,
  };
}
