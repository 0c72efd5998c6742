import { describe, expect, it } from 'vitest';
import { decimalMarkOf, parseMoney } from '../../../lambdas/agents/engines/text/amount.js';
import { isoDate } from '../../../lambdas/agents/engines/text/dates.js';
import { readStatement } from '../../../lambdas/agents/engines/text/statement.js';

const bank = (text: string) => readStatement(text, 'bankStatement', { perspective: 'bank' });
const books = (text: string) => readStatement(text, 'bookEntries', { perspective: 'books' });
const lines = (s: ReturnType<typeof bank>) => s.lines.map((l) => [isoDate(l.date), Number(l.amountCents) / 100]);

describe('parseMoney: one decimal convention per document', () => {
  it.each([
    ['1.234,56', ',', 123456n],
    ['1.234', ',', 123400n],
    ['-4318,60', ',', -431860n],
    ['14 207,41', ',', 1420741n],
    ['1,234', '.', 123400n],
    ['$1,234.56', '.', 123456n],
    ['(2,100.90)', '.', -210090n],
    ['+1880.00', '.', 188000n],
  ] as const)('%s with %s → %s', (text, mark, cents) => expect(parseMoney(text, mark)).toBe(cents));

  it('refuses a grouping the convention does not allow', () => {
    expect(parseMoney('1,5', '.')).toBeUndefined();
    expect(parseMoney('1e309', '.')).toBeUndefined();
  });

  it('the majority of figures that show their mark decides', () => {
    expect(decimalMarkOf(['89,99', '8460,33', '1.234']).mark).toBe(',');
    expect(decimalMarkOf(['1,234.00', '12.50', '7']).mark).toBe('.');
  });
});

describe('readStatement: finding the table', () => {
  it('skips a summary block above the header and a dated beginning-balance row', () => {
    const s = bank(`Description,,Summary Amt.
Beginning balance as of 03/01/2026,,"18,402.77"
Ending balance as of 03/31/2026,,"21,542.77"

Date,Description,Amount,Running Bal.
03/01/2026,Beginning balance as of 03/01/2026,,"18,402.77"
03/02/2026,"Deposit","3,150.00","21,552.77"
03/04/2026,"Check 5512","-10.00","21,542.77"
`);
    expect(lines(s)).toEqual([['2026-03-02', 3150], ['2026-03-04', -10]]);
  });

  it('a headerless export: the date, amount and running-balance columns are identified by content and arithmetic', () => {
    const s = bank(`31/03/2026,"+1880.00","Direct Credit INV 1143","+11030.40"
30/03/2026,"-3350.00","Wages 16-31 Mar","+9150.40"
27/03/2026,"-642.18","ENERGYAUSTRALIA","+12500.40"
`);
    expect(lines(s)).toEqual([['2026-03-31', 1880], ['2026-03-30', -3350], ['2026-03-27', -642.18]]);
    expect(s.lines[0].description).toBe('Direct Credit INV 1143');
  });

  it('a ledger (Debit = money in) whose Total and opening rows are not entries', () => {
    const s = books(`,,Type,Date,Num,Name,Debit,Credit,Balance
1000 · Checking,,,,,,,,"1,000.00"
,,Deposit,03/02/2026,,,"500.00",,"1,500.00"
,,Check,03/03/2026,1187,Sheet Metal,,"200.00","1,300.00"
Total 1000 · Checking,,,,,,"500.00","200.00","1,300.00"
`);
    expect(lines(s)).toEqual([['2026-03-02', 500], ['2026-03-03', -200]]);
    expect(s.lines[1].reference).toBe('1187');
  });

  it('a running balance overrules the side\'s usual meaning of Debit/Credit (a book export in the bank\'s words)', () => {
    const s = books(`Date,Description,Debit,Credit,Balance
2026-03-02,Rent,100.00,,900.00
2026-03-03,Receipt,,50.00,950.00
`);
    expect(lines(s)).toEqual([['2026-03-02', -100], ['2026-03-03', 50]]);
    expect(s.notes.join(' ')).toMatch(/running balance shows the opposite/);
  });
});

