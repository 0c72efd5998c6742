/**
 * po-match: the EU e-invoice syntaxes read beside UBL — an Italian FatturaPA (FatturaElettronica) and the EN 16931
 * Cross Industry Invoice (XRechnung-CII, ZUGFeRD, Factur-X) — each read as its schema defines it.
 */
import { describe, expect, it } from 'vitest';
import { poMatchEngine } from '../../../lambdas/agents/engines/po-match/engine.js';
import { readDocument } from '../../../lambdas/agents/engines/po-match/document.js';

const run = poMatchEngine.analyse;
const money = (v: bigint | undefined) => (v === undefined ? undefined : Number(v) / 1e6);

function fatturaLine(n: number, code: string | undefined, desc: string, qty: string, unit: string, price: string, total: string, discount?: string): string {
  return `<DettaglioLinee><NumeroLinea>${n}</NumeroLinea>${code ? `<CodiceArticolo><CodiceTipo>FORN</CodiceTipo><CodiceValore>${code}</CodiceValore></CodiceArticolo>` : ''}` +
    `<Descrizione>${desc}</Descrizione><Quantita>${qty}</Quantita><UnitaMisura>${unit}</UnitaMisura><PrezzoUnitario>${price}</PrezzoUnitario>` +
    `${discount ? `<ScontoMaggiorazione><Tipo>SC</Tipo><Percentuale>${discount}</Percentuale></ScontoMaggiorazione>` : ''}<PrezzoTotale>${total}</PrezzoTotale><AliquotaIVA>22.00</AliquotaIVA></DettaglioLinee>`;
}
function fattura(opts: { kind?: string; order?: string[]; lines: string[]; base: string; tax: string; total: string; bodies?: number }): string {
  const body = `<FatturaElettronicaBody><DatiGenerali><DatiGeneraliDocumento><TipoDocumento>${opts.kind ?? 'TD01'}</TipoDocumento><Divisa>EUR</Divisa>` +
    `<Data>2025-03-04</Data><Numero>88/PA</Numero><ImportoTotaleDocumento>${opts.total}</ImportoTotaleDocumento></DatiGeneraliDocumento>` +
    (opts.order ?? ['ODA-2025-117']).map((o) => `<DatiOrdineAcquisto><IdDocumento>${o}</IdDocumento></DatiOrdineAcquisto>`).join('') +
    `</DatiGenerali><DatiBeniServizi>${opts.lines.join('')}<DatiRiepilogo><AliquotaIVA>22.00</AliquotaIVA><ImponibileImporto>${opts.base}</ImponibileImporto>` +
    `<Imposta>${opts.tax}</Imposta><EsigibilitaIVA>I</EsigibilitaIVA></DatiRiepilogo></DatiBeniServizi></FatturaElettronicaBody>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<p:FatturaElettronica versione="FPR12" xmlns:p="http://ivaservizi.agenziaentrate.gov.it/docs/xsd/fatture/v1.2">
  <FatturaElettronicaHeader><CedentePrestatore><DatiAnagrafici><IdFiscaleIVA><IdPaese>IT</IdPaese><IdCodice>04412290158</IdCodice></IdFiscaleIVA>
  <Anagrafica><Denominazione>Cancelleria Lombarda S.p.A.</Denominazione></Anagrafica></DatiAnagrafici></CedentePrestatore></FatturaElettronicaHeader>
  ${body.repeat(opts.bodies ?? 1)}
</p:FatturaElettronica>`;
}
// 30 risme at 3.90 = 117.00 and 10 confezioni of pens at 12.00 less 5 % = 114.00: 231.00, IVA 22 % 50.82.
const italianPo = JSON.stringify({
  poNumber: 'ODA-2025-117', supplier: 'Cancelleria Lombarda SpA', currency: 'EUR',
  lines: [
    { sku: 'RIS-A4', description: 'Carta A4 80 g risma', quantity: 30, uom: 'EA', unitPrice: 3.9, amount: 117.0 },
    { sku: 'PEN-BLU-50', description: 'Penne a sfera blu, confezione da 50', quantity: 10, uom: 'PK', unitPrice: 11.4, amount: 114.0 },
  ],
});
const italianLines = [
  fatturaLine(1, 'RIS-A4', 'CARTA A4 80G RISMA', '30.00', 'PZ', '3.90000000', '117.00'),
  fatturaLine(2, 'PEN-BLU-50', 'PENNE SFERA BLU CONF. 50', '10.00', 'CF', '12.00000000', '114.00', '5.00'),
];

