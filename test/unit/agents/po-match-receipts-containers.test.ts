/**
 * po-match: what a printed PO states beside its lines — its goods-received and returns table, the invoices its linked
 * documents show registered or paid — and quantities in containers of a measured size or in volumes converted by law.
 */
import { describe, expect, it } from 'vitest';
import { poMatchEngine } from '../../../lambdas/agents/engines/po-match/engine.js';
import { readDocument } from '../../../lambdas/agents/engines/po-match/document.js';

const run = poMatchEngine.analyse;
const money = (v: bigint | undefined) => (v === undefined ? undefined : Number(v) / 1e6);

const frenchPo = `NETTOYAGE DU LITTORAL SARL
Bon de commande N° BC-7781
Fournisseur : CHIMIE OUEST SAS

Réf.       Désignation                                 Qté      Unité      Prix unitaire     Montant HT
DEG-20     Dégraissant industriel                       200      l               3,10          620,00
`;
const frenchInvoice = `CHIMIE OUEST SAS
FACTURE N° F-2291
Votre commande : BC-7781

Réf.       Désignation                                 Qté      Unité      Prix unitaire     Montant HT
DEG-20     Dégraissant industriel bidon 20 L             10      pièce          62,00          620,00

                                                             Total HT             620,00
                                                             TVA 20 %             124,00
                                                             Total TTC            744,00
`;

describe('po-match: a piece that holds a measured amount', () => {
  it('compares ten 20 L canisters with 200 litres ordered', () => {
    const r = run({ purchaseOrder: frenchPo, invoice: frenchInvoice });
    expect(r.discrepancies).toEqual([]);
  });
});

const germanPo = (table: string) => `MASCHINENBAU KRAUSE GMBH
Bestellung Nr. 45-00912
Lieferant: Hydraulik Süd GmbH

Pos.  Artikel      Bezeichnung                      Menge   ME     Preis       Betrag
1     HS-100       Hydraulikschlauch 1 m               50   St     12,00       600,00
2     KU-22        Kupplung 22 mm                      20   St      8,50       170,00

WARENEINGANG
${table}
`;
const receipts = `Datum        Beleg        Pos.   Erhalten   Retourniert   Akzeptiert   Bemerkung
12.03.2025   WE-5521      1           50             5           45   5 Schläuche undicht, zurück
12.03.2025   WE-5521      2           20             0           20`;
const germanInvoice = (hoses: number) => `Hydraulik Süd GmbH
Rechnung Nr. R-7710
Ihre Bestellung: 45-00912

Pos.  Artikel      Bezeichnung                      Menge   ME     Preis       Betrag
1     HS-100       Hydraulikschlauch 1 m               ${hoses}   St     12,00       ${(hoses * 12).toFixed(2).replace('.', ',')}
2     KU-22        Kupplung 22 mm                      20   St      8,50       170,00
`;

describe('po-match: a PO printed with its goods received and returns', () => {
  it('holds goods billed that were returned, with the quantity and money not accepted', () => {
    const r = run({ purchaseOrder: germanPo(receipts), invoice: germanInvoice(50) });
    expect(r.status).toBe('hold');
    const found = r.discrepancies.find((d) => /receipts accept 45/.test(d));
    expect(found).toMatch(/5 refused or returned/);
    expect(found).toMatch(/5 × 12\.00 = 60\.00/);
  });

  it('passes an invoice for what was accepted, and names the return in the note', () => {
    const r = run({ purchaseOrder: germanPo(receipts), invoice: germanInvoice(45) });
    expect(r.status).toBe('pass');
    expect(r.note).toMatch(/5 returned/);
  });
});

const spanishPo = (row: string) => `SUMINISTROS HOSTELEROS LEVANTE, S.L.
PEDIDO DE COMPRA Nº PC-5510
Proveedor: CAFÉS DEL TURIA, S.A.

Línea  Artículo    Descripción                         Cantidad   Ud.    Precio/ud.     Importe
1      CAF-1KG     Café en grano 1 kg                         40   ud        14,5000      580,00

DOCUMENTOS RELACIONADOS
${row}
Pago        TR-0093      30/04/2025       701,80       Pagado
`;
const spanishInvoice = `CAFÉS DEL TURIA, S.A.
FACTURA Nº FV-2025-118                      Fecha: 02/04/2025
Su pedido: PC-5510

Concepto                         Cantidad   Unidad     Precio      Subtotal
Café en grano 1 kg                     40   ud          14,50        580,00

                                                 Base imponible        580,00
                                                 IVA (21%)             121,80
                                                 Total                 701,80
`;

