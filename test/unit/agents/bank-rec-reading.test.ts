/**
 * Bank reconciliation read the way a practitioner reads: headers in the language of the bank, rows that never moved
 * money, netted settlements, one item at two amounts, a receipt posted twice, a payment and its return, a pasted
 * statement without years, a statement given in part, a brokerage's cash; and every finding cites its lines.
 */
import { describe, expect, it } from 'vitest';
import { bankRecEngine } from '../../../lambdas/agents/engines/bank-rec/engine.js';
import { rec, shape } from '../../support/bank-rec-engine.js';


describe('bank-rec: reading documents as a practitioner does', () => {
  it('Italian headers, decimal comma, Accrediti/Addebiti against a prima nota with Entrate/Uscite', () => {
    const bank = 'Lista movimenti\nSaldo contabile iniziale al 01/03/2026;1.000,00\n\nData contabile;Data valuta;Descrizione;Accrediti;Addebiti\n' +
      '16/03/2026;16/03/2026;BONIFICO A VOSTRO FAVORE;1.250,00;\n02/03/2026;02/03/2026;ADDEBITO SDD ENEL;;612,38\n';
    const books = 'Data;N. reg.;Descrizione;Entrate;Uscite;Saldo\n01/03/2026;;Saldo iniziale da febbraio;;;1.000,00\n' +
      '02/03/2026;112;ENEL bolletta;;612,38;387,62\n16/03/2026;113;Incasso cliente;1.250,00;;1.637,62\n;;TOTALE MARZO;1.250,00;612,38;\n';
    expect(rec(bank, books)).toMatchObject({ reconciled: true, matched: 2, exceptions: [] });
  });

  it('Spanish and Polish headers (Fecha/Concepto/Importe; Data/Opis/Przychód/Rozchód)', () => {
    const bank = 'F.Valor;Fecha;Concepto;Importe;Disponible\n04/03/2026;04/03/2026;REPSOL;-86,40;15.963,60\n03/03/2026;03/03/2026;TRANSFERENCIA DE LEVANTE SA;6.050,00;16.050,00\n';
    const books = 'Lp.;Data;Numer;Opis;Przychód;Rozchód;Saldo\n1;03.03.2026;BP/1;Wpłata FV 26/02;6 050,00;;16 050,00\n2;04.03.2026;BW/1;Paliwo Repsol;;86,40;15 963,60\n';
    expect(rec(bank, books)).toMatchObject({ reconciled: true, matched: 2 });
  });

  it('a row whose status says the money never moved (Failed, Declined, Reverted) is not a transaction', () => {
    const bank = 'Date,Description,Amount,Status\n2026-03-18,ACH TO SUPPLIER,-4200.00,Sent\n2026-03-17,ACH TO SUPPLIER,-4200.00,Failed\n2026-03-11,CARD VUELING,-95.00,DECLINED\n';
    const books = 'Date,Description,Amount\n2026-03-17,Supplier invoice 311,-4200.00\n';
    const r = rec(bank, books);
    expect(r).toMatchObject({ reconciled: true, matched: 1, exceptions: [] });
    expect(r.note).toMatch(/2 rows whose Status says the money never moved \(1 Failed, 1 DECLINED\)/);
  });

  it('a card batch paid net of its fees matches the gross sales and the fee lines booked for it', () => {
    const bank = 'Date,Description,Amount\n2026-03-09,SQUARE INC DEPOSIT,3395.68\n';
    const books = 'Date,Description,Debit,Credit\n2026-03-07,Square gross sales,2184.50,\n2026-03-07,Square fees,,71.20\n' +
      '2026-03-08,Square gross sales,1326.00,\n2026-03-08,Square fees,,43.62\n';
    const r = rec(bank, books);
    expect(r).toMatchObject({ reconciled: true, matched: 1, exceptions: [] });
    expect(r.note).toContain('Matched as one group');
  });

  it('interest credited gross with the tax withheld apart, booked net: one group', () => {
    const bank = 'Date,Description,Amount\n2026-03-31,INTERESSI CREDITORI,41.27\n2026-03-31,RITENUTA FISCALE,-10.73\n';
    const books = 'Date,Description,Amount\n2026-03-31,Interest net of withholding,30.54\n';
    expect(rec(bank, books)).toMatchObject({ reconciled: true, matched: 1 });
  });

  it('a payout short of the sales booked for it is one amount_mismatch, not two missing items', () => {
    const bank = 'Date,Description,Amount\n2026-03-30,STRIPE PAYMENTS PAYOUT,2761.38\n2026-03-23,STRIPE PAYMENTS PAYOUT,2890.17\n';
    const books = 'Date,Description,Amount\n2026-03-29,Online card sales w/e 29 Mar - Stripe,2846.00\n2026-03-23,Stripe payout po_1R2F,2890.17\n';
    const r = rec(bank, books);
    expect(shape(r)).toEqual([['amount_mismatch', -84.62]]);
    expect(r.matched).toBe(1);
  });

  it('one receipt posted twice in the books under two entry numbers, both quoting the invoice: duplicate_in_books', () => {
    const bank = 'Date,Description,Amount\n2026-03-16,Hegi Automation GmbH Rg. 26-1041,7850.00\n';
    const books = 'Date,Ref,Description,Amount\n2026-03-16,ZE-26-0311,Hegi Automation GmbH Rg. 26-1041,7850.00\n2026-03-17,EB-26-0088,Zahlung Hegi Rechnung 26-1041,7850.00\n';
    expect(shape(rec(bank, books))).toEqual([['duplicate_in_books', -7850]]);
  });

  it('a payment that failed and came back on the bank, with nothing in the books, cancels out', () => {
    const bank = 'Date,Description,Amount\n2026-03-05,ACH TO TOMASZ WIERZBICKI LA-C-0311,-4200.00\n2026-03-07,ACH RETURN R03 TOMASZ WIERZBICKI LA-C-0311,4200.00\n2026-03-10,RENT,-900.00\n';
    const books = 'Date,Description,Amount\n2026-03-10,Rent,-900.00\n';
    const r = rec(bank, books);
    expect(r).toMatchObject({ reconciled: true, matched: 1, exceptions: [] });
    expect(r.note).toMatch(/is undone by bank line 3/);
  });

  it('a pasted statement without years: the year from its period, each direction from the running balance', () => {
    const bank = `STATEMENT Period 03/01/2026 - 03/31/2026
Date    Description    Withdrawals    Deposits    Balance
03/01   Beginning Balance                       1,000.00
03/02   Deposit Shared Branch   1,250.00   2,250.00
03/03   ACH Debit PG&E   284.16   1,965.84
        ID 9494311000
`;
    const books = 'Date,Description,Money In,Money Out\n03/02/2026,Deposit,"$1,250.00 ",\n03/03/2026,PG&E,,$284.16\n';
    const r = rec(bank, books);
    expect(r).toMatchObject({ reconciled: true, matched: 2 });
    expect(r.note).toContain("the lines' dates carry no year: 2026");
  });

  it('an MT940 message that ends at an intermediate :62M: balance: later book entries cannot be confirmed', () => {
    const bank = ':20:X\n:25:/PL61\n:28C:00058/1\n:60F:C260228PLN1000,00\n:61:2603020302D100,00NTRFNONREF\n:86:PRZELEW\n:62M:C260318PLN900,00\n-\n';
    const books = 'Date,Description,Amount\n2026-03-02,Przelew,-100.00\n2026-03-25,VAT,-50.00\n';
    const r = rec(bank, books);
    expect(shape(r)).toEqual([['missing_on_bank', 50]]);
    expect(r.exceptions[0].detail).toContain('dated after 2026-03-18, the last day the bank statement given covers');
    expect(r.note).toContain('intermediate balance (:62M: of 2026-03-18)');
  });

  it('a brokerage OFX: income and T-bill settlements by their cash TOTAL; positions are not lines', () => {
    const bank = `OFXHEADER:100
<OFX><INVSTMTRS><INVTRANLIST>
<INCOME><INVTRAN><FITID>D1<DTTRADE>20260330<MEMO>QUALIFIED DIVIDEND</INVTRAN><INCOMETYPE>DIV<TOTAL>1184.62<SUBACCTFUND>CASH</INCOME>
<BUYDEBT><INVBUY><INVTRAN><FITID>B1<DTTRADE>20260317<DTSETTLE>20260319<MEMO>BUY T-BILL</INVTRAN><UNITS>50000<TOTAL>-49519.72</INVBUY></BUYDEBT>
</INVTRANLIST><INVPOSLIST><POSSTOCK><INVPOS><MKTVAL>39368.00</INVPOS></POSSTOCK></INVPOSLIST></INVSTMTRS></OFX>
`;
    const books = 'Date,Description,Amount\n2026-03-19,T-bill purchase,-49519.72\n2026-03-30,SCHD dividend,1184.62\n';
    expect(rec(bank, books)).toMatchObject({ reconciled: true, matched: 2 });
  });
});

