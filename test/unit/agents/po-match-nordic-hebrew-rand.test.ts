/**
 * po-match: printed orders and invoices read as their practitioners read them — South African (amounts marked with
 * the rand's R, thousands grouped by spaces, decimal commas), Norwegian and Swedish (Innkjøpsordre / Inköpsorder,
 * Leverandør / Leverantör, Antall / Antal, Enh., Pris / À-pris, Beløp / Belopp, "Sum eks. mva", "Å betale", a
 * back-order remark printed between the rows), Hebrew and English bilingual prints (מק"ט / Item, כמות/Qty), and
 * weights billed in metric tonnes against an order in kilos.
 */
import { describe, expect, it } from 'vitest';
import { poMatchEngine } from '../../../lambdas/agents/engines/po-match/engine.js';
import { readDocument } from '../../../lambdas/agents/engines/po-match/document.js';
import { unmarkAmounts } from '../../../lambdas/agents/engines/po-match/text-marks.js';
import { unitCode } from '../../../lambdas/agents/engines/po-match/units.js';

const run = (purchaseOrder: string, invoice: string) => poMatchEngine.analyse({ purchaseOrder, invoice });
const money = (v: bigint | undefined) => (v === undefined ? undefined : Number(v) / 1e6);

describe('po-match: amounts marked with the rand', () => {
  const po = [
    'Sage Pastel Partner - Purchase Order',
    'PO Number:   PO8812                Currency: ZAR',
    'Supplier:    Highveld Fasteners (Pty) Ltd',
    '',
    'Code        Description                      Qty   Unit Price      Total',
    'BLT-M12     Hex bolt M12x80 gr 8.8           500         3.40    1,700.00',
    'NUT-M12     Hex nut M12                    1,000         0.65      650.00',
    '                                     Total Excl VAT            2,350.00',
    '                                     VAT 15%                     352.50',
    '                                     Total                     2,702.50',
  ].join('\n');
  const invoice = (nutPrice: string, nutTotal: string, excl: string, vat: string, total: string) =>
    [
      'HIGHVELD FASTENERS (PTY) LTD',
      '                         TAX INVOICE',
      'Invoice No:  HF-20931           Your order: PO8812',
      '',
      'Code        Description              Qty      Unit price      Excl VAT',
      'BLT-M12     Hex bolt M12x80          500         R 3,40      R 1 700,00',
      `NUT-M12     Hex nut M12            1 000         R ${nutPrice}        R ${nutTotal}`,
      '',
      `                              Total excl VAT        R ${excl}`,
      `                              VAT 15%                 R ${vat}`,
      `                              TOTAL DUE             R ${total}`,
    ].join('\n');

  it('blanks the R before amounts (keeping the columns) and names the rand', () => {
    const u = unmarkAmounts('Total  R 1 700,00\nVAT  R255,00');
    expect(u.currency).toBe('ZAR');
    expect(u.text).toBe('Total    1 700,00\nVAT   255,00');
    // One R before a number is no currency (a grade, a row code).
    expect(unmarkAmounts('Grade R 12,50 only').currency).toBeUndefined();
    expect(unmarkAmounts('Refrigerant R-410A, R 22 and R 134,00 kg').text).toContain('R-410A');
  });

  it('reads the invoice total including VAT and passes a clean invoice', () => {
    const doc = readDocument(invoice('0,65', '650,00', '2 350,00', '352,50', '2 702,50'), 'invoice');
    expect(doc.currency).toBe('ZAR');
    expect(doc.lines.map((l) => [l.sku, money(l.quantity), money(l.unitPrice), money(l.amount)])).toEqual([
      ['BLT-M12', 500, 3.4, 1700],
      ['NUT-M12', 1000, 0.65, 650],
    ]);
    const r = run(po, invoice('0,65', '650,00', '2 350,00', '352,50', '2 702,50'));
    expect(r.discrepancies).toEqual([]);
    expect(r.invoiceTotal).toBe(2702.5);
  });

  it('holds a rand price above the PO', () => {
    const r = run(po, invoice('0,72', '720,00', '2 420,00', '363,00', '2 783,00'));
    expect(r.status).toBe('hold');
    expect(r.discrepancies.some((d) => /NUT-M12/.test(d) && /0\.72/.test(d))).toBe(true);
    expect(r.invoiceTotal).toBe(2783);
  });
});