describe('po-match: a FatturaPA invoice', () => {
  it('reads the seller, DatiOrdineAcquisto, eight-decimal prices, Italian units and a line discount as the net', () => {
    const doc = readDocument(fattura({ lines: italianLines, base: '231.00', tax: '50.82', total: '281.82' }), 'invoice');
    expect(doc.vendor).toBe('Cancelleria Lombarda S.p.A.');
    expect(doc.poNumber).toBe('ODA-2025-117');
    expect(doc.currency).toBe('EUR');
    expect(doc.lines.map((l) => [l.sku, l.uom, money(l.quantity), money(l.unitPrice), money(l.amount)])).toEqual([
      ['RIS-A4', 'EA', 30, 3.9, 117],
      ['PEN-BLU-50', 'PK', 10, undefined, 114],
    ]);
    expect(money(doc.total)).toBe(281.82);
    const r = run({ purchaseOrder: italianPo, invoice: fattura({ lines: italianLines, base: '231.00', tax: '50.82', total: '281.82' }) });
    expect(r.status).toBe('pass');
    expect(r.invoiceTotal).toBe(281.82);
  });

  it('holds a price above the PO and an order reference naming another PO', () => {
    const dearer = [italianLines[0], fatturaLine(2, 'PEN-BLU-50', 'PENNE SFERA BLU CONF. 50', '10.00', 'CF', '12.50000000', '118.75', '5.00')];
    const r = run({ purchaseOrder: italianPo, invoice: fattura({ lines: dearer, base: '235.75', tax: '51.87', total: '287.62' }) });
    expect(r.status).toBe('hold');
    expect(r.discrepancies.some((d) => /price/.test(d))).toBe(true);
    const other = run({ purchaseOrder: italianPo, invoice: fattura({ order: ['ODA-2025-171'], lines: italianLines, base: '231.00', tax: '50.82', total: '281.82' }) });
    expect(other.discrepancies.some((d) => /PO number/.test(d))).toBe(true);
  });

  it('holds an invoice whose CessionarioCommittente is not the buyer printed on the PO letterhead', () => {
    const printedPo = `STUDIO LEGALE ROSSI E ASSOCIATI
P.IVA / C.F. 07781230963 - Via Torino 12, 20123 Milano

ORDINE DI ACQUISTO N. ODA-2025-117 del 02/03/2025
Fornitore: Cancelleria Lombarda S.p.A.

Codice      Descrizione                      UM     Q.tà      Prezzo      Importo
RIS-A4      Carta A4 80 g risma              PZ       30        3,90       117,00
`;
    const invoice = (buyer: string) => fattura({ lines: [italianLines[0]], base: '117.00', tax: '25.74', total: '142.74' })
      .replace('</FatturaElettronicaHeader>', `<CessionarioCommittente><DatiAnagrafici><IdFiscaleIVA><IdPaese>IT</IdPaese><IdCodice>${buyer}</IdCodice></IdFiscaleIVA></DatiAnagrafici></CessionarioCommittente></FatturaElettronicaHeader>`);
    expect(run({ purchaseOrder: printedPo, invoice: invoice('07781230963') }).status).toBe('pass');
    const other = run({ purchaseOrder: printedPo, invoice: invoice('09912340155') });
    expect(other.status).toBe('hold');
    expect(other.discrepancies.some((d) => /^bill-to: .*IT09912340155.*07781230963/.test(d))).toBe(true);
  });

  it('leaves the order unstated when DatiOrdineAcquisto names two orders, reads TD04 as a credit note and refuses a batch', () => {
    expect(readDocument(fattura({ order: ['ODA-1', 'ODA-2'], lines: italianLines, base: '231.00', tax: '50.82', total: '281.82' }), 'invoice').poNumber).toBeUndefined();
    const credit = readDocument(fattura({ kind: 'TD04', lines: [italianLines[0]], base: '117.00', tax: '25.74', total: '142.74' }), 'invoice');
    expect(money(credit.lines[0].quantity)).toBe(-30);
    expect(money(credit.total)).toBe(-142.74);
    expect(() => readDocument(fattura({ lines: italianLines, base: '231.00', tax: '50.82', total: '281.82', bodies: 2 }), 'invoice')).toThrow(/2 invoice bodies/);
  });
});