describe('readStatement: European exports', () => {
  it('Soll/Haben columns, decimal comma, thousands dots, a Kontostand closing row', () => {
    const s = bank(`Kontostand vom 01.03.2026:;;;"84.210,55";EUR

Buchungstag;Wert;Verwendungszweck;Soll;Haben;Währung
02.03.2026;02.03.2026;RE 260211;;"18.640,00";EUR
04.03.2026;04.03.2026;Rg. 1187;"-3.412,88";;EUR
Kontostand;31.03.2026;;"99.437,67";EUR
`);
    expect(lines(s)).toEqual([['2026-03-02', 18640], ['2026-03-04', -3412.88]]);
  });

  it('an unsigned Umsatz with an S/H mark column (S = money out on the bank) and multi-line quoted text', () => {
    const s = bank(`"Buchungstag";"Vorgang/Verwendungszweck";"Umsatz";" "
"02.03.2026";"Gutschrift
RG 2026-118";"6.240,00";"H"
"04.03.2026";"Überweisung";"1.386,50";"S"
"01.03.2026";"Anfangssaldo";"18.204,55";"H"
`);
    expect(lines(s)).toEqual([['2026-03-02', 6240], ['2026-03-04', -1386.5]]);
  });

  it('Af/Bij and compact yyyymmdd dates', () => {
    const s = bank(`"Datum";"Naam / Omschrijving";"Af Bij";"Bedrag (EUR)"
"20260312";"Terugboeking incasso";"Af";"640,00"
"20260305";"Incasso";"Bij";"640,00"
`);
    expect(lines(s)).toEqual([['2026-03-12', -640], ['2026-03-05', 640]]);
  });
});

describe('readStatement: bank formats', () => {
  it('OFX 1.x SGML: unclosed leaf tags, a repeated FITID read once, balances are not lines', () => {
    const s = bank(`OFXHEADER:100
DATA:OFXSGML
<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><BANKTRANLIST>
<STMTTRN>
<TRNTYPE>CHECK
<DTPOSTED>20260304120000.000[0:GMT]
<TRNAMT>-2318.75
<FITID>1
<CHECKNUM>4107
<NAME>CHECK 4107
</STMTTRN>
<STMTTRN>
<TRNTYPE>CHECK
<DTPOSTED>20260304120000.000[0:GMT]
<TRNAMT>-2318.75
<FITID>1
<NAME>CHECK 4107
</STMTTRN>
</BANKTRANLIST>
<LEDGERBAL><BALAMT>100.00<DTASOF>20260331</LEDGERBAL>
</STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>`);
    expect(lines(s)).toEqual([['2026-03-04', -2318.75]]);
    expect(s.lines[0].reference).toBe('4107');
  });

  it('CAMT.053: a batch entry with several TxDtls is one line; DBIT is money out', () => {
    const s = bank(`<?xml version="1.0"?><Document><BkToCstmrStmt><Stmt>
<Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">100.00</Amt><CdtDbtInd>CRDT</CdtDbtInd></Bal>
<Ntry><Amt Ccy="EUR">7425.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2026-03-06</Dt></BookgDt>
<NtryDtls><Btch><NbOfTxs>2</NbOfTxs></Btch>
<TxDtls><AmtDtls><TxAmt><Amt Ccy="EUR">4025.00</Amt></TxAmt></AmtDtls><RmtInf><Ustrd>INV-3289</Ustrd></RmtInf></TxDtls>
<TxDtls><AmtDtls><TxAmt><Amt Ccy="EUR">3400.00</Amt></TxAmt></AmtDtls><RmtInf><Ustrd>INV-3297</Ustrd></RmtInf></TxDtls>
</NtryDtls></Ntry>
<Ntry><Amt Ccy="EUR">38.45</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2026-03-31</Dt></BookgDt><AddtlNtryInf>FEES</AddtlNtryInf></Ntry>
</Stmt></BkToCstmrStmt></Document>`);
    expect(lines(s)).toEqual([['2026-03-06', 7425], ['2026-03-31', -38.45]]);
    expect(s.lines[0].description).toContain('INV-3297');
  });

  it('MT940: C and RD are money in, D and RC money out; decimal comma; :86: is the text', () => {
    const s = bank(`:20:STARTUMS
:25:76040061/0123456700
:60F:C260227EUR52318,40
:61:2603030303D412,80NDDTNONREF//0303000204417
:86:105?00SEPA-BASISLASTSCHRIFT?20EREF+LN4471
:61:2603090309RD412,80NRTINONREF//0309000411290
:86:109?00RUECKBUCHUNG LASTSCHRIFT
:62F:C260331EUR52318,40
-`);
    expect(lines(s)).toEqual([['2026-03-03', -412.8], ['2026-03-09', 412.8]]);
    expect(s.lines[1].description).toContain('RUECKBUCHUNG');
  });

  it('QuickBooks IIF: TRNS lines are the bank entries, SPL lines are not', () => {
    const s = books(`!TRNS\tTRNSID\tTRNSTYPE\tDATE\tACCNT\tNAME\tAMOUNT\tDOCNUM\tMEMO
!SPL\tSPLID\tTRNSTYPE\tDATE\tACCNT\tNAME\tAMOUNT\tDOCNUM\tMEMO
!ENDTRNS
TRNS\t\tCHECK\t03/02/2026\tChecking\tCascade\t-2318.75\t4107\tInv
SPL\t\tCHECK\t03/02/2026\tAccounts Payable\tCascade\t2318.75\t4107\t
ENDTRNS
`);
    expect(lines(s)).toEqual([['2026-03-02', -2318.75]]);
  });

  it('key-value blocks (Date:/Description:/Amount:/Balance:), the amount being the Amount line', () => {
    const s = bank(`From: 01/03/2026 to 31/03/2026

Date: 16/03/2026
Description: CARD PAYMENT TO HOMEBASE,64.99 GBP, RATE 1.00/GBP ON 05-03-2026
Amount: -64.99 GBP
Balance: 6944.58 GBP

Date: 02/03/2026
Description: FASTER PAYMENTS RECEIPT
Amount: 1480.00 GBP
Balance: 7009.57 GBP
`);
    expect(lines(s)).toEqual([['2026-03-16', -64.99], ['2026-03-02', 1480]]);
  });

  it('a statement pasted from a PDF: the running balance (Cr/Dr) gives each unsigned amount its direction', () => {
    const s = bank(`Date Particulars Debits Credits Balance
1 Mar 2026 Brought forward 1,240.50 Cr
2 Mar 2026 Online N7711203 Sunrise Timber Inv 5520 2,100.90 860.40 Dr
3 Mar 2026 Direct Credit SHOPIFY 3860113 3,412.00 2,551.60 Cr
Carried forward 2,551.60 Cr
`);
    expect(lines(s)).toEqual([['2026-03-02', -2100.9], ['2026-03-03', 3412]]);
  });

  it('a header and nothing else is refused: there is nothing to reconcile', () => {
    expect(() => bank('Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #\n')).toThrow('bankStatement: has no transactions');
  });
});