describe('po-match: a Norwegian innkjøpsordre and faktura', () => {
  const po = [
    'Tripletex  -  Innkjøpsordre',
    'Innkjøpsordre nr.:  4471              Dato: 02.09.2026',
    'Leverandør:         Fjord Verktøy AS, Sandviksveien 4, 5035 Bergen',
    'Valuta: NOK',
    '',
    'Linje  Varenr.   Beskrivelse                  Antall  Enh.      Pris       Beløp',
    '  1    BOR-10    Borsett HSS 10 deler             6  stk    349,00    2 094,00',
    '  2    SKR-500   Skruer rustfri 5x50, eske       20  stk    129,50    2 590,00',
    '                                         Sum eks. mva               4 684,00',
    '                                         Mva 25 %                   1 171,00',
    '                                         Totalt NOK                 5 855,00',
  ].join('\n');
  const faktura = (skruer: string, sum: string, mva: string, total: string, screwQty = '20') =>
    [
      'FJORD VERKTØY AS                                                FAKTURA',
      'Sandviksveien 4, 5035 Bergen',
      'Deres ordre:   4471',
      '',
      'Varenr.   Tekst                         Antall  Enh.      Pris       Beløp',
      'BOR-10    Borsett HSS 10 deler               4  stk    349,00    1 396,00',
      '          Restordre 2 stk sendes uke 40 - faktureres ved levering',
      `SKR-500   Skruer rustfri 5x50               ${screwQty.padStart(2)}  stk    129,50    ${skruer}`,
      '',
      `                                   Sum eks. mva            ${sum}`,
      `                                   Mva 25 %                ${mva}`,
      `                                   Å betale NOK            ${total}`,
    ].join('\n');

  it('reads the order number, the vendor without its address, the columns and the sums', () => {
    const doc = readDocument(po, 'purchaseOrder');
    expect(doc.poNumber).toBe('4471');
    expect(doc.vendor).toBe('Fjord Verktøy AS');
    expect(doc.lines.map((l) => [l.sku, l.uom, money(l.quantity), money(l.unitPrice), money(l.amount)])).toEqual([
      ['BOR-10', 'EA', 6, 349, 2094],
      ['SKR-500', 'EA', 20, 129.5, 2590],
    ]);
    expect([money(doc.subtotal), money(doc.total)]).toEqual([4684, 5855]);
  });

  it('reads Bestillingsnr. as the PO number only on the PO, and a Kreditor label as the vendor', () => {
    const rows = ['', 'Varenr.   Beskrivelse          Antall  Enh.    Pris     Beløp', 'BOR-10    Borsett HSS              6  stk   349,00  2 094,00'];
    const doc = readDocument(['Bestillingsnr.:  B-20931', 'Kreditor:  30112  Fjord Verktøy AS', ...rows].join('\n'), 'purchaseOrder');
    expect([doc.poNumber, doc.vendor]).toEqual(['B-20931', 'Fjord Verktøy AS']);
    expect(readDocument(['FJORD VERKTØY AS', 'Bestillingsnr.:  S-77120', ...rows].join('\n'), 'invoice').poNumber).toBeUndefined();
    expect(readDocument(['FJORD VERKTØY AS', 'Deres bestillingsnr.:  B-20931', ...rows].join('\n'), 'invoice').poNumber).toBe('B-20931');
  });

  it('passes a partial delivery with a back-order remark between the rows', () => {
    const inv = readDocument(faktura('2 590,00', '3 986,00', '996,50', '4 982,50'), 'invoice');
    expect(inv.poNumber).toBe('4471');
    expect(inv.lines.map((l) => l.sku)).toEqual(['BOR-10', 'SKR-500']);
    const r = run(po, faktura('2 590,00', '3 986,00', '996,50', '4 982,50'));
    expect(r.discrepancies).toEqual([]);
    expect(r.invoiceTotal).toBe(4982.5);
  });

  it('holds a quantity above the order', () => {
    const r = run(po, faktura('3 237,50', '4 633,50', '1 158,38', '5 791,88', '25'));
    expect(r.status).toBe('hold');
    expect(r.discrepancies.some((d) => /SKR-500/.test(d) && /25/.test(d))).toBe(true);
  });
});

