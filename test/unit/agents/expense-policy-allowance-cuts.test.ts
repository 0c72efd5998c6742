/**
 * A daily meal allowance with a full-day rate, a rate for the days of arrival and departure, and the cut of each meal
 * provided (an amount, or a share of the full day's rate); the meals provided read from the day's line or from a hotel
 * bill of the claim charging a breakfast that day. German limits by place led by "in … und …".
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';

const run = (expense: string, expensePolicy: string) => expensePolicyEngine.analyse({ expense, expensePolicy });

const POLICY = [
  'Reiserichtlinie der Nordlicht Messtechnik GmbH',
  '§ 2 Übernachtung',
  'Übernachtungskosten werden bis 100,00 € pro Nacht erstattet; in Berlin und Köln bis 130,00 € pro Nacht.',
  '§ 3 Verpflegungspauschale',
  'Die Pauschalen werden wie folgt gezahlt:',
  '   - 14,00 € für den An- und den Abreisetag einer mehrtägigen Reise,',
  '   - 28,00 € für jeden Kalendertag mit 24 Stunden Abwesenheit.',
  'Wird eine Mahlzeit gestellt, ist die Pauschale für diesen Tag zu kürzen:',
  '   - Frühstück um 20 % der Pauschale für einen vollen Kalendertag,',
  '   - Mittag- oder Abendessen um je 11,20 €.',
].join('\n');

const claim = (days: string[], bill: string[] = []) => [
  'Reisekostenabrechnung Nr. 77',
  'Datum        Art                 Betrag',
  ...days,
  ...bill,
].join('\n');

describe('expense-policy: allowance rates and meal cuts', () => {
  it('cuts a breakfast the day\'s line marks provided, and pays the other days their rates', () => {
    const r = run(claim([
      '03.03.2025   Verpflegungspauschale Anreisetag                 14,00 €',
      '04.03.2025   Verpflegungspauschale 24 Std., breakfast provided     28,00 €',
      '05.03.2025   Verpflegungspauschale Abreisetag                 14,00 €',
    ]), POLICY);
    expect(r.verdict).toBe('flag');
    expect(r.reimbursable_amount).toBe(50.4);
  });

  it('pays days already cut as claimed', () => {
    const r = run(claim([
      '03.03.2025   Verpflegungspauschale Anreisetag                 14,00 €',
      '04.03.2025   Verpflegungspauschale 24 Std., breakfast provided     22,40 €',
      '05.03.2025   Verpflegungspauschale Abreisetag                 14,00 €',
    ]), POLICY);
    expect(r).toMatchObject({ verdict: 'approve', reimbursable_amount: 50.4 });
  });

  it('holds a Köln hotel to the cap of its place', () => {
    const r = run(['Datum        Art                 Betrag', '03.03.2025   Hotel Dom Köln, 1 Nacht, Rechnung anbei   125,00 €'].join('\n'), POLICY);
    expect(r).toMatchObject({ verdict: 'approve', reimbursable_amount: 125 });
  });
});
