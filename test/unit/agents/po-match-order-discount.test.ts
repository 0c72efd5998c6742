/**
 * po-match: a discount stated once for the whole order in percent is a discount on every line; the supplier may print
 * it on each line ("Desc.%") or once under the lines, and an invoice that leaves it out bills above the agreed price.
 * Also the Portuguese PO's own "Encomenda n.º" label.
 */
import { describe, expect, it } from 'vitest';
import { poMatchEngine } from '../../../lambdas/agents/engines/po-match/engine.js';
import { readDocument } from '../../../lambdas/agents/engines/po-match/document.js';

const run = poMatchEngine.analyse;

const po = `Sage X3                                                        NOTA DE ENCOMENDA
Sociedade: Calçado Feliz, S.A.
Encomenda n.º:      ENC-2711-0042                   Data:  03/11/2026
Fornecedor:         F0091 - Curtumes do Minho, Lda.
Moeda: EUR

Lin.  Artigo        Designação                                 Qtd.    Un.   Preço unit.      Valor
----  ------------  ---------------------------------------  -------  ----  -----------  ---------
1000  PEL-VIT-NAT   Pele vitela natural 1,4 mm                 300,00  M2        18,0000   5.400,00
2000  FOR-POL-38    Forro poliéster 38                         150,00  M2         4,0000     600,00
                                                                      Total bruto               6.000,00
                                                                      Desconto comercial 5,00 %  -300,00
                                                                      Total líquido             5.700,00
                                                                      IVA 23 %                  1.311,00
                                                                      Total encomenda EUR       7.011,00
`;

const perLine = `CURTUMES DO MINHO, LDA.
FATURA  FT 2026/771
V/ Encomenda: ENC-2711-0042

Código      Descrição                                 Qtd.     Un.   Preço Unit.  Desc.%   IVA%      Valor
----------  ----------------------------------------  -------  ----  -----------  ------  -----  ---------
VIT14N      Vitela natural 1,4 mm                      300,00  M2       18,000     5,00     23   5.130,00
POL38       Forro poliéster 38                         150,00  M2        4,000     5,00     23     570,00

                                                               Total líquido                     5.700,00
                                                               Total IVA                         1.311,00
                                                               TOTAL (EUR)                       7.011,00
`;

const invoiceOnce = (discount: boolean) => `CURTUMES DO MINHO, LDA.
FATURA  FT 2026/772
V/ Encomenda: ENC-2711-0042

Código      Descrição                                 Qtd.     Un.   Preço Unit.      Valor
----------  ----------------------------------------  -------  ----  -----------  ---------
VIT14N      Vitela natural 1,4 mm                      300,00  M2       18,000    5.400,00
POL38       Forro poliéster 38                         150,00  M2        4,000      600,00

                                                      Total ilíquido                6.000,00
${discount ? '                                                      Desconto comercial 5 %         -300,00\n' : ''}                                                      Total IVA                     ${discount ? '1.311,00' : '1.380,00'}
                                                      TOTAL (EUR)                   ${discount ? '7.011,00' : '7.380,00'}
`;

describe('po-match: an order discount in percent is a discount on every line', () => {
  it('reads the Portuguese PO\'s own "Encomenda n.º" as its number', () => {
    expect(readDocument(po, 'purchaseOrder').poNumber).toBe('ENC-2711-0042');
  });

  it('passes an invoice that prints the PO\'s order discount on each line', () => {
    const r = run({ purchaseOrder: po, invoice: perLine });
    expect(r.discrepancies).toEqual([]);
    expect(r.note).toMatch(/discount on every line/);
  });

  it('passes an invoice that prints the same discount once under its lines', () => {
    const r = run({ purchaseOrder: po, invoice: invoiceOnce(true) });
    expect(r.discrepancies).toEqual([]);
  });

  it('holds an invoice that leaves the order discount out: each line above the agreed net price', () => {
    const r = run({ purchaseOrder: po, invoice: invoiceOnce(false) });
    expect(r.status).toBe('hold');
    expect(r.discrepancies.join(' ')).toMatch(/exceeds the PO goods 5700.00 by 300.00/);
  });

  it('leaves a discount that is not its stated share of the lines as printed', () => {
    const odd = po.replace('-300,00', '-250,00').replace('5.700,00', '5.750,00').replace('1.311,00', '1.322,50').replace('7.011,00', '7.072,50');
    const r = run({ purchaseOrder: odd, invoice: perLine });
    expect(r.note).not.toMatch(/discount on every line/);
  });
});
