/**
 * po-match: printed orders and invoices of other countries read as their practitioners read them — French (amounts
 * with the euro after them and thousands grouped by spaces, units sold by the roll and billed by the metre, a
 * freight row in the table), Indian GST (lakh grouping, packing & forwarding the PO carries, Sub Total), Japanese
 * (columns aligned in display cells, counters as units, a pack stated as (24個入), yen without minor units) and
 * Spanish (Nº pedido, a vendor number before the name, entrega completa).
 */
import { describe, expect, it } from 'vitest';
import { poMatchEngine } from '../../../lambdas/agents/engines/po-match/engine.js';
import { readDocument } from '../../../lambdas/agents/engines/po-match/document.js';

const run = (purchaseOrder: string, invoice: string) => poMatchEngine.analyse({ purchaseOrder, invoice });
const money = (v: bigint | undefined) => (v === undefined ? undefined : Number(v) / 1e6);

describe('po-match: a French commande and facture', () => {
  const po = [
    'Bon de commande n° PA-7781',
    '',
    'Description                              Qté               Prix unitaire      Montant',
    '[TOI-25] Toile de verre 1 m, rouleau     40,00 Rouleau(x)      61,25 €      2 450,00 €',
    'de 25 m',
    '[SAC-G] Sacs gravats renforcés           300,00 Unité(s)        0,85 €        255,00 €',
    '(vendus par lot de 50)',
    '',
    '                                         Montant HT                        2 705,00 €',
    '                                         TVA 20%                             541,00 €',
    '                                         Total                             3 246,00 €',
    '',
    'Conditions : livraison franco de port.',
  ].join('\n');
  const facture = (port: string) => {
    const ht = 2705 + Number(port.replace(',', '.'));
    const tva = Math.round(ht * 20) / 100;
    const fmt = (n: number) => n.toFixed(2).replace('.', ',').replace(/\B(?=(\d{3})+,)/g, ' ');
    return [
      'FACTURE',
      'Revêtements du Centre SARL',
      'Votre commande : PA-7781',
      '',
      'Réf.        Désignation                         Qté      Unité     P.U. HT     Montant HT',
      'TOI-25      Toile de verre 1 m (40 rouleaux    1000      m           2,450       2 450,00',
      '            de 25 m)',
      'SAC-G       Sacs gravats (lot de 50)               6      lot        42,500         255,00',
      `Frais de port  Forfait transport                  1      forfait    ${port}       ${port}`,
      '',
      `                                     Total HT                       ${fmt(ht)} €`,
      `                                     TVA 20 %                         ${fmt(tva)} €`,
      `                                     Total TTC                      ${fmt(ht + tva)} €`,
    ].join('\n');
  };

  it('reads space-grouped euro amounts and converts rolls of 25 m to metres and lots of 50 to units', () => {
    const doc = readDocument(po, 'purchaseOrder');
    expect(doc.lines.map((l) => [l.sku, l.uom, money(l.quantity), money(l.unitPrice), money(l.amount)])).toEqual([
      ['TOI-25', 'RL', 40, 61.25, 2450],
      ['SAC-G', undefined, 300, 0.85, 255],
    ]);
    expect(money(doc.total)).toBe(3246);
    const r = run(po, facture('0,00'));
    expect(r.discrepancies).toEqual([]);
    expect(r.invoiceTotal).toBe(3246);
  });

  it('holds a freight row billed on a franco de port order', () => {
    const r = run(po, facture('18,00'));
    expect(r.status).toBe('hold');
    expect(r.discrepancies).toEqual([expect.stringMatching(/^freight: Frais de port .*18\.00 billed but the PO says .*franco de port/)]);
  });
});

describe('po-match: an Indian GST tax invoice', () => {
  const po = (pf: boolean) => [
    'PURCHASE ORDER',
    'PO No.        : 4700002210                      Currency : INR',
    'Vendor        : SHAKTI CASTINGS PVT LTD',
    '',
    'Item  Material     Description                    Qty   UoM     Rate (INR)      Value (INR)',
    '00010 SC-FL-100    Flange casting 100 NB           250   NOS       1,120.00      2,80,000.00',
    '00020 SC-CV-50     Check valve body 50 NB           80   NOS       2,450.00      1,96,000.00',
    '',
    '                                 Basic value                                 4,76,000.00',
    ...(pf ? ['                                 Packing & Forwarding @ 1.5%                   7,140.00'] : []),
    `                                 IGST @ 18%                                  ${pf ? '86,965.20' : '85,680.00'}`,
    `                                 PO TOTAL                                    ${pf ? '5,70,105.20' : '5,61,680.00'}`,
  ].join('\n');
  const invoice = [
    'TAX INVOICE                                   ORIGINAL FOR RECIPIENT',
    'SHAKTI CASTINGS PRIVATE LIMITED',
    "Buyer's PO   : 4700002210 dt. 02.03.2026",
    '',
    'Sl  Description of Goods             HSN/SAC     Qty      UoM   Rate        Amount (Rs.)',
    ' 1  Flange casting 100 NB (00010)    73259999    250.00   NOS   1,120.00     2,80,000.00',
    ' 2  Check valve body 50 NB (00020)   84819090     80.00   NOS   2,450.00     1,96,000.00',
    '                                                          Sub Total          4,76,000.00',
    ' 3  Packing & Forwarding @ 1.5%                                                 7,140.00',
    '                                                          IGST @ 18%           86,965.20',
    '                                                          Round Off                 0.00',
    '                                                          GRAND TOTAL        5,70,105.20',
  ].join('\n');

  it('reads lakh-grouped totals, Sub Total as the goods, the vendor under the title, and a P&F the PO carries', () => {
    const doc = readDocument(invoice, 'invoice');
    expect([doc.vendor, money(doc.subtotal), money(doc.total)]).toEqual(['SHAKTI CASTINGS PRIVATE LIMITED', 476000, 570105.2]);
    const r = run(po(true), invoice);
    expect(r.discrepancies).toEqual([]);
    expect(r.note).toMatch(/Packing & Forwarding @ 1\.5% 7140\.00 billed as the PO itself carries it/);
  });

  it('holds a packing & forwarding charge the PO does not carry', () => {
    const r = run(po(false), invoice);
    expect(r.status).toBe('hold');
    expect(r.discrepancies).toContainEqual(expect.stringMatching(/^charge: Packing & Forwarding @ 1\.5% 7140\.00 billed; the PO carries no such charge/));
  });
});