describe('po-match: Scandinavian terms and charge lines', () => {
  const po = (terms: string) =>
    [
      'Innkjøpsordre 88120',
      'Leverandør: Nordic Kontor AS',
      terms,
      '',
      'Varenummer   Varenavn                     Antall   Enhetspris      Sum',
      'KP-A4-80     Kopipapir A4 80g              40      52,90       2 116,00',
      'PEN-BL       Kulepenn blå                 100       6,50         650,00',
      '                                     Sum ekskl. mva          2 766,00',
      '                                     Merverdiavgift 25 %       691,50',
      '                                     Totalt å betale         3 457,50',
    ].join('\n');
  const invoice = (rows: string[], net: string, vat: string, total: string) =>
    [
      'NORDIC KONTOR AS                                   Faktura 55012',
      'Deres bestilling: 88120',
      '',
      'Varenummer   Varenavn                     Antall   Enhetspris      Sum',
      ...rows,
      `                                     Sum ekskl. mva          ${net}`,
      `                                     Merverdiavgift 25 %       ${vat}`,
      `                                     Totalt å betale kr      ${total}`,
    ].join('\n');
  const paper = 'KP-A4-80     Kopipapir A4 80g              40      52,90       2 116,00';
  const pens = 'PEN-BL       Kulepenn blå                 100       6,50         650,00';

  it('holds a Frakt row against a PO whose prices include freight, quoting it', () => {
    const r = run(po('Levering: fritt levert, frakt inkludert i prisene.'), invoice([paper, pens, 'Frakt                                       1     149,00         149,00'], '2 915,00', '728,75', '3 643,75'));
    expect(r.status).toBe('hold');
    expect(r.discrepancies).toHaveLength(1);
    expect(r.discrepancies[0]).toMatch(/Frakt 149\.00.*frakt inkludert/);
  });

  it('reads Delleveranse: Tillatt as partials allowed and Ikke tillatt as ship complete', () => {
    const partial = invoice([paper], '2 116,00', '529,00', '2 645,00');
    expect(run(po('Delleveranse: Tillatt'), partial).status).toBe('pass');
    const held = run(po('Delleveranse: Ikke tillatt'), partial);
    expect(held.status).toBe('hold');
    expect(held.discrepancies.join(' ')).toMatch(/Ikke tillatt/);
  });
});

describe('po-match: a Swedish inköpsorder and faktura', () => {
  const po = [
    'Inköpsorder nr:  IO-5520                 Valuta: SEK',
    'Leverantör:      30118  Mälardalens El AB',
    '',
    'Rad  Artikel      Benämning                       Antal  Enhet    À-pris       Belopp',
    ' 1   KAB-EKK-3    Kabel EKK 3x1,5 100 m               4  st     1 290,00     5 160,00',
    ' 2   DOS-IP44     Kopplingsdosa IP44                 30  st        42,00     1 260,00',
    '                                           Summa exkl. moms               6 420,00',
    '                                           Moms 25 %                      1 605,00',
    '                                           Totalt SEK                     8 025,00',
  ].join('\n');
  const invoice = [
    'MÄLARDALENS EL AB                                            FAKTURA',
    'Ert ordernr: IO-5520',
    '',
    'Art.nr        Benämning                   Lev. antal  Enh    À-pris      Belopp',
    'KAB-EKK-3     Kabel EKK 3x1,5 100m                 4  st   1 290,00    5 160,00',
    'DOS-IP44      Kopplingsdosa IP44                  30  st      42,00    1 260,00',
    '                                    Netto exkl. moms         6 420,00',
    '                                    Moms 25 %                1 605,00',
    '                                    Att betala SEK           8 025,00',
  ].join('\n');

  it('reads space-grouped prices under À-pris and passes the matching invoice', () => {
    const doc = readDocument(po, 'purchaseOrder');
    expect(doc.vendor).toBe('Mälardalens El AB');
    expect(doc.lines.map((l) => [l.sku, money(l.quantity), money(l.unitPrice)])).toEqual([
      ['KAB-EKK-3', 4, 1290],
      ['DOS-IP44', 30, 42],
    ]);
    const r = run(po, invoice);
    expect(r.discrepancies).toEqual([]);
    expect([r.invoiceTotal, r.poTotal]).toEqual([8025, 8025]);
  });
});

