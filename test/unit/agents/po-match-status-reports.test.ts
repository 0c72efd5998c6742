/**
 * po-match: a PO status report printed with its costs and received quantities beside the ordered ones (Epicor,
 * Macola, SyteLine, JD Edwards style: "Unit Cost  Ext. Cost", "Qty Received"), and an invoice in the supplier's
 * unit (dozens of pairs, dozens of eaches) that pairs with its PO line by description and the converted price.
 */
import { describe, expect, it } from 'vitest';
import { poMatchEngine } from '../../../lambdas/agents/engines/po-match/engine.js';
import { readDocument } from '../../../lambdas/agents/engines/po-match/document.js';
import { readReceipts } from '../../../lambdas/agents/engines/po-match/receipts.js';

const run = poMatchEngine.analyse;

const po = (received: string) => `Epicor Kinetic                                        PO Status
Company: RIVERBEND MACHINING CO, 12 Mill St, Dayton OH 45402
PO Num:   44120        Vendor: V0981  Buckeye Workwear Supply Inc
Terms: Net 30     FOB: Destination
Notes: Partial shipments OK.

Ln  Part              Description                         U/M   Qty Ordered   Qty Received   Unit Cost    Ext. Cost
--  ----------------  ----------------------------------  ----  -----------  -------------  ----------  -----------
1   RB-GLV-NIT-M      Nitrile coated work gloves, medium  PR         240.00       ${received}     4.25000     1,020.00
2   RB-EAR-FOAM       Foam ear plugs uncorded             EA       1,000.00       1,000.00     0.18000       180.00
                                                                               PO Total:        1,200.00
`;
const invoice = (dz: string) => `BUCKEYE WORKWEAR SUPPLY INC
INVOICE  BW-55120          Your PO: 44120

Item #       Description                                Ordered  Shipped   B/O   U/M    Price     Amount
-----------  -----------------------------------------  -------  -------  ----   ---   -------   --------
GLN-M-12     Work Glove Nitrile Coat Med (12 PR/DZ)          20       ${dz}     ${20 - Number(dz)}    DZ    51.000   ${(Number(dz) * 51).toFixed(2)}
EPF-100      Ear plugs foam uncorded                      1000     1000      0   EA     0.180     180.00

                                                                     INVOICE TOTAL:   ${(Number(dz) * 51 + 180).toFixed(2)}
`;

describe('po-match: a PO status report with received quantities', () => {
  it('reads the unit and extended cost columns, never the received quantity as the ordered one', () => {
    const d = readDocument(po('   144.00'), 'purchaseOrder');
    expect(d.lines.map((l) => [Number(l.quantity) / 1e6, Number(l.unitPrice) / 1e6, Number(l.amount ?? 0n) / 1e6])).toEqual([
      [240, 4.25, 1020],
      [1000, 0.18, 180],
    ]);
  });

  it('reads the line table\'s received column as the receipts, tied by the item number', () => {
    const r = readReceipts(po('   144.00'));
    expect(r.map((x) => [x.lineRef, x.sku, Number(x.accepted) / 1e6])).toEqual([
      ['1', 'RB-GLV-NIT-M', 144],
      ['2', 'RB-EAR-FOAM', 1000],
    ]);
  });

  it('pairs dozens of pairs partly shipped with the PO line in pairs by the converted price, and passes what was received', () => {
    const r = run({ purchaseOrder: po('   144.00'), invoice: invoice('12') });
    expect(r.discrepancies).toEqual([]);
    expect(r.linesCompared).toBe(2);
    expect(r.status).toBe('pass');
  });

  it('holds dozens billed beyond the pairs received', () => {
    const r = run({ purchaseOrder: po('    96.00'), invoice: invoice('12') });
    expect(r.status).toBe('hold');
    expect(r.discrepancies.join(' ')).toMatch(/receipts accept 96/);
  });

  it('reads a JD Edwards receipts inquiry numbering its lines 1.000 with an Item Number column', () => {
    const text = `Ln    Item Number   Rec Date  Qty Ordered  Qty Received  Qty Open
1.000 AB-100        02/26/26           60            40        20
2.000 AB-200        02/26/26            8             8         0
`;
    expect(readReceipts(text).map((x) => [x.lineRef, x.sku, Number(x.accepted) / 1e6])).toEqual([
      ['1', 'AB-100', 40],
      ['2', 'AB-200', 8],
    ]);
  });
});
