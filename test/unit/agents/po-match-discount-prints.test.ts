/**
 * po-match: printed tables with a line-discount column (extension = quantity × price × (1 − discount)), the Dutch and
 * Flemish labels (Omschrijving, Aantal, Eenheidsprijs, Korting, Bedrag; Inkooporder, Uw referentie) and the Finnish
 * ones (Rivi, Nimike, Kuvaus, Määrä, Yks., á-hinta, Yhteensä; Toimittaja, Tilausnumero).
 */
import { describe, expect, it } from 'vitest';
import { poMatchEngine } from '../../../lambdas/agents/engines/po-match/engine.js';
import { readDocument } from '../../../lambdas/agents/engines/po-match/document.js';

const run = (purchaseOrder: string, invoice: string) => poMatchEngine.analyse({ purchaseOrder, invoice });
const money = (v: bigint | undefined) => (v === undefined ? undefined : Number(v) / 1e6);

const dutchPo = [
  'Bouwmaterialen Peeters BVBA',
  '',
  'Inkooporder #PO/2026/0077',
  '',
  'Omschrijving                          Aantal          Eenheidsprijs   Korting %      Bedrag',
  '[SCHR-4x40] Schroef 4 x 40 mm, doos    20,00 Doos             12,5000    10,00       225,00 €',
  '[KIT-310] Siliconenkit transparant     48,00 Stuk              6,2000                297,60 €',
  '',
  '                                                            Subtotaal              522,60 €',
  '                                                            BTW 21%                109,75 €',
  '                                                            Totaal                 632,35 €',
].join('\n');
const dutchInvoice = (kitPrice: string, kitAmount: string, net: string, btw: string, total: string, ref = 'PO/2026/0077') => [
  'GROOTHANDEL VERBIST NV',
  '',
  'FACTUUR                                   Factuurnummer:  F26-0912',
  `                                          Uw referentie:  ${ref}`,
  '',
  'Art.nr.     Omschrijving                    Aantal  Eenh.  Prijs/eenh.  Korting  Netto bedrag  BTW',
  'SCHR-4x40   Schroef 4x40 mm (doos 200)          20  doos     12,5000      10%        225,00   21%',
  `KIT-310     Siliconenkit transparant 310 ml     48  st       ${kitPrice}                 ${kitAmount}   21%`,
  '',
  `                                   Totaal excl. BTW                     ${net}`,
  `                                   BTW 21%                              ${btw}`,
  `                                   TE BETALEN                 EUR       ${total}`,
].join('\n');

describe('a discount column', () => {
  it('a row whose amount is quantity × price less the discount is read at its net (price per unit = amount ÷ quantity)', () => {
    const doc = readDocument(dutchPo, 'purchaseOrder');
    expect(doc.poNumber).toBe('PO/2026/0077');
    const screws = doc.lines.find((l) => l.sku === 'SCHR-4x40')!;
    expect(money(screws.amount)).toBe(225);
    expect(screws.unitPrice).toBeUndefined();
    const kit = doc.lines.find((l) => l.sku === 'KIT-310')!;
    expect(money(kit.unitPrice)).toBe(6.2);
  });
  it('the same discounted lines on both documents pass; the Flemish invoice names the PO as Uw referentie', () => {
    const r = run(dutchPo, dutchInvoice('6,2000', '297,60', '522,60', '109,75', '632,35'));
    expect(r.discrepancies).toEqual([]);
    expect(r.status).toBe('pass');
    expect(r.invoiceTotal).toBe(632.35);
  });
  it('a discount the arithmetic does not confirm leaves the row as printed: the extension is held', () => {
    const po = dutchPo.replace('10,00       225,00 €', '10,00       250,00 €').replace('522,60', '547,60');
    const doc = readDocument(po, 'purchaseOrder');
    expect(money(doc.lines[0].unitPrice)).toBe(12.5);
    expect(run(po, dutchInvoice('6,2000', '297,60', '522,60', '109,75', '632,35')).status).toBe('hold');
  });
  it('an invoice at a higher price than the PO is held', () => {
    expect(run(dutchPo, dutchInvoice('6,6000', '316,80', '541,80', '113,78', '655,58')).status).toBe('hold');
  });
  it('"Uw referentie" on a purchase order is the vendor\'s reference, not the PO number', () => {
    const po = dutchPo.replace('Inkooporder #PO/2026/0077', 'Uw referentie: OFF-5531\nInkooporder #PO/2026/0077');
    expect(readDocument(po, 'purchaseOrder').poNumber).toBe('PO/2026/0077');
  });
});

describe('a Finnish printed order', () => {
  const po = [
    'Ostotilaus',
    'Toimittaja / Supplier:  Rautakesko Pirkkala Oy',
    'Tilausnumero:           88120045',
    '',
    'Rivi  Nimike       Kuvaus                                       Määrä  Yks.    á-hinta EUR   ALV %   Yhteensä EUR',
    '1     RK-PR-200    Putkiristikko 200x200x6 mm, kuumasinkitty        6  kpl           42,10   25,5          252,60',
    '2     RK-LV-25     Liimavalu 25 kg säkki                           10  säk           18,90   25,5          189,00',
    '',
    '                                         Yhteensä alv 0 %                                        441,60 EUR',
    '                                         ALV 25,5 %                                              112,61 EUR',
    '                                         Yhteensä                                                554,21 EUR',
  ].join('\n');
  it('reads the columns by their Finnish labels, the supplier and the order number; a size such as 200x200x6 stays in the description', () => {
    const doc = readDocument(po, 'purchaseOrder');
    expect(doc.poNumber).toBe('88120045');
    expect(doc.vendor).toBe('Rautakesko Pirkkala Oy');
    expect(doc.lines.map((l) => [l.sku, money(l.quantity), money(l.unitPrice), money(l.amount)])).toEqual([['RK-PR-200', 6, 42.1, 252.6], ['RK-LV-25', 10, 18.9, 189]]);
    expect(money(doc.total)).toBe(554.21);
  });
});
