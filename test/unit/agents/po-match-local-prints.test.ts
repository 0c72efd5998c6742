/**
 * po-match: printed orders and invoices in the languages they are written in — table headers in Portuguese and
 * Czech, the supplier's own label for the buyer's order, units by their local names (a dozen, a canister of litres,
 * a box "c/12"), the invoice's bill-to against the PO's buyer, a PO printed with its goods-received and returns
 * table, and a PO whose linked documents say the invoice is already paid.
 */
import { describe, expect, it } from 'vitest';
import { poMatchEngine } from '../../../lambdas/agents/engines/po-match/engine.js';
import { readDocument } from '../../../lambdas/agents/engines/po-match/document.js';

const run = poMatchEngine.analyse;
const money = (v: bigint | undefined) => (v === undefined ? undefined : Number(v) / 1e6);

const portuguesePo = `FARMÁCIA CENTRAL DE BRAGA, LDA.
NIF PT 502 118 330 — Av. da Liberdade 200, 4710-251 Braga

NOTA DE ENCOMENDA N.º EC 2025/0044                         Data: 03/02/2025
Fornecedor: LABORATÓRIOS ATLÂNTICO, S.A. — NIF PT 504 771 902

Ref.      Descrição                                  Qtd.     Un.    Preço Unit.       Valor
LA-0101   Álcool gel 500 ml                           240      UN         2,1500      516,00
LA-0220   Luvas nitrilo M, caixa                       30      CX         6,4000      192,00

                                               Total mercadoria:       708,00 €
                                               IVA 23%:                162,84 €
                                               TOTAL:                  870,84 €
`;
const portugueseInvoice = (ourNif = '502118330') => `LABORATÓRIOS ATLÂNTICO, S.A.
NIF PT 504 771 902 · Rua do Porto 15 · 4000-001 Porto

FATURA FT 2025/0311                                          ORIGINAL
Exmo.(s) Sr.(s)
FARMÁCIA CENTRAL DE BRAGA, LDA.
NIF: ${ourNif}

V/ Encomenda: EC 2025/0044        N/ Guia de remessa: GR 2025/0190

Artigo    Descrição                               Qtd.    Un.     Preço      Valor
LA-0101   Álcool gel 500 ml cx c/12 un             20     CX      25,80     516,00
LA-0220   Luvas nitrilo M                          30     CX       6,40     192,00

                                                  Total ilíquido       708,00 €
                                                  Total IVA            162,84 €
                                                  TOTAL (EUR)          870,84 €
`;

describe('po-match: a Portuguese order and fatura', () => {
  it('reads the table headers, the series-numbered order and the box "c/12" against units', () => {
    const po = readDocument(portuguesePo, 'purchaseOrder');
    expect(po.poNumber).toBe('EC 2025/0044');
    expect(po.lines.map((l) => [l.sku, l.uom, money(l.quantity), money(l.unitPrice)])).toEqual([
      ['LA-0101', 'EA', 240, 2.15],
      ['LA-0220', 'BX', 30, 6.4],
    ]);
    expect(readDocument(portugueseInvoice(), 'invoice').poNumber).toBe('EC 2025/0044');
    const r = run({ purchaseOrder: portuguesePo, invoice: portugueseInvoice() });
    expect(r.status).toBe('pass');
    expect([r.invoiceTotal, r.poTotal]).toEqual([870.84, 870.84]);
  });

  it('holds an invoice made out to another company: two tax numbers, neither the buyer on the PO letterhead', () => {
    const r = run({ purchaseOrder: portuguesePo, invoice: portugueseInvoice('PT 509 330 118') });
    expect(r.status).toBe('hold');
    expect(r.discrepancies.some((d) => /^bill-to: .*509 330 118/.test(d))).toBe(true);
  });

  it('takes the bill-to as the buyer when the invoice names no customer number at all (noted)', () => {
    const r = run({ purchaseOrder: portuguesePo, invoice: portugueseInvoice().replace('NIF: 502118330\n', '') });
    expect(r.status).toBe('pass');
    expect(r.note).toMatch(/is not on the invoice, which names no other customer number/);
  });
});

