/**
 * Packages a function's bundle takes from elsewhere (esbuild's `alias`): lib/functions.ts passes them to CDK's
 * esbuild and bench/bundles.ts to its own, so the bench measures what deploys. Only the bundles see them: the
 * embedded runtime and the tests import the real packages.
 *
 * - `@smithy/node-http-handler` → its own ES module build: esbuild otherwise takes the package's CommonJS build, which
 *   pulls in all of `@smithy/core` (about 105 KiB of every function that sets a Bedrock client's HTTP/1.1 handler).
 * - `google-auth-library`, `ws` → stubs that throw when used (see those files): `@google/genai` imports them at the
 *   top, and API-key calls reach neither (about 300 KiB of each Gemini render function).
 * - `@google/genai` → a trimmed copy of its Node ES module, written under node_modules/.cache/paycall at build time
 *   (google-genai.ts): `GoogleGenAI` without the sub-clients its constructor builds and the getters for its "next gen"
 *   clients, which kept the whole SDK in the bundle; the adapters use only `models` and `operations`. About 250 KiB of
 *   each Gemini render function (RenderGoogleVeo 558 → 303 KiB, RenderGoogleLyria 637 → 382 KiB). It throws, naming
 *   the SDK version, if the text it removes is not exactly as expected.
 * - `@x402/core/http` → x402-core-http.mjs: a stub of the two names @x402/extensions' offer-receipt and sign-in-with-x
 *   modules import (for client helpers no function calls), about 60 KiB of every function that signs offers and
 *   receipts or checks a sign-in.
 * - `@noble/curves/ed25519`, `tweetnacl` → ed25519.mjs, tweetnacl.mjs: stubs that throw (a refused signature, in the
 *   package) for @x402/extensions' Solana sign-in check, which no function reaches: the service declares only its EVM
 *   network and refuses another chain first (lambdas/sign-in/siwx.ts). About 50 KiB of each function taking a sign-in.
 * test/unit/bundling/vendor-aliases.test.ts bundles each with its alias and makes the call through it.
 */
import path from 'node:path';
import { BUNDLE_EXTERNALS } from './externals.js';
import { trimmedGoogleGenAI } from './google-genai.js';

export function bundleAliases(projectRoot: string): Record<string, string> {
  return {
    '@smithy/node-http-handler': path.join(projectRoot, 'node_modules', '@smithy', 'node-http-handler', 'dist-es', 'index.js'),
    'google-auth-library': path.join(projectRoot, 'lib', 'bundling', 'google-auth-library.mjs'),
    ws: path.join(projectRoot, 'lib', 'bundling', 'ws.mjs'),
    '@x402/core/http': path.join(projectRoot, 'lib', 'bundling', 'x402-core-http.mjs'),
    '@noble/curves/ed25519': path.join(projectRoot, 'lib', 'bundling', 'ed25519.mjs'),
    tweetnacl: path.join(projectRoot, 'lib', 'bundling', 'tweetnacl.mjs'),
    '@google/genai': trimmedGoogleGenAI(projectRoot),
  };
}

/** The same as esbuild command-line arguments (CDK's `esbuildArgs` turns `--alias: [...]` into `--alias:a=b`). */
export function bundleAliasArgs(projectRoot: string): Record<string, string[]> {
  return { '--alias': Object.entries(bundleAliases(projectRoot)).map(([from, to]) => `${from}=${to}`) };
}

/**
 * esbuild options of a function bundle as CDK builds it (lib/functions.ts `bundling()`: minified ESM for node22,
 * BUNDLE_EXTERNALS left out, a `require` for CommonJS dependencies), for the builds outside CDK: the bench's size and
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
    external: [...BUNDLE_EXTERNALS],
    alias,
    banner: { js: "import { createRequire as __cr } from 'module'; const require = __cr(import.meta.url);" },
    logLevel: 'silent' as const,
  };
}
