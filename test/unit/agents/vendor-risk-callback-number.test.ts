/**
 * A bank change is verified by the number that was called (RULES.md rule 6): the buyer's note under the request must
 * record a call to the number it already held, not to one the request itself gives, and a note that names the
 * number on file as not called yet verifies nothing. The request is read as a change in whatever words it uses
 * ("updated legal name and banking", "zmiana rachunku", "계좌 변경"). Documents written for these tests.
 */
import { describe, expect, it } from 'vitest';
import { vendorRiskEngine } from '../../../lambdas/agents/engines/vendor-risk/engine.js';

const request = (subject: string, body: string[], note: string[]) =>
  [
    'From: Priya Nair <p.nair@lakeshoreprint.ca>',
    'To: Payables <ap@northshore-dairy.ca>',
    `Subject: ${subject}`,
    'Date: Mon, 23 Nov 2026 10:02:11 -0500',
    '',
    ...body,
    '',
    'Thank you,',
    'Priya Nair',
    'Controller, Lakeshore Print & Label Inc.',
    '905-555-0142',
    '',
    '-----',
    '[AP note, Northshore Dairy, 24 Nov 2026, J. Ruiz]',
    ...note,
  ].join('\n');

const AMALGAMATION = [
  'Effective November 1, 2026, Lakeshore Print Ltd. and Halton Label Inc. amalgamated and continue as Lakeshore Print & Label Inc.',
  'Please update your records:',
  '  Payee: Lakeshore Print & Label Inc.',
  '  Bank: RBC Royal Bank, transit 04512, institution 003, account 1029384',
];
const CHECKS = 'Account holder on the RBC letter matches the amalgamated corporation name. Second approval: M. Chen.';
const run = (note: string) => vendorRiskEngine.analyse({ vendorProfile: request('Amalgamation - updated legal name and banking', AMALGAMATION, [note, CHECKS]) });

describe('which number the call-back reached', () => {
  it('the number on file, confirmed, with a second control → released', () => {
    const r = run('Called back Lakeshore on 905-555-0100 (number on file in the vendor master since 2014); the controller confirmed account 1029384.');
    expect(r.decision).toBe('onboard');
  });

  it('the number printed in the request → still a change to verify', () => {
    const r = run('Called back Lakeshore on 905-555-0142; the controller confirmed account 1029384. Vendor master number 905-555-0100 not reached.');
    expect(r.decision).toBe('hold');
    expect(r.flags[0]).toMatch(/^payment redirection: bank-detail change requested/);
  });

  it('her cell as given in the e-mail, the number on file not called yet → still a change to verify', () => {
    const r = run('Called Priya on her cell as given in the e-mail, she confirmed account 1029384; vendor master number not called yet.');
    expect(r.decision).toBe('hold');
  });
});

describe('a bank change in other words', () => {
  it.each([
    ['"updated legal name and banking"', 'Amalgamation - updated legal name and banking'],
    ['"new banking details"', 'New banking details for vendor 30712'],
    ['Polish', 'PILNE: zmiana rachunku bankowego'],
    ['Dutch', 'Wijziging van ons rekeningnummer'],
    ['Turkish', 'Yeni banka hesabımız'],
    ['Korean', '계좌 변경 안내'],
    ['Japanese', '振込先変更のお知らせ'],
  ])('%s in the subject → bank-detail change requested', (_name, subject) => {
    const r = vendorRiskEngine.analyse({ vendorProfile: request(subject, ['Please see the attached letter.'], ['Received, not yet actioned.']) });
    expect(r.flags.some((f) => f.startsWith('payment redirection: bank-detail change requested'))).toBe(true);
  });
});

describe('"not the old account, the new one" asks for the change', () => {
  it.each([
    ['English', 'Please do not pay to the old account, use our new bank account below.'],
    ['Polish', 'Prosimy nie płacić na stary rachunek, tylko na nowy rachunek: 21 1140 2004 0000 3102 7781 2204.'],
    ['Portuguese', 'Por favor não paguem na conta antiga, usem a nova conta bancária: 0001 12345-6.'],
    ['German', 'Bitte nicht mehr auf das alte Konto zahlen, sondern auf unsere neue Bankverbindung.'],
  ])('%s → bank-detail change requested', (_name, line) => {
    const r = vendorRiskEngine.analyse({ vendorProfile: request('Payments', [line], ['Received, not yet actioned.']) });
    expect(r.flags.some((f) => f.startsWith('payment redirection: bank-detail change requested'))).toBe(true);
  });

  it('a promise never to change the bank details by e-mail asks for nothing', () => {
    const r = vendorRiskEngine.analyse({ vendorProfile: request('Payments', ['We will never ask you to change our bank details by e-mail.'], ['Noted.']) });
    expect(r.flags.filter((f) => f.startsWith('payment redirection'))).toEqual([]);
  });
});
