import { describe, expect, it } from 'vitest';
import { poMatchEngine } from '../../../lambdas/agents/engines/po-match/engine.js';
import { resultSchema } from '../../../lambdas/agents/engines/po-match/schema.js';

function run(purchaseOrder: string, invoice: string) {
  const result = poMatchEngine.analyse({ purchaseOrder, invoice });
  expect(resultSchema.parse(result)).toEqual(result);
  return result;
}

// A printed PO: 12 × 5.00 = 60.00; 4 × 20.00 = 80.00; total 140.00.
const PRINTED_PO = [
  'Purchase Order',
  'Vendor                         Ship To',
  'Harbor Tool Supply, Inc.       Our Warehouse',
  '',
  'P.O. NO.    7710',
  '',
  'Quantity  Units  Item        Description                 Rate      Amount',
  '12        EA     HT-100      Hex key set metric          $5.00     $60.00',
  '4         CS     HT-220      Shop towels, 12/cs         $20.00     $80.00',
  '',
  '                                                 Total   $140.00',
].join('\n');

function distributorInvoice(rows: string[], total: string, extra: string[] = []): string {
  return [
    'HARBOR TOOL SUPPLY INC                           INVOICE',
    'CUSTOMER PO   TERMS',
    '7710          NET 30',
    '',
    'ITEM      DESCRIPTION             ORDERED SHIPPED B/O  U/M    PRICE   EXTENSION',
    ...rows,
    ...extra,
    `                                     INVOICE TOTAL          ${total}`,
  ].join('\n');
}