describe('readStatement: each transaction keeps the line it was read from', () => {
  it('a CSV row: its line, verbatim; a quoted cell over two lines: the line that holds the amount', () => {
    const s = bank('Title\n\nDate,Description,Amount\n2026-03-02,"Rent\nMarch",-900.00\n2026-03-03,Fee,-5.00\n');
    expect(s.lines.map((l) => [l.line, l.source])).toEqual([[5, 'March",-900.00'], [6, '2026-03-03,Fee,-5.00']]);
  });

  it('an MT940 :61: line, and the last day a statement that ends at :62M: covers', () => {
    const s = bank(':20:X\n:25:/PL61\n:60F:C260228PLN1000,00\n:61:2603020302D100,00NTRFNONREF\n:86:~00PRZELEW~20FV 1\n:62M:C260318PLN900,00\n-\n');
    expect(s.lines.map((l) => [l.line, l.description])).toEqual([[4, 'PRZELEW FV 1']]);
    expect(isoDate(s.coversTo!)).toBe('2026-03-18');
  });

  it('an OFX investment statement: bank transactions and the cash TOTAL of income and trades, each on its amount line', () => {
    const s = bank('OFXHEADER:100\n<OFX>\n<INCOME><INVTRAN><FITID>1<DTTRADE>20260312<MEMO>DIVIDEND</INVTRAN>\n<TOTAL>1284.75\n</INCOME>\n' +
      '<INVBANKTRAN><STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20260312\n<TRNAMT>-449.66\n<FITID>2<MEMO>FOREIGN TAX</STMTTRN></INVBANKTRAN>\n</OFX>\n');
    expect(s.lines.map((l) => [isoDate(l.date), Number(l.amountCents) / 100, l.line])).toEqual([['2026-03-12', 1284.75, 4], ['2026-03-12', -449.66, 7]]);
  });
});

