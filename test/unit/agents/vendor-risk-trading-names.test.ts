/**
 * A trading name is the vendor's own name when the document ties it to the legal name ("Trading as:", "t/a", "h/a",
 * "DBA", a bank letter's "LEGAL LTD T/A TRADING"): an account in that name pays the same legal person. An account
 * held by someone else who trades under the vendor's name is still a third party. Fixtures are clean companies but
 * for the fact under test.
 */
import { describe, expect, it } from 'vitest';
import { vendorRiskEngine } from '../../../lambdas/agents/engines/vendor-risk/engine.js';
import { vendorNames } from '../../../lambdas/agents/engines/vendor-risk/names.js';

const run = (vendorProfile: string) => vendorRiskEngine.analyse({ vendorProfile });
const eml = (body: string[]) =>
  ['From: Lerato Dube <lerato@kloofbrewing.co.za>', 'To: Creditors <creditors@buyer.co.za>', 'Subject: Supplier application', 'Date: Tue, 6 Oct 2026 09:00:00 +0200', '', ...body].join('\r\n');
const COMPANY = ['Registered name: Dube Craft Beverages (Pty) Ltd', 'Registration no.: 2011/004417/07 (registered 3 March 2011)', 'VAT number: 4400271863', 'Physical address: 14 Old Main Road, Kloof, 3610'];
const thirdParty = (flags: string[]) => flags.filter((f) => f.includes('third party'));

describe('a trading name tied to the legal name', () => {
  it('reads a "Trading as:" label as a name of the vendor', () => {
    expect(vendorNames('Registered name: Dube Craft Beverages (Pty) Ltd\nTrading as: Kloof Brewing Co\n')).toContain('Kloof Brewing Co');
  });

  it('onboards an account in the declared trading name', () => {
    const r = run(eml([...COMPANY, 'Trading as: Kloof Brewing Co', 'Account name: KLOOF BREWING CO', 'Bank: Nedbank, account 1021 448 719']));
    expect(thirdParty(r.flags)).toEqual([]);
    expect(r.decision).toBe('onboard');
  });

  it('reads a bank letter tying the trading name to the legal name (t/a)', () => {
    const r = run(eml([...COMPANY, 'Account name: KLOOF BREWING', 'Bank letter: "Account holder: DUBE CRAFT BEVERAGES (PTY) LTD T/A KLOOF BREWING, account 1021448719"']));
    expect(thirdParty(r.flags)).toEqual([]);
  });

  it('reads the Dutch "h/a" and the American "DBA" ties', () => {
    expect(vendorNames('Statutaire naam: Bakkerij Verhoef B.V.\nKvK-uittreksel: Bakkerij Verhoef B.V. h/a Het Broodhuys\n')).toContain('Het Broodhuys');
    expect(vendorNames('Legal name: Lone Oak Roasters LLC\nW-9 line 2: Lone Oak Roasters LLC dba Oak & Ember Coffee\n')).toContain('Oak & Ember Coffee');
  });

  it('does not tie a trading name to a company that is not the vendor', () => {
    expect(vendorNames('Legal name: Lone Oak Roasters LLC\nOur landlord, Harbour Estates Ltd t/a Harbour Lofts\n')).not.toContain('Harbour Lofts');
  });

  it('a label left blank ("Doing business as: (none)") names no one', () => {
    expect(vendorNames('Legal name: Lone Oak Roasters LLC\nDoing business as: (none)\n')).toEqual(['Lone Oak Roasters LLC']);
  });
});

describe('someone else trading under the vendor\'s name', () => {
  it('holds an account of a person "t/a" the vendor\'s name', () => {
    const r = run(eml([...COMPANY, 'Trading as: Kloof Brewing Co', 'Account name: Sipho Ndlovu t/a Kloof Brewing Co', 'Bank: Capitec, account 1502 774 120']));
    expect(thirdParty(r.flags)).not.toEqual([]);
    expect(r.decision).toBe('hold');
  });
});

describe('a company label mid-sentence in an e-mail', () => {
  it('names the company', () => {
    expect(vendorNames('Thanks for the call earlier. Company: Ridgeback Tools Ltd, VAT GB 402 7719 31.\n')).toContain('Ridgeback Tools Ltd');
  });

  it('an account in that company\'s name is the vendor\'s own', () => {
    const body = ['Hi, as discussed. Company: Ridgeback Tools Ltd, incorporated 2009, VAT GB 402 7719 31. Registered office 5 Forge Lane, Sheffield S1 4AB.', 'Account name: Ridgeback Tools Ltd, sort code 20-**-**'];
    const r = run(['From: Ann Lee <ann@ridgebacktools.co.uk>', 'To: AP <ap@buyer.co.uk>', 'Subject: Set-up', 'Date: Tue, 6 Oct 2026 09:00:00 +0100', '', ...body].join('\r\n'));
    expect(thirdParty(r.flags)).toEqual([]);
  });
});
