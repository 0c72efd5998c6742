/**
 * po-match: Odoo's Polish purchase order with its received and billed columns ("Produkt  Ilość  JM  Otrzymano
 * Zafakt.  Cena jedn.  Podatki  Kwota netto") and a faktura naming the buyer's order as "Zamówienie klienta".
 */
import { describe, expect, it } from 'vitest';
import { poMatchEngine } from '../../../lambdas/agents/engines/po-match/engine.js';
import { readDocument } from '../../../lambdas/agents/engines/po-match/document.js';

const run = poMatchEngine.analyse;

const po = (received: string) => `Drukarnia Bałtyk Sp. z o.o.
ul. Portowa 3, 80-001 Gdańsk · NIP 5830001122

Zamówienie zakupu nr P00977
Dostawca:            PAPIRUS Hurtownia Papieru S.A., ul. Leśna 4, 81-100 Gdynia, NIP 5860002233
Waluta:              PLN

Produkt                                              Ilość   JM     Otrzymano  Zafakt.  Cena jedn.  Podatki   Kwota netto
[PAP-A3-80] Papier A3 80 g/m2, ryza 500 ark.        100,00   szt.     ${received}     0,00       21,40  VAT 23%      2 140,00
[TON-K-650] Toner czarny 650 ml                        4,00   szt.       4,00     0,00      310,00  VAT 23%      1 240,00

                                                                         Kwota netto:        3 380,00 zł
                                                                         VAT 23%:              777,40 zł
                                                                         Razem:              4 157,40 zł
`;
const invoice = `FAKTURA VAT nr FV/2026/11/0207
Sprzedawca:                                       Nabywca:
PAPIRUS Hurtownia Papieru S.A.                    Drukarnia Bałtyk Sp. z o.o.
NIP: 586-000-22-33                                NIP: 583-000-11-22

Zamówienie klienta: P00977          WZ: WZ/2026/11/0311

Lp  Nazwa towaru / usługi                          Ilość  J.m.  Cena netto  Wartość netto  VAT   Kwota VAT  Wartość brutto
 1  Papier A3 80 g/m2 ryza 500 ark.                   100  szt.       21,40       2 140,00  23%      492,20        2 632,20
 2  Toner czarny 650 ml                                 4  szt.      310,00       1 240,00  23%      285,20        1 525,20

                                                      Razem:                3 380,00            777,40        4 157,40
Do zapłaty: 4 157,40 PLN
`;

describe('po-match: an Odoo Polish PO with its received column', () => {
  it('reads the lines, never the received or billed column as the quantity, and the stated total', () => {
    const d = readDocument(po(' 100,00'), 'purchaseOrder');
    expect(d.lines.map((l) => [Number(l.quantity) / 1e6, Number(l.unitPrice) / 1e6, l.sku])).toEqual([
      [100, 21.4, 'PAP-A3-80'],
      [4, 310, 'TON-K-650'],
    ]);
    expect(Number(d.total) / 1e6).toBe(4157.4);
  });

  it('reads "Zamówienie klienta" on a faktura as the buyer\'s order', () => {
    expect(readDocument(invoice, 'invoice').poNumber).toBe('P00977');
  });

  it('passes a faktura for what was received', () => {
    expect(run({ purchaseOrder: po(' 100,00'), invoice }).discrepancies).toEqual([]);
  });

  it('holds a faktura billing reams the Otrzymano column does not show received', () => {
    const r = run({ purchaseOrder: po('  90,00'), invoice });
    expect(r.status).toBe('hold');
    expect(r.discrepancies.join(' ')).toMatch(/receipts accept 90; 10 × 21\.40 = 214\.00/);
  });
});
