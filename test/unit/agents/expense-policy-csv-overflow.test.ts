/**
 * RULES.md "Expense" (CSV): a row wider than its header read by the shape of its cells. An amount an export left
 * unquoted with its thousands separator the same as the delimiter ("1,240.00" in a comma file) is one amount; a
 * free-text cell holding the delimiter ("Dinner; guests: …") is one cell when the cells after it then fall under their
 * columns by shape. And a limit for a meal eaten alone does not govern a meal for several people when a limit per
 * person is there for it.
 */
import { describe, expect, it } from 'vitest';
import { readExpense } from '../../../lambdas/agents/engines/expense-policy/expense.js';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';

const COMMA = [
  'Date,Merchant,Category,Amount,Currency,Receipt,Description',
  '03/02/2026,Hilton Vienna Park,Hotel,1,240.00,EUR,Yes,4 nights trade fair',
  '03/02/2026,Taxi 40100,Taxi,38.50,EUR,Yes,Airport to hotel',
].join('\n');

const SEMICOLON = [
  'Fecha;Comercio;Categoría;Descripción;Asistentes;Importe;Moneda;Justificante',
  '12/05/2026;Asador Etxebarri;Comida con clientes;Comida con Grupo Arteche; asistentes: Mikel Arana, Nerea Sola (Arteche); Luis Gil (nosotros);3;171,00;EUR;Sí',
  '12/05/2026;Renfe;Tren;Alvia Madrid-Bilbao;;64,90;EUR;Sí',
].join('\n');

describe('expense-policy: a CSV row wider than its header', () => {
  it('reads an amount split at its thousands separator as one amount', () => {
    const { items } = readExpense(COMMA, 'EUR');
    expect(items.map((i) => [i.cents, i.category])).toEqual([[124000n, 'lodging'], [3850n, 'ground']]);
  });

  it('reads a description holding the delimiter as one cell, the columns after it in place', () => {
    const { items } = readExpense(SEMICOLON, 'EUR');
    expect(items.map((i) => [i.cents, i.people])).toEqual([[17100n, 3n], [6490n, undefined]]);
  });

  it('holds a meal for several to the limit per person, not to the limit for a meal eaten alone', () => {
    const out = expensePolicyEngine.analyse({
      expense: SEMICOLON,
      expensePolicy: [
        'POLÍTICA DE GASTOS DE VIAJE (versión 2)',
        '1. Los gastos se presentan en un plazo de 30 días con la foto del ticket o factura. Importes en EUR, IVA incluido.',
        '2. Manutención',
        '   - Comidas individuales en viaje: máximo 25 EUR por comida.',
        '   - Comidas con clientes: máximo 50 EUR por asistente, contando a los empleados de la empresa.',
        '3. Gastos no reembolsables: multas, minibar, gastos personales.',
      ].join('\n'),
    });
    expect(out.reimbursable_amount).toBe(214.9);
    expect(out.violations.join(' ')).toMatch(/€171\.00 > €50\.00 × 3/);
  });
});
