/**
 * A bank account abroad with no reason given: the bank's country (SWIFT/BIC letters five and six, or the IBAN's
 * prefix) differs from the country the vendor is registered in. And a Canadian Business Number / GST/HST number
 * written with its label's own words ("Business Number (BN, 9 digits):", "GST/HST Registration No.:") is a tax id.
 */
import { describe, expect, it } from 'vitest';
import { vendorRiskEngine } from '../../../lambdas/agents/engines/vendor-risk/engine.js';

const form = (...bank: string[]) =>
  [
    'Legal name:                     Birchwood Print Works Ltd.',
    'Jurisdiction of incorporation:  British Columbia (BCBCA)',
    'Date of incorporation:          2011-09-20',
    'Business Number (BN, 9 digits): 123456782',
    'GST/HST Registration No.:       123456782 RT0001',
    'Head office address:            3300 Production Way, Burnaby, BC V5A 4N1, Canada',
    'Payment terms:                  Net 30',
    ...bank,
  ].join('\n');
const analyse = (...bank: string[]) => vendorRiskEngine.explain({ vendorProfile: form(...bank) });

describe('a bank account abroad', () => {
  it('a Canadian company paid into a bank abroad, the why left blank → other, cited', () => {
    const { result, evidence } = analyse('Bank name: DBS Bank Ltd', 'SWIFT code: DBSSSGSGXXX', 'If the account is outside Canada, explain why: ______');
    expect(result.flags).toHaveLength(1);
    expect(result.flags[0]).toMatch(/^other: bank account abroad, no reason given: bank account in Singapore while the vendor is registered in Canada/);
    expect(result.grade).toBe('MEDIUM RISK');
    expect(evidence[0].sources[0].quote).toContain('DBSSSGSG');
  });

  it('an IBAN abroad, no question asked → flagged', () => {
    expect(analyse('IBAN: DE89 3704 0044 0532 0130 00').result.flags[0]).toMatch(/^other: bank account abroad/);
  });

  it.each([
    ['a Canadian bank', ['Bank: Royal Bank of Canada', 'SWIFT/BIC: ROYCCAT2']],
    ['a bank abroad with a reason given', ['SWIFT: DBSSSGSGXXX', 'Reason for a bank account outside Canada: our parent treasury centre in Singapore collects all receivables']],
    ['no bank code at all', ['Bank: Coast Capital Savings, transit 00001']],
  ])('%s → clean (the tax numbers read)', (_name, bank) => {
    expect(analyse(...bank).result.flags).toEqual([]);
  });
});
