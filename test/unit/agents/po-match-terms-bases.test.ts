import { describe, expect, it } from 'vitest';
import { poMatchEngine } from '../../../lambdas/agents/engines/po-match/engine.js';
import { resultSchema } from '../../../lambdas/agents/engines/po-match/schema.js';

function run(purchaseOrder: string, invoice: string) {
  const result = poMatchEngine.analyse({ purchaseOrder, invoice });
  expect(resultSchema.parse(result)).toEqual(result);
  return result;
}

const po = (terms: string[], rows = ['20        CS     JS-100      Can liner 40x46               $31.60    $632.00'], total = '632.00') =>
  [
    'Purchase Order',
    'Vendor',
    'Janitor Supply Co',
    '',
    'P.O. NO.    7745',
    '',
    'Quantity  Units  Item        Description                 Rate      Amount',
    ...rows,
    '',
    `                                                 Total   $${total}`,
    '',
    ...terms,
  ].join('\n');

const invoice = (rows: string[], summary: string[]) =>
  [
    'JANITOR SUPPLY CO                                 INVOICE',
    'Customer PO    7745',
    '',
    'Item      Description          Ordered  Shipped  B/O   UOM     Unit       Amount',
    ...rows,
    '',
    ...summary,
  ].join('\n');

const LINER = 'JS-100    Liner 40x46               20       20    0    CS     31.60       632.00';

