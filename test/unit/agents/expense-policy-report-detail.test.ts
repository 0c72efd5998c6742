/**
 * RULES.md "Below a claim's total": a report's total recognised by the settlement lines under it, in the languages of
 * the reports read ("Anticipos recibidos", "Importe a reembolsar"); the taxes' sum above it is no expense; an
 * invoice's lines typed out below it, closed by a total equal to a listed expense, are that expense's detail; nights
 * counted in the report's language ("3 noches").
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';
import { readDocument } from '../../../lambdas/agents/engines/expense-policy/document.js';

const analyse = (expense: string, expensePolicy: string) => expensePolicyEngine.analyse({ expense, expensePolicy });

const POLICY = [
  'All amounts in EUR.',
  'Hotels: up to EUR 110 per night, breakfast and city tax included.',
  'Meals: up to EUR 30 per meal.',
].join('\n');

const REPORT = (nightly: string, total: string, claim: string) => [
  'HOJA DE GASTOS                                              Ref. HG-2026-118',
  'Empleado: Lucía Ferrer                                      Viaje: Sevilla, 03/06 - 06/06/2026',
  '',
  ' Fecha       Categoría     Proveedor / concepto                              IVA      Importe',
  ` 03/06/2026  Tren          Renfe AVE Madrid > Sevilla, clase Estándar      4,18 €     46,00 €`,
  ` 04/06/2026  Comida        Casa Robles, Sevilla - almuerzo                 2,45 €     26,90 €`,
  ` 06/06/2026  Hotel         Hotel Alfonso, 3 noches (03/06 - 06/06)        ${'30,90'} €    ${total} €`,
  ` 06/06/2026  Tren          Renfe AVE Sevilla > Madrid, clase Estándar      4,27 €     47,00 €`,
  '                                                     Total IVA              41,80 €',
  `                                                     TOTAL                             ${claim} €`,
  '                                                     Anticipos recibidos                 0,00 €',
  `                                                     Importe a reembolsar              ${claim} €`,
  '',
  'Detalle de la factura del hotel (Hotel Alfonso, factura 5521)',
  `  03/06  Habitación doble uso individual     ${nightly}`,
  '  03/06  Tasa turística                        1,50',
  `  04/06  Habitación doble uso individual     ${nightly}`,
  '  04/06  Tasa turística                        1,50',
  `  05/06  Habitación doble uso individual     ${nightly}`,
  '  05/06  Tasa turística                        1,50',
  `  Total factura                            ${total} EUR`,
].join('\n');

describe('expense-policy: a report with its settlement lines and an invoice typed out below', () => {
  it('reads four expenses: not the taxes\' sum, the settlement lines nor the invoice\'s lines', () => {
    const { entries } = readDocument(REPORT('98,00', '298,50', '418,40'), 'EUR');
    expect(entries.map((e) => e.amount.cents)).toEqual([4600n, 2690n, 29850n, 4700n]);
  });

  it('holds the stay to the nightly cap times its nights', () => {
    const result = analyse(REPORT('98,00', '298,50', '418,40'), POLICY);
    expect(result.verdict).toBe('approve');
    expect(result.reimbursable_amount).toBe(418.4);
  });

  it('a stay above the cap over its nights is cut to the cap', () => {
    const result = analyse(REPORT('118,00', '358,50', '478,40'), POLICY);
    expect(result.verdict).toBe('flag');
    // 3 × 110,00 = 330,00 for the hotel: 478,40 − 28,50.
    expect(result.reimbursable_amount).toBe(449.9);
  });
});
