/**
 * The expense categories a text names, in the languages policies and receipts are written in: the words every
 * reader (the policy's rules, a receipt's lines, a city-cap table's lead) classifies by.
 */
import { describe, expect, it } from 'vitest';
import { categoriesIn, withoutCategoryWords } from '../../../lambdas/agents/engines/expense-policy/words.js';

describe('categories in other languages, whole words only', () => {
  it.each([
    ['alberghi (per notte, camera più imposta di soggiorno)', 'lodging'],
    ['hébergement : nuitée à paris', 'lodging'],
    ['alojamiento en madrid', 'lodging'],
    ['pasti: pranzo o cena fino a eur 45', 'meals'],
    ['repas d’affaires, déjeuner client', 'meals'],
    ['treni: trenitalia standard', 'rail'],
    ['billet sncf 2nde classe', 'rail'],
    ['parcheggio aeroporto', 'parking'],
    ['rappresentanza con clienti', 'entertainment'],
    ['hyrbil arlanda', 'car rental'],
  ])('%s → %s', (text, category) => {
    expect(categoriesIn(text)[0]).toBe(category);
  });

  it('a word inside another word, or an address word, names nothing', () => {
    expect(categoriesIn('via della scenario 4, cenacolo')).toEqual([]);
    expect(categoriesIn('12 park ave, vol. 3')).toEqual([]);
  });

  it('the words are blanked out like the English ones, so what qualifies the category is left', () => {
    expect(withoutCategoryWords('albergo di lusso').trim()).toBe('di lusso');
  });
});
