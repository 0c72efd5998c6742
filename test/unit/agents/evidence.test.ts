/**
 * Every finding an agent returns cites what it rests on (the run's `outputs.evidence`): each flag, exception,
 * violation and discrepancy of the result has an entry naming it, and every quoted source is really on the line of
 * the input field it names, so an auditor can check the finding without re-reading the documents. Held on every case
 * of the corpus, whatever its answer.
 */
import { describe, expect, it } from 'vitest';
import { JUDGED_FAMILIES, loadCases, type JudgedFamily } from '../../../bench/corpus.js';
import { AGENTS } from '../../../lambdas/agents/registry.js';
import { AgentInputError } from '../../../lambdas/shared/errors.js';
import type { Analysis } from '../../../lambdas/agents/engines/port.js';

/** The list of findings in each family's result. */
const FINDINGS: Record<JudgedFamily, string> = {
  'vendor-risk': 'flags',
  'bank-rec': 'exceptions',
  'expense-policy': 'violations',
  'po-match': 'discrepancies',
};

function explain(family: JudgedFamily, input: Record<string, string>): Analysis<Record<string, unknown>> | undefined {
  const agent = AGENTS.find((a) => a.engine.id.startsWith(`${family}/`))!;
  const parsed = agent.inputSchema.safeParse(input);
  if (!parsed.success) return undefined;
  try {
    return agent.engine.explain(parsed.data as never) as Analysis<Record<string, unknown>>;
  } catch (error) {
    if (error instanceof AgentInputError) return undefined;
    throw error;
  }
}

/** What is wrong with the evidence of one analysis; empty when every finding is cited from the input. */
export function evidenceProblems(family: JudgedFamily, input: Record<string, string>, analysis: Analysis<Record<string, unknown>>): string[] {
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

describe.each(JUDGED_FAMILIES)('the %s engine cites its evidence', (family) => {
  const cases = loadCases(family).filter((c) => !('error' in c.expected));
  it.each(cases.map((c) => [c.id, c]))('%s', (_id, c) => {
    const analysis = explain(family, c.input);
    if (!analysis) return; // an input the engine refuses (a known miss) has no findings to cite
    expect(evidenceProblems(family, c.input, analysis)).toEqual([]);
    expect(analysis.result).toEqual(AGENTS.find((a) => a.engine.id.startsWith(`${family}/`))!.engine.analyse(c.input as never));
  });
});
