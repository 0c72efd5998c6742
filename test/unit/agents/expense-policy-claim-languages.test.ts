/**
 * RULES.md "The claim in other languages": the column headers, receipt answers and category names of the expense
 * tools' exports and printed reports in the languages column-words.ts and category-words.ts list; dates day first
 * under a header in such a language; a totals row labelled in it; a row split inside an unquoted bracket; an
 * attachments line vouching for the expenses of the documents it names; the nights of a room line priced "2 x".
 * Every document here is written for the test (none is a corpus case).
 */
import { describe, expect, it } from 'vitest';
import { readExpense } from '../../../lambdas/agents/engines/expense-policy/expense.js';
import { categoriesIn } from '../../../lambdas/agents/engines/expense-policy/words.js';
import { columnWordField, receiptAnswer } from '../../../lambdas/agents/engines/expense-policy/column-words.js';
import { attachmentList } from '../../../lambdas/agents/engines/expense-policy/attachments.js';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';

const row = (i: { cents: bigint; category?: string; receipt?: boolean; date?: string }) => [i.cents, i.category, i.receipt, i.date];

describe('expense-policy: column words per language', () => {
  it('names the fields of headers in Spanish, Portuguese, Polish, Turkish, Japanese, Korean and Chinese', () => {
    expect(['Fecha de operación', 'Monto (COP)', 'Comprobante', 'Comercio'].map(columnWordField)).toEqual(['date', 'amount', 'receipt', 'merchant']);
    expect(['Data da despesa', 'Valor (R$)', 'Tipo de despesa', 'Observações'].map(columnWordField)).toEqual(['date', 'amount', 'category', 'description']);
    expect(['Data wydatku', 'Kwota', 'Kategoria', 'Opis'].map(columnWordField)).toEqual(['date', 'amount', 'category', 'description']);
    expect(['Tarih', 'Tutar', 'Açıklama'].map(columnWordField)).toEqual(['date', 'amount', 'description']);
    expect(['利用日', '金額(円)', '領収書', '摘要'].map(columnWordField)).toEqual(['date', 'amount', 'receipt', 'description']);
    expect(['사용일', '금액', '영수증', '가맹점'].map(columnWordField)).toEqual(['date', 'amount', 'receipt', 'merchant']);
    expect(['日期', '金额', '发票', '费用类型'].map(columnWordField)).toEqual(['date', 'amount', 'receipt', 'category']);
  });

  it('tells a receipt none attached from one not needed', () => {
    expect(['Nie', '無', 'なし(IC)', '없음', 'Yok'].map(receiptAnswer)).toEqual(['no', 'no', 'no', 'no', 'no']);
    expect(['No aplica', 'Non requis', 'Não se aplica', '不要', 'nie dotyczy'].map(receiptAnswer)).toEqual(['n/a', 'n/a', 'n/a', 'n/a', 'n/a']);
    expect(['Sí', 'Anexado', 'CFDI', '有', 'faktura.pdf'].map(receiptAnswer)).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });
});

describe('expense-policy: categories named in the tools\' languages', () => {
  it('reads allowances, kilometres and transport in each language as the English categories', () => {
    expect(categoriesIn('dieta completa')[0]).toBe('per diem');
    expect(categoriesIn('ajudas de custo')[0]).toBe('per diem');
    expect(categoriesIn('indemnités kilométriques')[0]).toBe('mileage');
    expect(categoriesIn('kilometraje')[0]).toBe('mileage');
    expect(categoriesIn('transporte terrestre')[0]).toBe('ground');
    expect(categoriesIn('出張日当')[0]).toBe('per diem');
    expect(categoriesIn('宿泊費')[0]).toBe('lodging');
    expect(categoriesIn('택시')[0]).toBe('ground');
    // A subway is a railway; a hotel called "Metropolitan" is no Metro.
    expect(categoriesIn('東京メトロ銀座線')[0]).toBe('rail');
    expect(categoriesIn('ホテルメトロポリタン 1泊')).toEqual(['lodging']);
    expect(categoriesIn('uang harian')[0]).toBe('per diem');
    expect(categoriesIn('day subsistence')[0]).toBe('per diem');
    // A word inside another is not the word ("dietary" is no "dieta").
    expect(categoriesIn('dietary supplements')).not.toContain('per diem');
  });
});