function ciiItem(id: string, sku: string, name: string, qty: string, unit: string, price: string, total: string, basis?: string): string {
  return `<ram:IncludedSupplyChainTradeLineItem>
      <ram:AssociatedDocumentLineDocument><ram:LineID>${id}</ram:LineID></ram:AssociatedDocumentLineDocument>
      <ram:SpecifiedTradeProduct><ram:SellerAssignedID>${sku}</ram:SellerAssignedID><ram:Name>${name}</ram:Name></ram:SpecifiedTradeProduct>
      <ram:SpecifiedLineTradeAgreement><ram:NetPriceProductTradePrice><ram:ChargeAmount>${price}</ram:ChargeAmount>${basis ? `<ram:BasisQuantity unitCode="${unit}">${basis}</ram:BasisQuantity>` : ''}</ram:NetPriceProductTradePrice></ram:SpecifiedLineTradeAgreement>
      <ram:SpecifiedLineTradeDelivery><ram:BilledQuantity unitCode="${unit}">${qty}</ram:BilledQuantity></ram:SpecifiedLineTradeDelivery>
      <ram:SpecifiedLineTradeSettlement><ram:SpecifiedTradeSettlementLineMonetarySummation><ram:LineTotalAmount>${total}</ram:LineTotalAmount></ram:SpecifiedTradeSettlementLineMonetarySummation></ram:SpecifiedLineTradeSettlement>
    </ram:IncludedSupplyChainTradeLineItem>`;
}
function cii(opts: { type?: string; po?: string; items: string[]; lines: string; charge?: string; tax: string; total: string; taxCurrency?: boolean }): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100">
  <rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext>
  <rsm:ExchangedDocument><ram:ID>RE-2025-0412</ram:ID><ram:TypeCode>${opts.type ?? '380'}</ram:TypeCode></rsm:ExchangedDocument>
  <rsm:SupplyChainTradeTransaction>
    ${opts.items.join('\n    ')}
    <ram:ApplicableHeaderTradeAgreement>
      <ram:BuyerReference>04011000-12345-34</ram:BuyerReference>
      <ram:SellerTradeParty><ram:Name>Schrauben Hoffmann GmbH</ram:Name></ram:SellerTradeParty>
      <ram:BuyerTradeParty><ram:Name>Stadtwerke Kassel AG</ram:Name></ram:BuyerTradeParty>
      ${opts.po === '' ? '' : `<ram:BuyerOrderReferencedDocument><ram:IssuerAssignedID>${opts.po ?? 'BE-4711'}</ram:IssuerAssignedID></ram:BuyerOrderReferencedDocument>`}
    </ram:ApplicableHeaderTradeAgreement>
    <ram:ApplicableHeaderTradeDelivery/>
    <ram:ApplicableHeaderTradeSettlement>
      <ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>
      ${opts.charge ? `<ram:SpecifiedTradeAllowanceCharge><ram:ChargeIndicator><udt:Indicator>true</udt:Indicator></ram:ChargeIndicator><ram:ActualAmount>${opts.charge}</ram:ActualAmount><ram:Reason>Mindermengenzuschlag</ram:Reason></ram:SpecifiedTradeAllowanceCharge>` : ''}
      <ram:SpecifiedTradeSettlementHeaderMonetarySummation>
        <ram:LineTotalAmount>${opts.lines}</ram:LineTotalAmount>
        <ram:TaxBasisTotalAmount>${opts.lines}</ram:TaxBasisTotalAmount>
        <ram:TaxTotalAmount currencyID="EUR">${opts.tax}</ram:TaxTotalAmount>
        ${opts.taxCurrency ? `<ram:TaxTotalAmount currencyID="CHF">${opts.tax}</ram:TaxTotalAmount>` : ''}
        <ram:GrandTotalAmount>${opts.total}</ram:GrandTotalAmount>
        <ram:DuePayableAmount>${opts.total}</ram:DuePayableAmount>
      </ram:SpecifiedTradeSettlementHeaderMonetarySummation>
    </ram:ApplicableHeaderTradeSettlement>
  </rsm:SupplyChainTradeTransaction>
