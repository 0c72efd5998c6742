/**
 * po-match: weights converted by law (1 LB = 0.45359237 KG) and a bag's stated weight ("50 LB BAG") converting a
 * line in bags to one in pounds, as a food-ingredient buyer reads an invoice billed per pound against a PO in kilos
 * or bags.
 */
import { describe, expect, it } from 'vitest';
import { poMatchEngine } from '../../../lambdas/agents/engines/po-match/engine.js';
import { massFactor, statedPack } from '../../../lambdas/agents/engines/po-match/units.js';

const run = (purchaseOrder: string, invoice: string) => poMatchEngine.analyse({ purchaseOrder, invoice });
const po = (lines: unknown[]) => JSON.stringify({ poNumber: 'GM-5521', vendor: 'Midwest Mill Supply', currency: 'USD', lines });
const inv = (lines: unknown[]) => JSON.stringify({ poNumber: 'GM-5521', vendor: 'Midwest Mill Supply', currency: 'USD', lines });

describe('weights in different units', () => {
  it('knows kilograms and pounds only as masses', () => {
    expect(massFactor('LB', 'KG')).toEqual({ num: 45_359_237n, den: 100_000_000n });
    expect(massFactor('EA', 'KG')).toBeUndefined();
  });
  it('500 KG billed as 1102 LB at the same extension passes (the pound figure rounded to whole pounds)', () => {
    // 500 kg = 1102.31 lb; 500 × 3.30 = 1650.00; 1102 lb × 1.4973 ≈ … billed at an extension equal to the PO's.
    const r = run(po([{ sku: 'SUG-GR', description: 'Granulated sugar', quantity: 500, uom: 'KG', unitPrice: 3.3, amount: 1650 }]),
      inv([{ sku: 'SUG-GR', description: 'Granulated sugar, billed per lb', quantity: 1102, uom: 'LB', unitPrice: 1.497278, amount: 1650 }]));
    expect(r.discrepancies).toEqual([]);
    expect(r.status).toBe('pass');
  });
  it('more pounds than the kilos ordered is a quantity over', () => {
    const r = run(po([{ sku: 'SUG-GR', description: 'Granulated sugar', quantity: 500, uom: 'KG', unitPrice: 3.3, amount: 1650 }]),
      inv([{ sku: 'SUG-GR', description: 'Granulated sugar', quantity: 1200, uom: 'LB', unitPrice: 1.5, amount: 1800 }]));
    expect(r.status).toBe('hold');
  });
  it('a higher price per pound than the PO price per kilo allows is held', () => {
    const r = run(po([{ sku: 'SUG-GR', description: 'Granulated sugar', quantity: 500, uom: 'KG', unitPrice: 3.3, amount: 1650 }]),
      inv([{ sku: 'SUG-GR', description: 'Granulated sugar', quantity: 1102, uom: 'LB', unitPrice: 1.6, amount: 1763.2 }]));
    expect(r.status).toBe('hold');
  });
});

describe('a bag of a stated weight', () => {
  it('reads "50 LB BAG" on a line in bags as 50 pounds a bag; a size for another unit says nothing', () => {
    expect(statedPack('Rolled oats, 50 LB BAG', 'BG')).toEqual({ size: 50, unit: 'LB' });
    expect(statedPack('Rolled oats, 25 kg bags', 'BG')).toEqual({ size: 25, unit: 'KG' });
    expect(statedPack('Rolled oats, 50 LB BAG', 'CS')).toBeUndefined();
  });
  it('20 bags of 50 LB billed as 1000 LB at the bag price ÷ 50 pass; 1100 LB is over', () => {
    const order = po([{ sku: 'OAT-50', description: 'Rolled oats, 50 LB BAG', quantity: 20, uom: 'BG', unitPrice: 42.5, amount: 850 }]);
    expect(run(order, inv([{ sku: 'OAT-50', description: 'Rolled oats 50 LB bag x 20', quantity: 1000, uom: 'LB', unitPrice: 0.85, amount: 850 }])).status).toBe('pass');
    expect(run(order, inv([{ sku: 'OAT-50', description: 'Rolled oats 50 LB bag x 22', quantity: 1100, uom: 'LB', unitPrice: 0.85, amount: 935 }])).status).toBe('hold');
  });
});