describe('expense-policy: a CSV export in a language that writes the day first', () => {
  const export_ = [
    'Fecha,Comercio,Monto (COP),Categoría,Comprobante,Notas',
    '02/03/2026,HOTEL DANN CARLTON,"640,000.00",Hospedaje,Factura electrónica,2 noches',
    '03/03/2026,CABIFY,"38,500.00",Transporte terrestre,No,Aeropuerto - hotel',
    ',,"678,500.00",Total,,',
  ].join('\n');

  it('reads its dates day first, its columns by their Spanish names, and its totals row as no expense', () => {
    const { items } = readExpense(export_, 'COP');
    expect(items.map(row)).toEqual([
      [64000000n, 'lodging', true, '2026-03-02'],
      [3850000n, 'ground', false, '2026-03-03'],
    ]);
    expect(items[0].nights).toBe(2n);
  });

  it('joins a row an export split inside an unquoted bracket', () => {
    const jp = [
      '日付,科目,内容,金額,領収書',
      '2026/05/11,日当,出張日当 2日分（3,000円×2）,"6,000",－',
      '2026/05/11,宿泊費,ビジネスホテル 1泊,"9,800",有',
    ].join('\n');
    const { items } = readExpense(jp, 'JPY');
    expect(items.map((i) => [i.cents, i.category, i.receipt])).toEqual([[600000n, 'per diem', false], [980000n, 'lodging', true]]);
  });
});

describe('expense-policy: a printed report with the receipt column in its language', () => {
  it('reads "Sí (PDF)", "No aplica" and "Anexado" under the receipt column', () => {
    const report = [
      'Fecha       Categoría        Concepto                          Importe    Ticket       Comentario',
      '04/03/2026  Alojamiento      Hotel Meliá Sevilla - 1 noche      112,00    Sí (PDF)',
      '04/03/2026  Dieta completa   Dieta nacional                      53,34    No aplica    Pernocta',
      '05/03/2026  Taxi             Radio Taxi Giralda                  18,40    No',
    ].join('\n');
    const { items } = readExpense(report, 'EUR');
    expect(items.map((i) => [i.cents, i.category, i.receipt])).toEqual([[11200n, 'lodging', true], [5334n, 'per diem', undefined], [1840n, 'ground', false]]);
  });
});

describe('expense-policy: an attachments line stated once for the whole report', () => {
  const report = [
    'Date        Type               Details                                      Amount',
    '03/02/2026  Rail               LNER Leeds - London Kings Cross, Standard     £84.20',
    '03/02/2026  Hotel              Travelodge London Central, 1 night           £96.00',
    '04/02/2026  Taxi               Addison Lee to client office                  £22.50',
    '',
    'Attachments (1): claim_feb.pdf — LNER e-ticket, Travelodge folio',
  ].join('\n');

  it('gives the expenses the documents it names their receipt, and no other', () => {
    const { items } = readExpense(report, 'GBP');
    expect(items.map((i) => [i.category, i.receipt])).toEqual([['rail', true], ['lodging', true], ['ground', undefined]]);
  });

  it('vouches for nothing when it says a receipt is missing', () => {
    expect(attachmentList('Anlagen: 2 Bahntickets, Hotelrechnung fehlt')).toBeUndefined();
    expect(attachmentList('Załączniki: 2 bilety PKP (PDF), faktura hotelowa')).toEqual(['2 bilety PKP', 'PDF', 'faktura hotelowa']);
  });
});

describe('expense-policy: a day table of allowances standing on its own, with its deductions', () => {
  it('claims each day at its reimbursed figure and reads a cross under a meal as that meal provided', () => {
    const report = [
      'Verpflegungspauschalen',
      'Datum        Art           Pauschale   Frühstück   Mittag   Abend   Kürzung    Erstattung',
      '03.02.2026   Anreisetag      14,00 €       -          -       -        0,00 €     14,00 €',
      '04.02.2026   24 Std.         28,00 €       x          -       x      -16,80 €     11,20 €',
      '                             (Frühstück Hotel -5,60 €; Abendessen Kunde -11,20 €)',
      '05.02.2026   Abreisetag      14,00 €       x          -       -       -5,60 €      8,40 €',
      'Summe Verpflegung                                                                 33,60 €',
      '',
      '03.02.2026   Bahn, Flexpreis 2. Klasse, Köln - Leipzig                            96,40 €',
    ].join('\n');
    const { items } = readExpense(report, 'EUR');
    expect(items.map((i) => [i.category, i.cents])).toEqual([['per diem', 1400n], ['per diem', 1120n], ['per diem', 840n], ['rail', 9640n]]);
    expect(items[1].text).toMatch(/breakfast provided; dinner provided/);
    expect(items[2].text).toMatch(/breakfast provided/);
  });
});