describe('po-match: freight terms with a cap', () => {
  const terms = ['Freight: Prepay and add - supplier may add actual outbound freight, NOT TO EXCEED $150.00 for this order.'];
  it('passes prepaid-and-added freight under the cap', () => {
    const r = run(po(terms), invoice([LINER], ['Subtotal     632.00', 'Freight (prepaid & added)     112.40', 'TOTAL DUE     744.40']));
    expect(r.discrepancies).toEqual([]);
    expect(r.invoiceTotal).toBe(744.4);
  });
  it('holds freight over the cap', () => {
    const r = run(po(terms), invoice([LINER], ['Subtotal     632.00', 'Freight (prepaid & added)     162.40', 'TOTAL DUE     794.40']));
    expect(r.status).toBe('hold');
    expect(r.discrepancies.join(' ')).toMatch(/over the PO's cap of 150\.00/);
  });
});

describe('po-match: a cap on the order is no freight term', () => {
  it('holds freight on a PO whose only cap is its total', () => {
    const r = run(po(['Total not to exceed $5,000.00 including freight.']), invoice([LINER], ['Subtotal     632.00', 'Freight     40.00', 'TOTAL DUE     672.00']));
    expect(r.status).toBe('hold');
    expect(r.discrepancies.join(' ')).toMatch(/freight/);
  });
});

describe('po-match: back-ordered rows that bill nothing', () => {
  const rows = [
    '20        CS     JS-100      Can liner 40x46               $31.60    $632.00',
    '10        CS     JS-200      Hand towel                    $10.00    $100.00',
  ];
  const inv = invoice([LINER, 'JS-200    Hand towel                10        0   10    CS     10.00         0.00'], ['Subtotal     632.00', 'TOTAL DUE     632.00']);
  it('leaves the PO line open when partials are allowed', () => {
    const r = run(po(['Partial shipments allowed.'], rows, '732.00'), inv);
    expect(r.discrepancies).toEqual([]);
    expect(r.note).toMatch(/JS-200 0 of 10/);
  });
  it('holds it on a ship-complete PO', () => {
    const r = run(po(['SHIP COMPLETE ONLY.'], rows, '732.00'), inv);
    expect(r.status).toBe('hold');
    expect(r.discrepancies.join(' ')).toMatch(/ship-complete/);
  });
});

describe('po-match: price bases', () => {
  const eachPo = [
    'Purchase Order   PO-3318',
    'Vendor:   Bolt Co.',
    '',
    'Line  Item ID        Description                  Quantity  UOM     Price      Extended',
    '1     FAS-HCS        Hex cap screw 3/8-16           2,500   Each    0.0840        210.00',
    '',
    '                                                 Total      210.00',
  ].join('\n');
  const perInvoice = (price: string, ext: string) =>
    [
      'BOLT CO.                                  INVOICE',
      'P.O. NUMBER  PO-3318',
      '',
      'QTY ORD  QTY SHIP  B/O  PART NUMBER   DESCRIPTION            PRICE   PER    EXTENSION',
      `  2500     2500      0  HCS3816       3/8-16 HCS GR5 ZP      ${price}    C       ${ext}`,
      '',
      `                                                TOTAL         ${ext}`,
    ].join('\n');
  it('reads a PER column (C = per 100) against a price per each', () => {
    expect(run(eachPo, perInvoice('8.400', '210.00')).discrepancies).toEqual([]);
  });
  it('reads an X12 IT105 price basis (HP, per hundred)', () => {
    const x12 = (price: string, cents: string) =>
      JSON.stringify([
        { id: 'BIG', BIG01: '20260911', BIG02: 'I-1', BIG04: 'PO-3318' },
        { id: 'IT1', IT101: '1', IT102: '2500', IT103: 'EA', IT104: price, IT105: 'HP', IT106: 'BP', IT107: 'FAS-HCS' },
        { id: 'TDS', TDS01: cents },
      ]);
    expect(run(eachPo, x12('8.40', '21000')).discrepancies).toEqual([]);
    expect(run(eachPo, x12('9.40', '23500')).status).toBe('hold');
  });
  it('still holds a price above the PO on the per-100 basis', () => {
    expect(run(eachPo, perInvoice('9.400', '235.00')).status).toBe('hold');
  });
});

describe('po-match: a pack stated in the description', () => {
  const rows = ['240       EA     GL-120      Nitrile glove large           $0.50     $120.00'];
  const inv = (cs: number) =>
    invoice([`GL-120    Glove 120/CS              ${cs}        ${cs}    0    CS     60.00       ${(cs * 60).toFixed(2)}`], [`TOTAL DUE     ${(cs * 60).toFixed(2)}`]);
  it('converts cases of the stated size to eaches', () => {
    expect(run(po([], rows, '120.00'), inv(2)).discrepancies).toEqual([]);
  });
  it('holds cases beyond the eaches ordered', () => {
    expect(run(po([], rows, '120.00'), inv(3)).discrepancies.join(' ')).toMatch(/exceeds the PO quantity/);
  });
});

describe('po-match: a stated price tolerance', () => {
  const rows = ['20        CS     JS-100      Can liner 40x46               $31.60    $632.00'];
  const over = invoice(['JS-100    Liner 40x46               20       20    0    CS     32.00       640.00'], ['TOTAL DUE     640.00']);
  it('accepts a price within a percent-only tolerance per line', () => {
    expect(run(po(['Price tolerance: invoice prices may differ by at most ± 2 % per line.'], rows), over).discrepancies).toEqual([]);
  });
  it('holds a price outside it', () => {
    expect(run(po(['Price tolerance: invoice prices may differ by at most ± 1 % per line.'], rows), over).status).toBe('hold');
  });
  it('judges a tolerance on the total against the lines together', () => {
    expect(run(po(['Price tolerance: the invoice total may exceed the PO total by at most 1 %.'], rows), over).status).toBe('hold');
    expect(run(po(['Price tolerance: the invoice total may exceed the PO total by at most 2 %.'], rows), over).status).toBe('pass');
  });
});

describe('po-match: readers', () => {
  it('reads a flat distributor CSV with Qty Ordered / Qty Shipped and its totals rows', () => {
    const csv = [
      'Invoice Number,Customer PO,Item,Description,Qty Ordered,Qty Shipped,Qty B/O,UOM,Unit Price,Extended Price',
      'INV-1,7745,JS-100,LINER 40X46,20,20,0,CS,31.600,632.00',
      ',,,,,,,,Merchandise,632.00',
      ',,,,,,,,Freight,0.00',
      ',,,,,,,,Invoice Total,632.00',
    ].join('\n');
    const r = run(po([]), csv);
    expect(r.invoiceTotal).toBe(632);
    expect(r.discrepancies).toEqual([]);
  });
  it('reads an EDIFACT INVOIC keyed by segment tags and element ids', () => {
    const edi = JSON.stringify({
      UNH: { '0062': '1', S009: { '0065': 'INVOIC', '0052': 'D', '0054': '96A' } },
      BGM: { C002: { '1001': '380' }, '1004': 'RE-1' },
      RFF: [{ C506: { '1153': 'ON', '1154': '7745' } }],
      NAD: [{ '3035': 'SU', C080: { '3036': 'Janitor Supply Co' } }],
      CUX: { C504: { '6347': '2', '6345': 'USD', '6343': '4' } },
      LIN_group: [
        {
          LIN: { '1082': '1', C212: { '7140': 'JS-100', '7143': 'SA' } },
          IMD: { '7077': 'F', C273: { '7008': 'Can liner 40x46' } },
          QTY: { C186: { '6063': '47', '6060': '20', '6411': 'CS' } },
          MOA: { C516: { '5025': '203', '5004': '632.00' } },
          PRI: { C509: { '5125': 'AAA', '5118': '31.60' } },
        },
      ],
      UNS: { '0081': 'S' },
      MOA_totals: [{ C516: { '5025': '79', '5004': '632.00' } }, { C516: { '5025': '77', '5004': '632.00' } }],
    });
    const r = run(po([]), edi);
    expect(r.linesCompared).toBe(1);
    expect(r.invoiceTotal).toBe(632);
    expect(r.discrepancies).toEqual([]);
  });
});
