/**
 * Where a reviewer reads the vendor's name before comparing it with the payee (a registry extract's heading, a
 * registry's own label in its language, the company line of the sender's signature), and which sanctions questions
 * ask about the vendor's own controls rather than its exposure. Each fixture is a clean company but for the fact
 * under test, worked by hand.
 */
import { describe, expect, it } from 'vitest';
import { vendorRiskEngine } from '../../../lambdas/agents/engines/vendor-risk/engine.js';
import { vendorNames } from '../../../lambdas/agents/engines/vendor-risk/names.js';

const run = (vendorProfile: string) => vendorRiskEngine.analyse({ vendorProfile });
const eml = (from: string, body: string[]) =>
  [`From: ${from}`, 'To: Accounts <suppliers@buyerco.co.uk>', 'Subject: Supplier set-up', 'Date: Mon, 5 Oct 2026 10:00:00 +0100', '', ...body].join('\r\n');

describe('the vendor named by a pasted registry extract', () => {
  // A Companies House overview puts the name alone on its line above "Company number"; the bank account is in the
  // short form of the same name.
  const extract = [
    'Please find our details below.',
    '',
    'NORTHGATE JOINERY LIMITED',
    'Company number 04567123',
    'Registered office address',
    '14 Canal Wharf, Skipton, England, BD23 1AB',
    'Incorporated on',
    '12 May 2004',
    'VAT number: GB 402 7719 31',
    'Website: www.northgatejoinery.co.uk',
  ];

  it('an account name in the short form of the heading\'s name is the vendor\'s own: onboard', () => {
    const r = run(eml('Sam Hale <sam@northgatejoinery.co.uk>', [...extract, 'Bank: Lloyds, account name Northgate Joinery Ltd, sort code 30-**-**']));
    expect(r.flags).toEqual([]);
    expect(r.decision).toBe('onboard');
  });

  it('an account in a person\'s name is still a third party', () => {
    const r = run(eml('Sam Hale <sam@northgatejoinery.co.uk>', [...extract, 'Bank: Lloyds, account name Samuel Hale, sort code 30-**-**']));
    expect(r.flags).toEqual(['payment redirection: payment to a third party ("Bank: Lloyds, account name Samuel Hale, sort code 30-**-**")']);
    expect(r.grade).toBe('MEDIUM RISK');
  });

  it('a capitalised line that is not followed by a company number is no heading', () => {
    expect(vendorNames('HARBOUR FACTORING LIMITED\nhandles our receivables')).toEqual([]);
    expect(vendorNames('NORTHGATE JOINERY LIMITED\n\nCompany number 04567123')).toEqual(['NORTHGATE JOINERY LIMITED']);
  });
});

describe('the vendor named by its registry\'s own label', () => {
  it('"Raison sociale" (a French Kbis extract) and dotted leaders are labels of the legal name', () => {
    expect(vendorNames('Raison sociale : ATELIER DUPUIS SARL\n')).toEqual(['ATELIER DUPUIS SARL']);
    expect(vendorNames('  2.1 Legal company name ........ Brenner Kunststofftechnik GmbH     ID: AN0042\n')).toEqual(['Brenner Kunststofftechnik GmbH']);
    expect(vendorNames('Ragione sociale: Officine Baldini S.p.A.\n')).toEqual(['Officine Baldini S.p.A.']);
  });

  it('a Kbis extract and a beneficiary in the company\'s own name: onboard', () => {
    const text = [
      'EXTRAIT KBIS',
      'Raison sociale : ATELIER DUPUIS SARL',
      'Immatriculation au RCS : 512 384 117 R.C.S. Lyon',
      'Date d\'immatriculation : 03/09/2009',
      'Adresse du siege : 22 rue de la Charite, 69002 Lyon, France',
      'N TVA intracommunautaire : FR47512384117',
      'Website: www.atelier-dupuis.fr',
      'Beneficiary: Atelier Dupuis SARL',
      'Payment terms: 45 jours fin de mois',
    ].join('\n');
    expect(run(text).decision).toBe('onboard');
  });
});