describe('po-match: a PO whose linked documents say the invoice is already paid', () => {
  it('holds a re-sent invoice the PO shows registered and paid', () => {
    const r = run({ purchaseOrder: spanishPo('Factura    FV-2025-118  02/04/2025       701,80       Contabilizada'), invoice: spanishInvoice });
    expect(r.status).toBe('hold');
    expect(r.discrepancies.some((d) => /^already invoiced: .*FV-2025-118.*pay twice/.test(d))).toBe(true);
  });

  it('only notes another invoice of other money registered against the PO', () => {
    const r = run({ purchaseOrder: spanishPo('Factura    FV-2025-097  12/03/2025       350,90       Contabilizada'), invoice: spanishInvoice });
    expect(r.discrepancies.filter((d) => /already/.test(d))).toEqual([]);
    expect(r.note).toMatch(/another invoice registered and paid/);
  });
});

describe('po-match: buckets of a stated size', () => {
  const po = `ORDEN DE COMPRA                     Folio: OC-000412
Proveedor: RECUBRIMIENTOS DEL BAJÍO, S.A. DE C.V.
Tolerancia de precio: ±2% sobre el precio unitario pactado.

Part.  Clave      Descripción                          Cant.    Unidad    Precio unit.        Importe
1      IMP-5      Impermeabilizante 5 años blanco        190     LITRO          60.00       11,400.00
`;
  const invoice = (price: string, amount: string) => `FACTURA — CFDI 4.0
Emisor: RECUBRIMIENTOS DEL BAJÍO, S.A. DE C.V.
Observaciones: Su orden de compra OC-000412.

Clave ProdServ  Cant.  Clave unidad    Descripción                                 Valor unitario       Importe
30151801        10     XBJ - Cubeta    IMPERMEABILIZANTE 5 AÑOS BLANCO 19 L              ${price}     ${amount}
`;
  it('reads a cubeta (XBJ) as holding the one size its description states, and compares per litre', () => {
    expect(run({ purchaseOrder: po, invoice: invoice('1,140.00', '11,400.00') }).discrepancies).toEqual([]);
  });

  it('holds a price per litre beyond the stated tolerance, quoting it', () => {
    const r = run({ purchaseOrder: po, invoice: invoice('1,187.50', '11,875.00') });
    expect(r.status).toBe('hold');
    expect(r.discrepancies.some((d) => /62\.50 against the PO's 60\.00.*Tolerancia de precio/.test(d))).toBe(true);
  });
});

describe('po-match: volumes by law', () => {
  const po = `PURCHASE ORDER PO-88120
Vendor: Prairie Coatings Ltd

Item       Description                  Qty    U/M      Unit Price       Amount
PR-EXT     Exterior primer, white        50    GAL           20.00      1,000.00
`;
  const invoice = (litres: string, amount: string) => `Prairie Coatings Ltd
INVOICE 5521                     Your PO: PO-88120

Item       Description                  Qty    U/M      Unit Price       Amount
PR-EXT     Exterior primer, white    ${litres}    L              5.2834      ${amount}
`;
  it('compares litres billed with US gallons ordered (1 gal = 3.785411784 L)', () => {
    expect(run({ purchaseOrder: po, invoice: invoice('189.27', '1,000.00') }).discrepancies).toEqual([]);
  });
  it('holds litres beyond the gallons ordered', () => {
    const r = run({ purchaseOrder: po, invoice: invoice('200.00', '1,056.68') });
    expect(r.status).toBe('hold');
    expect(r.discrepancies.some((d) => /exceeds the PO quantity 50/.test(d))).toBe(true);
  });
});

describe('po-match: receipts counted in another unit than the invoice', () => {
  const po = (receipt: string) => `PURCHASE ORDER PO-4410
Vendor: Harbour Catering Supply

Line  Item       Description                  Qty    U/M     Unit Price      Amount
1     WG-330     Wine glass 330 ml              48    EA            2.50       120.00

GOODS RECEIVED
Date         Receipt    Line   Received   Returned   Accepted
${receipt}
`;
  const invoice = `Harbour Catering Supply
INVOICE 7781                  Your PO: PO-4410

Line  Item       Description                  Qty    U/M     Unit Price      Amount
1     WG-330     Wine glass 330 ml               4    DZ           30.00       120.00
`;
  it('counts dozens billed in the pieces received and holds those returned', () => {
    const r = run({ purchaseOrder: po('03/04/2025   GR-118     1            48          6         42'), invoice });
    expect(r.status).toBe('hold');
    expect(r.discrepancies.some((d) => /bills 48 EA \(4 DZ\) but the PO's receipts accept 42/.test(d))).toBe(true);
  });
  it('passes dozens billed for all the pieces accepted', () => {
    expect(run({ purchaseOrder: po('03/04/2025   GR-118     1            48          0         48'), invoice }).status).toBe('pass');
  });
});
