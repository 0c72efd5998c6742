/**
 * A CAMT batch entry (one Ntry, several TxDtls) is one bank line, and the bank's own breakdown of it is evidence:
 * each item is matched against the books, so a batch larger than the search by sums reaches, or one whose total
 * several sets of entries add up to, is still told; a breakdown that does not add up to the entry is not used.
 */
import { describe, expect, it } from 'vitest';
import { rec, shape } from '../../support/bank-rec-engine.js';

const tx = (amount: string, name: string, ref: string, own = '') =>
  `<TxDtls><Refs><EndToEndId>${ref}</EndToEndId></Refs>${own}<AmtDtls><TxAmt><Amt Ccy="EUR">${amount}</Amt></TxAmt></AmtDtls>` +
  `<RltdPties><Dbtr><Nm>${name}</Nm></Dbtr></RltdPties><RmtInf><Ustrd>${ref}</Ustrd></RmtInf></TxDtls>`;
const camt = (entries: string) => `<?xml version="1.0"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt><Stmt>
${entries}
</Stmt></BkToCstmrStmt></Document>`;
const entry = (amount: string, cd: string, date: string, details: string, info: string) => `<Ntry>
  <Amt Ccy="EUR">${amount}</Amt><CdtDbtInd>${cd}</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>
  <BookgDt><Dt>${date}</Dt></BookgDt>
  <NtryDtls>
${details}
  </NtryDtls>
  <AddtlNtryInf>${info}</AddtlNtryInf>
</Ntry>`;

describe('bank-rec: a CAMT batch matched item by item', () => {
  it('a SEPA collection batch of eight items, each booked as its own receipt, is one matched group', () => {
    const amounts = ['120.00', '85.50', '240.00', '99.90', '310.00', '45.00', '60.25', '150.00'];
    const total = '1110.65';
    const details = amounts.map((a, i) => tx(a, `Mitglied ${i + 1} Keller`, `MANDAT-${7100 + i}`)).join('\n');
    const bank = camt(entry(total, 'CRDT', '2026-07-01', details, 'SEPA LASTSCHRIFTEINZUG 8 POSTEN'));
    const books = 'Datum;Text;Betrag\n' + amounts.map((a, i) => `01.07.2026;Beitrag Mandat ${7100 + i};${a.replace('.', ',')}`).join('\n') + '\n';
    const r = rec(bank, books);
    expect(r).toMatchObject({ reconciled: true, matched: 1, exceptions: [] });
    expect(r.note).toMatch(/Matched item by item/);
  });

  it('the items decide a batch whose total two sets of entries add up to', () => {
    const details = [tx('100.00', 'Alder Ltd', 'INV-5501'), tx('300.00', 'Birch plc', 'INV-5502')].join('\n');
    const bank = camt(entry('400.00', 'CRDT', '2026-07-03', details, 'BATCH CREDIT 2'));
    const books = 'Date,Description,Amount\n2026-07-03,Alder Ltd INV-5501,100.00\n2026-07-03,Cedar Co INV-5507,150.00\n' +
      '2026-07-03,Birch plc INV-5502,300.00\n2026-07-03,Dogwood INV-5509,250.00\n';
    const r = rec(bank, books);
    expect(r.matched).toBe(1);
    expect(shape(r)).toEqual([['missing_on_bank', -150], ['missing_on_bank', -250]]);
    expect(r.note).not.toMatch(/no grouping is chosen/);
  });

  it('a payment batch whose items carry their own direction and amount (a later camt version) is matched item by item', () => {
    const own = (a: string, n: string) => `<TxDtls><Amt Ccy="EUR">${a}</Amt><CdtDbtInd>DBIT</CdtDbtInd><RltdPties><Cdtr><Nm>${n}</Nm></Cdtr></RltdPties></TxDtls>`;
    const bank = camt(entry('1750.00', 'DBIT', '2026-07-10', [own('1000.00', 'Holm Transport'), own('750.00', 'Lind Print')].join('\n'), 'SAMMELUEBERWEISUNG'));
    const books = 'Date,Description,Amount\n2026-07-09,Holm Transport invoice 88,-1000.00\n2026-07-10,Lind Print invoice 12,-750.00\n';
    expect(rec(bank, books)).toMatchObject({ reconciled: true, matched: 1 });
  });

  it('a breakdown that does not add up to the entry is not matched item by item, and the note says so', () => {
    const details = [tx('100.00', 'Alder Ltd', 'INV-5501'), tx('250.00', 'Birch plc', 'INV-5502')].join('\n');
    const bank = camt(entry('400.00', 'CRDT', '2026-07-03', details, 'BATCH CREDIT 2'));
    const books = 'Date,Description,Amount\n2026-07-03,Alder Ltd INV-5501,100.00\n2026-07-03,Birch plc INV-5502,250.00\n';
    const r = rec(bank, books);
    expect(r.reconciled).toBe(false);
    expect(r.note).toMatch(/whose items do not add up to the entry: matched by the total only/);
  });
});