const czechPo = `STAVEBNINY MORAVA s.r.o.
IČO 27711231   DIČ CZ27711231

OBJEDNÁVKA                                               Číslo objednávky: OBJ-2025-031
Dodavatel: KERAMIKA BRNO a.s.

Kód        Název                                   Množství    MJ       Cena/MJ       Celkem
HRN-250    Hrnek porcelánový 250 ml                     120    ks         45,00     5 400,00
SKL-300    Sklenice na vodu 300 ml                       60    ks         30,00     1 800,00
`;
const czechInvoice = `KERAMIKA BRNO a.s.
DIČ CZ45533221

FAKTURA č. 2025-0088
Odběratel: STAVEBNINY MORAVA s.r.o.     DIČ CZ27711231
Číslo objednávky: OBJ-2025-031

Kód        Název                                   Množství    MJ       Cena/MJ       Celkem
HRN-250    Hrnek porcelánový 250 ml                      10    tucet     540,00     5 400,00
SKL-300    Sklenice na vodu 300 ml                        5    tucet     360,00     1 800,00

Celkem bez DPH                                                                   7 200,00
DPH 21 %                                                                         1 512,00
Celkem k úhradě                                                                  8 712,00
`;

describe('po-match: Czech prints and dozens', () => {
  it('reads Czech column names and compares dozens (tucet) with pieces at twelve to the dozen', () => {
    const inv = readDocument(czechInvoice, 'invoice');
    expect(inv.lines.map((l) => [l.uom, money(l.quantity)])).toEqual([['DZ', 10], ['DZ', 5]]);
    const r = run({ purchaseOrder: czechPo, invoice: czechInvoice });
    expect(r.discrepancies).toEqual([]);
    expect(r.status).toBe('pass');
  });

  it('holds dozens billed beyond the pieces ordered', () => {
    const r = run({ purchaseOrder: czechPo, invoice: czechInvoice.replace('      10    tucet     540,00     5 400,00', '      11    tucet     540,00     5 940,00').replace('7 200,00', '7 740,00').replace('1 512,00', '1 625,40').replace('8 712,00', '9 365,40') });
    expect(r.status).toBe('hold');
    expect(r.discrepancies.some((d) => /quantity 132 exceeds the PO quantity 120/.test(d))).toBe(true);
  });
});

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

describe('po-match: header readings', () => {
  it('never takes an item code opening with "POD" for the PO number', () => {
    const po = `Order for goods\nVendor: Lift Parts Ltd\n\nItem         Description           Qty    Price     Amount\nPOD-G-100N   Gas strut 100N          4     9.75      39.00\n`;
    expect(readDocument(po, 'purchaseOrder').poNumber).toBeUndefined();
  });

  it('reads a vendor printed beside the buyer ("Sprzedawca  Nabywca") and several totals on one line', () => {
    const inv = `Sprzedawca                                   Nabywca\nMEBLOTECH Sp. z o.o.                          Drewnex S.A.\n\nNr zamówienia: ZK 12/2025\n\nLp.  Nazwa towaru            Ilość   J.m.   Cena netto   Wartość netto\n1    Blat dębowy 120 cm          4   szt.       310,00       1 240,00\n\nNetto 1 240,00    VAT 23% 285,20    Brutto 1 525,20\n`;
    const doc = readDocument(inv, 'invoice');
    expect(doc.vendor).toBe('MEBLOTECH Sp. z o.o.');
    expect(doc.poNumber).toBe('ZK 12/2025');
    expect([money(doc.subtotal), money(doc.total)]).toEqual([1240, 1525.2]);
    expect(doc.charges.map((c) => [c.kind, money(c.amount)])).toEqual([['tax', 285.2]]);
  });

  it('reads "Votre réf." on an invoice as the buyer\'s order, and a number ending a sentence without its full stop', () => {
    const inv = `TRANSPORTS DU LAC SA\nFACTURE N° 4410\nVotre réf. : BC-2025-118          Bon de livraison : BL-9\n\nRéf.    Désignation        Qté    P.U. HT    Montant HT\nA-1     Sangle 5 m           10      12,00        120,00\n`;
    expect(readDocument(inv, 'invoice').poNumber).toBe('BC-2025-118');
    const remark = `Observaciones: Su orden de compra OC-000412. Entrega en obra.\n\nClave   Descripción          Cant.   Unidad   Precio unit.    Importe\nR-9     Rodillo 9 pulgadas      24   PZA            85.00    2,040.00\n`;
    expect(readDocument(remark, 'invoice').poNumber).toBe('OC-000412');
  });
});

