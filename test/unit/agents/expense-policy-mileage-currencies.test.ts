/**
 * RULES.md "mileage rate": a rate per kilometre in a currency written by its code or sign in another language's
 * policy ("R$ 0,95 por quilómetro", "0,50 CHF pro km") is a mileage rate as "$0.70 per mile" is; a report's mileage
 * line working out its distance as legs times a distance ("2 x 60 km = 120 km") claims the result.
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';
import { readPolicy } from '../../../lambdas/agents/engines/expense-policy/policy.js';

const BR = [
  'POLÍTICA DE VIAGENS DA EMPRESA',
  'Todas as despesas devem ser lançadas com o comprovante fiscal. Valores em reais (BRL).',
  'Carro particular: reembolso de R$ 0,95 por quilômetro percorrido, com rota informada no relatório.',
  'Refeições: até R$ 60,00 por refeição.',
  'Despesas sem comprovante não são reembolsáveis.',
].join('\n');

describe('expense-policy: mileage rates in other currencies', () => {
  it('reads a Brazilian rate per kilometre', () => {
    const p = readPolicy(BR);
    expect(p.mileage.map((r) => [r.milli, r.unit])).toEqual([[9500n, 'km']]);
  });

  it('reads a rate written with the currency code after the amount', () => {
    const p = readPolicy('Private car use is reimbursed at 0.70 CHF per km.\nMeals are reimbursed up to CHF 40 per day.');
    expect(p.mileage.map((r) => [r.milli, r.unit])).toEqual([[7000n, 'km']]);
  });

  it('pays a worked distance at the rate: legs times distance, its result', () => {
    const policy = BR;
    const expense = [
      'Relatório de despesas - Moeda: BRL',
      'Nº  Data        Tipo de despesa   Descrição                                         Valor (R$)',
      '1   05/11/2026  Quilometragem     Carro particular, Sorocaba -> Jundiaí e volta:         114,00',
      '                                  2 x 60 km = 120 km x R$ 0,95/km',
      '                                                       Total do relatório:    R$ 114,00',
    ].join('\n');
    const out = expensePolicyEngine.analyse({ expense, expensePolicy: policy });
    expect(out.reimbursable_amount).toBe(114);
    expect(out.verdict).toBe('approve');
  });
});