describe('po-match: a Danish faktura against its indkøbsordre', () => {
  const po = [
    'Indkøbsordre nr. 2026-0412                       Valuta: DKK',
    'Leverandør:  Jysk Emballage ApS, Industrivej 9, 8700 Horsens',
    '',
    'Linje  Varenr.   Beskrivelse               Antal  Enhed      Pris      Beløb',
    '  1    KAS-40    Papkasse 40x30x30           500  stk        7,80   3 900,00',
    '                                   Subtotal                        3 900,00',
    '                                   Moms 25 %                         975,00',
    '                                   I alt DKK                       4 875,00',
  ].join('\n');
  const invoice = (price: string, amount: string, moms: string, total: string) =>
    [
      'JYSK EMBALLAGE APS                                   FAKTURA',
      'Jeres ordre: 2026-0412',
      '',
      'Varenr.   Beskrivelse               Antal  Enhed      Pris      Beløb',
      `KAS-40    Papkasse 40x30x30           500  stk     ${price}   ${amount}`,
      `                          Beløb ekskl. moms           ${amount}`,
      `                          Moms 25 %                     ${moms}`,
      `                          At betale DKK               ${total}`,
    ].join('\n');

  it('reads Jeres ordre, ekskl. moms, At betale and I alt', () => {
    const doc = readDocument(po, 'purchaseOrder');
    expect([doc.poNumber, doc.vendor, money(doc.total)]).toEqual(['2026-0412', 'Jysk Emballage ApS', 4875]);
    const inv = readDocument(invoice('   7,80', '3 900,00', '975,00', '4 875,00'), 'invoice');
    expect([inv.poNumber, money(inv.subtotal), money(inv.total)]).toEqual(['2026-0412', 3900, 4875]);
    expect(run(po, invoice('   7,80', '3 900,00', '975,00', '4 875,00')).discrepancies).toEqual([]);
  });

  it('holds a price above the order', () => {
    const r = run(po, invoice('   8,40', '4 200,00', '1 050,00', '5 250,00'));
    expect(r.status).toBe('hold');
    expect(r.invoiceTotal).toBe(5250);
  });
});