describe('po-match forms: printed distributor invoices (ordered / shipped / back-ordered columns)', () => {
  it('billed quantity is the shipped one; a partial shipment passes when the PO does not forbid it', () => {
    // HT-100 ordered 12, shipped 8: 8 × 5.00 = 40.00; HT-220 4 × 20.00 = 80.00; total 120.00.
    const inv = distributorInvoice(
      ['HT-100    HEX KEY SET METRIC          12      8   4  EA     5.000       40.00',
        'HT-220    SHOP TOWELS 12/CS            4      4   0  CS    20.000       80.00'],
      '120.00',
    );
    const r = run(PRINTED_PO, inv);
    expect(r).toMatchObject({ status: 'pass', invoiceTotal: 120, poTotal: 140, linesCompared: 2 });
    expect(r.note).toContain('Partial shipment (allowed): HT-100 8 of 12.');
  });

  it('the same partial shipment holds on a ship-complete PO, quoting the instruction', () => {
    const po = PRINTED_PO.replace('P.O. NO.    7710', 'P.O. NO.    7710\nShipping instructions: SHIP COMPLETE. No partial shipments.');
    const inv = distributorInvoice(
      ['HT-100    HEX KEY SET METRIC          12      8   4  EA     5.000       40.00',
        'HT-220    SHOP TOWELS 12/CS            4      4   0  CS    20.000       80.00'],
      '120.00',
    );
    expect(run(po, inv).discrepancies).toEqual([
      "partial shipment on a ship-complete PO: HT-100 8 of 12; the PO says 'Shipping instructions: SHIP COMPLETE.'",
    ]);
  });

  it('back-ordered quantity billed anyway: the extension is ordered × price, not shipped × price', () => {
    // Shipped 8 × 5.00 = 40.00 but extended 12 × 5.00 = 60.00; the total equals the PO total, which hides it.
    const inv = distributorInvoice(
      ['HT-100    HEX KEY SET METRIC          12      8   4  EA     5.000       60.00',
        'HT-220    SHOP TOWELS 12/CS            4      4   0  CS    20.000       80.00'],
      '140.00',
    );
    const r = run(PRINTED_PO, inv);
    expect(r.status).toBe('hold');
    expect(r.discrepancies[0]).toMatch(/^invoice line HT-100: line total 60\.00 is not quantity 8 × unit price 5\.00 = 40\.00: it bills the ordered 12 although only 8 shipped and 4 are back-ordered, 20\.00 billed before shipping \('HT-100/);
  });

  it('a freight line on a PO that says freight prepaid holds; on a prepay-and-add PO it passes', () => {
    const rows = ['HT-100    HEX KEY SET METRIC          12     12   0  EA     5.000       60.00',
      'HT-220    SHOP TOWELS 12/CS            4      4   0  CS    20.000       80.00'];
    const inv = distributorInvoice(rows, '152.50', ['                                     MERCHANDISE            140.00',
      '                                     FREIGHT                 12.50']);
    const prepaid = PRINTED_PO + '\nMemo: FOB Destination, freight prepaid - do not invoice freight.';
    expect(run(prepaid, inv).discrepancies).toEqual([
      "freight: FREIGHT 12.50 billed but the PO says 'Memo: FOB Destination, freight prepaid - do not invoice freight.'",
    ]);
    const add = PRINTED_PO + '\nFreight: prepay & add.';
    expect(run(add, inv)).toMatchObject({ status: 'pass', invoiceTotal: 152.5, poTotal: 140 });
  });
});

describe('po-match forms: units of measure', () => {
  const po = JSON.stringify({ poNumber: 'PO-5', lines: [{ sku: 'OIL-1', quantity: 24, unitPrice: 8.95, uom: 'Units' }], total: 214.8 });
  const table = (pack: string, qty: string, unit: string, price: string, ext: string) =>
    ['PO: PO-5', 'ITEM      DESCRIPTION      PACK   ORD  SHP  B/O  UNIT     PRICE   EXTENDED',
      `OIL-1     OLIVE OIL TIN    ${pack.padStart(4)}   ${qty.padStart(3)}  ${qty.padStart(3)}    0  ${unit}   ${price.padStart(7)}  ${ext.padStart(9)}`,
      `                                               AMOUNT DUE        ${ext}`].join('\n');

  it('2 CS of 12 at the case price is the ordered 24 at the per-each price', () => {
    // 2 × 12 = 24 each; 107.40 ÷ 12 = 8.95 each; 2 × 107.40 = 214.80.
    expect(run(po, table('12', '2', 'CS', '107.40', '214.80'))).toMatchObject({ status: 'pass', discrepancies: [] });
  });

  it('4 BX of 24 against 24 ordered is 96 each: over by 72 each at the per-each price', () => {
    // 4 × 24 = 96 each; 96 − 24 = 72 × 8.95 = 644.40 over.
    const r = run(po, table('24/BX', '4', 'BX', '214.80', '859.20'));
    expect(r.discrepancies[0]).toMatch(/^line OIL-1: invoice quantity 96 exceeds the PO quantity 24 \(4 BX × 24 = 96 each against 24 unit\(s\) × 1 = 24 each\); 72 × 8\.95 = 644\.40 over the PO/);
  });

  it('a unit that differs with no pack size stated is a hold that says so', () => {
    const poCs = JSON.stringify({ poNumber: 'PO-5', lines: [{ sku: 'OIL-1', quantity: 2, unitPrice: 107.4, uom: { code: 'CS' } }] });
    const inv = JSON.stringify({ poNumber: 'PO-5', lines: [{ sku: 'OIL-1', quantity: 24, unitPrice: 8.95, uom: 'BX' }] });
    expect(run(poCs, inv).discrepancies[0]).toMatch(/the pack size that converts BX to CS is not stated/);
  });
});

describe('po-match forms: UBL 2.1 XML with price units and VAT', () => {
  // SAP-style PO: 1.000 ST at 58,20 per 100 = 582,00 (decimal commas); net total 582,00.
  const po = [
    'Bestellnummer/Datum',
    '4500000001 / 03.02.2026',
    'Pos.   Material     Bezeichnung              Bestellmenge  ME   Preis pro Einheit        Nettowert',
    '00010  100-4410     Wellendichtring 25x47x7         1.000  ST   58,20 / 100 ST              582,00',
    'Gesamtnettowert ohne Mwst                                                    EUR      582,00',
  ].join('\n');
  const ubl = (price: string, ext: string, payable: string, tax: string) => `<?xml version="1.0" encoding="UTF-8"?>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>
  <cac:OrderReference><cbc:ID>4500000001</cbc:ID></cac:OrderReference>
  <cac:TaxTotal><cbc:TaxAmount currencyID="EUR">${tax}</cbc:TaxAmount></cac:TaxTotal>
  <cac:LegalMonetaryTotal><cbc:LineExtensionAmount currencyID="EUR">${ext}</cbc:LineExtensionAmount><cbc:PayableAmount currencyID="EUR">${payable}</cbc:PayableAmount></cac:LegalMonetaryTotal>
  <cac:InvoiceLine>
    <cbc:ID>1</cbc:ID>
    <cbc:InvoicedQuantity unitCode="H87">1000</cbc:InvoicedQuantity>
    <cbc:LineExtensionAmount currencyID="EUR">${ext}</cbc:LineExtensionAmount>
    <cac:Item><cbc:Name>Wellendichtring 25x47x7 NBR</cbc:Name><cac:BuyersItemIdentification><cbc:ID>100-4410</cbc:ID></cac:BuyersItemIdentification></cac:Item>
    <cac:Price><cbc:PriceAmount currencyID="EUR">${price}</cbc:PriceAmount><cbc:BaseQuantity unitCode="H87">100</cbc:BaseQuantity></cac:Price>
  </cac:InvoiceLine>
</Invoice>`;

  it('58.20 per 100 on both sides, 19 % VAT on top of a net PO: pass', () => {
    // 1000 × 58.20 ÷ 100 = 582.00; VAT 110.58; 582.00 + 110.58 = 692.58.
    expect(run(po, ubl('58.20', '582.00', '692.58', '110.58'))).toMatchObject({ status: 'pass', invoiceTotal: 692.58, poTotal: 582 });
  });

  it('59.00 per 100 is 8.00 over on the line', () => {
    // 1000 × 59.00 ÷ 100 = 590.00 against 582.00.
    const r = run(po, ubl('59.00', '590.00', '702.10', '112.10'));
    expect(r.discrepancies[0]).toMatch(/^line 100-4410: invoice unit price 59\.00 per 100 differs from the PO unit price 58\.20 per 100 by 0\.80 \(tolerance 0\.291\)/);
    expect(r.discrepancies[0]).toContain('1000 × 59.00 / 100 = 590.00 against 1000 × 58.20 / 100 = 582.00, 8.00 over');
  });
});

describe('po-match forms: X12 810 as JSON and a stated price tolerance', () => {
  const po = [
    'Purchase Order #PO-1131',
    'Quantity  Units  Item          Description                 Rate       Amount',
    '20        BG     ESP-5LB       Espresso 5 lb bag           $42.00     $840.00',
    '                                                 Total     $840.00',
    'Memo: Price tolerance: +/-2% or $5.00 per line, whichever is less.',
  ].join('\n');
  const edi = (price: string, cents: string, sac = '') =>
    `{"segments": [{"id": "BIG", "BIG01": "20260312", "BIG02": "INV-1", "BIG04": "PO-1131"},
      {"id": "IT1", "IT101": "1", "IT102": "20", "IT103": "BG", "IT104": "${price}", "IT106": "VN", "IT107": "ESP-5LB"},
      {"id": "PID", "PID01": "F", "PID05": "ESPRESSO 5LB"}${sac},
      {"id": "TDS", "TDS01": "${cents}"}]}`;

  it('4.80 over on the line is inside "2 % or $5.00, whichever is less"', () => {
    // 20 × 42.24 = 844.80; 844.80 − 840.00 = 4.80 ≤ min(16.80, 5.00).
    expect(run(po, edi('42.24', '84480'))).toMatchObject({ status: 'pass', invoiceTotal: 844.8 });
  });

  it('5.20 over is outside it, and the finding shows the tolerance arithmetic', () => {
    const r = run(po, edi('42.26', '84520'));
    expect(r.discrepancies[0]).toContain('20 × 42.26 = 845.20 against 20 × 42.00 = 840.00, 5.20 over, outside the PO\'s tolerance 5.00 (lesser of 2% = 16.80 and 5.00');
  });

  it('SAC D240 freight in implied cents on a PO silent about freight holds', () => {
    const r = run(po, edi('42.00', '85000', ', {"id": "SAC", "SAC01": "C", "SAC02": "D240", "SAC05": "1000", "SAC15": "FREIGHT"}'));
    expect(r.discrepancies).toEqual(['freight: SAC D240 FREIGHT 10.00 billed; the PO carries no such charge and says nothing allowing it']);
  });
});

describe('po-match forms: QuickBooks report CSV', () => {
  const po = 'P.O. NO.    4488\nVendor: Cascade Cycle Distributors, Inc.\n' +
    '#   PRODUCT/SERVICE   DESCRIPTION            QTY      RATE      AMOUNT\n' +
    '1   CON-GS70025F      Gatorskin 700x25        20     38.50      770.00\n' +
    '                                          TOTAL              $770.00\n' +
    'Memo: TAX EXEMPT - resale. Do not charge sales tax.';
  const csv = (company: string, taxRow = '', total = '770.00') =>
    `"${company}"\r\n"Custom Transaction Detail Report"\r\n\r\n` +
    ',"Type","Date","Num","P. O. #","Name","Item","Memo","Qty","Sales Price","Amount"\r\n' +
    ',"Invoice","03/11/2026","CC-1","4488","Hawthorne","CON-GS70025F","Gatorskin 700x25 ""Fold""","20","38.50","770.00"\r\n' +
    taxRow + `"TOTAL",,,,,,,,,,"${total}"\r\n`;

  it('reads the company line, the P. O. # column, doubled quotes and the TOTAL row', () => {
    expect(run(po, csv('Cascade Cycle Distributors, Inc.'))).toMatchObject({ status: 'pass', invoiceTotal: 770, linesCompared: 1 });
  });

  it('a different company with a similar name holds', () => {
    expect(run(po, csv('Cascade Cycle Supply LLC')).discrepancies).toEqual([
      'vendor: the invoice says "Cascade Cycle Supply LLC" but the purchase order says "Cascade Cycle Distributors, Inc."',
    ]);
  });

  it('a sales-tax item row on a tax-exempt PO holds', () => {
    const r = run(po, csv('Cascade Cycle Distributors, Inc.', ',"Invoice","03/11/2026","CC-1","4488","Hawthorne","Sales Tax","WI 5%","","5%","38.50"\r\n', '808.50'));
    expect(r.discrepancies).toEqual([
      "tax: Sales Tax (WI 5%) 38.50 billed although the PO is tax-exempt ('Memo: TAX EXEMPT - resale.')",
    ]);
  });
});

describe('po-match forms: e-mailed documents with decimal commas', () => {
  it('"5.000 st × € 0,0185/st" is five thousand at 0.0185; BTW on top of a PO "excl. BTW" passes', () => {
    const po = 'Bestelling 2026-031\n\nArt.nr.    Omschrijving          Aantal      Prijs          Totaal\n' +
      'KK26-ZW    Kroonkurk 26 mm       5.000 st    € 0,0185/st    €    92,50\n\nTotaal excl. BTW:                          € 92,50';
    const inv = 'Uw bestelnummer  : 2026-031\n\nArt.nr.    Omschrijving          Aantal  Eenh.     Prijs     Bedrag\n' +
      'KK26-ZW    Kroonkurk 26mm zwart   5.000  st       0,0185      92,50\n' +
      '                       Subtotaal excl. BTW            92,50\n' +
      '                       BTW 21% over 92,50             19,43\n' +
      '                       Totaal te betalen       EUR   111,93';
    expect(run(po, inv)).toMatchObject({ status: 'pass', invoiceTotal: 111.93, poTotal: 92.5 });
  });
});
