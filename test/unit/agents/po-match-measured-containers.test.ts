/**
 * po-match: containers of a measured content against a PO in that measure — pails labelled in litres against US
 * gallons, the content converted by law and only as exact as it is printed; a content stated in the PO's own unit is
 * a stated pack; two contents that disagree, or a price outside what the printed content allows, are held.
 */
import { describe, expect, it } from 'vitest';
import { poMatchEngine } from '../../../lambdas/agents/engines/po-match/engine.js';
import { contentIn } from '../../../lambdas/agents/engines/po-match/line-measures.js';
import type { DocLine } from '../../../lambdas/agents/engines/po-match/document.js';

const run = poMatchEngine.analyse;
const M = 1_000_000n;

const po = (received = '') => `PURCHASE ORDER                     PO Number: 7781-22
Buyer: Red Butte Mining LLC, Elko NV
Vendor: V-CA-0107  Northern Fluids Ltd.
Currency: USD

Line  Inventory ID   Line Description                UOM    Order Qty${received ? '   Received' : ''}   Unit Cost   Ext. Cost
1     HYD-AW32       Hydraulic fluid AW 32             GAL      100.00${received}     12.8000    1,280.00
                                                                    Order Total:  USD 1,280.00
`;
const invoice = (unit: string, qty: number, price: string, extra = '') => `NORTHERN FLUIDS LTD.
INVOICE No. 55-1190             Customer PO: 7781-22       Currency: USD

Qty     Unit            Product        Description                              Unit Price     Amount
------  --------------  -------------  ---------------------------------------  ----------  ---------
${String(qty).padEnd(8)}${unit.padEnd(16)}AWF32-PL       AW 32 hydraulic fluid ${extra.padEnd(18)}  ${price.padStart(10)}  ${(qty * Number(price)).toFixed(2).padStart(9)}

                                                                  TOTAL DUE (USD)   ${(qty * Number(price)).toFixed(2)}
`;

describe('po-match: pails of a measured content against gallons', () => {
  it('reads a pail printed in litres as US gallons by law, within the printed rounding (18.9 L holds 5 gal)', () => {
    const r = run({ purchaseOrder: po(), invoice: invoice('PAIL 18.9 L', 20, '64.00') });
    expect(r.discrepancies).toEqual([]);
    expect(r.status).toBe('pass');
  });

  it('reads a content stated in the PO\'s own unit, "(5 US gal)", as the pail\'s', () => {
    const r = run({ purchaseOrder: po(), invoice: invoice('PAIL', 20, '64.00', '(5 US gal)') });
    expect(r.discrepancies).toEqual([]);
  });

  it('holds a pail priced above what its printed content allows', () => {
    // 66.00 a pail of 18.9 L is 13.22 a gallon: above the PO's 12.80, outside the content's printed rounding.
    const r = run({ purchaseOrder: po(), invoice: invoice('PAIL 18.9 L', 20, '66.00') });
    expect(r.status).toBe('hold');
    expect(r.discrepancies.join(' ')).toMatch(/exceeds the PO total 1280.00 by 40.00/);
  });

  it('holds a pail whose two printed contents disagree (20 L is not 5 US gal)', () => {
    const r = run({ purchaseOrder: po(), invoice: invoice('PAIL 20 L', 20, '64.00', '(5 US gal)') });
    expect(r.status).toBe('hold');
    const pail: DocLine = { index: 1, quantity: 20n * M, unitPrice: 64n * M, uom: 'BJ', quote: '20  PAIL 20 L  X  fluid (5 US gal)  64.00  1,280.00' };
    const m = contentIn(pail, { index: 1, quantity: 100n * M, unitPrice: 12_800_000n, uom: 'GAL' }, 'GAL');
    expect(m && 'conflict' in m ? m.conflict : m).toMatch(/5 GAL and as 20 LTR = 5\.283441 GAL by law, which do not agree/);
  });

  it('says why when a pail paired by its item number states two contents that disagree', () => {
    const r = run({ purchaseOrder: po(), invoice: invoice('PAIL 20 L', 20, '64.00', '(5 US gal)').replace('AWF32-PL ', 'HYD-AW32 ') });
    expect(r.status).toBe('hold');
    expect(r.discrepancies.join(' ')).toMatch(/do not agree: confirm what one BJ holds/);
  });

  it('holds pails without a stated content as a unit it cannot convert', () => {
    const r = run({ purchaseOrder: po(), invoice: invoice('PAIL', 20, '64.00') });
    expect(r.status).toBe('hold');
  });

  it('holds pails billed beyond the gallons received', () => {
    const r = run({ purchaseOrder: po('      60.00'), invoice: invoice('PAIL 18.9 L', 20, '64.00') });
    expect(r.status).toBe('hold');
    expect(r.discrepancies.join(' ')).toMatch(/receipts accept 60/);
  });

  it('is only as exact as printed: 18.9 L is 4.980 to 5.006 US gal, a figure after "=" is the line total', () => {
    const pail: DocLine = { index: 1, quantity: 40n * M, unitPrice: 71n * M, uom: 'BJ', quote: '40  PAIL 18.9 L  X  oil  71.00  2,840.00', description: 'oil = 200 US gal' };
    const gal: DocLine = { index: 1, quantity: 200n * M, unitPrice: 14_200_000n, uom: 'GAL' };
    const m = contentIn(pail, gal, 'GAL');
    expect(m && 'factor' in m ? [m.factor, m.lo < 5n * M, m.hi > 5n * M, m.hi < 5_007_000n] : m).toEqual([5n * M, true, true, true]);
  });
});
