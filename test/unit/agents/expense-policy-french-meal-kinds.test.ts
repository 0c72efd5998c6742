/**
 * A French policy's meal limits stated as "plafond de N EUR par repas" for a meal eaten alone ("Repas pris seul en
 * déplacement") and per guest for a business meal ("Repas d'affaires avec invités : plafond de N EUR par convive");
 * a nightly limit for a city with words for which part of it ("Marseille intra-muros", "Lille centre") holds a hotel in
 * that city.
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';
import { readPolicy } from '../../../lambdas/agents/engines/expense-policy/policy.js';

const run = (expense: string, expensePolicy: string) => expensePolicyEngine.analyse({ expense, expensePolicy });

const POLICY = [
  'Règles de remboursement des frais professionnels',
  'Les frais sont remboursés sur présentation des justificatifs, dans la limite des plafonds ci-dessous.',
  'Repas',
  '- Repas pris seul en mission : plafond de 20,00 EUR par repas (déjeuner ou dîner).',
  "- Repas d'affaires avec invités extérieurs : plafond de 45,00 EUR par convive ; la liste des convives est obligatoire.",
  'Hébergement',
  'Plafond par nuit, petit-déjeuner inclus :',
  '- Marseille intra-muros : 130,00 EUR',
  '- Autres villes : 90,00 EUR',
].join('\n');

const claim = (rows: string[]) => ['Date;Fournisseur;Nature;Montant TTC;Justificatif', ...rows].join('\n');

describe('expense-policy: French meals alone and with guests, a city and its part', () => {
  it('reads both meal limits, neither left unread', () => {
    const p = readPolicy(POLICY);
    expect(p.caps.filter((c) => c.category === 'meals').map((c) => c.cents).sort()).toEqual([2000n, 4500n]);
    expect(p.notUnderstood.join(' ')).not.toMatch(/Repas/);
  });

  it('pays a meal alone under its limit and holds one above it to the limit', () => {
    expect(run(claim(['04/02/2026;Brasserie du Vieux Port;Déjeuner seul;18,50;Oui']), POLICY)).toMatchObject({ verdict: 'approve', reimbursable_amount: 18.5 });
    expect(run(claim(['04/02/2026;Brasserie du Vieux Port;Dîner seul;26,00;Oui']), POLICY)).toMatchObject({ verdict: 'flag', reimbursable_amount: 20 });
  });

  it('holds a hotel in the city to the city\'s limit, another to the other towns\'', () => {
    expect(run(claim(['04/02/2026;Hôtel Vieux Port Marseille;Hôtel 1 nuit;125,00;Oui']), POLICY)).toMatchObject({ verdict: 'approve', reimbursable_amount: 125 });
    expect(run(claim(['04/02/2026;Hôtel de la Gare Avignon;Hôtel 1 nuit;125,00;Oui']), POLICY)).toMatchObject({ verdict: 'flag', reimbursable_amount: 90 });
  });
});
