import { describe, expect, it } from 'vitest';
import { poMatchEngine } from '../../../lambdas/agents/engines/po-match/engine.js';
import { resultSchema } from '../../../lambdas/agents/engines/po-match/schema.js';

function run(purchaseOrder: string, invoice: string) {
  const result = poMatchEngine.analyse({ purchaseOrder, invoice });
  expect(resultSchema.parse(result)).toEqual(result);
  return result;
}

describe('po-match readings: summary lines a business-one style PO prints', () => {
  // Lines 120.00 + 80.00 = 200.00; a 5 % discount 10.00; VAT 20 % on 190.00 = 38.00; due 228.00.
  const po = [
    'HILLSIDE JOINERY LTD',
    'PURCHASE ORDER                                   No.            PO-55120',
    'Vendor:  NORTHERN TIMBER SUPPLIES',
    '',
    '#   Item No.     Description                         Quantity  UoM    Unit Price   Total (GBP)',
    '1   TB-4720      Planed softwood 47x100 PEFC               40  Each       3.0000        120.00',
    '2   PL-1812      Plywood sheet 18mm 2440x1220               4  Each      20.0000         80.00',
    '',
    '                                            Total Before Discount            200.00',
    '                                            Discount 5%                       10.00',
    '                                            Freight                            0.00',
    '                                            Tax                               38.00',
    '                                            Total Payment Due                228.00',
  ].join('\n');
  const invoice = [
    'NORTHERN TIMBER SUPPLIES                              INVOICE',
    'Your Order: PO-55120',
    '',
    'Product    Description                      Qty      Price        Net',
    'TB-4720    PLANED SW 47X100                  40     3.0000     120.00',
    'PL-1812    PLY 18MM 2440X1220                 4    20.0000      80.00',
    '',
    '                                     Discount 5%              10.00',
    '                                     VAT @ 20%                38.00',
    '                                     INVOICE TOTAL           228.00',
  ].join('\n');

  it('"Total Before Discount" is the net of the lines and "Total Payment Due" the PO total', () => {
    const r = run(po, invoice);
    expect(r).toMatchObject({ status: 'pass', poTotal: 228, invoiceTotal: 228 });
  });

  it('a payment received printed among the totals is still no total', () => {
    const paid = po.replace('Total Payment Due                228.00', 'Payment received                 228.00');
    expect(run(paid, invoice).poTotal).toBe(228);
    expect(run(paid, invoice).note).toContain('states no total');
  });
});

describe('po-match readings: a pack or a size printed in the description, under the next column', () => {
  // The PO counts eaches; the distributor bills boxes of 50, its description running under QTY ORD.
  const po = [
    'Purchase Order                                    #PO-9034',
    'Vendor',
    'Prairie Medical Supply',
    '',
    'Quantity  Units  Item         Description                         Rate        Amount',
    '100       EA     GZ-2208      Gauze sponge 2x2 8-ply               $0.40       $40.00',
    '10        BX     TB-1410      Tongue depressor sterile             $6.50       $65.00',
    '',
    '                                                      Total              $105.00',
  ].join('\n');
  // Each cell right-aligned under its column, as the distributor's system prints them.
  const row = (item: string, desc: string, qty: number, um: string, price: string, amount: string) =>
    `${item.padEnd(12)}${desc.padEnd(30)}${String(qty).padStart(7)}${String(qty).padStart(9)}${'0'.padStart(5)}  ${um.padEnd(3)}${price.padStart(12)}${amount.padStart(10)}`;
  const invoice = (boxes: number) => [
    'PRAIRIE MEDICAL SUPPLY                                    INVOICE',
    'P.O. NO. 9034',
    '',
    'ITEM        DESCRIPTION                   QTY ORD  QTY SHP  B/O  UM    UNIT PRICE    AMOUNT',
    row('GZ-2208', 'GAUZE SPONGE 2X2 8PLY 50/BX', boxes, 'BX', '20.0000', (boxes * 20).toFixed(2)),
    row('TB-1410', 'TONGUE DEPRESSOR STER 3.5X10', 10, 'BX', '6.5000', '65.00'),
    '',
    `                                        TOTAL DUE              ${(boxes * 20 + 65).toFixed(2).padStart(10)}`,
  ].join('\n');

  it('2 BX of 50 at 20.00 are the 100 EA at 0.40 ordered', () => {
    const r = run(po, invoice(2));
    expect(r).toMatchObject({ status: 'pass', invoiceTotal: 105, poTotal: 105, linesCompared: 2 });
  });

  it('3 BX of 50 are 150 EA against 100 ordered: quantity over, in eaches', () => {
    const r = run(po, invoice(3));
    expect(r.status).toBe('hold');
    expect(r.discrepancies[0]).toContain('invoice quantity 150 exceeds the PO quantity 100 (3 BX × 50 = 150 each');
  });
});

describe('po-match readings: a British distributor invoice (Product code, Qty Desp, Net, Goods Net)', () => {
  const po = [
    'PURCHASE ORDER                                   No.            4471',
    'Vendor:  SEVERN BEARINGS LTD',
    '',
    '#   Item No.     Description                         Quantity  UoM    Unit Price   Total (GBP)',
    '1   BR-6204      Deep groove bearing 6204 2RS              100  Each       2.1500        215.00',
    '2   CL-2520      Circlip external 25mm                     200  Each       0.1200         24.00',
    '',
    '                                                   Total Before Discount            239.00',
  ].join('\n');
  const invoice = [
    'SEVERN BEARINGS LTD                                              SALES INVOICE',
    'Your Order: 4471',
    '',
    'Product       Description                     Qty Ord   Qty Desp   B/O        Price       Net   VAT',
    'BR-6204       BEARING 6204 2RS C3                 100         60    40         2.15    129.00   S',
    'CL-2520       CIRCLIP EXT 25MM DIN471             200        200     0         0.12     24.00   S',
    '',
    '                                                                    Goods Net          153.00',
    '                                                                    Carriage             0.00',
    '                                                                    VAT @ 20%           30.60',
    '                                                                    INVOICE TOTAL      183.60',
  ].join('\n');

  it('bills what was despatched, pairs by the product code and keeps the summary out of the last description', () => {
    const r = run(po, invoice);
    expect(r).toMatchObject({ status: 'pass', invoiceTotal: 183.6, poTotal: 239, linesCompared: 2 });
    expect(r.note).toContain('Partial shipment (allowed): BR-6204 60 of 100');
  });
});
