/**
 * The document forms a practitioner reads (RULES.md "Reading the document"): an e-mail's headers as evidence, a form
 * tool's export cell by cell, every screening question of a questionnaire, tax numbers as PDF forms paste them,
 * private mailboxes, payee names. Each fixture is a clean company but for the one fact under test, worked by hand.
 */
import { describe, expect, it } from 'vitest';
import { vendorRiskEngine } from '../../../lambdas/agents/engines/vendor-risk/engine.js';
import { resultSchema } from '../../../lambdas/agents/engines/vendor-risk/schema.js';
import { readAnswer } from '../../../lambdas/agents/engines/vendor-risk/questions.js';
import { looksAlike } from '../../../lambdas/agents/engines/vendor-risk/email.js';

/**
 * A jurisdiction flag quotes the line it was read from; these tests assert the place it names (the quote itself is
 * asserted in vendor-risk-evidence.test.ts).
 */
const placeOnly = (flag: string) => (/^(?:sanctioned|high-risk) jurisdiction: /.test(flag) ? flag.replace(/ \("[^]*"\)$/, '') : flag);

const run = (vendorProfile: string) => {
  const result = vendorRiskEngine.analyse({ vendorProfile });
  expect(resultSchema.parse(result)).toEqual(result);
  return { ...result, flags: result.flags.map(placeOnly) };
};
const areas = (flags: string[]) => [...new Set(flags.map((f) => (f.startsWith('other: ') ? f.split(': ').slice(0, 2).join(': ') : f.split(':')[0])))];

const eml = (headers: string[], body: string[]) => [...headers, '', ...body].join('\r\n');
const CLEAN_BODY = [
  'Legal name: Osprey Valve Works Inc.',
  'Incorporated: Ohio, 2009',
  'EIN: 34-1234567',
  'Address: 800 Canal St, Akron, OH 44308',
  'Website: www.ospreyvalve.com',
  'Terms: Net 30',
];

describe('an e-mail is read with its headers', () => {
  it('a clean reply from the vendor\'s own domain, first remit details in its own name: onboard', () => {
    // From = website domain, DMARC passes, account name = legal name, no change of existing details.
    const text = eml(
      [
        'From: Ana Ruiz <ana@ospreyvalve.com>',
        'To: Buyer <ap@buyerco.com>',
        'Subject: Vendor setup',
        'Date: Mon, 2 Mar 2026 10:00:00 -0500',
        'Authentication-Results: mx.buyerco.com; spf=pass smtp.mailfrom=ospreyvalve.com; dkim=pass header.d=ospreyvalve.com; dmarc=pass',
      ],
      [...CLEAN_BODY, 'Remit (ACH): KeyBank, account name Osprey Valve Works Inc.'],
    );
    expect(run(text).decision).toBe('onboard');
  });

  it('Reply-To on another domain and DMARC failing, with a bank change: two areas, call back the number on file', () => {
    const text = eml(
      [
        'Return-Path: <bounce@osprey-valve.com>',
        'Authentication-Results: mx.buyerco.com; spf=softfail smtp.mailfrom=osprey-valve.com; dkim=none; dmarc=fail header.from=ospreyvalve.com',
        'From: Osprey Billing <billing@ospreyvalve.com>',
        'Reply-To: billing@osprey-valve.com',
        'To: ap@buyerco.com',
        'Subject: Remittance',
        'Date: Mon, 2 Mar 2026 10:00:00 -0500',
      ],
      [...CLEAN_BODY, 'Osprey Valve Works Inc. has switched banks. Kindly route future payments to the account below.'],
    );
    const r = run(text);
    expect(areas(r.flags)).toEqual(['payment redirection', 'unverifiable identity']);
    expect(r.grade).toBe('HIGH RISK');
    expect(r.flags.some((f) => f.includes('Reply-To: billing@osprey-valve.com'))).toBe(true);
    expect(r.note).toContain('number already on file');
  });

  it('a forwarded request from a look-alike of the vendor\'s domain is unverifiable', () => {
    // The buyer's note names the vendor's domain; the quoted request comes from ospreyvalve-billing.com.
    const text = eml(
      ['From: Kim <kim@buyerco.com>', 'To: AP Review <review@buyerco.com>', 'Subject: FW: new account', 'Date: Mon, 2 Mar 2026 10:00:00 -0500'],
      [
        'Vendor master: Osprey Valve Works Inc., domain ospreyvalve.com, EIN 34-1234567 on file.',
        '',
        '-----Original Message-----',
        'From: Osprey Accounts <accounts@ospreyvalve-billing.com>',
        'Please pay all outstanding invoices to our new bank account below.',
      ],
    );
    const r = run(text);
    expect(areas(r.flags)).toEqual(['payment redirection', 'unverifiable identity']);
    expect(r.flags.find((f) => f.startsWith('unverifiable identity'))).toContain('ospreyvalve-billing.com imitates');
  });

  it('the Date header is the review date: founded 7 months before it is young (the rules constant would say 15 months)', () => {
    const text = eml(
      ['From: Ana <ana@ospreyvalve.com>', 'To: ap@buyerco.com', 'Subject: setup', 'Date: Mon, 2 Mar 2026 10:00:00 -0500'],
      CLEAN_BODY.map((l) => (l.startsWith('Incorporated') ? 'Incorporated: 2025-08-01' : l)),
    );
    expect(run(text).flags).toEqual(['young company: founded 2025-08-01, not shown to be 12 months old on 2026-03-02 ("Incorporated: 2025-08-01")']);
  });

  it('look-alike domains', () => {
    expect(looksAlike('acme-supp1y.com', 'acmesupply.com')).toBe(true);
    expect(looksAlike('acmesupply-billing.com', 'acmesupply.com')).toBe(true);
    expect(looksAlike('northgate-metals.com', 'northgatemetals.com')).toBe(true);
    expect(looksAlike('mail.acmesupply.com', 'acmesupply.com')).toBe(false);
    expect(looksAlike('brennan.com', 'ospreyvalve.com')).toBe(false);
  });
});

