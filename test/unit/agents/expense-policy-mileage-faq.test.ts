/**
 * RULES.md "mileage rate", "a question and its answer", "fare class": mileage tiers printed as a schedule with dot
 * leaders or given in one sentence ("… after that"), a rate for another vehicle kept apart, the line pricing a log,
 * a journey a log lists twice, a delimited export's rows that are not trips; an FAQ's "Q:"/"A:" marks; a fare-class
 * rule about one mode of travel (air) not applied to another (rail); "against a receipt" and "without a receipt … not
 * reimbursed" as receipt rules.
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';
import { readPolicy } from '../../../lambdas/agents/engines/expense-policy/policy.js';
import { resultSchema } from '../../../lambdas/agents/engines/expense-policy/schema.js';
import { GSA_POLICY } from '../../support/gsa-policy.js';

function run(expense: string, expensePolicy: string) {
  const result = expensePolicyEngine.analyse({ expense, expensePolicy });
  expect(resultSchema.parse(result)).toEqual(result);
  return result;
}

const LEADERS = [
  'Car allowance (own vehicle), per business mile:',
  '  First 5,000 business miles in the year ........ 50p per mile',
  '  Over 5,000 business miles ..................... 30p per mile',
].join('\n');

const LOG = (ytd: string) => [
  'MILEAGE RETURN - April',
  `Business miles already claimed this year: ${ytd}`,
  '',
  'Date        Journey                           Miles   Claimed',
  '07/04/2026  Depot - Rugby site - Depot           60    £30.00',
  '15/04/2026  Depot - Leicester office - Depot     80    £40.00',
  '                                               -----   ------',
  'TOTAL                                            140    £70.00',
].join('\n');

describe('expense-policy: mileage tiers and the log', () => {
  it('reads a schedule with dot leaders as one rate per row, with its tier', () => {
    const p = readPolicy(LEADERS);
    expect(p.currency).toBe('GBP');
    expect(p.mileage.map((r) => [r.milli, r.upTo ?? 0n, r.after])).toEqual([[5000n, 5000n, 0n], [3000n, 0n, 5000n]]);
  });

  it('pays the miles past the threshold at the lower rate, from the miles already claimed', () => {
    // 4,900 already: 100 at 0.50 = 50.00 and 40 at 0.30 = 12.00.
    const r = run(LOG('4,900'), LEADERS);
    expect(r.verdict).toBe('flag');
    expect(r.reimbursable_amount).toBe(62);
    expect(run(LOG('1,200'), LEADERS)).toMatchObject({ verdict: 'approve', reimbursable_amount: 70 });
  });

  it('reads two tiers in one sentence ("after that") and keeps a motorcycle rate apart', () => {
    const policy = 'Own car: 40p per mile for the first 8,000 miles in the year, 20p per mile after that. Motorcycles: 24p per mile.';
    const p = readPolicy(policy);
    expect(p.mileage.map((r) => [r.milli, r.after, r.vehicle ?? ''])).toEqual([[4000n, 0n, ''], [2000n, 8000n, ''], [2400n, 0n, 'motorcycles']]);
    // 7,950 already: 50 at 0.40 = 20.00, 90 at 0.20 = 18.00.
    expect(run(LOG('7,950'), policy)).toMatchObject({ verdict: 'flag', reimbursable_amount: 38 });
  });

  const EMAIL = [
    'Hi, my mileage for March (own car). Miles this tax year before this claim: 2,100.',
    '',
    'Date        Journey                           Miles',
    '02/03/2026  Office - Reading client - office      46',
    '09/03/2026  Office - Oxford site - office         58',
    '09/03/2026  Office - Oxford site - office         58',
    '                                   Total miles   162',
    '',
    '162 miles @ 45p                                   £72.90',
    'Train ticket Oxford, 12/03/2026 (receipt attached)  £14.20',
  ].join('\n');
  const POLICY = '4. Mileage\nCars: 45p per mile for the first 10,000 business miles, 25p per mile after that.\n5. Rail\nStandard class, against a receipt.';

  it('takes the line pricing the log as its claim, and pays a journey listed twice once', () => {
    const r = run(EMAIL, POLICY);
    // 104 miles × 0.45 = 46.80 for the log, the train 14.20.
    expect(r.verdict).toBe('flag');
    expect(r.reimbursable_amount).toBe(61);
    expect(r.violations).toHaveLength(1);
    expect(r.violations[0]).toContain('duplicate claim');
    expect(run(EMAIL.replace(/^09\/03\/2026 {2}Office - Oxford site - office {9}58\n/m, '').replace('162', '104').replace('162 miles', '104 miles').replace('£72.90', '£46.80'), POLICY))
      .toMatchObject({ verdict: 'approve', reimbursable_amount: 61 });
  });

  it('refuses the train without its receipt: "against a receipt" under the heading requires it', () => {
    const r = run(EMAIL.replace('(receipt attached)', '(no receipt)'), POLICY);
    expect(r.verdict).toBe('reject');
  });
});

const FAQ = [
  'TRAVEL FAQ',
  '',
  'FLIGHTS',
  'Q: Which cabin may I book?',
  'A: Economy. Business class flights are not reimbursable unless the COO approved them in advance.',
  '',
  'TRAINS',
  'Q: Is first class rail allowed?',
  'A: No. First class rail is not reimbursable.',
  'Q: Do I need a receipt for a taxi?',
  'A: Yes — keep the receipt for every taxi ride.',
].join('\n');

describe('expense-policy: an FAQ and class rules by mode of travel', () => {
  it('reads the marked answers and scopes each class rule to its mode of travel', () => {
    expect(run('Train Leeds - London, business class, $180.00, receipt attached', FAQ)).toMatchObject({ verdict: 'approve', reimbursable_amount: 180 });
    expect(run('Train Leeds - London, first class, $260.00, receipt attached', FAQ).verdict).toBe('reject');
    // A business-class flight without the approval is held, not refused.
    expect(run('Flight JFK - LAX, business class, $1400.00, receipt attached', FAQ)).toMatchObject({ verdict: 'flag', reimbursable_amount: 0 });
  });

  it('reads a "Yes —" answer to a receipt question as the receipt rule', () => {
    expect(run('Taxi to the client, $32.00, no receipt', FAQ).verdict).toBe('reject');
    expect(run('Taxi to the client, $32.00, receipt attached', FAQ).verdict).toBe('approve');
  });

  it('reads "without a receipt … not reimbursed" as a receipt rule, not a refusal of the category', () => {
    const policy = 'Meals are capped at $60 per person. Without an itemised receipt, meals are not reimbursed.';
    expect(run('Lunch with a client, $45.00, 1 person, receipt attached', policy).verdict).toBe('approve');
    expect(run('Lunch with a client, $45.00, 1 person, no receipt', policy).violations[0]).toContain('receipt required');
  });
});

const trip = (place: string, second: number) => JSON.stringify({
  report: `Trip to ${place}`,
  items: [
    { date: '2026-05-04', category: 'Per diem', description: `M&IE ${place} first day`, amount: 59.25 },
    { date: '2026-05-05', category: 'Per diem', description: `M&IE ${place} - dinner provided by the client`, amount: second },
    { date: '2026-05-06', category: 'Per diem', description: `M&IE ${place} last day`, amount: 59.25 },
  ],
});

describe('expense-policy: per diem by location from the policy\'s tables', () => {
  it('reads the rate of the place named, 75% on the first and last day, less a furnished meal', () => {
    const p = readPolicy(GSA_POLICY);
    expect(p.schedules.places.map((x) => [x.key, x.full, x.fallback])).toEqual([['portland', 7900n, false], ['standard rate', 5900n, true]]);
    expect(p.receipts).toEqual([]);
    // Portland: 79 × 75% = 59.25 on the edge days; 79 − 36 (dinner furnished) = 43.00.
    expect(run(trip('Portland', 43), GSA_POLICY)).toMatchObject({ verdict: 'approve', reimbursable_amount: 161.5 });
    const over = run(trip('Portland', 79), GSA_POLICY);
    expect([over.verdict, over.reimbursable_amount]).toEqual(['flag', 161.5]);
    expect(over.violations[0]).toContain('less the furnished dinner ($36.00)');
  });

  it('holds a place not listed to the "all other locations" rate', () => {
    // 59 × 75% = 44.25 on the edge days: 59.25 claimed is 15.00 over each; 59 − 26 = 33.00 on the middle day.
    const r = run(trip('Boise', 33), GSA_POLICY);
    expect([r.verdict, r.reimbursable_amount]).toEqual(['flag', 121.5]);
  });
});
