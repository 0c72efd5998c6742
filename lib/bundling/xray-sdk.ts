/**
 * The `aws-xray-sdk-core` the function bundles take (lib/bundling/aliases.ts): aws-xray-sdk-core.mjs (the SDK's
 * namespace without what no function reaches) over a copy of the SDK's own files whose AWS call whitelist names only
 * the calls our functions make, and without the incoming-request middleware's sampling.
 *
 * Why: the SDK records chosen parameters of each captured AWS call (a DynamoDB call's table name, an S3 call's bucket
 * and key) by a whitelist, `dist/lib/resources/aws_whitelist.json`, which its call capturer `require`s: every operation
 * of DynamoDB, S3 (7 KB alone), SQS, SNS, Lambda and SageMaker runtime, 10.4 KiB of every function's bundle. The
 * functions call DynamoDB (all of its whitelisted operations are kept) and S3's GetObject, HeadObject and PutObject;
 * the other services' and operations' entries describe calls no function makes, so the traces are the same without
 * them (test/unit/observability/xray-bundle.test.ts captures a DynamoDB and an S3 call through both). A call the list
 * does not name is still captured, with its operation but without those parameters, as the SDK does for any service.
 *
 * And the SDK's middleware utilities (`middleware/mw_utils.js`, with the centralized and local samplers, the rule
 * pollers and their service connector: ~15 KiB) serve segments the SDK opens for incoming HTTP requests (Express,
 * Restify). On Lambda the facade segment's trace header decides sampling, and the SDK's Lambda set-up
 * (`env/aws_lambda.js`) calls exactly one thing there, `disableCentralizedSampling()`, which swaps a sampler nothing
 * on Lambda asks. The copy's mw_utils.js is a module whose disableCentralizedSampling does nothing and whose every
 * other member throws "not bundled"; the copy is refused (a loud failure naming the SDK version) unless
 * env/aws_lambda.js uses mw_utils for that call alone.
 *
 * How: the SDK's `dist/lib` and package.json are copied under the project's node_modules (so the copy's bare imports
 * resolve as the package's own do), with the whitelist cut down to XRAY_WHITELIST, beside aws-xray-sdk-core.mjs with
 * its imports pointed at the copy. The directory is named by the content it was made from (the SDK's version and
 * whitelist, the .mjs, the selection), written whole and renamed into place, so concurrent builds never see half of
 * one. Only the bundles see it: the embedded runtime and the tests import the real package.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The whitelisted calls kept: a service's every operation (`'all'`), or the operations named (the SDK's spelling). */
export const XRAY_WHITELIST: Record<string, 'all' | string[]> = {
  dynamodb: 'all',
  s3: ['getObject', 'headObject', 'putObject'],
};

interface Whitelist {
  services: Record<string, { operations: Record<string, unknown> }>;
}

/** The SDK's whitelist cut down to `keep`; throws naming what `keep` names and the SDK's list lacks. */
export function trimWhitelist(whole: Whitelist, keep: Record<string, 'all' | string[]> = XRAY_WHITELIST): Whitelist {
  const services: Whitelist['services'] = {};
  for (const [service, operations] of Object.entries(keep)) {
    const entry = whole.services[service];
    if (!entry) throw new Error(`aws-xray-sdk-core's AWS whitelist has no service ${service} (lib/bundling/xray-sdk.ts)`);
    if (operations === 'all') {
      services[service] = entry;
      continue;
    }
    const missing = operations.filter((operation) => !(operation in entry.operations));
    if (missing.length) throw new Error(`aws-xray-sdk-core's AWS whitelist has no ${service} ${missing.join(', ')} (lib/bundling/xray-sdk.ts)`);
    services[service] = { ...entry, operations: Object.fromEntries(operations.map((operation) => [operation, entry.operations[operation]])) };
  }
  return { services };
}

const PACKAGE_IN_MJS = '../../node_modules/aws-xray-sdk-core/';
const MW_UTILS = path.join('dist', 'lib', 'middleware', 'mw_utils.js');
const LAMBDA_ENV = path.join('dist', 'lib', 'env', 'aws_lambda.js');
/** mw_utils' members as the SDK's module exports them; all but the first throw in the copy. */
const MW_UTILS_MEMBERS = ['disableCentralizedSampling', 'enableDynamicNaming', 'processHeaders', 'resolveName', 'resolveSampling', 'setDefaultName', 'setSamplingRules', 'middlewareLog', 'traceRequestResponseCycle'];