describe('expense-policy: a settlement form with an allowance block and section subtotals', () => {
  const form = [
    'ROZLICZENIE KOSZTÓW PODRÓŻY SŁUŻBOWEJ',
    '',
    'Diety',
    '  Stawka diety:                         45,00 zł',
    '  Należność z tytułu diet:              90,00 zł',
    '  Potrącenia za zapewnione wyżywienie: 22,50 zł',
    '  Dieta do wypłaty:                     67,50 zł',
    '',
    'Koszty przejazdów',
    '  12.01.2026  PKP Intercity  Kraków Gł. - Warszawa Centralna, kl. 2      149,00 zł',
    '  13.01.2026  PKP Intercity  Warszawa Centralna - Kraków Gł., kl. 2      149,00 zł',
    '                                                  Razem przejazdy:        298,00 zł',
    'Noclegi',
    '                  "Nocleg bez śniadania" 1 doba x 1 020,00 zł           1 020,00 zł',
    '',
    'RAZEM KOSZTY PODRÓŻY:                                                  1 385,50 zł',
  ].join('\n');

  it('claims the allowance at its bottom line, reads "1 020,00 zł", and keeps the lines under a section subtotal', () => {
    const { items } = readExpense(form, 'PLN');
    expect(items.map((i) => [i.category, i.cents, i.currency])).toEqual([
      ['per diem', 6750n, 'PLN'], ['rail', 14900n, 'PLN'], ['rail', 14900n, 'PLN'], ['lodging', 102000n, 'PLN'],
    ]);
    expect(items[0].text).toMatch(/Potrącenia/);
    expect(items[3].nights).toBe(1n);
  });
});

describe('expense-policy: a printed report in yen with its receipts read by OCR below', () => {
  const report = [
    '経費精算書  出張 名古屋',
    '',
    'No. 日付        カテゴリ        支払先              内容                       金額(円)   領収書',
    '1   2026/04/08  交通費(新幹線)  JR東海              ひかり 東京→名古屋           11,090   あり',
    '2   2026/04/08  交通費(タクシー) つばめタクシー      名古屋駅→工場                 3,140   あり',
    '3   2026/04/08  交通費(地下鉄)  Nagoya Subway       東山線                          240   なし(IC)',
    '',
    '                                                      合計             14,470 円',
    '',
    '--- 添付領収書 OCR ---',
    '[No.1] 領収書 JR東海 東京駅  乗車券・特急券  ¥11,090-',
    '[No.2] 領 収 書  つばめタクシー',
    '       合計 ¥3,1?0  (金額欄不鮮明)',
  ].join('\n');

  it('reads whole yen under the 金額(円) column and the receipt cells aligned by display width', () => {
    const { items } = readExpense(report, 'JPY');
    expect(items.map((i) => [i.category, i.cents, i.currency, i.receipt])).toEqual([
      ['rail', 1109000n, 'JPY', true], ['ground', 314000n, 'JPY', true], ['rail', 24000n, 'JPY', false],
    ]);
  });

  it('refuses the taxi whose receipt cannot be read under a receipt rule, citing the unreadable figure', () => {
    const r = expensePolicyEngine.explain({ expense: report, expensePolicy: 'A receipt is required for every taxi. Reimbursement is in JPY.' });
    expect(r.result.verdict).toBe('reject');
    expect(r.result.violations.join(' ')).toMatch(/cannot be read \("¥3,1\?0"\)/);
    expect(r.evidence[0].sources.some((s) => s.quote === '¥3,1?0')).toBe(true);
  });
});

describe('expense-policy: the trip\'s departure and return stated once in the report\'s head', () => {
  it('gives each allowance day its hours away: the first from the departure, the last to the return', () => {
    const report = [
      'Informe de gastos',
      'Viaje: salida martes 03/03/2026 17:15 (Bilbao) — llegada jueves 05/03/2026 10:45 (Bilbao)',
      '',
      'Fecha       Categoría        Concepto              Importe    Ticket',
      '03/03/2026  Dieta completa   Dieta nacional          53,34    No aplica',
      '04/03/2026  Dieta completa   Dieta nacional          53,34    No aplica',
      '05/03/2026  Media dieta      Dieta nacional          26,67    No aplica',
    ].join('\n');
    const { items } = readExpense(report, 'EUR');
    expect(items.map((i) => [i.date, i.absence?.minutes, i.absence?.back])).toEqual([
      ['2026-03-03', 6 * 60 + 45, undefined], ['2026-03-04', 24 * 60, undefined], ['2026-03-05', 10 * 60 + 45, 10 * 60 + 45],
    ]);
    expect(items[0].absence?.at[0]).toMatchObject({ line: 2 });
  });

  it('gives one allowance for the whole trip the whole trip\'s hours', () => {
    const form = [
      'Przebieg podróży:',
      '  Wyjazd:  12.01.2026 godz. 07:00  Kraków Główny',
      '  Przyjazd: 13.01.2026 godz. 21:30  Kraków Główny',
      '',
      'Diety',
      '  Stawka diety:           45,00 zł',
      '  Dieta do wypłaty:       90,00 zł',
    ].join('\n');
    const { items } = readExpense(form, 'PLN');
    expect(items[0].category).toBe('per diem');
    expect(items[0].absence?.minutes).toBe(38 * 60 + 30);
  });
});
