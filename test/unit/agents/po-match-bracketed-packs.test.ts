/**
 * po-match: a unit cell printed with its content in brackets ("Box (100 ea)", "PK (10 pcs)", "CS (24)") converts like
 * any stated pack; a freight row under the small-business freight code ("FRT  LTL freight") is freight; a PO that
 * agrees a flat freight amount on its own freight line holds freight billed above it.
 */
import { describe, expect, it } from 'vitest';
import { poMatchEngine } from '../../../lambdas/agents/engines/po-match/engine.js';
import { readDocument } from '../../../lambdas/agents/engines/po-match/document.js';

const run = poMatchEngine.analyse;

const po = `PURCHASE ORDER                                                   PO #: 88410
Lakeshore Controls Inc, Duluth MN
Vendor:
Arrowhead Electric Supply Co.

Terms: Net 30   FOB: Origin, prepay & add (flat $40.00 agreed)

Item                 Description                                 Qty   UOM            Unit Cost       Total
-------------------  ------------------------------------------  ----  -------------  ---------  ----------
WN-YEL-18            Wire nut yellow 18-12 AWG                      20  Box (100 ea)       9.00      180.00
LBL-1X3-WHT          Label 1" x 3" white thermal                     6  Case (24)         30.00      180.00
FREIGHT              Freight - LTL, flat rate per quote 7731         1  Each              40.00       40.00
                                                                                  Total           $400.00
`;
const invoice = (freight: string) => `ARROWHEAD ELECTRIC SUPPLY CO.
INVOICE # 55012        P.O. NUMBER: 88410

ITEM               DESCRIPTION                               QTY SHIPPED   UOM           RATE       AMOUNT
-----------------  ----------------------------------------  -----------  -----------  --------  ----------
WN18Y              Wire Nut Yellow 18-12                              400  PK (5 pcs)       0.45      180.00
LB13W              Thermal Label 1x3 White                            144  EA               1.25      180.00
FRT                LTL freight (prepaid & added)                        1  EA        ${freight.padStart(9)}  ${freight.padStart(9)}

                                                                     TOTAL      $${(360 + Number(freight)).toFixed(2)}
`;

describe('po-match: packs stated in brackets beside the unit', () => {
  it('reads "Box (100 ea)" and "Case (24)" as the unit and its pack, and the bracket is no part of the description', () => {
    const d = readDocument(po, 'purchaseOrder');
    expect(d.lines.map((l) => [l.uom, l.pack, l.description])).toEqual([
      ['BX', 100, 'Wire nut yellow 18-12 AWG'],
      ['CS', 24, 'Label 1" x 3" white thermal'],
    ]);
  });

  it('converts packs of 5 and eaches back to boxes of 100 and cases of 24, freight as agreed', () => {
    const r = run({ purchaseOrder: po, invoice: invoice('40.00') });
    expect(r.discrepancies).toEqual([]);
    expect(r.linesCompared).toBe(2);
  });

  it('holds freight billed above the flat amount the PO agrees', () => {
    const r = run({ purchaseOrder: po, invoice: invoice('65.00') });
    expect(r.status).toBe('hold');
    expect(r.discrepancies.join(' ')).toMatch(/over the flat freight the PO agrees \(40\.00/);
  });
});
