/**
 * A payee that is the vendor's successor in law (RULES.md rule 6): after an amalgamation or a merger the continuing
 * company is the vendor under another name, so a change of payee to it is a bank change to verify, not a payment to
 * someone else — but only when the buyer's own record shows it from a register; the vendor's word, an acquisition
 * or a record that denies the merger keeps the payee a third party. The buyer's record may be the notes its forward
 * points to at the bottom ("see my notes at the bottom"). Documents written for these tests.
 */
import { describe, expect, it } from 'vitest';
import { vendorRiskEngine } from '../../../lambdas/agents/engines/vendor-risk/engine.js';

const REQUEST = [
  '-----Original Message-----',
  'From: Alan Pryce <a.pryce@kestreltooling.co.uk>',
  'Sent: 16 November 2026 09:12',
  'To: purchase.ledger@fenwickfoods.co.uk',
  'Subject: Merger of Kestrel Tooling Ltd into Harwood Engineering Ltd',
  '',
  'Dear customer,',
  'Kestrel Tooling Ltd was merged into its parent Harwood Engineering Ltd on 1 November 2026 (cross-border merger',
  'order filed at Companies House). From invoices dated 1 December please pay:',
  '   Payee: Harwood Engineering Ltd',
  '   Bank: Lloyds Bank, sort code 30-94-57, account 48213377 (bank letter attached)',
  'Invoices dated before 1 December stay payable to the existing account. For any doubt call 0114 496 0321 or the',
  'number you already hold for us.',
  '',
  'Kind regards,',
  'Alan Pryce',
  'Kestrel Tooling Ltd (part of Harwood Engineering)',
  'Unit 4, Attercliffe Works, Sheffield S9 3QD | 0114 496 0321',
].join('\n');

const REGISTER = '2. Companies House search: HARWOOD ENGINEERING LTD, company 04418823, active; merger registered 01/11/2026, transferor company KESTREL TOOLING LTD.';
const CALL = '1. Rang Kestrel on the number in our supplier master since 2015 (0114 496 0321), spoke to Alan Pryce - he confirmed the merger, the new payee and account 48213377.';
const LETTER = '3. Lloyds letter on letterhead, account holder Harwood Engineering Ltd, same sort code and account as the e-mail.';

const forward = (top: string[], notes: string[]) =>
  [
    'From: Purchase Ledger <purchase.ledger@fenwickfoods.co.uk>',
    'To: supplier.master@fenwickfoods.co.uk',
    'Subject: FW: Merger of Kestrel Tooling Ltd into Harwood Engineering Ltd',
    'Date: Wed, 18 Nov 2026 11:40:02 +0000',
    '',
    ...top,
    '',
    REQUEST,
    '',
    '------------------------------------------------------------',
    ...notes,
  ].join('\n');

const POINTING = ['Supplier master - please update supplier K0231. Checks done, see my notes at the bottom.', 'Ruth Okafor, Purchase Ledger, Fenwick Foods Ltd'];
const run = (profile: string) => vendorRiskEngine.analyse({ vendorProfile: profile });
const redirection = (profile: string) => run(profile).flags.filter((f) => f.startsWith('payment redirection'));

describe('the successor on the buyer’s register search, the change verified', () => {
  it('a merger on Companies House, call-back to the master number, bank letter naming the successor → onboard, and the note says why', () => {
    const r = run(forward(POINTING, ['Purchase ledger verification notes (R. Okafor, 18 Nov 2026):', CALL, REGISTER, LETTER]));
    expect(r).toMatchObject({ grade: 'LOW RISK', decision: 'onboard', flags: [] });
    expect(r.note).toMatch(/Harwood Engineering Ltd\) is the vendor's successor by amalgamation or merger/);
  });

  it('an amalgamation in a Canadian register, the note headed "AP verification notes" → onboard', () => {
    const notes = [
      'AP verification notes (R. Okafor):',
      CALL,
      '2. Corporations Canada search: Harwood Engineering Ltd, corporation 1123456-7, active, amalgamated 2026-11-01; amalgamating corporations include Kestrel Tooling Ltd.',
      LETTER,
    ];
    expect(run(forward(POINTING, notes)).decision).toBe('onboard');
  });
});

describe('the payee stays a third party', () => {
  it('the register shows the payee and an acquisition, no merger', () => {
    const register = '2. Companies House search: HARWOOD ENGINEERING LTD, company 04418823, active; it acquired KESTREL TOOLING LTD in 2024.';
    const r = run(forward(POINTING, ['Verification notes:', CALL, register, LETTER]));
    expect(r.decision).toBe('hold');
    expect(redirection(forward(POINTING, ['Verification notes:', CALL, register, LETTER]))[0]).toMatch(/^payment redirection: payment to a third party/);
  });

  it('the record denies the merger', () => {
    const register = '2. Companies House search: HARWOOD ENGINEERING LTD active; no merger filed, KESTREL TOOLING LTD remains a separate legal entity.';
    expect(redirection(forward(POINTING, ['Verification notes:', CALL, register, LETTER]))[0]).toMatch(/third party/);
  });

  it('the merger only in the vendor’s own words, the record names no register', () => {
    expect(redirection(forward(POINTING, ['Verification notes:', CALL, LETTER]))[0]).toMatch(/third party/);
  });
});

describe('the successor shown, the change not yet verified', () => {
  it('the call went to the number the request gives, not the master’s', () => {
    const call = '1. Called Alan on 0114 496 0999 as given in the e-mail; he confirmed the account. Supplier master number not called yet.';
    const flags = redirection(forward(POINTING, ['Verification notes:', call, REGISTER, LETTER]));
    expect(flags[0]).toMatch(/^payment redirection: bank-detail change requested \(the new payee, Harwood Engineering Ltd, is the vendor's successor/);
  });

  it('the number the request prints, called as "(supplier master)" with no time it has been held', () => {
    const call = '1. Rang Alan on 0114 496 0321 (supplier master); he confirmed the merger and account 48213377.';
    expect(run(forward(POINTING, ['Verification notes:', call, REGISTER, LETTER])).decision).toBe('hold');
  });

  it('the top message does not point to notes, and the notes do not name the buyer', () => {
    const r = run(forward(['Supplier master - please update supplier K0231.'], ['Verification notes:', CALL, REGISTER, LETTER]));
    expect(r.decision).toBe('hold');
  });

  it('no bank letter or other second control', () => {
    expect(run(forward(POINTING, ['Verification notes:', CALL, REGISTER])).decision).toBe('hold');
  });
});
