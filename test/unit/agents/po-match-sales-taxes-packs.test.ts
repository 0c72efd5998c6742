/**
 * po-match: two sales taxes added to one total (Canada's GST beside a provincial PST or QST, in English and in French
 * with the vendor's registration numbers beside them), a unit printed with what it holds ("BX/100", "CS/6"), a row
 * whose description pushes its figures right of their labels, a VAT invoice's column totals, a VAT named by its rate
 * band, a PO number with a region segment, and identifiers (IBAN, TRN, telephone) never read as money.
 */
import { describe, expect, it } from 'vitest';
import { poMatchEngine } from '../../../lambdas/agents/engines/po-match/engine.js';
import { readDocument } from '../../../lambdas/agents/engines/po-match/document.js';

const run = (purchaseOrder: string, invoice: string) => poMatchEngine.analyse({ purchaseOrder, invoice });
const money = (v: bigint | undefined) => (v === undefined ? undefined : Number(v) / 1e6);

const skPo = [
  'PURCHASE ORDER',
  'Prairie Grain Labs Inc.',
  'PO Number:   PGL-PO-7731                    Date: 2026-09-14',
  'Vendor:      Riverside Lab Supply Ltd.       Currency: CAD',
  '',
  'Item         Description                       Qty   Unit    Unit Price    Line Total',
  'GLV-N-M      Nitrile gloves, medium             400   Each          0.18          72.00',
  'PIP-200      Pipette tips 200 ul                600   Each          0.09          54.00',
  'BTL-500      Media bottle 500 ml                 12   Each          8.50         102.00',
  '',
  '                                                             Subtotal:         228.00',
  '                                                             GST (5%):          11.40',
  '                                                             PST SK (6%):       13.68',
  '                                                             Total:            253.08',
].join('\n');

const skInvoice = [
  'RIVERSIDE LAB SUPPLY LTD.',
  '12 Quance St, Regina SK S4P 1A1 · Tel: 306-555-0110',
  'GST # 77812 4410 RT0001',
  '',
  'INVOICE  RLS-55102                            Customer PO: PGL-PO-7731',
  '',
  'Item        Description                       Qty   U/M       Price     Extension',
  'GLV-N-M     NITRILE GLOVE MED (100/BX)          4   BX/100    18.00         72.00',
  'PIP-200     PIPETTE TIP 200UL (200/PK)          3   PK/200    18.00         54.00',
  'BTL-500     MEDIA BOTTLE 500ML (6/CS)           2   CS/6      51.00        102.00',
  '',
  '                                                 Sale amount           228.00',
  '                                                 GST 5%                 11.40',
  '                                                 PST 6%                 13.68',
  '                                                 INVOICE TOTAL         253.08',
].join('\n');

describe('po-match: GST and a provincial sales tax on one total', () => {
  it('adds both taxes and reads a unit printed with its pack size', () => {
    const inv = readDocument(skInvoice, 'invoice');
    expect(inv.charges.map((c) => money(c.amount))).toEqual([11.4, 13.68]);
    expect(inv.lines.map((l) => [l.uom, l.pack])).toEqual([['BX', 100], ['PK', 200], ['CS', 6]]);
    const r = run(skPo, skInvoice);
    expect(r.discrepancies).toEqual([]);
    expect(r.status).toBe('pass');
    expect(r.invoiceTotal).toBe(253.08);
  });
  it('a case billed as holding more than was ordered is still held', () => {
    const over = skInvoice.replace('2   CS/6      51.00        102.00', '3   CS/6      51.00        153.00').replace('228.00', '279.00').replace('11.40', '13.95').replace('13.68', '16.74').replace('253.08', '309.69');
    const r = run(skPo, over);
    expect(r.status).toBe('hold');
  });
  it('a total of the two taxes printed after them is not added again; a second tax equal to the first is', () => {
    const withTotal = skInvoice.replace('                                                 INVOICE TOTAL', '                                                 Total tax              25.08\n                                                 INVOICE TOTAL');
    expect(readDocument(withTotal, 'invoice').charges.map((c) => money(c.amount))).toEqual([11.4, 13.68]);
    const equal = skPo.replace('PST SK (6%):       13.68', 'PST SK (5%):       11.40').replace('253.08', '250.80');
    expect(readDocument(equal, 'purchaseOrder').charges.map((c) => money(c.amount))).toEqual([11.4, 11.4]);
  });
});

