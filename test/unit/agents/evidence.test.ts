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
import { evidenceProblems } from '../../support/evidence.js';

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

describe.each(JUDGED_FAMILIES)('the %s engine cites its evidence', (family) => {
  const cases = loadCases(family).filter((c) => !('error' in c.expected));
  it.each(cases.map((c) => [c.id, c]))('%s', (_id, c) => {
    const analysis = explain(family, c.input);
    if (!analysis) return; // an input the engine refuses (a known miss) has no findings to cite
    expect(evidenceProblems(family, c.input, analysis)).toEqual([]);
    expect(analysis.result).toEqual(AGENTS.find((a) => a.engine.id.startsWith(`${family}/`))!.engine.analyse(c.input as never));
  });
});
