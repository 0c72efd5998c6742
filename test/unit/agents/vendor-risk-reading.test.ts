/**
 * Reading a supplier portal's form as a reviewer does: a wrapped compliance question that lists sanctioned places
 * and is answered no places the vendor nowhere; an option the form offers but the vendor did not tick is no answer;
 * a US town whose name is a country's is the town; a PEP owner is an area of its own beside a young company.
 * Each fixture is a clean company but for the fact under test, worked by hand.
 */
import { describe, expect, it } from 'vitest';
import { vendorRiskEngine } from '../../../lambdas/agents/engines/vendor-risk/engine.js';

const run = (vendorProfile: string) => vendorRiskEngine.analyse({ vendorProfile });
const areas = (flags: string[]) => [...new Set(flags.map((f) => (f.startsWith('other: ') ? f.split(': ').slice(0, 2).join(': ') : f.split(':')[0])))];

const CLEAN = [
  'Legal Company Name ............ Osprey Valve Works Inc.',
  'Year Established .............. 1994',
  'Tax ID Number ................. 34-1234567',
  'Address ....................... 800 Canal St, Akron, OH 44308',
  'Website ....................... www.ospreyvalve.com',
  'Email ......................... ap@ospreyvalve.com',
  'Payment Terms ................. Net 30',
];

describe('vendor-risk: a compliance question wrapped over several lines', () => {
  it.each([
    ['an answer after the question mark', ['6.2 Does your company sell to, source from, or have operations in', '    Cuba, Iran, North Korea, Syria, or the Crimea, Donetsk', '    or Luhansk regions of Ukraine?                      No']],
    ['tick boxes on the line under it', ['6.2 Do you have dealings, agents or bank accounts in any', '    sanctioned country (Cuba, Iran, North Korea,', '    Syria, Crimea)?', '    [ ] Yes   [x] No']],
    ['☐/☒ boxes label first', ['Q3  Does the supplier have employees or offices in Iran,', '    Syria or Cuba?', '        Yes ☐   No ☒']],
  ])('answered no places the vendor nowhere: %s', (_name, question) => {
    const r = run([...CLEAN, '', ...question].join('\n'));
    expect(r.flags).toEqual([]);
    expect(r.decision).toBe('onboard');
  });

  it('answered yes, the places count', () => {
    const r = run([...CLEAN, '', '6.2 Do you have operations, employees or bank accounts in', '    Cuba, Iran or Syria?', '    [x] Yes   [ ] No'].join('\n'));
    expect(r.decision).toBe('decline');
  });

  it('a statement above a question is not part of it', () => {
    const r = run([...CLEAN, 'Branch office: Tehran', 'Do you have sanctions exposure?   No'].join('\n'));
    expect(r.decision).toBe('decline');
  });
});

describe('vendor-risk: tick-box options', () => {
  it('an unticked "Advance payment" option is no demand; a ticked one is', () => {
    expect(run([...CLEAN, '5.1 Proposed payment terms', '    [ ] Advance payment   [ ] 14 days   [x] 30 days'].join('\n')).flags).toEqual([]);
    expect(areas(run([...CLEAN, '5.1 Proposed payment terms', '    [x] Advance payment   [ ] 14 days   [ ] 30 days'].join('\n')).flags)).toEqual(['upfront payment demand']);
    expect(areas(run([...CLEAN, 'Terms: Advance payment [x]  Net 30 [ ]'].join('\n')).flags)).toEqual(['upfront payment demand']);
  });

  it("a portal's required-field star before the value under it is no blank tax number", () => {
    const profile = CLEAN.filter((l) => !l.startsWith('Tax ID')).concat(['2.1 VAT registration number*', '    GB 284 6193 52']).join('\n');
    expect(run(profile).flags).toEqual([]);
  });
});

describe('vendor-risk: a US town whose name is a country', () => {
  it.each([
    ['a bank named for the town', 'Terms: ACH to Bank of Cuba (Cuba, MO) - acct holder Osprey Valve Works Inc.'],
    ['the town in a City field, a US state in the State field', 'City: Lebanon\nState: PA\nZIP: 17042'],
    ['the town again without its state', 'Plant: 12 Mill Rd, Havana, FL 32333\nHavana plant hours 7-3'],
  ])('%s is the town', (_name, lines) => {
    expect(run([...CLEAN, lines].join('\n')).flags).toEqual([]);
  });

  it('the country put as the country still counts', () => {
    expect(run([...CLEAN, 'Office: Cuba, MO 65453. We also source tobacco from Cuba.'].join('\n')).decision).toBe('decline');
    expect(run([...CLEAN, 'Plant: Havana, FL. Agent: Calle 23, Havana, Cuba.'].join('\n')).decision).toBe('decline');
  });
});

describe('vendor-risk: a politically exposed owner', () => {
  it('is its own area beside a young company: two areas, HIGH RISK hold', () => {
    const r = run([
      'Printed: 2026-03-12 10:26 ET',
      'Legal Business Name:  Meridian Civic Consulting LLC',
      'Date of Formation:    2025-10-06',
      'Tax ID:               39-4410728',
      'Headquarters Address: 1100 Wilson Blvd, Suite 900, Arlington, VA 22209',
      'Website:              www.meridiancivic.com',
      'Q4  Is any owner or officer a current or former senior public official',
      '    (Politically Exposed Person)?',
      '        ☒ Yes   ☐ No',
    ].join('\n'));
    expect(areas(r.flags)).toEqual(['young company', 'other: owner is a politically exposed person']);
    expect([r.grade, r.decision]).toEqual(['HIGH RISK', 'hold']);
  });

  it('"Submitted by <name> on <date>" is the review date', () => {
    const r = run(['Founded: 2025-06-01', 'EIN: 12-3456789', 'Address: 5 Elm St, Dayton, OH 45402', 'Website: www.elm.com', 'Submitted by Jo Park on 2026-02-01'].join('\n'));
    expect(areas(r.flags)).toEqual(['young company']);
  });
});