describe('po-match: the block after a printed table', () => {
  it('ends the rows at a heading in capitals after a blank line, so its remarks are no description', () => {
    const inv = `ALMACENES DEL SUR, S.A.
FACTURA Nº A-7781                 Su pedido: PC-3310

Código   Descripción                      Cantidad   Unidad     Precio      Importe
TR-11    Trapo de algodón blanco               50   ud          0,80        40,00

CONDICIONES GENERALES DE VENTA
Los portes se facturan aparte en pedidos inferiores a 300 euros; mercancía viaja por cuenta del cliente.
`;
    const doc = readDocument(inv, 'invoice');
    expect(doc.lines.map((l) => l.description)).toEqual(['Trapo de algodón blanco']);
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

describe('po-match: a discount column labelled "Desc." beside the description', () => {
  const po = `TÊXTEIS DO AVE, LDA.
NOTA DE ENCOMENDA N.º NE 2025/0090
Fornecedor: FIAÇÃO DO MINHO, S.A.

Ref.      Descrição                          Qtd.    Un.    Preço Unit.      Total
FIO-30    Fio algodão Ne 30/1 cru             500     KG         3,8800   1 940,00
`;
  const invoice = (discount: string, amount: string) => `FIAÇÃO DO MINHO, S.A.
FATURA FT 2025/0771
V/ Encomenda: NE 2025/0090

Artigo    Descrição                          Qtd.     Un.     Preço    Desc.   IVA       Valor
FIO-30    Fio algodão Ne 30/1 cru           500,00    KG      4,0000   ${discount}   23%   ${amount}
`;
  it('reads "Desc." right of the price as the discount: 4,00 less 3 % = 3,88 per kilo', () => {
    const doc = readDocument(invoice('3,00', '1 940,00'), 'invoice');
    expect(doc.lines.map((l) => [l.description, money(l.unitPrice), money(l.amount)])).toEqual([['Fio algodão Ne 30/1 cru', undefined, 1940]]);
    expect(run({ purchaseOrder: po, invoice: invoice('3,00', '1 940,00') }).discrepancies).toEqual([]);
  });
  it('holds the price when the discount agreed is not given', () => {
    expect(run({ purchaseOrder: po, invoice: invoice('0,00', '2 000,00') }).discrepancies.some((d) => /price 4\.00 differs from the PO unit price 3\.88/.test(d))).toBe(true);
  });
});

describe('po-match: Turkish and Chinese tables', () => {
  it('reads a Turkish order and invoice (Stok kodu, Miktar, Birim, Birim fiyat, Tutar; KDV, Genel toplam)', () => {
    const po = `ANADOLU GIDA A.Ş.
SATIN ALMA SİPARİŞİ                       Sipariş no: SA-2025-0412
Tedarikçi: Ege Ambalaj Ltd. Şti.

Stok kodu    Açıklama                        Miktar   Birim    Birim fiyat        Tutar
KT-40        Koli 40x30x30                      500   adet           4,20     2.100,00
`;
    const inv = `Ege Ambalaj Ltd. Şti.
FATURA No: EA2025000081
Sipariş no: SA-2025-0412

Stok kodu    Açıklama                        Miktar   Birim    Birim fiyat        Tutar
KT-40        Koli 40x30x30                      500   adet           4,20     2.100,00

                                              Ara toplam          2.100,00
                                              KDV %20               420,00
                                              Genel toplam        2.520,00
`;
    const doc = readDocument(inv, 'invoice');
    expect(doc.lines.map((l) => [l.sku, l.uom, money(l.quantity), money(l.unitPrice)])).toEqual([['KT-40', 'EA', 500, 4.2]]);
    expect(money(doc.total)).toBe(2520);
    const r = run({ purchaseOrder: po, invoice: inv });
    expect(r.discrepancies).toEqual([]);
  });

  it('reads a Chinese order table measured in display cells (物料编码 品名 数量 单位 单价 金额)', () => {
    const po = `采购订单  订单号: PO-SZ-2025-031
供应商: Shenzhen Bright Packaging Co., Ltd.

物料编码      品名              数量    单位      单价        金额
BX-220        纸箱 220           300    个        3.50     1,050.00
`;
    const doc = readDocument(po, 'purchaseOrder');
    expect(doc.lines.map((l) => [l.sku, money(l.quantity), money(l.unitPrice), money(l.amount)])).toEqual([['BX-220', 300, 3.5, 1050]]);
  });
});