</rsm:CrossIndustryInvoice>`;
}
// 2000 screws at 45.00 per 1000 = 90.00 and 40 washers at 0.35 = 14.00: 104.00, USt 19 % 19.76.
const germanPo = JSON.stringify({
  poNumber: 'BE-4711', supplier: 'Schrauben Hoffmann GmbH', currency: 'EUR',
  lines: [
    { sku: 'DIN933-M8x30', description: 'Sechskantschraube M8x30 verzinkt', quantity: 2000, uom: 'EA', unitPrice: 0.045, amount: 90.0 },
    { sku: 'DIN125-M8', description: 'Unterlegscheibe M8', quantity: 40, uom: 'EA', unitPrice: 0.35, amount: 14.0 },
  ],
});
const germanItems = [
  ciiItem('1', 'DIN933-M8x30', 'Sechskantschraube M8x30 verzinkt', '2000', 'H87', '45.00', '90.00', '1000'),
  ciiItem('2', 'DIN125-M8', 'Unterlegscheibe M8', '40', 'C62', '0.35', '14.00'),
];

describe('po-match: an EN 16931 Cross Industry Invoice', () => {
  it('reads the seller, the order (BT-13), UN/ECE units, a price per basis quantity and the totals', () => {
    const doc = readDocument(cii({ items: germanItems, lines: '104.00', tax: '19.76', total: '123.76', taxCurrency: true }), 'invoice');
    expect(doc.vendor).toBe('Schrauben Hoffmann GmbH');
    expect(doc.poNumber).toBe('BE-4711');
    expect(doc.lines.map((l) => [l.sku, l.uom, money(l.quantity), money(l.unitPrice), money(l.priceBase), money(l.amount)])).toEqual([
      ['DIN933-M8x30', 'EA', 2000, 45, 1000, 90],
      ['DIN125-M8', 'EA', 40, 0.35, undefined, 14],
    ]);
    // The second TaxTotalAmount, in the tax currency, is the same tax: counted once.
    expect(doc.charges.map((c) => [c.kind, money(c.amount)])).toEqual([['tax', 19.76]]);
    const r = run({ purchaseOrder: germanPo, invoice: cii({ items: germanItems, lines: '104.00', tax: '19.76', total: '123.76', taxCurrency: true }) });
    expect(r.status).toBe('pass');
    expect(r.invoiceTotal).toBe(123.76);
  });

  it('holds a surcharge the PO does not carry and an invoice without the order reference', () => {
    const charged = run({ purchaseOrder: germanPo, invoice: cii({ items: germanItems, lines: '104.00', charge: '15.00', tax: '22.61', total: '141.61' }) });
    expect(charged.status).toBe('hold');
    expect(charged.discrepancies.some((d) => /Mindermengenzuschlag/.test(d))).toBe(true);
    const unreferenced = run({ purchaseOrder: germanPo, invoice: cii({ po: '', items: germanItems, lines: '104.00', tax: '19.76', total: '123.76' }) });
    expect(unreferenced.discrepancies.some((d) => /PO number/.test(d))).toBe(true);
  });

  it('reads TypeCode 381 as a credit note, its lines returns', () => {
    const doc = readDocument(cii({ type: '381', items: [germanItems[1]], lines: '14.00', tax: '2.66', total: '16.66' }), 'invoice');
    expect(money(doc.lines[0].quantity)).toBe(-40);
    expect(money(doc.total)).toBe(-16.66);
  });
});
