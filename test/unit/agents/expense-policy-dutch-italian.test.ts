/**
 * RULES.md "Dutch and Italian policies": a reglement dienstreizen or regolamento trasferte states the rule forms an
 * English policy does (limits per night by place, limits per meal, a receipt above an amount, refusals, approvals),
 * with continental numbers. Before, such a policy was refused: no sentence was read.
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';
import { readPolicy } from '../../../lambdas/agents/engines/expense-policy/policy.js';
import { languageOf } from '../../../lambdas/agents/engines/expense-policy/languages.js';
import { resultSchema } from '../../../lambdas/agents/engines/expense-policy/schema.js';

function run(expense: unknown, expensePolicy: string) {
  const result = expensePolicyEngine.analyse({ expense: typeof expense === 'string' ? expense : JSON.stringify(expense), expensePolicy });
  expect(resultSchema.parse(result)).toEqual(result);
  return result;
}

const REGLEMENT = [
  'DE VRIES TECHNIEK BV - Onkostenbeleid binnenland en buitenland',
  '',
  'Art. 1  Algemeen',
  '        Alle onkosten worden vergoed in euro, binnen 30 dagen na de reis ingediend.',
  '',
  'Art. 2  Overnachting',
  '        Maximaal EUR 190 per nacht in Amsterdam en Rotterdam, EUR 120 elders in Nederland.',
  '',
  'Art. 3  Maaltijden',
  '        Werkelijke kosten tot EUR 15 voor een ontbijt en EUR 40 voor een diner.',
  '        Alcoholische dranken worden niet vergoed.',
  '',
  'Art. 4  Bewijsstukken',
  '        Voor elke uitgave van meer dan EUR 20 is een kassabon of factuur verplicht.',
].join('\n');

const REGOLAMENTO = [
  'TESSITURA ALPINA S.r.l. - Regolamento rimborso spese di trasferta',
  '',
  '1. Giustificativi. Ogni spesa superiore a EUR 10 deve essere supportata da scontrino o fattura.',
  '2. Pernottamento. Costo della camera, fino a:',
  '   - Roma, Milano ............................. EUR 150 a notte',
  '   - Genova, Verona e altri capoluoghi .. EUR 110 a notte',
  '   - altre località ........................... EUR 90 a notte',
  '   L\'imposta di soggiorno è rimborsata a parte, oltre il limite.',
  '3. Pasti. Fino a EUR 30 per pasto, bevande analcoliche incluse. Non sono rimborsati alcolici.',
  '4. Spese non rimborsabili: minibar, multe, spese personali.',
].join('\n');

describe('expense-policy: a Dutch policy read into the rules it states', () => {
  it('is told from English and Italian by its common words', () => {
    expect(languageOf(REGLEMENT)).toBe('nl');
    expect(languageOf(REGOLAMENTO)).toBe('it');
    expect(languageOf('Meals are capped at $75 per day and receipts are required for every expense.')).toBeUndefined();
  });

  it('reads the limit by place with its "elders", the limits per meal and the receipt above an amount', () => {
    const p = readPolicy(REGLEMENT);
    expect(p.currency).toBe('EUR');
    const lodging = p.caps.filter((c) => c.category === 'lodging');
    expect(lodging.map((c) => [c.cents, c.period, c.places ?? []])).toEqual([[19000n, 'night', ['Amsterdam', 'Rotterdam']], [12000n, 'night', []]]);
    // Cited as the policy prints it.
    expect(lodging.every((c) => c.text.startsWith('Maximaal EUR 190 per nacht'))).toBe(true);
    expect(p.caps.filter((c) => c.category === 'meals').map((c) => [c.cents, c.scope])).toEqual([[1500n, ['breakfast']], [4000n, ['dinner']]]);
    expect(p.receipts.map((r) => [r.cents, r.inclusive, r.categories])).toEqual([[2000n, false, []]]);
    expect(p.alcoholForbidden).toBe('Alcoholische dranken worden niet vergoed');
  });

  it('holds a hotel outside the named cities to the limit for elsewhere, and refuses an expense without its receipt', () => {
    const r = run([
      { description: 'Hotel De Poort Utrecht, 1 nacht', category: 'Hotel', amount: 150, currency: 'EUR', nights: 1, receipt: true },
      { description: 'Taxi station Utrecht', category: 'Taxi', amount: 35, currency: 'EUR', receipt: false },
    ], REGLEMENT);
    expect(r.verdict).toBe('reject');
    expect(r.reimbursable_amount).toBe(120);
    expect(r.violations.some((v) => v.includes('Voor elke uitgave van meer dan EUR 20'))).toBe(true);
  });
});

describe('expense-policy: an Italian policy read into the rules it states', () => {
  it('reads the table of nightly caps by city, the tourist tax paid on top, the meal limit and the receipts', () => {
    const p = readPolicy(REGOLAMENTO);
    expect(p.currency).toBe('EUR');
    expect(p.places.caps.map((c) => [c.places, c.cents, c.fallback])).toEqual([
      [['Roma', 'Milano'], 15000n, false],
      [['Genova', 'Verona', 'altri capoluoghi'], 11000n, false],
      [[], 9000n, true],
    ]);
    expect(p.taxesExtra).toContain('imposta di soggiorno');
    expect(p.caps.map((c) => [c.category, c.cents])).toEqual([['meals', 3000n]]);
    expect(p.receipts.map((r) => [r.cents, r.categories])).toEqual([[1000n, []]]);
    expect(p.alcoholForbidden).toBe('Non sono rimborsati alcolici');
    expect(p.forbiddenCategories.has('fines')).toBe(true);
  });

  it('pays a Verona hotel at its city cap × nights and flags the excess', () => {
    const r = run([{ description: 'Hotel Arena Verona, 2 notti', category: 'Albergo', amount: 260, currency: 'EUR', nights: 2, receipt: true }], REGOLAMENTO);
    expect(r.verdict).toBe('flag');
    expect(r.reimbursable_amount).toBe(220);
  });
});

describe('expense-policy: an unread Dutch rule holds the items it is about', () => {
  it('holds a taxi under "Taxi enkel wanneer …" for a reviewer, as an English "only when" would', () => {
    const policy = `${REGLEMENT}\n\nArt. 5  Vervoer\n        Taxi enkel wanneer openbaar vervoer niet redelijk bruikbaar is.`;
    const r = run([{ description: 'Taxi Utrecht Centraal', category: 'Taxi', amount: 18, currency: 'EUR', receipt: true }], policy);
    expect(r.verdict).toBe('flag');
    expect(r.reimbursable_amount).toBe(0);
    expect(r.violations[0]).toContain('Taxi enkel wanneer');
  });
});
