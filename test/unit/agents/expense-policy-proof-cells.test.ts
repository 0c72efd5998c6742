/**
 * RULES.md "Expense": a printed report's receipt column naming the document kept (Brazil's "NFC-e", "Cupom fiscal",
 * a toll tag's statement "Sem Parar", the "Mapa/GPS" of a mileage) says the document is there.
 */
import { describe, expect, it } from 'vitest';
import { readExpense } from '../../../lambdas/agents/engines/expense-policy/expense.js';

const REPORT = [
  'Relatório de Despesas  #5120        Moeda: BRL',
  '',
  'Nº  Data        Tipo de despesa     Descrição                          Comprovante   Valor (R$)',
  '--  ----------  ------------------  ---------------------------------  -----------  ----------',
  '1   04/11/2026  Pedágio             Rod. Anhanguera, ida               ConectCar         12,40',
  '2   04/11/2026  Refeição            Almoço - Cantina Itália            NF-e              54,00',
  '3   04/11/2026  Estacionamento      Zona Azul, centro                  Cupom fiscal       9,00',
  '4   04/11/2026  Táxi                Rodoviária -> cliente                                31,50',
  '',
  '                                                    Total do relatório:   R$ 106,90',
].join('\n');

describe('expense-policy: receipt cells naming the document', () => {
  it('reads a named fiscal document or tag statement as the receipt, an empty cell as none', () => {
    const { items } = readExpense(REPORT, 'BRL');
    expect(items.map((i) => [i.cents, i.receipt])).toEqual([[1240n, true], [5400n, true], [900n, true], [3150n, undefined]]);
  });
});