const qcPo = [
  'Purchase Order #PO-QC-20931',
  'Supplier   Fournitures Boréal inc.',
  'Currency   CAD',
  '#   Item / Description                 Qty   UOM   Unit Price      Total',
  '1   Safety boots, size 10 - part SB-10    5   EA       142.00     710.00',
  '2   Hard hat, white - part HH-W          10   EA        21.30     213.00',
  '',
  '                                            Subtotal      923.00 CAD',
  '                                            GST 5%         46.15 CAD',
  '                                            QST 9.975%     92.07 CAD',
  '                                            Total       1,061.22 CAD',
].join('\n');
const qcInvoice = [
  'FOURNITURES BORÉAL INC.',
  'FACTURE                                   Votre bon de commande : PO-QC-20931',
  '',
  'Qté   Code    Description                              Prix unitaire       Montant',
  '   5  SB-10   Bottes de sécurité, pointure 10               142,00 $      710,00 $',
  '  10  HH-W    Casque de protection blanc                     21,30 $      213,00 $',
  '',
  '                              Sous-total                               923,00 $',
  '                              TPS 5 %      (no 798812345 RT0001)        46,15 $',
  '                              TVQ 9,975 %  (no 1209876543 TQ0001)       92,07 $',
  '                              TOTAL                                  1 061,22 $',
].join('\n');

describe('po-match: a facture with TPS and TVQ', () => {
  it('reads the sous-total, both taxes beside their registration numbers and the total', () => {
    const inv = readDocument(qcInvoice, 'invoice');
    expect(money(inv.subtotal)).toBe(923);
    expect(inv.charges.map((c) => money(c.amount))).toEqual([46.15, 92.07]);
    expect(money(inv.total)).toBe(1061.22);
    expect(readDocument(qcPo, 'purchaseOrder').poNumber).toBe('PO-QC-20931');
    const r = run(qcPo, qcInvoice);
    expect(r.discrepancies).toEqual([]);
    expect(r.status).toBe('pass');
  });
});

const gulfPo = [
  'Harbour View Hotels LLC',
  '                                                      PURCHASE ORDER',
  '                                                      # PO-00931',
  'Vendor',
  'Desert Kitchen Supplies LLC',
  '',
  '#   Item & Description                         Qty        Rate    Tax        Amount',
  '1   Chef knife 25 cm                          20.00 pcs    85.00    5%      1,700.00',
  '2   Cutting board, blue                       40.00 pcs    22.50    5%        900.00',
  '',
  '                                                      Sub Total          2,600.00',
  '                                                      Standard Rate (5%)   130.00',
  '                                                      Total          AED 2,730.00',
].join('\n');
const gulfInvoice = [
  'DESERT KITCHEN SUPPLIES LLC',
  'Al Qusais Industrial Area 2, Dubai · Tel: +971 4 261 0042',
  'TRN: 100512345600003',
  '                         TAX INVOICE',
  'Invoice No : DKS-7781                 Customer PO : PO-00931',
  '',
  'No  Description                   Qty   Unit   Unit Price   Taxable Amt   VAT 5%   Total AED',
  '1   Chef Knife 25cm Stainless (CK-25)     20   PCS    85.00     1,700.00      85.00     1,785.00',
  '2   Cutting Board Blue HDPE (CB-B)        40   PCS    22.50       900.00      45.00       945.00',
  '',
  '                            Total                      2,600.00     130.00     2,730.00',
  '',
  'Bank: Mashreq, Deira branch · IBAN AE12 0330 0000 1920 0045 517 · SWIFT BOMLAEAD',
].join('\n');

