/**
 * po-match: the totals a printed document states, told apart and confirmed by arithmetic — the net (the lines' sum),
 * the tax and other charges, and the gross (net plus charges) — whatever the labels' language, with a currency code
 * between a label and its amount; a count, a weight or a page is never a total; and a total the arithmetic does not
 * confirm is held with the difference shown. Also the column and header words of Polish and Swiss-French prints.
 */
import { describe, expect, it } from 'vitest';
import { poMatchEngine as engine } from '../../../lambdas/agents/engines/po-match/engine.js';
import { readDocument } from '../../../lambdas/agents/engines/po-match/document.js';

const run = (purchaseOrder: string, invoice: string) => engine.analyse({ purchaseOrder, invoice });
const money = (v: bigint | undefined) => (v === undefined ? undefined : Number(v) / 1e6);
const read = (text: string, field = 'invoice') => {
  const d = readDocument(text, field);
  return { subtotal: money(d.subtotal), total: money(d.total), charges: d.charges.map((c) => [c.kind, money(c.amount)]), lines: d.lines.length };
};

// A Leipzig print shop's order: 500 flyers at 0.12 = 60.00 and 20 posters at 4.50 = 90.00; 150.00 net, 19 % 28.50.
const table = `Pos  Artikel     Bezeichnung                 Menge  ME   Einzelpreis      Betrag
1    FLY-A5      Flyer A5 4/4 135 g           500  ST          0,12       60,00
2    POS-A2      Plakat A2 170 g               20  ST          4,50       90,00
`;
const germanPo = `Druckhaus Messestadt GmbH                         Bestellung
Lieferant: Offsetdruck Pleiße GmbH               Bestellnummer: BE-2026-0912
Währung: EUR

${table}
                                        Nettobetrag      EUR      150,00
                                        MwSt 19 %        EUR       28,50
                                        Bruttobetrag     EUR      178,50
`;

describe('po-match: stated totals told apart', () => {
  it('reads net, tax and gross with the currency code printed between the label and the amount', () => {
    expect(read(germanPo, 'purchaseOrder')).toEqual({ subtotal: 150, total: 178.5, charges: [['tax', 28.5]], lines: 2 });
  });

  it('a "Total" equal to the lines above a "Total incl. VAT" is the net; the gross is the one lines plus tax confirm', () => {
    const inv = `Offsetdruck Pleiße GmbH                Rechnung 88120
Ihre Bestellung: BE-2026-0912

${table}
                                        Total                 150,00
                                        MwSt 19 %              28,50
                                        Total inkl. MwSt      178,50
`;
    expect(read(inv)).toEqual({ subtotal: 150, total: 178.5, charges: [['tax', 28.5]], lines: 2 });
    expect(run(germanPo, inv)).toMatchObject({ status: 'pass', invoiceTotal: 178.5, poTotal: 178.5 });
  });

  it('Philippine VAT sales lines: VATable and exempt sales make the net, the VAT amount is the tax, the amount due the gross', () => {
    const inv = `CEBU OFFICE DEPOT CORP.
                                                    P.O. No.: PO-CEB-4471
QTY   UNIT  ARTICLES                          UNIT PRICE        AMOUNT
 12   pc    Whiteboard marker, black              55.00         660.00
  4   pc    Medical face masks, box of 50        300.00       1,200.00

                      VATable Sales                               660.00
                      VAT-Exempt Sales                          1,200.00
                      Zero-Rated Sales                              0.00
                      VAT Amount (12%)                             79.20
                      TOTAL AMOUNT DUE              PHP         1,939.20
`;
    expect(read(inv)).toEqual({ subtotal: 1860, total: 1939.2, charges: [['tax', 79.2]], lines: 2 });
    expect(readDocument(inv, 'invoice').lines.map((l) => l.description)).toEqual(['Whiteboard marker, black', 'Medical face masks, box of 50']);
  });

  it('a quantity, a weight or a page among the totals is never the total', () => {
    const inv = `Offsetdruck Pleiße GmbH                Rechnung 88121
Ihre Bestellung: BE-2026-0912

${table}
                                        Gesamtmenge           520,00
                                        Gewicht brutto kg      12,50
                                        Nettobetrag           150,00
                                        MwSt 19 %              28,50
                                        Rechnungsbetrag       178,50
`;
    expect(read(inv)).toEqual({ subtotal: 150, total: 178.5, charges: [['tax', 28.5]], lines: 2 });
  });

  it('a total the arithmetic does not confirm is held, its difference shown, and never passed', () => {
    const inv = `Offsetdruck Pleiße GmbH                Rechnung 88122
Ihre Bestellung: BE-2026-0912

${table}
                                        Nettobetrag           150,00
                                        MwSt 19 %              28,50
                                        Bruttobetrag          187,50
`;
    const r = run(germanPo, inv);
    expect(r.status).toBe('hold');
    expect(r.invoiceTotal).toBe(187.5);
    expect(r.discrepancies.join(' ')).toMatch(/invoice total 187\.50 is not the sum of its lines plus MwSt 19 % 28\.50 178\.50/);
  });

  it('a larger amount asked beside the confirmed gross stands as the total and is held, never paid as the smaller', () => {
    const inv = `Offsetdruck Pleiße GmbH                Rechnung 88124
Ihre Bestellung: BE-2026-0912

${table}
                                        Nettobetrag           150,00
                                        MwSt 19 %              28,50
                                        Bruttobetrag          178,50
                                        Amount due            195,00
`;
    const r = run(germanPo, inv);
    expect(r).toMatchObject({ status: 'hold', invoiceTotal: 195 });
    expect(r.discrepancies.join(' ')).toMatch(/invoice total 195\.00 is not the sum/);
  });

  it('a figure labelled as tax that is the lines\' own sum, confirmed by the total, is the net', () => {
    const inv = `Offsetdruck Pleiße GmbH                Rechnung 88123
Ihre Bestellung: BE-2026-0912

${table}
                                        Bemessungsgrundlage USt 19 %   150,00
                                        MwSt 19 %              28,50
                                        Gesamtbetrag          178,50
`;
    expect(read(inv)).toEqual({ subtotal: 150, total: 178.5, charges: [['tax', 28.5]], lines: 2 });
  });
});