describe('the vendor named by the sender\'s signature', () => {
  const body = (account: string) => [
    'Hallo,',
    '',
    'anbei unsere Daten:',
    'Handelsregister: Amtsgericht Stuttgart, HRB 73519',
    'Gegründet / established: 14.02.1996',
    'USt-IdNr.: DE811234567',
    'Adresse: Industriestraße 9, 70565 Stuttgart',
    `Account holder: ${account}`,
    'IBAN: DE89 6005 0101 0001 2345 67',
    '',
    'Mit freundlichen Grüßen',
    '',
    'Klaus Berger',
    'Vertrieb | Berger Feinmechanik GmbH',
    'www.berger-feinmechanik.de',
  ];

  it('the signature\'s company line is the vendor: an account holder in that name is its own', () => {
    expect(run(eml('Klaus Berger <k.berger@berger-feinmechanik.de>', body('Berger Feinmechanik GmbH'))).decision).toBe('onboard');
  });

  it('an account holder that is neither the signature\'s company nor any other name of the vendor is a third party', () => {
    const r = run(eml('Klaus Berger <k.berger@berger-feinmechanik.de>', body('KB Handelsagentur')));
    expect(r.flags).toEqual(['payment redirection: payment to a third party ("Account holder: KB Handelsagentur")']);
  });

  it('a company named elsewhere in the text does not vouch for a payee in its name', () => {
    const text = [...body('Harbour Receivables Ltd'), '', 'P.S. Harbour Receivables Ltd collects our invoices from now on.'];
    expect(run(eml('Klaus Berger <k.berger@berger-feinmechanik.de>', text)).flags[0]).toMatch(/^payment redirection: payment to a third party/);
  });

  it('a sentence about the payee names no payee', () => {
    const text = ['Legal name: Osprey Valve Works Inc.', 'Incorporated 2009', 'EIN: 34-1234567', 'Address: 800 Canal St, Akron, OH 44308', 'Website: www.ospreyvalve.com'];
    expect(run([...text, 'Checked: beneficiary name on the voided cheque matches the legal name.'].join('\n')).decision).toBe('onboard');
  });
});

describe('sanctions questions on the vendor\'s own controls', () => {
  const company = [
    'Legal name: Osprey Valve Works Inc.',
    'Incorporated: Ohio, 2009',
    'EIN: 34-1234567',
    'Address: 800 Canal St, Akron, OH 44308',
    'Website: www.ospreyvalve.com',
    'Terms: Net 30',
  ];
  const form = (...qs: string[]) => [...company, 'Trade compliance', ...qs].join('\n');
  const exposure = 'Q1. Is the company, or any owner or officer, on the OFAC SDN or any other sanctions list?   No';

  it('yes to screening its customers, to a compliance policy and to complying with the laws is good practice: onboard', () => {
    const r = run(
      form(
        exposure,
        'Q2. Does your company screen its customers, distributors and suppliers against OFAC and EU sanctions lists?   Yes',
        'Q3. Do you maintain a written sanctions and export-control compliance policy?',
        '    [x] Yes  [ ] No',
        'Q4. Do you comply with all applicable U.S. sanctions regulations?   Y',
      ),
    );
    expect(r.flags).toEqual([]);
    expect(r.decision).toBe('onboard');
  });

  it('no to the company\'s own screening is a gap a reviewer sees: hold on it, one area', () => {
    const r = run(form(exposure, 'Q2. Do you screen your customers against sanctions lists?   No'));
    expect(r.flags).toEqual(['other: sanctions compliance control answered no: "Q2. Do you screen your customers against sanctions lists?  No"']);
    expect(r).toMatchObject({ grade: 'MEDIUM RISK', decision: 'hold' });
  });

  it('a question that asks about exposure too is read as exposure: yes is declared exposure', () => {
    const r = run(form('Q2. Do you screen your customers, and has the company ever been subject to sanctions or penalties?   Yes'));
    expect(r.flags.map((f) => f.split(':').slice(0, 2).join(':'))).toEqual(['other: sanctions exposure declared']);
  });

  it('a screening that flagged the vendor is exposure, not a control', () => {
    expect(run(form('Q2. Has the company ever been flagged or blocked by a bank\'s sanctions screening?   Yes')).flags[0]).toMatch(/^other: sanctions exposure declared/);
  });

  it('yes to being listed is still declared exposure', () => {
    expect(run(form(exposure.replace(/No$/, 'Yes'))).flags[0]).toMatch(/^other: sanctions exposure declared/);
  });
});