describe('a form tool export is read cell by cell', () => {
  const header = 'Submitted At,Company name,Year founded,Address,EIN,Has the company filed for bankruptcy in the last 3 years?,Is any owner a government official?,Payment terms';
  it('a 1 under a risk question is a yes: its own red-flag area', () => {
    const r = run(`${header}\n2026-02-01 10:00:00,Osprey Valve Works Inc.,2009,"800 Canal St, Akron, OH",34-1234567,1,0,Net 30`);
    expect(areas(r.flags)).toEqual(['other: bankruptcy or insolvency declared']);
    expect(r).toMatchObject({ grade: 'MEDIUM RISK', decision: 'hold' });
  });

  it('a blank answer to a screening question cannot be read as no: hold', () => {
    const r = run(`${header}\n2026-02-01 10:00:00,Osprey Valve Works Inc.,2009,"800 Canal St, Akron, OH",34-1234567,0,,Net 30`);
    expect(areas(r.flags)).toEqual(['other: government official (PEP) among owners question left unanswered']);
  });

  it('every risk question answered 0, tax id in its column: onboard', () => {
    expect(run(`${header}\n2026-02-01 10:00:00,Osprey Valve Works Inc.,2009,"800 Canal St, Akron, OH",34-1234567,0,0,Net 30`).decision).toBe('onboard');
  });

  it('the submission time is the review date', () => {
    const r = run(`${header}\n2026-02-01 10:00:00,Osprey Valve Works Inc.,2025-05-01,"800 Canal St, Akron, OH",34-1234567,0,0,Net 30`);
    expect(r.flags[0]).toMatch(/^young company: founded 2025-05-01, not shown to be 12 months old on 2026-02-01/);
  });
});

