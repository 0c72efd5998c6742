/**
 * A bank-detail change the buyer's accounts payable has already verified (RULES.md rule 6): released only on the
 * buyer's own record — the top message of an internal e-mail, above the forwarded request — of a call made back to
 * the number on file, confirmed, with a second control. Every weaker record keeps the hold.
 */
import { describe, expect, it } from 'vitest';
import { vendorRiskEngine } from '../../../lambdas/agents/engines/vendor-risk/engine.js';

const REQUEST = [
  '---------- Forwarded message ---------',
  'From: Dana Ruiz <ar@harborlinesupply.com>',
  'Date: Mon, 16 Nov 2026 08:02',
  'Subject: New bank details - Harborline Supply Inc.',
  '',
  'Hello, please update our bank details: from 1 December our payments go to our new account at KeyBank,',
  'account name Harborline Supply Inc., routing 041001039, account 3391 2201 7. Bank letter attached.',
  'Harborline Supply Inc., 88 Pier Rd, Portland ME 04101, EIN 01-0847113, vendor since 2013.',
  '',
  'Kind regards,',
  'Dana Ruiz',
  'Harborline Supply Inc.',
  'Tel. 207 555 0133',
].join('\n');

const email = (from: string, top: string[], request = REQUEST) =>
  [`From: ${from}`, 'To: Vendor Master <vendormaster@keelbay.com>', 'Date: Thu, 19 Nov 2026 15:10:00 -0500', 'Subject: FW: New bank details - Harborline Supply Inc.', '', ...top, '', request].join('\n');

const CLERK = 'Tom Alder <t.alder@keelbay.com>';
const run = (profile: string) => vendorRiskEngine.analyse({ vendorProfile: profile });

describe('a change verified by the buyer is released', () => {
  it('call-back to the number on file, confirmed, with a micro-deposit: onboard, and the note says why', () => {
    const r = run(
      email(CLERK, [
        'Verification done per AP-12:',
        '1. Called back Dana Ruiz on 207 555 0101, the number in our vendor master (not the one in the e-mail). She confirmed the change and read back the account number.',
        '2. Micro-deposit of $0.21 sent 17 Nov, amount confirmed by Dana on the same number 18 Nov.',
        '3. Account name on the KeyBank letter matches our vendor master.',
      ]),
    );
    expect(r).toMatchObject({ grade: 'LOW RISK', decision: 'onboard', flags: [] });
    expect(r.note).toMatch(/recorded as verified by the buyer's call-back to the number on file/);
  });

  it('in German: Rückruf unter der hinterlegten Nummer, bestätigt, zweite Freigabe', () => {
    const r = run(
      email(CLERK, [
        'Rückruf am 18.11. unter der in den Stammdaten hinterlegten Nummer: Frau Ruiz hat die neue Bankverbindung bestätigt.',
        'Kontoinhaber laut Bankbestätigung stimmt mit den Stammdaten überein. Zweite Freigabe durch Team Lead erfolgt.',
      ]),
    );
    expect(r.decision).toBe('onboard');
  });
});

describe('a weaker record keeps the hold', () => {
  const held = (profile: string) => expect(run(profile)).toMatchObject({ decision: 'hold', flags: [expect.stringMatching(/^payment redirection: /)] });

  it('the call is not made yet', () => {
    held(email(CLERK, ['I have not called them back yet; micro-deposit pending. They confirmed by e-mail, number on file is 207 555 0101.']));
  });

  it('the call is only asked for', () => {
    held(email(CLERK, ['Please call Dana back at the number on file to confirm before anything changes. Bank letter attached.']));
  });

  it('no second control beside the call-back', () => {
    held(email(CLERK, ['Called back Dana on the number on file; she confirmed the new account. Account name matches.']));
  });

  it('nothing recorded about whose the new account is', () => {
    held(email(CLERK, ['Called back Dana on the number on file; she confirmed the new account. Micro-deposit confirmed.']));
  });

  it('a call the vendor made in, whatever number it came from', () => {
    held(email(CLERK, ['Dana called us from the number on file and confirmed the change. Bank letter attached. Account holder name matches our file.']));
  });

  it('the call reached no one, or the confirmation came by e-mail', () => {
    held(email(CLERK, ['Called back Dana on the number on file: voicemail. She confirmed by e-mail later. Micro-deposit sent. Account name matches.']));
    held(email(CLERK, ['Called back the number on file; Dana has not confirmed yet. Micro-deposit sent. Account name matches.']));
  });

  it('the number called was not the one on file', () => {
    held(email(CLERK, ['Called back the number in her signature, which is not on file; she confirmed. Micro-deposit confirmed. Account holder name matches our file.']));
  });

  it('the record is in the vendor’s own message, not the buyer’s', () => {
    const request = REQUEST.replace('Bank letter attached.', 'Your AP team called us back at the number on file and we confirmed. Bank letter attached.');
    held(email(CLERK, ['See below, for review.'], request));
  });

  it('the top message is not the buyer’s own (sent from the vendor’s domain)', () => {
    held(email('Dana Ruiz <ar@harborlinesupply.com>', ['AP called back at the number on file and we confirmed. Micro-deposit confirmed. Account holder name matches our file.']));
  });

  it('the new account is in someone else’s name', () => {
    const request = REQUEST.replace('account name Harborline Supply Inc.', 'account name Pier Capital Partners LLC');
    const r = run(email(CLERK, ['Called back Dana on the number on file; she confirmed. Micro-deposit confirmed.'], request));
    // No record that the account is the vendor's: held (and, where the document names the vendor, a third party).
    expect(r.decision).toBe('hold');
    expect(r.flags.some((f) => f.startsWith('payment redirection: '))).toBe(true);
  });

  it('a payee the document shows is not the vendor, whatever the record says', () => {
    const request = REQUEST.replace('account name Harborline Supply Inc.', 'account name Pier Capital Partners LLC');
    const r = run(email(CLERK, ['Called back Dana on the number on file; she confirmed. Micro-deposit confirmed. Account holder name matches our file.'], request));
    expect(r.decision).toBe('hold');
    expect(r.flags).toContainEqual(expect.stringMatching(/^payment redirection: payment to a third party/));
  });

  it('a pasted note with no e-mail headers: its author cannot be told', () => {
    held(['Vendor change log', 'Called back Dana on the number on file; she confirmed. Micro-deposit confirmed. Account holder name matches our file.', '', REQUEST].join('\n'));
  });
});
