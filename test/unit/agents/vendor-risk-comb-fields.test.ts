/**
 * A W-9 or W-8 pasted from its PDF: the TIN's comb field comes out one character a box ("[5][4] - [2][7][1]…"), on
 * the label's line or under it. A reviewer reads the number the boxes spell (RULES.md rule 3); empty boxes are a
 * number left blank. And a US town named like a sanctioned country, in the form's city line, is a US town; and a
 * Québec vendor's sales-tax numbers under their French labels (TPS / TVQ) are tax numbers.
 */
import { describe, expect, it } from 'vitest';
import { vendorRiskEngine } from '../../../lambdas/agents/engines/vendor-risk/engine.js';

const W9 = (tin: string, city = 'Cuba, NM 87013') =>
  [
    'Form W-9 (Rev. March 2024)',
    '1  Name of entity/individual',
    '   Rio Puerco Fencing LLC',
    '5  Address (number, street, and apt. or suite no.)',
    '   4410 State Highway 550',
    '6  City, state, and ZIP code',
    `   ${city}`,
    'Part I   Taxpayer Identification Number (TIN)',
    ...tin.split('\n'),
    'Website: www.riopuercofencing.com. LLC formed 2009. Terms: net 30. ACH to an account in the LLC name.',
  ].join('\n');

describe('a TIN typed into a comb field', () => {
  it('an EIN one digit a box, on the label’s line: read, no tax gap', () => {
    const r = vendorRiskEngine.analyse({ vendorProfile: W9('   Social security number   [   ]-[  ]-[    ]\n   or\n   Employer identification number   [8][5] - [0][4][4][1][9][7][2]') });
    expect(r).toMatchObject({ grade: 'LOW RISK', decision: 'onboard', flags: [] });
  });

  it('an SSN one digit a box, on the line under its label', () => {
    const r = vendorRiskEngine.analyse({ vendorProfile: W9('   Social security number\n   [6][0][1] - [2][2] - [7][7][4][0]') });
    expect(r.flags).toEqual([]);
  });

  it('empty boxes are a number left blank: missing tax id', () => {
    const r = vendorRiskEngine.analyse({ vendorProfile: W9('   Social security number   [ ][ ][ ]-[ ][ ]-[ ][ ][ ][ ]\n   or\n   Employer identification number   [ ][ ] - [ ][ ][ ][ ][ ][ ][ ]') });
    expect(r.flags.map((f) => f.split(':')[0])).toEqual(['missing tax id']);
  });

  it('the town on line 6 named like a sanctioned country, with its state and ZIP, is a US town', () => {
    const r = vendorRiskEngine.analyse({ vendorProfile: W9('   Employer identification number   [8][5] - [0][4][4][1][9][7][2]', 'Syria, VA 22743') });
    expect(r.decision).toBe('onboard');
  });
});

describe('Canadian sales-tax numbers under their French labels', () => {
  it('TPS and TVQ numbers are tax numbers', () => {
    const profile = ['Fournisseur : Les Ateliers Beaulieu inc., 455 rue Racine, Chicoutimi (Québec) G7H 1S7', 'Numéros de taxes : TPS 123456782 RT0001 / TVQ 1234567890 TQ0001', 'En affaires depuis 1998, www.ateliersbeaulieu.ca, net 30.'].join('\n');
    expect(vendorRiskEngine.analyse({ vendorProfile: profile }).flags).toEqual([]);
  });
});