describe('po-match: a Hebrew and English purchase order and tax invoice', () => {
  const po = [
    'הזמנת רכש / Purchase Order',
    "מס' הזמנה / PO No.:   PO-77120",
    'ספק / Vendor:         2210  אלקטרו דרום בע"מ | Electro Darom Ltd.',
    'מטבע / Currency: ILS',
    '',
    'שורה  מק"ט / Item      תיאור / Description            כמות/Qty  מחיר/Price   סה"כ/Total',
    '  1   UPS-1500         UPS 1500VA online                     3    2,450.00     7,350.00',
    '  2   BAT-12V9         Battery 12V 9Ah                      12      119.00     1,428.00',
    '                                  סה"כ לפני מע"מ / Total before VAT        8,778.00',
    '                                  מע"מ 18% / VAT 18%                      1,580.04',
    '                                  סה"כ לתשלום / Total incl. VAT            10,358.04',
  ].join('\n');
  const invoice = (extra: string[], subtotal: string, vat: string, total: string) =>
    [
      'אלקטרו דרום בע"מ  |  ELECTRO DAROM LTD.',
      'חשבונית מס / TAX INVOICE 7781',
      'הזמנתכם / Your PO:   PO-77120',
      '',
      '#  מק"ט / Item   תיאור / Description          כמות   מחיר יח\'     סה"כ',
      '1  UPS-1500      UPS 1500VA online               3    2,450.00    7,350.00',
      '2  BAT-12V9      Battery 12V 9Ah                12      119.00    1,428.00',
      ...extra,
      '',
      `                             סה"כ לפני מע"מ / Subtotal       ${subtotal}`,
      `                             מע"מ 18% / VAT 18%              ${vat}`,
      `                             סה"כ לתשלום / Total ₪           ${total}`,
    ].join('\n');

  it('reads the bilingual column labels, the vendor and the totals', () => {
    const doc = readDocument(po, 'purchaseOrder');
    expect(doc.poNumber).toBe('PO-77120');
    expect(doc.vendor).toBe('אלקטרו דרום בע"מ');
    expect(doc.currency).toBe('ILS');
    expect(doc.lines.map((l) => l.uom)).toEqual([undefined, undefined]);
    expect(readDocument(invoice([], '8,778.00', '1,580.04', '10,358.04'), 'invoice').currency).toBe('ILS');
    expect(doc.lines.map((l) => [l.sku, money(l.quantity), money(l.unitPrice), money(l.amount)])).toEqual([
      ['UPS-1500', 3, 2450, 7350],
      ['BAT-12V9', 12, 119, 1428],
    ]);
    expect([money(doc.subtotal), money(doc.total)]).toEqual([8778, 10358.04]);
    const r = run(po, invoice([], '8,778.00', '1,580.04', '10,358.04'));
    expect(r.discrepancies).toEqual([]);
  });

  it('reads summary labels printed in Hebrew alone', () => {
    const inv = [
      'הזמנתכם / Your PO:   PO-77120',
      '',
      '#  מק"ט / Item   תיאור / Description          כמות   מחיר יח\'     סה"כ',
      '1  UPS-1500      UPS 1500VA online               3    2,450.00    7,350.00',
      '',
      '                             סה"כ לפני מע"מ          7,350.00',
      '                             מע"מ 18%                1,323.00',
      '                             סה"כ                    8,673.00',
    ].join('\n');
    const doc = readDocument(inv, 'invoice');
    expect([money(doc.subtotal), money(doc.total), doc.charges.map((c) => [c.kind, money(c.amount)])]).toEqual([7350, 8673, [['tax', 1323]]]);
  });

  it('reads the order number under Hebrew labels alone: הזמנתכם on an invoice, מס\' הזמנה only on a PO', () => {
    const table = ['', 'מק"ט        תיאור              כמות    מחיר      סה"כ', 'UPS-1500    UPS 1500VA            3  2,450.00  7,350.00'];
    expect(readDocument(["מס' הזמנה: 55120", ...table].join('\n'), 'purchaseOrder').poNumber).toBe('55120');
    expect(readDocument(['הזמנתכם: 55120', ...table].join('\n'), 'invoice').poNumber).toBe('55120');
    expect(readDocument(["מס' הזמנה: 99001", ...table].join('\n'), 'invoice').poNumber).toBeUndefined();
  });

  it('reads a print carrying invisible direction marks as the same print', () => {
    const marked = po.replace(/(כמות|מחיר|סה"כ)/g, '\u200f$1\u200e').replace(/(\d[\d,.]*\d)/g, '\u200e$1\u200e');
    const doc = readDocument(marked, 'purchaseOrder');
    expect(doc.lines.map((l) => [l.sku, money(l.quantity), money(l.unitPrice), money(l.amount)])).toEqual([
      ['UPS-1500', 3, 2450, 7350],
      ['BAT-12V9', 12, 119, 1428],
    ]);
    expect(money(doc.total)).toBe(10358.04);
  });

  it('reads the Hebrew unit word as each, with either apostrophe', () => {
    expect([unitCode("יח'"), unitCode('יח׳'), unitCode('יחידה')]).toEqual(['EA', 'EA', 'EA']);
  });

  it('holds an invoice line that is not on the order', () => {
    const r = run(po, invoice(['3  SRV-SETUP     התקנה / Installation              1      600.00      600.00'], '9,378.00', '1,688.04', '11,066.04'));
    expect(r.status).toBe('hold');
    expect(r.discrepancies.some((d) => /SRV-SETUP/.test(d) && /not on the purchase order/.test(d))).toBe(true);
    expect(r.invoiceTotal).toBe(11066.04);
  });
});

describe('po-match: metric tonnes against kilos', () => {
  const po = [
    'PURCHASE ORDER',
    'PO No.: PO-SAND-118',
    'Supplier: Deccan Minerals',
    '',
    'Sr  Item Code  Description              Qty         UOM   Rate (INR)   Amount (INR)',
    '1   SND-SILICA Silica sand 30-60 mesh   20,000.000  Kg          4.20      84,000.00',
    '                                        Grand Total                     84,000.00',
  ].join('\n');
  const invoice = (tonnes: string, amount: string) =>
    [
      'TAX INVOICE',
      'DECCAN MINERALS',
      "Buyer's Order No.: PO-SAND-118",
      '',
      'Sl  Description of Goods        Quantity     Rate        per   Amount',
      `1   Silica sand 30-60 mesh      ${tonnes} MT   4,200.00    MT    ${amount}`,
      `    Total                                                 INR   ${amount}`,
    ].join('\n');

  it('converts tonnes to kilos and reads the buyer\'s order number', () => {
    expect(readDocument(invoice('20.000', '84,000.00'), 'invoice').poNumber).toBe('PO-SAND-118');
    const r = run(po, invoice('20.000', '84,000.00'));
    expect(r.discrepancies).toEqual([]);
  });

  it('reads Kgs as kilos and the quintal as 100 kg', () => {
    expect([unitCode('Kgs'), unitCode('Qtl'), unitCode('MT'), unitCode('m')]).toEqual(['KG', 'QTL', 'TNE', 'MTR']);
    const qtl = po.replace('20,000.000  Kg          4.20      84,000.00', '   200.000  Qtl       420.00      84,000.00');
    expect(run(qtl, invoice('20.000', '84,000.00')).discrepancies).toEqual([]);
  });

  it('holds more tonnes than the kilos ordered', () => {
    const r = run(po, invoice('22.000', '92,400.00'));
    expect(r.status).toBe('hold');
  });
});
