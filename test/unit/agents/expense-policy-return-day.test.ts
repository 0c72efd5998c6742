/**
 * A Spanish policy's dieta: the full rate for days with an overnight stay, the half rate for a day without one, and a
 * return day earning the half rate only after its cut-off hour and nothing before; the time of return read from the
 * claim's trip line, the day held when no time is stated. Meals claimed on a day the dieta pays are not paid again.
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';

const run = (expense: string, expensePolicy: string) => expensePolicyEngine.analyse({ expense, expensePolicy });

const POLICY = [
  'NORMATIVA DE VIAJES Y DIETAS DE LA EMPRESA',
  'Las dietas se abonan como importe fijo, sin necesidad de presentar tickets de restaurante.',
  '  - Dieta completa (día con pernocta fuera de la residencia): 60,00 € por día.',
  '  - Media dieta (día sin pernocta): 30,00 € por día.',
  'El día de regreso, sin pernocta, se liquida como media dieta si la llegada es posterior a las 14:00 h; si la llegada es anterior a las 14:00 h no se devenga dieta.',
  'La dieta cubre todas las comidas del día: no se reembolsan tickets de restaurante adicionales.',
].join('\n');

const report = (trip: string, rows: string[]) => [
  'Informe de gastos',
  trip,
  'Fecha       Categoría        Concepto               Importe',
  ...rows,
].join('\n');

const days = [
  '03/02/2025  Dieta completa   Dieta nacional           60,00',
  '04/02/2025  Media dieta      Dieta nacional regreso   30,00',
];

describe('expense-policy: a return day and its cut-off hour', () => {
  it('pays the half rate on a return after the cut-off', () => {
    const r = run(report('Viaje: salida 03/02/2025 07:30 — llegada 04/02/2025 17:10', days), POLICY);
    expect(r).toMatchObject({ verdict: 'approve', reimbursable_amount: 90 });
  });

  it('pays nothing on a return before the cut-off', () => {
    const r = run(report('Viaje: salida 03/02/2025 07:30 — llegada 04/02/2025 12:45', days), POLICY);
    expect(r).toMatchObject({ verdict: 'flag', reimbursable_amount: 60 });
    expect(r.violations[0]).toContain('12:45');
  });

  it('holds the return day when the claim states no time of return', () => {
    const r = run(report('Viaje a Bilbao, febrero', days), POLICY);
    expect(r).toMatchObject({ verdict: 'flag', reimbursable_amount: 60 });
  });

  it('holds a restaurant ticket on a day the dieta pays', () => {
    const r = run(report('Viaje: salida 03/02/2025 07:30 — llegada 04/02/2025 17:10', [...days, '03/02/2025  Comida           Restaurante Ereño        24,50']), POLICY);
    expect(r).toMatchObject({ verdict: 'flag', reimbursable_amount: 90 });
  });
});
