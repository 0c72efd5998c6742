import { describe, expect, it } from 'vitest';
import { rec, shape } from '../../support/bank-rec-engine.js';


describe('bank-rec: one line that is the sum of several on the other side', () => {
  it('a deposit of several receipts is one matched group', () => {
    const bank = 'Date,Description,Amount\n2026-03-06,BRANCH DEPOSIT,6150.00\n';
    const books = 'Date,Description,Amount\n2026-03-06,Marchetti ck 3318,2400.00\n2026-03-06,Dental ck 11904,3750.00\n';
    const r = rec(bank, books);
    expect(r).toMatchObject({ reconciled: true, matched: 1, exceptions: [] });
    expect(r.note).toContain('Matched as one group');
  });

  it('one book entry paid in several bank lines (a pay run) is one group, within 3 days', () => {
    const bank = 'Date,Description,Amount\n2026-03-13,WAGES A,-100.00\n2026-03-13,WAGES B,-250.50\n2026-03-14,WAGES C,-49.50\n';
    const books = 'Date,Description,Amount\n2026-03-12,Pay run,-400.00\n';
    expect(rec(bank, books)).toMatchObject({ reconciled: true, matched: 1 });
  });

  it('two groupings that add up equally well: none is chosen, the lines stay exceptions and the note says why', () => {
    const bank = 'Date,Description,Amount\n2026-03-06,DEPOSIT,300.00\n';
    const books = 'Date,Description,Amount\n2026-03-06,A,100.00\n2026-03-06,B,200.00\n2026-03-06,C,120.00\n2026-03-06,D,180.00\n';
    const r = rec(bank, books);
    expect(r.matched).toBe(0);
    expect(shape(r)).toEqual([['missing_in_books', 300], ['missing_on_bank', -100], ['missing_on_bank', -200], ['missing_on_bank', -120], ['missing_on_bank', -180]]);
    expect(r.note).toMatch(/adds up from book rows 1\+2 and equally from 3\+4|adds up from book rows 3\+4 and equally from 1\+2/);
  });
});

describe('bank-rec: identification by a reference quoted in the text', () => {
  it('the same reference on one line each side at different amounts is an amount mismatch (a transposition)', () => {
    const bank = 'Date,Description,Amount\n04/03/2026,CROFTON STEEL LTD PVS-2291,-1254.00\n30/03/2026,X,1.00\n';
    const books = 'Date,Description,Ref,Amount\n04/03/2026,Purchase Payment,PVS-2291,-1245.00\n30/03/2026,X,,1.00\n';
    expect(shape(rec(bank, books))).toEqual([['amount_mismatch', -9]]);
  });

  it('a refund booked as a payment: the right size with the wrong sign is a mismatch of twice the amount', () => {
    const bank = 'Date,Description,Amount\n2026-03-10,Gutschrift GS 55098 Ruecksendung,480.00\n';
    const books = 'Date,Description,Amount\n2026-03-10,Zahlung GS 55098,-480.00\n';
    expect(shape(rec(bank, books))).toEqual([['amount_mismatch', 960]]);
  });
});

describe('bank-rec: date order from both documents', () => {
  it('a document that settles nothing takes the order the other proves', () => {
    const bank = 'Date,Description,Amount\n13/03/2026,A,-10.00\n04/03/2026,B,-20.00\n';
    const books = 'Date,Description,Amount\n04/03/2026,B,-20.00\n';
    // Bank: 13/03 proves day first. Books' 04/03 is then 4 March, so B pairs the same day.
    const r = rec(bank, books);
    expect(r.matched).toBe(1);
    expect(r.note).toContain('read day first');
  });

  it('nothing settles it and the answer depends on it: the conservative reading, with the reason', () => {
    const bank = 'Date,Description,Withdrawals,Deposits\n03/03/2026,Co-op,10.00,\n09/03/2026,Deposit,,1725.00\n';
    const books = 'Date,Description,Money in,Money out\n03/03/2026,Co-op,,10.00\n03/03/2026,Farm,1725.00,\n';
    const r = rec(bank, books);
    // Day first: 6 days apart, a timing difference (reconciled). Month first: six months apart, no match.
    expect(r.reconciled).toBe(false);
    expect(shape(r)).toEqual([['missing_in_books', 1725], ['missing_on_bank', -1725]]);
    expect(r.note).toMatch(/Dates undecided: .*09\/03\/2026/);
  });
});
