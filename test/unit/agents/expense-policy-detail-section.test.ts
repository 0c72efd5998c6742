/**
 * RULES.md "Expense": a printed report's detail section under its table, each dated line repeating a row's date and
 * amount and naming it, is that row's detail, not the expense again; a row repeated inside the table stays a row. A
 * French report's "Justif." column is its receipt column; "Montant dû au salarié", "Montant payé par la société" and
 * "Avances" are its settlement lines, no expenses.
 */
import { describe, expect, it } from 'vitest';
import { readExpense } from '../../../lambdas/agents/engines/expense-policy/expense.js';

const REPORT = [
  'Note de frais  NF-2026-0419        Salariée : MARTIN, Élodie',
  '',
  'Date        Type de dépense        Fournisseur            Ville        Montant (EUR)  Justif.',
  '----------  ---------------------  ---------------------  -----------  -------------  -------',
  '04/11/2026  Taxi                   G7                     Paris                28,60  Oui',
  '04/11/2026  Repas - Déjeuner       Café des Arts          Lyon                 18,90  Oui',
  '05/11/2026  Parking                Indigo Part-Dieu       Lyon                 24,00  Non',
  '',
  'Détail des postes',
  '04/11/2026  Taxi - G7, Gare de Lyon -> bureau client, reçu n° 5531, 28,60 TTC',
  '04/11/2026  Déjeuner - Café des Arts, plat du jour et café, 18,90 TTC',
  '',
  'Total du rapport :                 71,50 EUR',
  'Montant payé par la société :       0,00 EUR',
  'Montant dû au salarié :            71,50 EUR',
  'Avances :                           0,00 EUR',
].join('\n');

describe('expense-policy: a report with its detail section', () => {
  it('reads each row once, its receipt cell, and no settlement line', () => {
    const { items } = readExpense(REPORT, 'EUR');
    expect(items.map((i) => [i.cents, i.receipt])).toEqual([[2860n, true], [1890n, true], [2400n, false]]);
  });

  it('keeps a row repeated inside the table itself', () => {
    const twice = REPORT.replace('05/11/2026  Parking ', '04/11/2026  Taxi                   G7                     Paris                28,60  Oui\n05/11/2026  Parking ');
    expect(readExpense(twice, 'EUR').items.map((i) => i.cents)).toEqual([2860n, 1890n, 2860n, 2400n]);
  });
});
