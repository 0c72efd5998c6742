/**
 * What is wrong with an analysis's evidence (lambdas/agents/engines/port.ts): a finding of the result no entry names,
 * an entry naming no finding, a quote that is not on the line of the input field it cites. Used on the corpus
 * (test/unit/agents/evidence.test.ts) and on what the run routes answer in `outputs.evidence`.
 */
import type { Analysis } from '../../lambdas/agents/engines/port.js';

type Family = 'vendor-risk' | 'bank-rec' | 'expense-policy' | 'po-match';

/** The list of findings in each family's result. */
export const FINDINGS: Record<Family, string> = {
  'vendor-risk': 'flags',
  'bank-rec': 'exceptions',
  'expense-policy': 'violations',
  'po-match': 'discrepancies',
};

/** What is wrong with the evidence of one analysis; empty when every finding is cited from the input. */
export function evidenceProblems(family: Family, input: Record<string, string>, analysis: Analysis<Record<string, unknown>>): string[] {
  const list = FINDINGS[family];
  const findings = (analysis.result[list] ?? []) as unknown[];
  const problems: string[] = [];
  findings.forEach((_, i) => {
    const name = `${list}[${i}]`;
    if (!analysis.evidence.some((e) => e.finding === name || e.finding.startsWith(`${name} `))) problems.push(`${name}: no evidence`);
  });
  for (const entry of analysis.evidence) {
    if (!/^\w+\[\d+\]/.test(entry.finding)) problems.push(`"${entry.finding}": does not name a finding as list[i]`);
    if (entry.sources.length === 0) problems.push(`${entry.finding}: no source`);
    for (const source of entry.sources) {
      const text = input[source.field];
      if (text === undefined) {
        problems.push(`${entry.finding}: cites ${source.field}, not an input field`);
        continue;
      }
      if (source.quote.trim() === '') problems.push(`${entry.finding}: empty quote`);
      const where = source.line === undefined ? text : text.split(/\r\n|\r|\n/)[source.line - 1];
      if (where === undefined || !where.includes(source.quote)) {
        problems.push(`${entry.finding}: "${source.quote}" is not on ${source.field} line ${source.line ?? '(any)'}`);
      }
    }
  }
  return problems;
}
