/**
 * `npm run bench:agents`: every case of the agents' corpus (test/corpus/) run through its agent's engine and judged
 * against the practitioner's answer. Prints, per agent, the decisions right, the amounts right to the cent and the
 * wrong permissive answers, then each case still wrong with why. Asserts nothing; the corpus test keeps the known
 * misses honest.
 */
import { JUDGED_FAMILIES, judge, loadCases, runCase, type Judgement, type CorpusCase } from './corpus.js';

const rows: string[][] = [['agent', 'cases', 'decisions right', 'amounts right', 'wrong permissive']];
const wrong: { c: CorpusCase; j: Judgement }[] = [];
for (const family of JUDGED_FAMILIES) {
  const cases = loadCases(family);
  const judged = cases.map((c) => ({ c, j: judge(c, runCase(c)) }));
  const count = (pick: (j: Judgement) => boolean) => judged.filter(({ j }) => pick(j)).length;
  rows.push([family, String(cases.length), `${count((j) => j.decisionRight)}/${cases.length}`, `${count((j) => j.amountsRight)}/${cases.length}`, String(count((j) => j.wrongPermissive))]);
  wrong.push(...judged.filter(({ j }) => j.reasons.length > 0));
}
const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
for (const row of rows) console.log(row.map((cell, i) => cell.padEnd(widths[i])).join('  '));
console.log(`\nCases still wrong (${wrong.length}):`);
for (const { c, j } of wrong) console.log(`- ${c.id}${j.wrongPermissive ? ' [WRONG PERMISSIVE]' : ''}: ${j.reasons.join('; ')}`);