describe('po-match: a Gulf VAT invoice with a wide description and column totals', () => {
  it('reads rows whose figures sit right of their labels, the taxable amount as the line, and the column totals', () => {
    const inv = readDocument(gulfInvoice, 'invoice');
    expect(inv.lines.map((l) => [money(l.quantity), money(l.amount)])).toEqual([[20, 1700], [40, 900]]);
    expect(money(inv.subtotal)).toBe(2600);
    expect(inv.charges.map((c) => money(c.amount))).toEqual([130]);
    expect(money(inv.total)).toBe(2730);
    const po = readDocument(gulfPo, 'purchaseOrder');
    expect(po.charges.map((c) => money(c.amount))).toEqual([130]);
    const r = run(gulfPo, gulfInvoice);
    expect(r.discrepancies).toEqual([]);
    expect(r.status).toBe('pass');
  });
  it('a column-totals row that does not add up is no reading of net, tax and total', () => {
    const wrong = gulfInvoice.replace('2,600.00     130.00     2,730.00', '2,600.00     130.00     2,830.00');
    expect(run(gulfPo, wrong).status).toBe('hold');
  });
});

describe('po-match: identifiers are never money', () => {
  it('an IBAN, a tax registration or a telephone on an invoice without a table is no item', () => {
    const invoice = [
      'Invoice 4471 from Kestrel Tools Ltd',
      'PO: PO-5521',
      'Socket set 10 x $12.50 = $125.00',
      'Total: 125.00',
      'Tel: 0113 496 0122   VAT Reg No 318 4412 07',
      'Bank: Lloyds · IBAN GB29 NWBK 6016 1331 9268 19',
      'Customer TRN 100512345600003   Sort code 30-94-57  12.50',
    ].join('\n');
    const doc = readDocument(invoice, 'invoice');
    expect(doc.lines.map((l) => money(l.amount))).toEqual([125]);
  });
  it('a bank line under a table whose figures fall under its columns is no row', () => {
    const invoice = [
      'Kestrel Tools Ltd                          Invoice 4472        Your order: PO-5522',
      'Code      Description                Qty      Price       Amount',
      'SK-10     Socket set                  10      12.50       125.00',
      'Bank      IBAN GB29 NWBK 6016 1331     92      68.19',
      '                                      Total              125.00',
    ].join('\n');
    const doc = readDocument(invoice, 'invoice');
    expect(doc.lines.map((l) => money(l.amount))).toEqual([125]);
    expect(money(doc.total)).toBe(125);
  });
});

describe('po-match: a currency is named, not a standard size or an item code', () => {
  const po = [
    'Dales Cheese Co Ltd                                   Purchase Order',
    '                                                      #PO-NE-00877',
    'Vendor',
    'Tyne Pallet Services Ltd',
    'Terms     Currency',
    'Net 30    GBP',
    '',
    'Item          Description                       Qty   Units    Rate     Amount',
    'PAL-EUR-1     Euro pallet 1200x800, new           50   Each    12.40     620.00',
    '',
    '                                                          Total   £620.00',
  ].join('\n');
  it('"Euro pallet" and "PAL-EUR-1" leave the pound the one currency; a PO number with a region segment', () => {
    const doc = readDocument(po, 'purchaseOrder');
    expect(doc.currency).toBe('GBP');
    expect(doc.poNumber).toBe('PO-NE-00877');
  });
  it('an invoice for the same pallets in euros is held on currency', () => {
    const invoice = [
      'TYNE PALLET SERVICES LTD',
      'INVOICE TPS-2231                     Your Order: PO-NE-00877',
      'Code        Description                 Qty  Unit   Price     Net',
      'PAL-EUR-1   EURO PALLET 1200X800 NEW     50  EA     12.40   620.00',
      '                                    INVOICE TOTAL (EUR)     620.00',
    ].join('\n');
    const r = run(po, invoice);
    expect(r.status).toBe('hold');
    expect(r.discrepancies.join(' ')).toMatch(/currenc/i);
  });
});