/**
 * The stand-in for the SDK's middleware/mw_utils.js (see above); throws naming `version` unless the SDK's Lambda
 * set-up (its env/aws_lambda.js text) uses the module for disableCentralizedSampling() alone.
 */
export function lambdaMwUtils(lambdaEnv: string, mwUtils: string, version: string): string {
  const uses = lambdaEnv.match(/mwUtils\.[A-Za-z]+/g) ?? [];
  const members = [...mwUtils.matchAll(/^ {4}([A-Za-z]+): function/gm)].map((m) => m[1]);
  if (JSON.stringify(uses) !== JSON.stringify(['mwUtils.disableCentralizedSampling']) || JSON.stringify([...members].sort()) !== JSON.stringify([...MW_UTILS_MEMBERS].sort())) {
    throw new Error(
      `aws-xray-sdk-core ${version}: its Lambda set-up uses ${uses.join(', ') || 'nothing'} of middleware/mw_utils.js, whose functions are ` +
        `${members.join(', ')}; lib/bundling/xray-sdk.ts stands in for that module only while the Lambda set-up calls disableCentralizedSampling() alone ` +
        'and the module has exactly the functions it knows: update it for this SDK version.',
    );
  }
  const stubs = MW_UTILS_MEMBERS.slice(1)
    .map((name) => `    ${name}: function () { throw new Error('aws-xray-sdk-core: middleware ${name} is not bundled (lib/bundling/xray-sdk.ts)'); },
`)
    .join('');
  return (
    `"use strict";\n// aws-xray-sdk-core ${version} middleware/mw_utils.js for Lambda, by lib/bundling/xray-sdk.ts: generated, do not edit.\n` +
    `// On Lambda the facade segment's trace header decides sampling: turning centralized sampling off is nothing to do.\n` +
    `module.exports = {\n    disableCentralizedSampling: function () {},\n${stubs}};\n`
  );
}
const WHITELIST = path.join('dist', 'lib', 'resources', 'aws_whitelist.json');

/** Writes (once per content) the SDK copy and its namespace module; returns the module's path, the alias's target. */
export function trimmedXraySdk(projectRoot: string): string {
  const packageDir = path.join(projectRoot, 'node_modules', 'aws-xray-sdk-core');
  if (existsSync(path.join(packageDir, 'node_modules'))) {
    throw new Error('aws-xray-sdk-core has its own node_modules: its copy (lib/bundling/xray-sdk.ts) would import other versions of its dependencies');
  }
  const manifest = readFileSync(path.join(packageDir, 'package.json'), 'utf8');
  const whitelist = readFileSync(path.join(packageDir, WHITELIST), 'utf8');
  const namespace = readFileSync(path.join(projectRoot, 'lib', 'bundling', 'aws-xray-sdk-core.mjs'), 'utf8');
  const mwUtils = lambdaMwUtils(readFileSync(path.join(packageDir, LAMBDA_ENV), 'utf8'), readFileSync(path.join(packageDir, MW_UTILS), 'utf8'), (JSON.parse(manifest) as { version: string }).version);
  if (!namespace.includes(PACKAGE_IN_MJS)) throw new Error(`lib/bundling/aws-xray-sdk-core.mjs no longer imports from ${PACKAGE_IN_MJS}: update lib/bundling/xray-sdk.ts`);
  const key = createHash('sha256').update(manifest).update(whitelist).update(namespace).update(mwUtils).update(JSON.stringify(XRAY_WHITELIST)).digest('hex').slice(0, 16);
  const dir = path.join(projectRoot, 'node_modules', '.cache', 'paycall', `aws-xray-sdk-core-${key}`);
  const module = path.join(dir, 'index.mjs');
  if (existsSync(module)) return module;

  const staging = `${dir}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  mkdirSync(staging, { recursive: true });
  try {
    cpSync(path.join(packageDir, 'dist', 'lib'), path.join(staging, 'dist', 'lib'), { recursive: true });
    writeFileSync(path.join(staging, 'package.json'), manifest);
    writeFileSync(path.join(staging, WHITELIST), JSON.stringify(trimWhitelist(JSON.parse(whitelist) as Whitelist)));
    writeFileSync(path.join(staging, MW_UTILS), mwUtils);
    writeFileSync(path.join(staging, 'index.mjs'), `// lib/bundling/aws-xray-sdk-core.mjs over a trimmed copy (lib/bundling/xray-sdk.ts): generated, do not edit.\n${namespace.replaceAll(PACKAGE_IN_MJS, './')}`);
    renameSync(staging, dir);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    // Another build renamed the same content into place first: theirs is as good.
    if (!existsSync(module)) throw error;
  }
  return module;
}