describe('a questionnaire is read question by question', () => {
  const company = CLEAN_BODY.join('\n');
  it('a negatively phrased statement answered N is the red flag', () => {
    const q = `${company}\nAnswer Y (true) or N (not true).\n4. The company is not subject to any insolvency proceedings.  Y/N: N\n5. No owner is a public official.  Y/N: Y`;
    expect(areas(run(q).flags)).toEqual(['other: bankruptcy or insolvency declared']);
  });

  it('a ticked Yes under a litigation question, and a ticked No under another: one area', () => {
    const q = `${company}\n1. Is the company party to pending litigation alleging fraud?\n   [x] Yes  [ ] No\n2. Has any director been convicted of bribery?\n   [ ] Yes  [x] No`;
    expect(areas(run(q).flags)).toEqual(['other: pending litigation declared']);
  });

  it('a yes to a question that is not a screening question is not a flag', () => {
    expect(run(`${company}\nDo you use subcontractors?  Y/N: Y`).decision).toBe('onboard');
  });

  it('answers in their spellings', () => {
    expect(readAnswer('☐ Yes  ☒ No')).toBe('no');
    expect(readAnswer('[x] Sí / Yes   [ ] No')).toBe('yes');
    expect(readAnswer('Y/N: Y')).toBe('yes');
    expect(readAnswer('0')).toBe('no');
    expect(readAnswer('')).toBe('blank');
    expect(readAnswer('[ ] Yes [ ] No')).toBe('blank');
    expect(readAnswer('Not that we are aware of')).toBe('no');
    expect(readAnswer('We are a defendant in Smith v. Osprey')).toBe('unclear');
  });
});

describe('tax numbers as forms paste them', () => {
  const base = 'Vendor: Osprey Valve Works Inc.\nIncorporated 2009\nAddress: 800 Canal St, Akron, OH 44308\nWebsite: www.ospreyvalve.com\n';
  it('a W-9 TIN box pasted digit by digit on the line under its label is a tax number', () => {
    expect(run(`${base}Form W-9\nEmployer identification number\n3 4 – 1 2 3 4 5 6 7\n`).decision).toBe('onboard');
  });
  it('"APPLIED FOR" in the box, "[to follow]" or "will send later" is no tax id', () => {
    expect(run(`${base}Employer identification number\nAPPLIED FOR\n`).flags[0]).toMatch(/^missing tax id: tax id stated as not provided yet/);
    expect(run(`${base}Tax ID: [to follow]\n`).flags[0]).toMatch(/^missing tax id/);
    expect(run(`${base}Our EIN will follow next week.\n`).flags[0]).toMatch(/^missing tax id/);
  });
  it('a foreign tax number by its label (RFC, NIF, Foreign TIN) is a tax number', () => {
    expect(run(`${base}RFC: OVW0901154K2\n`).decision).toBe('onboard');
    expect(run(`${base}9b Foreign TIN: 58042/06137\n`).decision).toBe('onboard');
  });
});

describe('addresses and payees', () => {
  const base = 'Vendor: Osprey Valve Works Inc.\nIncorporated 2009\nEIN: 34-1234567\nWebsite: www.ospreyvalve.com\n';
  it('a PMB at a street address is a private mailbox, not a street', () => {
    expect(run(`${base}Address: 2261 Market St PMB 4410, San Francisco, CA 94114\n`).flags[0]).toMatch(/^PO box only address: PMB 4410/);
  });
  it('a PMB beside a separate office street is fine', () => {
    expect(run(`${base}Mail: 2261 Market St PMB 4410, San Francisco, CA\nOffice: 800 Canal St, Akron, OH 44308\n`).decision).toBe('onboard');
  });
  it('a payee whose name is not the vendor\'s is payment to a third party', () => {
    const r = run(`${base}Address: 800 Canal St, Akron, OH 44308\nPayee: Harbor Trade Holdings LLC\nBank: KeyBank\n`);
    expect(r.flags).toEqual(['payment redirection: payment to a third party ("Payee: Harbor Trade Holdings LLC")']);
  });
  it('an account holder that is the vendor is not', () => {
    expect(run(`${base}Address: 800 Canal St, Akron, OH 44308\nAccount name: Osprey Valve Works, Inc.\n`).decision).toBe('onboard');
  });
});
