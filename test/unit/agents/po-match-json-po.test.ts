/**
 * po-match: a PO as a procurement suite's API returns it (JSON): its total with the tax it states, the tax as a list
 * of tax lines, and its terms read from each string value under its key, quoted as the buyer's own sentence.
 */
import { describe, expect, it } from 'vitest';
import { poMatchEngine } from '../../../lambdas/agents/engines/po-match/engine.js';
import { readDocument } from '../../../lambdas/agents/engines/po-match/document.js';
import { readTerms } from '../../../lambdas/agents/engines/po-match/terms.js';

// 200 × 4.50 = 900.00 and 12 × 25.00 = 300.00: 1,200.00 net, 19 % VAT 228.00, 1,428.00 with tax.
function po(custom: Record<string, string> = {}, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    'po-number': 'BW-2026-0912',
    supplier: { name: 'Schwarzwald Schrauben GmbH' },
    currency: { code: 'EUR' },
    'custom-fields': custom,
    'order-lines': [
      { 'line-num': 1, 'source-part-num': 'SS-DIN933-M8', description: 'Sechskantschraube DIN 933 M8x30 verzinkt', quantity: '200.0', uom: { code: 'EA' }, price: '4.50', total: '900.00' },
      { 'line-num': 2, 'source-part-num': 'SS-KIT-55', description: 'Sortimentkasten Muttern', quantity: '12.0', uom: { code: 'EA' }, price: '25.00', total: '300.00' },
    ],
    'total-without-taxes': '1200.00',
    'tax-lines': [{ 'tax-code': 'DE-19', rate: '19.0', amount: '228.00' }],
    'total-with-taxes': '1428.00',
    ...extra,
  }, null, 2);
}

function invoice(boltPrice: string): string {
  const bolts = (200 * Number(boltPrice)).toFixed(2);
  const net = (Number(bolts) + 300).toFixed(2);
  const vat = (Number(net) * 0.19).toFixed(2);
  return [
    'INVOICE  R-55102',
    'Schwarzwald Schrauben GmbH',
    'PO Number: BW-2026-0912',
    '',
    'Qty   Item            Description                    Price       Amount',
    `200   SS-DIN933-M8    Hex bolt DIN 933 M8x30 zinc     ${boltPrice}      ${bolts}`,
    ' 12   SS-KIT-55       Nut assortment box             25.00       300.00',
    '',
    `                                      Subtotal     ${net}`,
    `                                      VAT 19%      ${vat}`,
    `                                      Total        ${(Number(net) + Number(vat)).toFixed(2)}`,
  ].join('\n');
}

describe('po-match: a JSON PO with its totals with and without tax', () => {
  it('the total with taxes is the PO total; the total without is its net; the tax lines are its tax', () => {
    const doc = readDocument(po(), 'purchaseOrder');
    expect(doc).toMatchObject({ total: 1_428_000_000n, subtotal: 1_200_000_000n, charges: [{ label: 'tax-lines', amount: 228_000_000n, kind: 'tax' }] });
    expect(poMatchEngine.analyse({ purchaseOrder: po(), invoice: invoice('4.50') })).toMatchObject({ status: 'pass', poTotal: 1428, invoiceTotal: 1428 });
  });

  it('a plain total beside the total with taxes, when it differs, is the net', () => {
    const text = po({}, { total: '1200.00', 'total-without-taxes': undefined });
    expect(readDocument(text, 'purchaseOrder')).toMatchObject({ total: 1_428_000_000n, subtotal: 1_200_000_000n });
  });

  it('tax lines that do not add up with the net to the stated total are a discrepancy of the PO', () => {
    const text = po({}, { 'tax-lines': [{ rate: '19.0', amount: '220.00' }] });
    expect(poMatchEngine.analyse({ purchaseOrder: text, invoice: invoice('4.50') }).discrepancies).toEqual([
      'purchase order total 1428.00 is not the sum of its lines plus tax-lines 220.00 1420.00',
    ]);
  });
});

describe('po-match: terms in a JSON PO, read from each value under its key', () => {
  const clause = 'Framework agreement RV-17 section 6.1: the unit price invoiced on a line may exceed the PO unit price by at most 3%; anything above is returned unpaid.';

  it('a price rise inside the stated percentage passes, named in the note with the PO sentence', () => {
    // 4.60 against 4.50: 200 × 0.10 = 20.00 over, inside 3 % of 900.00 = 27.00.
    const r = poMatchEngine.explain({ purchaseOrder: po({ 'price-variance-clause': clause }), invoice: invoice('4.60') });
    expect(r.result.status).toBe('pass');
    expect(r.result.note).toContain("Prices within the PO's tolerance ('Framework agreement RV-17 section 6.1: the unit price invoiced on a line may exceed the PO unit price by at most 3%;'): SS-DIN933-M8 4.60 against 4.50, 20.00 over (tolerance 27.00).");
  });

  it('a rise above it is held, and the evidence quotes the sentence on its own line of the JSON', () => {
    // 4.70: 200 × 0.20 = 40.00 over, above 27.00.
    const text = po({ 'price-variance-clause': clause });
    const { result, evidence } = poMatchEngine.explain({ purchaseOrder: text, invoice: invoice('4.70') });
    expect(result.status).toBe('hold');
    expect(result.discrepancies[0]).toContain('outside the PO\'s tolerance 27.00 (3% = 27.00');
    const line = text.split('\n').findIndex((l) => l.includes('price-variance-clause')) + 1;
    expect(line).toBeGreaterThan(1);
    expect(evidence[0].sources).toContainEqual({ field: 'purchaseOrder', line, quote: 'Framework agreement RV-17 section 6.1: the unit price invoiced on a line may exceed the PO unit price by at most 3%;' });
  });

  it('the key names the subject a bare value leaves out', () => {
    expect(readTerms(JSON.stringify({ 'invoice-price-tolerance': 'plus or minus 1.5% per line' })).tolerance).toMatchObject({ percent: 1500n, quote: 'plus or minus 1.5% per line' });
    expect(readTerms(JSON.stringify({ notes: { 'tax-status': 'Exempt' } })).taxExempt).toEqual({ quote: 'Exempt' });
    expect(readTerms(JSON.stringify({ 'ship-instructions': 'Ship complete. Freight collect.' }))).toMatchObject({ shipComplete: { quote: 'Ship complete.' }, freightNotBillable: { quote: 'Freight collect.' } });
  });

  it('a JSON value without a price sentence or a tolerance key is no tolerance', () => {
    expect(readTerms(JSON.stringify({ 'payment-term': 'Net 30, 2% 10 days' })).tolerance).toBeUndefined();
  });
});
