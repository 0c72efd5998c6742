/**
 * The X-Ray SDK copy the functions bundle keeps the AWS call whitelist entries of the calls they make, and only those
 * (lib/bundling/xray-sdk.ts): every S3 command a function sends is in it (a new one would otherwise be traced without
 * its bucket and key), DynamoDB whole, and a name the SDK's list lacks is refused rather than kept as nothing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { trimWhitelist, XRAY_WHITELIST } from '../../../lib/bundling/xray-sdk.js';
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
});