describe('po-match: Polish and Swiss-French prints', () => {
  const plPo = `Zamówienie zakupu / Purchase Order  ZZ/2026/0415
Dostawca / Supplier:  Elektro-Hurt Gdańsk Sp. z o.o. · ul. Grunwaldzka 12, Gdańsk
Waluta: PLN

Lp.  Nazwa towaru                         Indeks        Ilość  J.m.   Cena netto   Wartość netto
1    Kabel OMY 2x1,5 300/300V              OMY-2X15         5  SZT       112,00          560,00
2    Listwa zasilająca 5 gniazd            LZ-5G           10  SZT        38,90          389,00

                                                          Razem netto:        949,00
                                                          VAT 23%:            218,27
                                                          Razem brutto:     1 167,27
`;
  it('reads the Polish columns, the bilingual supplier label cut at its address, and netto / VAT / brutto', () => {
    const doc = readDocument(plPo, 'purchaseOrder');
    expect(doc).toMatchObject({ poNumber: 'ZZ/2026/0415', vendor: 'Elektro-Hurt Gdańsk Sp. z o.o.', currency: 'PLN' });
    expect(doc.lines.map((l) => [l.sku, money(l.quantity), l.uom, money(l.unitPrice), money(l.amount)])).toEqual([
      ['OMY-2X15', 5, 'EA', 112, 560],
      ['LZ-5G', 10, 'EA', 38.9, 389],
    ]);
    expect([money(doc.subtotal), money(doc.total)]).toEqual([949, 1167.27]);
  });

  it('a Swiss print: apostrophe thousands, CHF between label and amount, N° commande, N° art. / Un. / Prix unit. columns, packing and carriage as freight', () => {
    const po = `COMMANDE D'ACHAT                                      N° commande : GE-CMD-0091
Fournisseur : Quincaillerie du Rhône SA                Devise : CHF

Lig  Article      Désignation                      Qté  Unité   Prix net      Montant HT
10   VIS-M6-40    Vis inox M6x40, boîte de 100      12  BTE        18.40          220.80
20   CHE-8-60     Chevilles nylon 8 mm              30  BTE        1'050.00    31'500.00
30   PORT         Port et emballage                  1  FOR        15.00           15.00

                                                 Total HT          CHF     31'735.80
                                                 TVA 8.1 %         CHF      2'570.60
                                                 Total TTC         CHF     34'306.40
`;
    const inv = `QUINCAILLERIE DU RHÔNE SA                                   FACTURE N° 5512
Votre commande : GE-CMD-0091

Pos. N° art.    Désignation                       Quantité  Un.    Prix unit.      Montant
1    55.1040    Vis inox M6x40, boîte de 100            12  bte        18.40         220.80
2    55.2860    Chevilles nylon 8 mm                    30  bte     1'050.00      31'500.00
3    99.0001    Port et emballage                        1  forf.      15.00          15.00

                                               Total hors TVA      CHF     31'735.80
                                               TVA 8.1 %           CHF      2'570.60
                                               Total à payer       CHF     34'306.40
`;
    // "Article" beside "Désignation" holds the item code.
    expect(readDocument(po, 'purchaseOrder').lines.map((l) => [l.sku, l.description])).toEqual([
      ['VIS-M6-40', 'Vis inox M6x40, boîte de 100'],
      ['CHE-8-60', 'Chevilles nylon 8 mm'],
    ]);
    const doc = readDocument(inv, 'invoice');
    expect(doc.poNumber).toBe('GE-CMD-0091');
    expect(doc.lines.map((l) => l.sku)).toEqual(['55.1040', '55.2860']);
    expect(doc.charges.map((c) => [c.kind, money(c.amount)])).toEqual([['freight', 15], ['tax', 2570.6]]);
    expect(run(po, inv)).toMatchObject({ status: 'pass', invoiceTotal: 34306.4, poTotal: 34306.4 });
  });

  it('a vendor printed indented under its label beside another column; a "Supplier Part" column is no vendor label', () => {
    const po = `Purchase Order #US-88120
Supplier                                   Ship To
  Lakeside Lab Supply, Inc.                  Receiving Dock 2

Line  Item / Description            Supplier Part   Qty   UOM   Price, USD   Total, USD
1     Beaker 250 ml, borosilicate   LLS-B250         24   EA         3.15        75.60

                                                   Total        USD    75.60
`;
    const doc = readDocument(po, 'purchaseOrder');
    expect(doc.vendor).toBe('Lakeside Lab Supply, Inc.');
    expect(doc.lines.map((l) => [l.sku, money(l.amount)])).toEqual([['LLS-B250', 75.6]]);
    expect(money(doc.total)).toBe(75.6);
  });
});
