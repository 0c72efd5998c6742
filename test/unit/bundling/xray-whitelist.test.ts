/**
 * The X-Ray SDK copy the functions bundle (lib/bundling/xray-sdk.ts) keeps the AWS call whitelist entries of the calls
 * they make, and only those: every S3 command a function sends is in it (a new one would otherwise be traced without
 * its bucket and key), DynamoDB whole, and a name the SDK's list lacks is refused rather than kept as nothing. Its
 * middleware utilities are a stand-in whose one call on Lambda does nothing, refused for an SDK that calls more.
 * (test/unit/observability/xray-bundle.test.ts runs a bundle of the copy as Lambda would, and compares its traces.)
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { lambdaMwUtils, trimWhitelist, XRAY_WHITELIST } from '../../../lib/bundling/xray-sdk.js';
import { PROJECT_ROOT } from '../../../lib/local/runtime.js';

const whole = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'node_modules/aws-xray-sdk-core/dist/lib/resources/aws_whitelist.json'), 'utf8'));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? sources(full) : entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** The commands each function source imports from an AWS SDK client package, by package. */
function commandsFrom(pkg: string): Set<string> {
  const found = new Set<string>();
  const importOf = new RegExp(`import\\s*\\{([^}]*)\\}\\s*from\\s*'${pkg.replace('/', '\\/')}'`, 'g');
  for (const file of sources(path.join(PROJECT_ROOT, 'lambdas'))) {
    for (const [, names] of readFileSync(file, 'utf8').matchAll(importOf)) {
      for (const name of names.split(',').map((n) => n.trim().replace(/^type\s+/, ''))) if (name.endsWith('Command')) found.add(name);
    }
  }
  return found;
}

describe('The X-Ray whitelist the functions bundle', () => {
  it('names every S3 command a function sends, and keeps DynamoDB whole', () => {
    const s3 = [...commandsFrom('@aws-sdk/client-s3')].map((name) => name[0].toLowerCase() + name.slice(1, -'Command'.length));
    expect(s3.length).toBeGreaterThan(0);
    const kept = trimWhitelist(whole);
    for (const operation of s3) expect(Object.keys(kept.services.s3.operations), `S3 ${operation}`).toContain(operation);
    expect(kept.services.dynamodb).toEqual(whole.services.dynamodb);
    expect(Object.keys(kept.services).sort()).toEqual(Object.keys(XRAY_WHITELIST).sort());
    expect(JSON.stringify(kept).length).toBeLessThan(JSON.stringify(whole).length / 3);
  });

  it('refuses a service or an operation the SDK does not list', () => {
    expect(() => trimWhitelist(whole, { kinesis: 'all' })).toThrow(/no service kinesis/);
    expect(() => trimWhitelist(whole, { s3: ['getObject', 'selectObjectContentX'] })).toThrow(/no s3 selectObjectContentX/);
  });

  it('stands in for the middleware utilities on Lambda: turning centralized sampling off does nothing, anything else throws', () => {
    const sdk = path.join(PROJECT_ROOT, 'node_modules/aws-xray-sdk-core/dist/lib');
    const lambdaEnv = readFileSync(path.join(sdk, 'env/aws_lambda.js'), 'utf8');
    const mwUtils = readFileSync(path.join(sdk, 'middleware/mw_utils.js'), 'utf8');
    const dir = mkdtempSync(path.join(tmpdir(), 'mw-utils-'));
    try {
      writeFileSync(path.join(dir, 'mw_utils.js'), lambdaMwUtils(lambdaEnv, mwUtils, 'x'));
      const standIn = createRequire(import.meta.url)(path.join(dir, 'mw_utils.js'));
      expect(standIn.disableCentralizedSampling()).toBeUndefined();
      expect(() => standIn.resolveSampling()).toThrow(/middleware resolveSampling is not bundled/);
      expect(() => standIn.setSamplingRules({})).toThrow(/not bundled/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // An SDK whose Lambda set-up asks the module for more, or whose module has another function, is refused.
    expect(() => lambdaMwUtils(`${lambdaEnv}\nmwUtils.setSamplingRules(rules);`, mwUtils, '9.9.9')).toThrow(/aws-xray-sdk-core 9\.9\.9: its Lambda set-up uses/);
    expect(() => lambdaMwUtils(lambdaEnv, mwUtils.replace('    setDefaultName: function', '    setAnything: function () {},\n    setDefaultName: function'), '9.9.9')).toThrow(/update it for this SDK version/);
  });
});
