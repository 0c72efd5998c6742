/**
 * What a practitioner reads that a keyword does not (undecided answers, someone else's address, a nationality, how the
 * vendor wants to be paid) and the evidence each flag cites: the line of the buyer's own text, quoted verbatim.
 * Each fixture is the clean company of vendor-risk.test.ts with one fact changed.
 */
import { describe, expect, it } from 'vitest';
import { vendorRiskEngine } from '../../../lambdas/agents/engines/vendor-risk/engine.js';
import { COMPANY_LINES } from '../../support/vendor-risk-company.js';

const COMPANY = COMPANY_LINES;
const profile = (...extra: string[]) => [...COMPANY, ...extra].join('\n');
const explain = (vendorProfile: string) => vendorRiskEngine.explain({ vendorProfile });
const run = (vendorProfile: string) => explain(vendorProfile).result;

describe('an answer that does not answer is not a no', () => {
  it('a sanctions question answered N/A holds, and the note says the fact is open', () => {
    const r = run(profile('Is the company or any owner located in a country subject to comprehensive sanctions? N/A'));
    expect(r).toMatchObject({ grade: 'MEDIUM RISK', decision: 'hold' });
    expect(r.flags[0]).toMatch(/^other: sanctions question answered N\/A - exposure cannot be determined: /);
    expect(r.note).toMatch(/does not settle sanctions question answered N\/A.*never taken as a no/);
    expect(r.collect).toEqual(['an answer to every screening question']);
  });

  it('a question wrapped over lines, a required-field star and "Unknown" are read the same way', () => {
    const r = run(profile('4.3 Is any owner organized or resident in a country subject to', '    comprehensive U.S. sanctions (e.g., OFAC SDN List)? *     Unknown'));
    expect(r.decision).toBe('hold');
    expect(r.flags[0]).toMatch(/^other: sanctions-exposure answer unclear|^other: sanctions exposure answer unclear/);
  });

  it('a plain No still clears it', () => {
    expect(run(profile('Is the company or any owner located in a sanctioned country? *   No')).decision).toBe('onboard');
  });
});

