/**
 * po-match: printed orders and invoices in the languages they are written in — table headers in Portuguese and
 * Czech, the supplier's own label for the buyer's order, units by their local names (a dozen, a box "c/12"), a
 * discount column, the invoice's bill-to against the PO's buyer, and where a printed table ends.
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
