/**
 * A French policy's meal limits: the breakfast's own ceiling is no lunch's or dinner's; "25,00 € TTC par repas, dans la
 * limite de deux repas par jour" is a limit per meal; "Nuitée (chambre + petit-déjeuner) : Lyon 130,00 € TTC ; autres
 * villes 95,00 € TTC" are nightly limits by place.
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';

const run = (expense: string, expensePolicy: string) => expensePolicyEngine.analyse({ expense, expensePolicy });

const POLICY = [
  'Politique de remboursement des frais de déplacement',
  'Les frais sont remboursés sur la base des frais réels, dans la limite des plafonds ci-dessous, sur présentation des justificatifs.',
  '2. Repas',
  '- Repas pris seul (déjeuner ou dîner) : plafond 22,00 € TTC par repas, dans la limite de deux repas par jour.',
  '- Le petit-déjeuner n\'est remboursé que s\'il n\'est pas compris dans le prix de la chambre (plafond 10,00 €).',
  '3. Hébergement',
  'Nuitée (chambre + petit-déjeuner) : Lyon et Grenoble 130,00 € TTC ; autres villes 95,00 € TTC.',
].join('\n');

const claim = (rows: string[]) => ['Date;Fournisseur;Nature;Montant TTC;Justificatif', ...rows].join('\n');

describe('expense-policy: French meal and night limits', () => {
  it('pays a lunch and a dinner of one day each under the per-meal limit, above the breakfast one', () => {
    const r = run(['Note de frais', '03/03/2025  Déjeuner  Bistrot Paul  19,50 €  receipt attached', '03/03/2025  Dîner  Brasserie Nord  21,00 €  receipt attached'].join('\n'), POLICY);
    expect(r).toMatchObject({ verdict: 'approve', reimbursable_amount: 40.5 });
  });

  it('holds a Lyon hotel to the Lyon limit and another to the other towns\'', () => {
    expect(run(claim(['03/03/2025;Hôtel Bellecour Lyon;Hôtel 1 nuit;120,00;Oui']), POLICY)).toMatchObject({ verdict: 'approve', reimbursable_amount: 120 });
    expect(run(claim(['03/03/2025;Hôtel du Port Nantes;Hôtel 1 nuit;120,00;Oui']), POLICY)).toMatchObject({ verdict: 'flag', reimbursable_amount: 95 });
  });
});