describe('an address that is not the vendor\'s premises', () => {
  it('a registered agent\'s care-of address and a PO box: no street of its own', () => {
    const r = run(
      profile().replace('Registered address: 400 Market St, Suite 200, San Francisco, CA 94105', 'Primary address: c/o Registered Agents Inc., 30 N Gould St Ste R, Sheridan WY 82801\nRemit to: PO Box 2417, Sheridan WY 82801'),
    );
    expect(r).toMatchObject({ grade: 'MEDIUM RISK', decision: 'hold' });
    expect(r.flags[0]).toMatch(/^PO box only address: PO Box 2417 and a care-of \/ agent's address/);
  });

  it('care of a person at the vendor\'s own street is not someone else\'s address', () => {
    expect(run(profile().replace('Registered address:', 'Registered address: c/o Jane Smith,')).decision).toBe('onboard');
  });
});

describe('a nationality is not a place the vendor is in', () => {
  it('an owner of Iranian nationality residing in the United States: clean', () => {
    const r = run(profile('Owner: Reza Karimi, 60%', 'Nationality: Iran', 'Country of residence: United States'));
    expect(r).toMatchObject({ grade: 'LOW RISK', decision: 'onboard' });
  });

  it('with no residence stated anywhere, where the owner lives is asked, not assumed (hold, never decline)', () => {
    const r = run(profile('Owner: Reza Karimi, an Iranian national, 60%'));
    expect(r).toMatchObject({ grade: 'MEDIUM RISK', decision: 'hold' });
    expect(r.flags[0]).toMatch(/^other: owner's country of residence not stated: nationality Iran/);
  });

  it('an owner resident in Tehran is still there', () => {
    expect(run(profile('Owner: Reza Karimi, Iranian national, resident in Tehran')).decision).toBe('decline');
  });
});

describe('payment outside the banking system', () => {
  it('gift cards asked for as payment hold', () => {
    const r = run(profile('How would you like to be paid? Amazon gift cards e-mailed to our office manager'));
    expect(r).toMatchObject({ grade: 'MEDIUM RISK', decision: 'hold' });
    expect(r.flags[0]).toMatch(/^other: asks to be paid in gift cards: /);
  });

  it('cryptocurrency with a money-before-delivery demand: two areas', () => {
    const r = run(profile('50% advance payment with the order. We prefer payment in USDT (TRC-20) to our company wallet.'));
    expect(r).toMatchObject({ grade: 'HIGH RISK', decision: 'hold' });
    expect(r.flags.map((f) => f.split(':')[0] + (f.startsWith('other') ? `:${f.split(':')[1]}` : ''))).toEqual(['upfront payment demand', 'other: asks to be paid in cryptocurrency']);
  });

  it('refusing crypto, or selling gift cards, is not asking to be paid in them', () => {
    expect(run(profile('We do not accept payment in cryptocurrency.')).decision).toBe('onboard');
    expect(run(profile('Products: corporate gift cards and incentive programmes.')).decision).toBe('onboard');
  });
});

describe('a sole proprietor on gmail who can be checked', () => {
  it('masked SSN on a W-9 that came back signed, a state business licence: clean', () => {
    const r = run(
      [
        'Vendor: Ruth A. Abernathy dba Abernathy Court Reporting (sole proprietor), ruth.abernathy.ccr@gmail.com',
        'W-9 came back signed 3/23: TIN = SSN (XXX-XX-4417 on the copy)',
        'WA business licence: UBI 604 418 227, opened 06/02/2014',
        'Address: 3318 N 26th St, Tacoma WA 98407. Invoiced after the job, net 30.',
      ].join('\n'),
    );
    expect(r).toMatchObject({ grade: 'LOW RISK', decision: 'onboard' });
  });
});

describe('every flag cites the line of the buyer\'s text it rests on', () => {
  it('one entry per flag, named flags[i] <area>, quoting its line verbatim (accents and curly quotes as typed)', () => {
    const raw = ['Vendor: Abidjan Cocoa SARL', 'Siège : Boulevard Lagunaire 12, Abidjan, Côte d’Ivoire', 'Contact: cocoa.abidjan@gmail.com'].join('\r\n');
    const { result, evidence } = explain(raw);
    expect(evidence.map((e) => e.finding)).toEqual(result.flags.map((f, i) => `flags[${i}] ${f.startsWith('other:') ? 'other' : f.slice(0, f.indexOf(':'))}`));
    const place = evidence[result.flags.findIndex((f) => f.startsWith('high-risk jurisdiction'))];
    expect(place.sources).toEqual([{ field: 'vendorProfile', line: 2, quote: 'Siège : Boulevard Lagunaire 12, Abidjan, Côte d’Ivoire' }]);
    expect(result.flags[0]).toContain('("Siege : Boulevard Lagunaire 12, Abidjan, Cote d\'Ivoire")');
  });

  it('a finding of absence cites the first line and says it is nowhere in the document', () => {
    const { result, evidence } = explain('\n\nSupplier intake notes\nName: Orchard Lane Bakery\nAddress: 18 Elm Street, Springfield IL\nWebsite: orchardlanebakery.com');
    expect(result.flags).toEqual(['missing tax id: no EIN/TIN/VAT number and no W-9 or W-8BEN on file: none anywhere in the document']);
    expect(evidence[0].sources).toEqual([{ field: 'vendorProfile', line: 3, quote: 'Supplier intake notes' }]);
  });

  it("a form export's answer is cited on its response row, a blank answer by its question", () => {
    const csv = [
      'Timestamp,Legal name,EIN,Address,Does any owner have sanctions exposure?',
      '2026-03-02 10:00:00,Northwind Traders LLC,12-3456789,"400 Market St, San Francisco CA",',
    ].join('\n');
    const { result, evidence } = explain(csv);
    expect(result.flags).toHaveLength(1);
    expect(evidence[0].sources[0]).toMatchObject({ line: 1, quote: 'Does any owner have sanctions exposure?' });
  });
});