describe('readStatement: headers in the bank\'s language, rows that moved no money', () => {
  it('Dare/Avere in an Italian ledger: Dare is money in for the books, out for the bank', () => {
    const text = 'Data;Descrizione;Dare;Avere\n02/03/2026;Incasso;100,00;\n13/03/2026;Pagamento;;40,00\n';
    expect(lines(books(text))).toEqual([['2026-03-02', 100], ['2026-03-13', -40]]);
    expect(lines(bank(text))).toEqual([['2026-03-02', -100], ['2026-03-13', 40]]);
  });

  it('a header found by a word of its names, below a title: " Posted Transactions Date", " Debit Amount"', () => {
    const s = bank('AIB export\n Posted Account, Posted Transactions Date, Description1, Debit Amount, Credit Amount, Balance\n' +
      '93-21-47,02/03/2026,RENT,1650.00,,20184.52\n93-21-47,14/03/2026,MCGRATH,,7380.00,27564.52\n');
    expect(lines(s)).toEqual([['2026-03-02', -1650], ['2026-03-14', 7380]]);
  });

  it('State REVERTED and DECLINED rows are not transactions; the note says so', () => {
    const s = bank('Date completed (UTC),State,Description,Orig amount,Amount,Balance\n2026-03-13,COMPLETED,Hotel,-420.00,-386.40,20385.92\n' +
      '2026-03-11,REVERTED,Hotel,-450.00,-450.00,\n2026-03-11,DECLINED,Vueling,-95.00,-95.00,\n2026-03-11,COMPLETED,Ryanair,-212.30,-212.30,20772.32\n');
    expect(lines(s)).toEqual([['2026-03-13', -386.4], ['2026-03-11', -212.3]]);
    expect(s.notes.join(' ')).toContain('whose State says the money never moved (1 REVERTED, 1 DECLINED)');
  });

  it('a pasted statement whose lines carry no year takes the one year of its own dates', () => {
    const s = bank('Statement Period 12/01/2025 - 12/31/2025\n12/01 Beginning Balance 100.00\n12/02 Deposit 50.00 150.00\n12/03 Check 1042 20.00 130.00\n');
    expect(lines(s)).toEqual([['2025-12-02', 50], ['2025-12-03', -20]]);
  });
});

describe('readStatement: QIF and the other camt messages', () => {
  it('QIF: each ^-ended block is a line; the short year written out; N the check number', () => {
    const s = bank("!Type:Bank\nD3/ 2'26\nT-1,250.00\nPRent\nN1042\n^\nD03/13/2026\nT500.00\nPClient\nMinv 7\n^\n");
    expect(lines(s)).toEqual([['2026-03-02', -1250], ['2026-03-13', 500]]);
    expect(s.lines.map((l) => [l.reference, l.line, l.source])).toEqual([['1042', 3, 'T-1,250.00'], [undefined, 8, 'T500.00']]);
  });

  it('a camt.054 notification is read like a statement: each Ntry a line', () => {
    const s = bank('<Document><BkToCstmrDbtCdtNtfctn><Ntfctn><Ntry><Amt Ccy="EUR">12.00</Amt><CdtDbtInd>DBIT</CdtDbtInd>' +
      '<Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>2026-03-31</Dt></BookgDt></Ntry></Ntfctn></BkToCstmrDbtCdtNtfctn></Document>');
    expect(lines(s)).toEqual([['2026-03-31', -12]]);
  });
});

describe('readStatement: pasted lines over a turn of the year', () => {
  it('December lines take the first year, January lines the second', () => {
    const s = bank('Statement Period 12/15/2025 - 01/14/2026\n12/15 Opening Balance 100.00\n12/28 Deposit 50.00 150.00\n01/05 Check 1042 20.00 130.00\n');
    expect(lines(s)).toEqual([['2025-12-28', 50], ['2026-01-05', -20]]);
  });

  it('a line whose year the months cannot tell: the pasted reading is refused, no line dropped in silence', () => {
    expect(() => bank('Statement Period 12/15/2025 - 01/14/2026\n12/15 Opening Balance 100.00\n12/03 Deposit 50.00 150.00\n')).toThrow(/no date column/);
  });
});
