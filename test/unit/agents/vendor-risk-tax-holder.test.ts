/**
 * A tax number registered to someone else: the tax authority's check pasted beside the vendor's VAT or tax number
 * names a different business, or says name and number do not match. The clean company of vendor-risk-company.ts
 * with lines added.
 */
import { describe, expect, it } from 'vitest';
import { vendorRiskEngine } from '../../../lambdas/agents/engines/vendor-risk/engine.js';
import { COMPANY_LINES } from '../../support/vendor-risk-company.js';

const analyse = (...lines: string[]) => vendorRiskEngine.explain({ vendorProfile: [...COMPANY_LINES, ...lines].join('\n') });
const flags = (...lines: string[]) => analyse(...lines).result.flags;

describe('a tax number whose registered holder is another business', () => {
  it.each([
    ['a VAT check naming another business', ['VAT no.: GB 123 4567 89', 'HMRC VAT check:', '  Valid UK VAT number', '  Registered business name: ORCHARD LANE JOINERY LIMITED'], 'VAT number'],
    ['a VIES trader name', ['VIES check, VAT DE811223344', 'Trader name: Bergmann Logistik GmbH'], 'VAT number'],
    ['a TIN match that fails', ['IRS TIN Matching 11/02: code 3 - name/TIN combination does not match IRS records'], 'tax number'],
  ])('%s → other, cited', (_name, lines, kind) => {
    const { result, evidence } = analyse(...lines);
    expect(result.flags).toHaveLength(1);
    expect(result.flags[0]).toMatch(new RegExp(`^other: ${kind} registered to a different business`));
    expect(result.grade).toBe('MEDIUM RISK');
    expect(evidence[0].sources[0].quote).toBeTruthy();
  });

  it.each([
    ['the VAT check names the vendor, in capitals and without punctuation', ['VAT check GB 987 6543 21', 'Registered business name: NORTHWIND TRADERS L.L.C.']],
    ['a TIN match that matches', ['IRS TIN Matching: name/TIN combination matches IRS records (code 0)']],
    ['a trader name far from any tax check', ['Notes', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'Trader name: Bergmann Logistik GmbH']],
  ])('%s → clean', (_name, lines) => {
    expect(flags(...lines)).toEqual([]);
  });
});
