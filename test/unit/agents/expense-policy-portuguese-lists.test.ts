/**
 * A Brazilian policy: ride classes refused in a list led by "Corridas nas categorias …" ("NÃO são reembolsáveis"), a
 * breakfast limit "somente quando não estiver incluído na diária do hotel" that is a breakfast's limit (no daily hotel
 * limit), and hotel limits by place "nas capitais Belo Horizonte, Porto Alegre e Rio de Janeiro" ("São Paulo" is a
 * place, not the verb "são").
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';

const run = (expense: string, expensePolicy: string) => expensePolicyEngine.analyse({ expense, expensePolicy });

const POLICY = [
  'POLÍTICA DE REEMBOLSO DE DESPESAS',
  'As despesas de viagem são reembolsadas mediante comprovante fiscal, dentro dos limites desta política.',
  'Alimentação',
  'Almoço ou jantar: até R$ 90,00 por refeição.',
  'Café da manhã: até R$ 35,00, somente quando não estiver incluído na diária do hotel.',
  'Hospedagem',
  'Até R$ 350,00 por diária; nas capitais Belo Horizonte, Porto Alegre e Rio de Janeiro, até R$ 450,00 por diária, com café da manhã incluso.',
  'Transporte',
  'Viagens nas categorias Uber Black, 99 Top ou similares NÃO são reembolsáveis.',
].join('\n');

const report = (rows: string[]) => ['Data        Tipo            Estabelecimento                 Valor (R$)   Comprovante', ...rows].join('\n');

describe('expense-policy: Portuguese ride classes, breakfast and capitals', () => {
  it('pays a lunch above the breakfast limit and a Rio hotel under the capitals cap', () => {
    const r = run(report([
      '05/03/2025  Almoço          Restaurante Aprazível Rio            84,00        Anexado',
      '05/03/2025  Hospedagem      Hotel Atlântico Rio de Janeiro      420,00        Anexado',
    ]), POLICY);
    expect(r).toMatchObject({ verdict: 'approve', reimbursable_amount: 504 });
  });

  it('holds a hotel outside the capitals to the general cap', () => {
    const r = run(report(['05/03/2025  Hospedagem      Hotel Central Londrina              420,00        Anexado']), POLICY);
    expect(r).toMatchObject({ verdict: 'flag', reimbursable_amount: 350 });
  });

  it('refuses a ride of a refused class, the basic ride paid', () => {
    const r = run(report([
      '05/03/2025  Transporte      Uber - Uber Black aeroporto          88,00        Anexado',
      '06/03/2025  Transporte      Uber - UberX hotel                   31,00        Anexado',
    ]), POLICY);
    expect(r.verdict).toBe('reject');
    expect(r.reimbursable_amount).toBe(31);
  });
});