describe('po-match: a Japanese 注文書 and 請求書', () => {
  const po = [
    '                    注 文 書',
    '                                        注文番号: MK-3301',
    '送    料: 貴社負担',
    '',
    'No.  品番         品名・規格                        数量   単位       単価        金額',
    '1    NT-M8        六角ナット M8 (24個入)              15   ケース   ¥1,080     ¥16,200',
    '2    TP-50        養生テープ 50mm                     30   巻         ¥210      ¥6,300',
    '',
    '                                             小 計                 ¥22,500',
    '                                             消費税 (10%)           ¥2,250',
    '                                             合 計                 ¥24,750',
  ].join('\n');
  const invoice = (nutPrice: string, nutAmount: string, total: string, tax: string) => [
    '                    請 求 書',
    'ご注文番号: MK-3301',
    '',
    '品番         品名・規格                  数量    単位     単価       金額',
    'NT-M8        六角ナット M8                 360   個       ' + nutPrice + '     ' + nutAmount,
    'TP-50        養生テープ 50mm                30   巻        210      6,300',
    '',
    `                                   消費税額     ¥${tax}`,
    `                                   合計        ¥${total}`,
  ].join('\n');

  it('aligns the columns in display cells and bills cases of 24 by the piece at a fractional yen price', () => {
    const doc = readDocument(po, 'purchaseOrder');
    expect(doc.lines.map((l) => [l.sku, l.uom, money(l.quantity), money(l.unitPrice)])).toEqual([['NT-M8', 'CS', 15, 1080], ['TP-50', 'RL', 30, 210]]);
    expect([doc.poNumber, doc.currency, money(doc.total)]).toEqual(['MK-3301', 'JPY', 24750]);
    const r = run(po, invoice('45', '16,200', '24,750', '2,250'));
    expect(r.discrepancies).toEqual([]);
    expect(r.invoiceTotal).toBe(24750);
  });

  it('holds a piece price above the case price ÷ 24', () => {
    const r = run(po, invoice('46.5', '16,740', '25,344', '2,304'));
    expect(r.status).toBe('hold');
    expect(r.discrepancies[0]).toMatch(/^line NT-M8: invoice unit price 46\.50 differs from the PO unit price 45\.00/);
  });
});

describe('po-match: a Spanish pedido de compra', () => {
  const po = [
    'PEDIDO DE COMPRA',
    'Nº pedido:   4500123400',
    'Proveedor:  200310',
    'FERRETERÍA DEL EBRO, S.L.',
    'Condiciones de entrega: entrega completa, no se admiten entregas parciales.',
    '',
    'Pos.   Material     Descripción                      Cantidad  UM    Precio neto    Importe neto',
    '00010  FE-TOR-8     Tornillo hexagonal M8x40, caja       20     CJ          9,50          190,00',
    '00020  FE-ARA-8     Arandela plana M8, bolsa             10     UN          3,20           32,00',
    '                                                   Valor neto total                222,00 EUR',
  ].join('\n');

  it('reads the Spanish columns, the order number and the vendor under its number, and holds a partial invoice', () => {
    const doc = readDocument(po, 'purchaseOrder');
    expect([doc.poNumber, doc.vendor, money(doc.subtotal)]).toEqual(['4500123400', 'FERRETERÍA DEL EBRO, S.L.', 222]);
    expect(doc.lines.map((l) => [l.sku, l.uom, money(l.quantity), money(l.amount)])).toEqual([['FE-TOR-8', 'BX', 20, 190], ['FE-ARA-8', 'EA', 10, 32]]);
    const invoice = ['FACTURA F-2026-77', 'Ferretería del Ebro S.L.', 'Pedido: 4500123400', '', 'FE-TOR-8 Tornillo M8x40 12 cj x 9,50 = 114,00', 'FE-ARA-8 Arandela M8 10 un x 3,20 = 32,00', '', 'Total: 146,00'].join('\n');
    const r = run(po, invoice);
    expect(r.status).toBe('hold');
    expect(r.discrepancies).toEqual([expect.stringMatching(/^partial shipment on a ship-complete PO: FE-TOR-8 12 of 20; the PO says .*entrega completa/)]);
  });
});