describe('bank-rec: every exception cites its lines', () => {
  it('an amount mismatch quotes both lines verbatim, with the arithmetic', () => {
    const bank = 'Date,Description,Amount\n2026-01-05,CHECK 1042,"-1,254.00"\n';
    const books = 'Date,Memo,Num,Amount\n2026-01-04,Landlord,1042,-1236.00\n';
    const { result, evidence } = bankRecEngine.explain({ bankStatement: bank, bookEntries: books });
    expect(shape(result)).toEqual([['amount_mismatch', -18]]);
    expect(evidence).toEqual([{
      finding: 'exceptions[0] amount_mismatch',
      sources: [
        { field: 'bankStatement', line: 2, quote: '2026-01-05,CHECK 1042,"-1,254.00"' },
        { field: 'bookEntries', line: 2, quote: '2026-01-04,Landlord,1042,-1236.00' },
      ],
      arithmetic: '-1254.00 − (-1236.00) = -18.00',
    }]);
    expect(result.exceptions[0].detail).toContain('bank line 2 "2026-01-05,CHECK 1042,\\"-1,254.00\\"" (2026-01-05, -1254.00) against book line 2');
  });

  it('a CAMT.053 entry cites the line holding its amount', () => {
    const bank = `<?xml version="1.0"?>
<Document><BkToCstmrStmt><Stmt>
<Ntry>
<Amt Ccy="CHF">18.00</Amt>
<CdtDbtInd>DBIT</CdtDbtInd>
<Sts><Cd>BOOK</Cd></Sts>
<BookgDt><Dt>2026-03-31</Dt></BookgDt>
<AddtlNtryInf>Kontoführung</AddtlNtryInf>
</Ntry>
</Stmt></BkToCstmrStmt></Document>`;
    const books = 'Date,Description,Amount\n2026-03-02,Rent,-100.00\n';
    const { evidence } = bankRecEngine.explain({ bankStatement: bank, bookEntries: books });
    expect(evidence[0]).toEqual({ finding: 'exceptions[0] missing_in_books', sources: [{ field: 'bankStatement', line: 4, quote: '<Amt Ccy="CHF">18.00</Amt>' }] });
  });

  it('a JSON array cites the line of the object it read', () => {
    const books = '[\n  {"date": "2026-03-02", "amount": -100.00, "memo": "Rent"},\n  {"date": "2026-03-03", "amount": -5.00, "memo": "Fee"}\n]';
    const { evidence } = bankRecEngine.explain({ bankStatement: 'Date,Description,Amount\n2026-03-02,RENT,-100.00\n', bookEntries: books });
    expect(evidence[0].sources).toEqual([{ field: 'bookEntries', line: 3, quote: '{"date": "2026-03-03", "amount": -5.00, "memo": "Fee"}' }]);
    expect(evidence[0].arithmetic).toBe('−(-5.00) = 5.00');
  });
});
