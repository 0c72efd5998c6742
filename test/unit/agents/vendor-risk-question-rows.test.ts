/**
 * Screening questions a reviewer reads in a questionnaire exported one question a row (Question / Response /
 * Comment columns, as SAP Ariba SLP, Coupa or Jaggaer export them), and the topics whose "Yes" is a red flag in its
 * own area beside the others: a conflict of interest (a tie to the buyer's staff) and debarment (RULES.md rule 9).
 */
import { describe, expect, it } from 'vitest';
import { vendorRiskEngine } from '../../../lambdas/agents/engines/vendor-risk/engine.js';
import { COMPANY_LINES } from '../../support/vendor-risk-company.js';

const run = (vendorProfile: string) => vendorRiskEngine.analyse({ vendorProfile });

/** A question-a-row export (comma-separated) of the clean company, with the compliance rows given. */
function rowsExport(...rows: [string, string, string?][]): string {
  const cell = (s: string) => `"${s.replace(/"/g, '""')}"`;
  const company = COMPANY_LINES.map((l, i) => {
    const [q, a] = l.split(/:\s*/);
    return [`1.${i + 1}`, q, a, ''].map(cell).join(',');
  });
  const compliance = rows.map(([q, a, c], i) => [`3.${i + 1}`, q, a, c ?? ''].map(cell).join(','));
  return ['"ID","Question","Answer","Comments"', ...company, ...compliance].join('\n');
}

describe('a questionnaire exported a question a row', () => {
  it('every answer is read against the question on its own row: all clean → onboard', () => {
    const csv = rowsExport(
      ['Has the company or any officer been convicted of fraud or bribery?', 'No'],
      ['Is the company subject to sanctions or located in a sanctioned country?', 'No'],
      ['Do you have a written conflict of interest policy?', 'Yes'],
    );
    expect(run(csv)).toMatchObject({ grade: 'LOW RISK', decision: 'onboard' });
  });

  it('a director who is the spouse of one of the buyer’s buyers: a conflict of interest, held', () => {
    const csv = rowsExport(
      ['Has the company or any officer been convicted of fraud or bribery?', 'No'],
      ['Is any owner or director related to (spouse, parent, sibling) an employee of the buyer?', 'Yes', 'Our director is married to a buyer in your purchasing team.'],
    );
    const r = run(csv);
    expect(r).toMatchObject({ grade: 'MEDIUM RISK', decision: 'hold' });
    expect(r.flags).toHaveLength(1);
    expect(r.flags[0]).toMatch(/^other: conflict of interest declared .*married to a buyer/);
    expect(r.collect).toEqual(['conflict-of-interest declaration, with the related employee recused from the award']);
    // The flag cites the answer on the question's own row.
    const { evidence } = vendorRiskEngine.explain({ vendorProfile: csv });
    expect(evidence).toEqual([{ finding: 'flags[0] other', sources: [{ field: 'vendorProfile', line: COMPANY_LINES.length + 3, quote: 'Yes' }] }]);
  });

  it('a question left blank in its row is unanswered, not a no', () => {
    const csv = rowsExport(['Is the company or any director subject to sanctions?', '']);
    expect(run(csv).flags).toEqual([expect.stringMatching(/^other: sanctions-exposure question left unanswered/)]);
  });
});

describe('conflict of interest and debarment, in any questionnaire', () => {
  const form = (...lines: string[]) => [...COMPANY_LINES, '', ...lines].join('\n');

  it('a conflict-of-interest question answered yes, in a text questionnaire', () => {
    const r = run(form('5. Does any employee of the buyer hold a financial interest in your company?  Yes'));
    expect(r).toMatchObject({ grade: 'MEDIUM RISK', decision: 'hold' });
    expect(r.flags[0]).toMatch(/^other: conflict of interest declared/);
  });

  it('debarred from public contracts: its own area beside a pending lawsuit', () => {
    const r = run(
      form(
        '6. Has the company been debarred or suspended from government contracting in the last 5 years?  Yes',
        '7. Is there any pending litigation against the company?  Yes',
      ),
    );
    expect(r).toMatchObject({ grade: 'HIGH RISK', decision: 'hold' });
    expect(r.flags.map((f) => f.split(':').slice(0, 2).join(':'))).toEqual(['other: debarment or exclusion declared', 'other: pending litigation declared']);
  });

  it('answered no, or a control question answered yes, is clean', () => {
    expect(run(form('5. Is any director a close relative of an employee of the buyer?  No')).decision).toBe('onboard');
    expect(run(form('6. Will you disclose any conflict of interest that arises during the contract?  Yes')).decision).toBe('onboard');
    expect(run(form('7. Has the company ever been debarred from public procurement?  No')).decision).toBe('onboard');
  });
});
