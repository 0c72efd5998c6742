/**
 * A Mexican policy writes its limits in pesos with a dollar sign ("$1,500.00 MXN", "$600 pesos"): they are pesos, so a
 * claim in MXN is checked against them (not refused as another currency), the limit of the places it names after "en"
 * included.
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';

const run = (expense: string, expensePolicy: string) => expensePolicyEngine.analyse({ expense, expensePolicy });

const POLICY = [
  'POLÍTICA DE VIÁTICOS PARA EL PERSONAL',
  'Los gastos se comprueban con CFDI y se pagan con la tarjeta de la empresa.',
  'Topes por concepto:',
  '   - Hospedaje: hasta $1,500.00 MXN por noche; en Puebla y Querétaro hasta $1,800.00 MXN por noche.',
  '   - Alimentos: hasta $600 pesos por día por persona.',
].join('\n');

const csv = (rows: string[]) => ['Fecha,Comercio,Monto (MXN),Categoría,Comprobante,Notas', ...rows].join('\n');

describe('expense-policy: Mexican limits in pesos written with a dollar sign', () => {
  it('checks a Querétaro hotel against the places\' limit, in pesos', () => {
    const r = run(csv(['10/03/2025,HOTEL MISION QUERETARO,"1,750.00",Hospedaje,CFDI,1 noche Querétaro']), POLICY);
    expect(r).toMatchObject({ verdict: 'approve', reimbursable_amount: 1750 });
  });

  it('holds a hotel elsewhere to the general limit', () => {
    const r = run(csv(['10/03/2025,HOTEL CENTRO LEON,"1,750.00",Hospedaje,CFDI,1 noche León']), POLICY);
    expect(r).toMatchObject({ verdict: 'flag', reimbursable_amount: 1500 });
  });
});
