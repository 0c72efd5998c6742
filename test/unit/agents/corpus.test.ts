/**
 * The agents' corpus (test/corpus/): practitioners' documents with hand-worked answers. Every case the engines get
 * right must stay right, and every case they still get wrong is named in test/corpus/known-misses.json with why, so
 * the list can only shrink honestly: a miss that starts passing fails here until it is taken off the list.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS_DIR, JUDGED_FAMILIES, inputFields, judge, loadCases, runCase } from '../../../bench/corpus.js';

const KNOWN_MISSES = JSON.parse(readFileSync(join(CORPUS_DIR, 'known-misses.json'), 'utf8')) as Record<string, string>;

describe.each(JUDGED_FAMILIES)('the %s corpus', (family) => {
  const cases = loadCases(family);

  it('every case gives every input field a document (an error case may leave its field out)', () => {
    for (const c of cases) {
      const missing = inputFields(family).filter((f) => !(f in c.input));
      if ('error' in c.expected) expect(missing.every((f) => f === c.expected.field), c.id).toBe(true);
      else expect(missing, c.id).toEqual([]);
    }
  });

  it.each(cases.map((c) => [c.id, c]))('%s', (id, c) => {
    const judged = judge(c, runCase(c));
    if (id in KNOWN_MISSES) {
      expect(judged.reasons, `${id} is now right: take it off test/corpus/known-misses.json`).not.toEqual([]);
    } else {
      expect(judged.reasons, `${id}: ${c.title}`).toEqual([]);
    }
  });
});

it('every known miss names a case that exists', () => {
  const ids = new Set(JUDGED_FAMILIES.flatMap((family) => loadCases(family).map((c) => c.id)));
  expect(Object.keys(KNOWN_MISSES).filter((id) => !ids.has(id))).toEqual([]);
});

