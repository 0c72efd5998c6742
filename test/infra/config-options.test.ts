/**
 * The context keys are declared once, in lib/config.ts's schema, each with an example (CONFIG_EXAMPLES) that
 * test/infra/nag.test.ts synthesises with cdk-nag: a key without one, or with one that does not parse, fails here
 * before anything is synthesised. The README names every key the app reads.
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

it('the README names every context key the app reads', () => {
  const readme = readFileSync(path.resolve(import.meta.dirname, '../../README.md'), 'utf8');
  // As a key (`key`, `key`/…) or as a flag (-c key=…).
  const named = (key: string) => new RegExp(`\`${key}\`|\`${key}/|\\b${key}=`).test(readme);
  expect([...CONFIG_KEYS, ...REASONING_CONTEXT_KEYS, 'stackName'].filter((key) => !named(key))).toEqual([]);
});

it("cdk.json's context sets only keys the app reads (besides CDK's own feature flags): a stale key would be ignored in silence", () => {
  const context = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../cdk.json'), 'utf8')).context as Record<string, unknown>;
  const read = new Set<string>([...CONFIG_KEYS, ...REASONING_CONTEXT_KEYS, 'stackName']);
  expect(Object.keys(context).filter((key) => !key.startsWith('@aws-cdk/') && !read.has(key))).toEqual([]);
});
