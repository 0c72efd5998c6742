/**
 * Which meal an expense is, as a reviewer tells it: by its own words ("dinner", "evening meal", "supper", "Abendessen",
 * "dîner", "breakfast", "lunch", "Mittagessen"), else by the time printed on its receipt (before 11:00 a breakfast,
 * 11:00 to 15:59 a lunch, from 17:00 a dinner), so a limit per meal ("evening meal up to £30.00") is the one held.
 */
import type { Item } from './expense.js';

export type Meal = 'breakfast' | 'lunch' | 'dinner';

const WORDS: [Meal, RegExp][] = [
  ['breakfast', /\b(?:breakfast|brekkie|petit[- ]d[ée]jeuner|desayuno|colazione|frühstück|ontbijt|śniadanie|frukost|morgenmad|café da manhã|pequeno[- ]almoço|kahvaltı|sarapan|bữa sáng)(?![\p{L}])|朝食|早餐|조식|아침/iu],
  // "Mittag", "Abend": the columns of a German day table ("Frühstück  Mittag  Abend").
  ['lunch', /\b(?:lunch(?:eon)?|midday meal|mittagessen|mittag|d[ée]jeuner|almuerzo|comida|pranzo|obiad|lunsj|frokost|almoço|öğle yemeği|makan siang|bữa trưa)(?![\p{L}])|昼食|午餐|중식|점심/iu],
  ['dinner', /\b(?:dinner|supper|evening meal|abendessen|abend|d[îi]ner|cena|kolacja|middag|aftensmad|jantar|akşam yemeği|makan malam|bữa tối)(?![\p{L}])|夕食|晚餐|석식|저녁/iu],
];

/** The words a policy may name the meal by, for matching a per-meal limit to it. */
export const MEAL_WORDS: Record<Meal, string> = {
  breakfast: 'breakfast morning meal',
  lunch: 'lunch midday meal',
  dinner: 'dinner evening meal supper',
};

/** The meal a short label names ("Breakfast", "Frühstück", "Mittagessen"; "Petit-déjeuner" is breakfast). */
export function mealNamed(label: string): Meal | undefined {
  return WORDS.find(([, re]) => re.test(label))?.[0];
}

/** The meal an item's own text names (the first named on its own line, then in its text), else its receipt's time. */
export function mealOf(item: Pick<Item, 'evidence' | 'text' | 'parts'>, receiptText?: string): Meal | undefined {
  for (const t of [item.evidence, item.text]) {
    if (!t) continue;
    const named = WORDS.map(([m, re]) => ({ m, at: re.exec(t)?.index ?? -1 })).filter((x) => x.at >= 0);
    // "Petit-déjeuner" holds "déjeuner": the breakfast word wins where both are named at one place.
    if (named.length > 0) return named.sort((a, b) => a.at - b.at || (a.m === 'breakfast' ? -1 : 1))[0].m;
  }
  const time = receiptText ? /\b([01]?\d|2[0-3])[:h]([0-5]\d)(?::[0-5]\d)?\s*(am|pm)?\b/i.exec(receiptText) : null;
  if (!time) return undefined;
  let hour = Number(time[1]);
  if (time[3]?.toLowerCase() === 'pm' && hour < 12) hour += 12;
  if (time[3]?.toLowerCase() === 'am' && hour === 12) hour = 0;
  return hour >= 5 && hour < 11 ? 'breakfast' : hour >= 11 && hour < 16 ? 'lunch' : hour >= 17 ? 'dinner' : undefined;
}
