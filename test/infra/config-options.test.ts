/**
 * The context keys are declared once, in lib/config.ts's schema, each with an example (CONFIG_EXAMPLES) that
 * test/infra/nag.test.ts synthesises with cdk-nag: a key without one, or with one that does not parse, fails here
 * before anything is synthesised. docs/deploy.md's "Context options" table (the one table of them the README points an
 * operator to) has a row for every key the app reads, and none for a key it does not.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_EXAMPLES, CONFIG_KEYS, EXCLUSIVE_KEYS, exampleContext, parseStackConfig, stackConfigSchema, type ConfigKey } from '../../lib/config.js';
import { REASONING_CONTEXT_KEYS } from '../../lib/agent-reasoning.js';

const REGION = 'eu-west-1';
const defaults = stackConfigSchema.parse({}) as Record<string, unknown>;

describe('every context key of the schema has an example', () => {
  it('one per key, and none for a key the schema does not have', () => {
    expect(CONFIG_KEYS.filter((key) => !Object.hasOwn(CONFIG_EXAMPLES, key))).toEqual([]);
    expect(Object.keys(CONFIG_EXAMPLES).filter((key) => !(CONFIG_KEYS as string[]).includes(key))).toEqual([]);
  });

  it.each(CONFIG_KEYS)('%s: its example, with the keys it names, is a valid configuration that sets it', (key) => {
    const raw = exampleContext([key], REGION);
    expect(() => parseStackConfig(raw)).not.toThrow();
    // A value the default already has would synthesise the default again.
    const parsed = stackConfigSchema.parse(raw) as Record<string, unknown>;
    expect(parsed[key]).toBeDefined();
    expect(JSON.stringify(parsed[key])).not.toBe(JSON.stringify(defaults[key]));
  });

  it('the keys an example names exist, and never one it excludes', () => {
    for (const key of CONFIG_KEYS) {
      const keys = Object.keys(exampleContext([key], REGION)) as ConfigKey[];
      expect(keys.filter((k) => !CONFIG_KEYS.includes(k)), key).toEqual([]);
      for (const pair of EXCLUSIVE_KEYS) expect(pair.every((k) => keys.includes(k)), `${key}: ${pair.join(' and ')}`).toBe(false);
    }
  });

  it('the exclusive keys are refused together, naming the second', () => {
    for (const [url, secret] of EXCLUSIVE_KEYS) {
      expect(() => parseStackConfig(exampleContext([url, secret], REGION))).toThrow(new RegExp(`context key "${secret}" must not be set with ${url}`));
    }
  });
});

/** The keys named in the first cell of each row of docs/deploy.md's "Context options" table. */
function contextOptionsTable(): string[] {
  const doc = readFileSync(path.resolve(import.meta.dirname, '../../docs/deploy.md'), 'utf8');
  const start = doc.indexOf('\n## Context options\n');
  expect(start, 'docs/deploy.md has a "## Context options" section').toBeGreaterThanOrEqual(0);
  const section = doc.slice(start + 1, doc.indexOf('\n## ', start + 1));
  const rows = section.split('\n').filter((line) => line.startsWith('| `'));
  // One table: its rows are contiguous.
  const lines = section.split('\n');
  const first = lines.findIndex((l) => l.startsWith('| `'));
  expect(lines.slice(first, first + rows.length).every((l) => l.startsWith('| `')), 'the context options are one table').toBe(true);
  return rows.flatMap((row) => [...row.split('|')[1].matchAll(/`([A-Za-z0-9]+)`/g)].map((m) => m[1]));
}

it("docs/deploy.md's Context options table has one row for every context key the app reads, and no other", () => {
  const named = contextOptionsTable();
  const read = [...CONFIG_KEYS, ...REASONING_CONTEXT_KEYS, 'stackName'];
  expect(read.filter((key) => !named.includes(key)), 'keys the app reads with no row').toEqual([]);
  expect(named.filter((key) => !read.includes(key as ConfigKey)), 'rows for keys the app does not read').toEqual([]);
  expect(named.filter((key, i) => named.indexOf(key) !== i), 'keys with two rows').toEqual([]);
});

it("cdk.json's context sets only keys the app reads (besides CDK's own feature flags): a stale key would be ignored in silence", () => {
  const context = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../cdk.json'), 'utf8')).context as Record<string, unknown>;
  const read = new Set<string>([...CONFIG_KEYS, ...REASONING_CONTEXT_KEYS, 'stackName']);
  expect(Object.keys(context).filter((key) => !key.startsWith('@aws-cdk/') && !read.has(key))).toEqual([]);
});
