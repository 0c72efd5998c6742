/**
 * RULES.md "German policies": a Reisekosten- or Bewirtungsrichtlinie states the rule forms an English policy does
 * (limits per participant, night or day, a rate per kilometre, receipts required with their exceptions, refusals,
 * approvals), with German numbers (60,00 €, 1.250,00 €). Before, such a policy was refused: no sentence was read.
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';
import { readPolicy } from '../../../lambdas/agents/engines/expense-policy/policy.js';
import { resultSchema } from '../../../lambdas/agents/engines/expense-policy/schema.js';

function run(expense: unknown, expensePolicy: string) {
  const result = expensePolicyEngine.analyse({ expense: typeof expense === 'string' ? expense : JSON.stringify(expense), expensePolicy });
  expect(resultSchema.parse(result)).toEqual(result);
  return result;
}

const RICHTLINIE = [
  'Reisekostenordnung der Mustermann Logistik AG',
  'Gültig ab 1. März 2026 · Alle Beträge in Euro',
  '',
  '3  Bewirtung',
  '3.1  Höchstbetrag',
  '     Bewirtungen werden bis 60,00 € je Teilnehmer erstattet.',
  '3.2  Nachweise',
  '     Ohne Beleg wird die Bewirtung nicht erstattet.',
  '',
  '4  Übernachtung',
  '     Hotelkosten werden bis 150,00 € pro Nacht erstattet.',
  '',
  '5  Sonstiges',
  '(1) Ausgaben über 1.000,00 € bedürfen der vorherigen Genehmigung des Vorgesetzten.',
  '(2) Bußgelder und Strafzettel werden nicht erstattet.',
].join('\n');

describe('expense-policy: a German policy read into the rules it states', () => {
  it('reads the limits, the receipt rule, the approval and the refusal, in euros', () => {
    const p = readPolicy(RICHTLINIE);
    expect(p.currency).toBe('EUR');
    expect(p.caps.map((c) => [c.category, c.cents, c.perPerson, c.period ?? ''])).toEqual([
      ['meals', 6000n, true, ''],
      ['lodging', 15000n, false, 'night'],
    ]);
    expect(p.receipts.map((r) => [r.categories, r.cents])).toEqual([[['meals'], 0n]]);
    expect(p.approvals.map((a) => [a.cents, a.approver])).toEqual([[100000n, 'manager approval']]);
    expect([...p.forbiddenCategories.keys()]).toEqual(['fines']);
  });

  it('caps a business meal per participant: a subsection keeps its section\'s category', () => {
    const r = run({ category: 'Bewirtung Geschäftspartner', amount: 300, attendees: 4, receipt: true }, RICHTLINIE);
    expect(r.verdict).toBe('flag');
    expect(r.reimbursable_amount).toBe(240);
  });

  it('approves a meal within the limit and refuses one without its receipt', () => {
    expect(run({ category: 'Bewirtung', amount: 180, attendees: 3, receipt: true }, RICHTLINIE).verdict).toBe('approve');
    expect(run({ category: 'Bewirtung', amount: 180, attendees: 3, receipt: false }, RICHTLINIE).verdict).toBe('reject');
  });

  it('caps a hotel per night, holds an expense above the approval threshold, refuses a fine', () => {
    const hotel = run({ category: 'Übernachtung', amount: 500, nights: 3, receipt: true }, RICHTLINIE);
    expect([hotel.verdict, hotel.reimbursable_amount]).toEqual(['flag', 450]);
    const large = run({ category: 'Übernachtung', amount: 1200, nights: 8, receipt: true }, RICHTLINIE);
    expect([large.verdict, large.reimbursable_amount]).toEqual(['flag', 0]);
    expect(run({ category: 'Bußgeld', amount: 35, receipt: true }, RICHTLINIE).verdict).toBe('reject');
  });
});

const FAHRTKOSTEN = [
  '§ 2 Fahrtkosten',
  '(1) Für Dienstfahrten mit dem privaten Pkw werden 0,35 € je gefahrenem',
  '    Kilometer erstattet.',
  '(2) Taxikosten werden gegen Beleg erstattet.',
  '(3) Für jede Ausgabe ist ein Beleg einzureichen; ausgenommen ist das Kilometergeld.',
].join('\n');

const EXPORT = [
  'Date;Type;Description;Amount;Currency;Distance (km);Receipt',
  '03/02/2026;Mileage;Werk Köln - Kunde Bonn - Werk;18,90;EUR;54;',
  '04/02/2026;Expense;Taxi Bonn Hbf - Kunde;23,50;EUR;;Yes',
  '06/02/2026;Mileage;Werk Köln - Messe Düsseldorf - Werk;29,40;EUR;84;',
].join('\n');

describe('expense-policy: a German rate per kilometre and its receipt exception', () => {
  it('reads the rate over a wrapped line and pays the export\'s trips at it, its other rows as expenses', () => {
    const p = readPolicy(FAHRTKOSTEN);
    expect(p.mileage.map((m) => [m.milli, m.unit])).toEqual([[3500n, 'km']]);
    expect(p.receipts.map((r) => [r.categories, r.except])).toEqual([[['ground'], []], [[], ['mileage']]]);
    const r = run(EXPORT, FAHRTKOSTEN);
    expect(r.verdict).toBe('approve');
    expect(r.reimbursable_amount).toBe(71.8); // 138 km × 0.35 = 48.30, taxi 23.50
  });

  it('refuses the taxi of the same export when its receipt is missing', () => {
    const r = run(EXPORT.replace(';23,50;EUR;;Yes', ';23,50;EUR;;'), FAHRTKOSTEN);
    expect(r.verdict).toBe('reject');
    expect(r.reimbursable_amount).toBe(48.3);
  });

  it('flags trips claimed above the rate', () => {
    const r = run(EXPORT.replace(';18,90;', ';21,60;'), FAHRTKOSTEN); // 54 km claimed at 0.40
    expect(r.verdict).toBe('flag');
    expect(r.reimbursable_amount).toBe(71.8);
  });
});
