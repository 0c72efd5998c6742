/**
 * A Polish regulamin podróży states the daily allowance per doba (24 hours of travel): "Dieta za dobę podróży wynosi
 * 38,00 zł" is the full day's rate, never a hotel night's ("za dobę hotelową"); "Dietę pomniejsza się o …: śniadanie -
 * 25% diety, obiad - 50% diety, kolacja - 25% diety" cuts each meal provided by its share of that rate.
 */
import { describe, expect, it } from 'vitest';
import { readPolicy } from '../../../lambdas/agents/engines/expense-policy/policy.js';

const POLICY = [
  'REGULAMIN PODRÓŻY SŁUŻBOWYCH',
  '§2. Dieta',
  '1. Dieta za dobę podróży wynosi 38,00 zł.',
  '2. Dietę pomniejsza się o koszt zapewnionego bezpłatnego wyżywienia, przyjmując: śniadanie - 25% diety, obiad - 50% diety, kolacja - 25% diety.',
  '§3. Noclegi',
  'Zwrot kosztów noclegu na podstawie faktury, do wysokości 600,00 zł za dobę hotelową.',
  'Wydatki bez dokumentu nie podlegają zwrotowi, z wyjątkiem diet.',
].join('\n');

describe('expense-policy: a Polish allowance per doba and its meal cuts', () => {
  it('reads the rate per doba as the full day\'s, the hotel night\'s not as a rate', () => {
    const p = readPolicy(POLICY);
    expect(p.perDiem?.full).toBe(3800n);
    expect(p.perDiem?.partial).toBeUndefined();
  });

  it('reads each provided meal\'s share of the rate', () => {
    const p = readPolicy(POLICY);
    expect(p.mealCuts?.cuts).toEqual({ breakfast: { bp: 2500n }, lunch: { bp: 5000n }, dinner: { bp: 2500n } });
  });
});
