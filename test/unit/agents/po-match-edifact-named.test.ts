/**
 * po-match: an EDIFACT INVOIC as JSON with its data elements named in words (`"QTY": [{"qualifier": "47", …}]`), its
 * line group under a name of its own, the QTY qualifiers read as D.96A defines them; and ship-complete terms in the
 * languages European buyers print them in.
 */
import { describe, expect, it } from 'vitest';
import { poMatchEngine } from '../../../lambdas/agents/engines/po-match/engine.js';
import { readDocument } from '../../../lambdas/agents/engines/po-match/document.js';
import { readTerms } from '../../../lambdas/agents/engines/po-match/terms.js';

// A Dutch wholesaler's PO: 24 EA jars at 2.10 = 50.40; 10 EA bottles at 3.50 = 35.00; total 85.40.
const PO = [
  'Bestelling / Purchase Order     PO Number: INK-77310',
  'Leverancier: Vlaamse Conserven NV',
  '',
  'Qty   UOM   Item        Description                    Price     Amount',
  '24    EA    VC-PIC-370  Piccalilli jar 370 g            2.10      50.40',
  '10    EA    VC-MOS-500  Mosterd fles 500 ml             3.50      35.00',
  '',
  '                                             Total      85.40',
].join('\n');

type Qty = { qualifier: string; quantity: string; unit?: string };
function invoice(qtys: [Qty[], Qty[]], amounts: [string, string], total: string, items = 'SG26'): string {
  const line = (n: number, item: string, desc: string, qty: Qty[], price: string, amount: string, pia = false) => ({
    LIN: pia ? { lineNumber: String(n), itemNumber: '5410000000' + n, itemNumberType: 'EN' } : { lineNumber: String(n), itemNumber: item, itemNumberType: 'SA' },
    ...(pia ? { PIA: { qualifier: '5', itemNumber: item, itemNumberType: 'SA' } } : {}),
    IMD: { type: 'F', description: desc },
    QTY: qty,
    MOA: { qualifier: '203', amount },
    PRI: { qualifier: 'AAA', price, basis: '1' },
  });
  return JSON.stringify({
    envelope: { sender: '5410000099990' },
    invoice: {
      UNH: { ref: '7', type: 'INVOIC' },
      BGM: { documentName: '380', documentNumber: 'F-2026-5521' },
      RFF: { qualifier: 'ON', value: 'INK-77310' },
      NAD: [{ qualifier: 'SU', id: '5410000099990', name: 'Vlaamse Conserven NV' }],
      CUX: { qualifier: '2', currency: 'EUR', type: '4' },
      [items]: [
        line(1, 'VC-PIC-370', 'Piccalilli 370g', qtys[0], '25.20', amounts[0]),
        line(2, 'VC-MOS-500', 'Mosterd 500ml', qtys[1], '3.50', amounts[1], true),
      ],
      UNS: 'S',
      MOA: [{ qualifier: '79', amount: total }, { qualifier: '77', amount: total }],
    },
  }, null, 2);
}

describe('po-match: EDIFACT INVOIC as JSON with named data elements', () => {
  it('reads the segments by their named fields, the line group under its own name, UNS as a plain value', () => {
    // Jars billed by the carton: QTY+59 says 12 consumer units in each; 2 CT × 12 = 24 EA at 25.20 / 12 = 2.10.
    const inv = invoice([[{ qualifier: '47', quantity: '2', unit: 'CT' }, { qualifier: '59', quantity: '12' }], [{ qualifier: '47', quantity: '10', unit: 'PCE' }]], ['50.40', '35.00'], '85.40');
    const doc = readDocument(inv, 'invoice');
    expect(doc).toMatchObject({ poNumber: 'INK-77310', vendor: 'Vlaamse Conserven NV', currency: 'EUR', subtotal: 85_400_000n, total: 85_400_000n });
    expect(doc.lines.map((l) => [l.sku, l.quantity, l.uom, l.pack])).toEqual([['VC-PIC-370', 2_000_000n, 'CS', 12], ['VC-MOS-500', 10_000_000n, 'EA', undefined]]);
    const { result, evidence } = poMatchEngine.explain({ purchaseOrder: PO, invoice: inv });
    expect(result).toMatchObject({ status: 'pass', invoiceTotal: 85.4, poTotal: 85.4, linesCompared: 2 });
    expect(evidence).toEqual([]);
  });

  it('bills the invoiced quantity (47); the ordered (21) and delivered (46) quantities are kept beside it', () => {
    const inv = invoice([[{ qualifier: '21', quantity: '24', unit: 'PCE' }, { qualifier: '46', quantity: '24', unit: 'PCE' }, { qualifier: '47', quantity: '18', unit: 'PCE' }], [{ qualifier: '47', quantity: '10' }]], ['37.80', '35.00'], '72.80', 'lineItems');
    const [jar] = readDocument(inv.replace('"25.20"', '"2.10"'), 'invoice').lines;
    expect(jar).toMatchObject({ quantity: 18_000_000n, ordered: 24_000_000n, shipped: 24_000_000n, uom: 'EA' });
  });

  it('with no invoiced quantity, the delivered one (46) is billed, before the despatched one (12)', () => {
    const inv = invoice([[{ qualifier: '12', quantity: '20', unit: 'PCE' }, { qualifier: '46', quantity: '24', unit: 'PCE' }], [{ qualifier: '46', quantity: '10' }]], ['50.40', '35.00'], '85.40');
    expect(readDocument(inv.replace('"25.20"', '"2.10"'), 'invoice').lines[0].quantity).toBe(24_000_000n);
  });

  it('a short delivery against a PO that forbids partial deliveries is held, quoting the PO', () => {
    const po = `${PO}\n\nLevering: geen deelleveringen, alles in één zending.`;
    const inv = invoice([[{ qualifier: '47', quantity: '18', unit: 'PCE' }], [{ qualifier: '47', quantity: '10', unit: 'PCE' }]], ['37.80', '35.00'], '72.80');
    const r = poMatchEngine.analyse({ purchaseOrder: po, invoice: inv.replace('"25.20"', '"2.10"') });
    expect(r.status).toBe('hold');
    expect(r.discrepancies).toEqual(["partial shipment on a ship-complete PO: VC-PIC-370 18 of 24; the PO says 'Levering: geen deelleveringen, alles in één zending.'"]);
  });
});

describe('po-match terms: ship complete and partials allowed, in the languages buyers print them', () => {
  it.each([
    'Lieferung: Komplettlieferung.',
    'Teillieferungen sind nicht zulässig.',
    'Keine Teillieferungen.',
    'Deelleveringen zijn niet toegestaan.',
    'Les livraisons partielles ne sont pas acceptées.',
    'Livraison complète exigée.',
    'Consegne parziali non ammesse.',
    'No se aceptan entregas parciales.',
    'SHIP COMPLETE - no partial shipments.',
  ])('"%s" is ship complete', (sentence) => {
    const terms = readTerms(sentence);
    expect(terms.shipComplete?.quote).toBe(sentence);
    expect(terms.partialsAllowed).toBeUndefined();
  });

  it.each(['Teillieferungen sind zulässig.', 'Deelleveringen toegestaan.', 'Livraisons partielles autorisées.', 'Consegne parziali ammesse.'])('"%s" allows partials', (sentence) => {
    const terms = readTerms(sentence);
    expect(terms.partialsAllowed).toEqual({ quote: sentence });
    expect(terms.shipComplete).toBeUndefined();
  });
});
