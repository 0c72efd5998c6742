/**
 * What a function bundle leaves out because its Lambda environment brings it, the one list CDK's bundling
 * (lib/functions.ts) and every other build of a function (lib/bundling/aliases.ts functionBuildOptions: the bench,
 * the size and bundle tests) take:
 *
 * - `@aws-sdk/*`: the nodejs22.x runtime ships the AWS SDK v3.
 * - `@aws-lambda-powertools/*`: every function gets AWS's Powertools layer (docs/decisions/0022), which holds the
 *   Logger, Metrics and Tracer with the Tracer's X-Ray SDK (about 95 KiB of every bundle before: ~33 KiB of Logger
 *   and Metrics, ~60 KiB of Tracer, X-Ray SDK and its `cls-hooked` context), at exactly the version installed here:
 *   the layer's ARN is read at deploy time from AWS's public SSM parameter for that version, in the stack's region.
 *   Powertools' own guidance for the layer is to leave these packages out of an esbuild bundle.
 *
 * Only the bundles leave them out: the embedded runtime and the tests import the installed packages, which are the
 * layer's version by construction (powertoolsVersion).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const BUNDLE_EXTERNALS: readonly string[] = ['@aws-sdk/*', '@aws-lambda-powertools/*'];

/** The Powertools packages the functions import; the layer holds each at one version. */
export const POWERTOOLS_PACKAGES = ['commons', 'logger', 'metrics', 'tracer'] as const;

/**
 * The Powertools version installed under `projectRoot`, the layer's version. Throws if the packages disagree: one
 * layer holds one version, so the functions would run another than the tests ran.
 */
export function powertoolsVersion(projectRoot: string): string {
  const versions = POWERTOOLS_PACKAGES.map((name) => {
    const file = path.join(projectRoot, 'node_modules', '@aws-lambda-powertools', name, 'package.json');
    return { name, version: (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version };
  });
  const distinct = [...new Set(versions.map((v) => v.version))];
  if (distinct.length !== 1) {
    throw new Error(`@aws-lambda-powertools packages differ (${versions.map((v) => `${v.name} ${v.version}`).join(', ')}): the layer holds one version, install one`);
  }
  return distinct[0];
}

/** AWS's public SSM parameter whose value, in each commercial region, is the ARN of Powertools' layer at `version`. */
export function powertoolsLayerParameter(version: string): string {
  return `/aws/service/powertools/typescript/generic/all/${version}`;
}
