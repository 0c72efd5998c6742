/**
 * The days of an allowance claimed as one line with its day table below (day-table.ts): one per-diem item a day, so
 * each is held to its own rate (the first and last days at the partial rate), and the meals a hotel bill of the same
 * claim charged on a day (its breakfast lines, "07.10.2025  Frühstücksbuffet  19,50") are meals provided that day:
 * the company pays them with the bill, so a policy deducting a provided meal from the day's allowance deducts it.
 */
import type { Entry } from './document.js';
import type { Item } from './expense.js';

/** A breakfast line of a hotel bill ("Frühstücksbuffet", "Breakfast buffet", "Petit-déjeuner", "Colazione"). */
const BREAKFAST = /breakfast|frühstück|fruehstueck|petit[- ]d[ée]jeuner|colazione|desayuno|ontbijt|frukost/i;

/** The entry's days, each an item of its own (its line, its day's total, its cells read with their labels). */
export function dayItems(e: Entry, base: Item, index: number): Item[] {
  return (e.days ?? []).map((d, k) => ({
    ...base,
    index: index + k,
    label: d.line.text.slice(0, 60),
    cents: d.amount.cents,
    currency: d.amount.currency ?? base.currency,
    category: 'per diem' as const,
    dateText: /^\S+/.exec(d.line.text)?.[0],
    days: undefined,
    evidence: d.line.text,
    text: d.text,
    at: [{ field: 'expense' as const, line: d.line.n, quote: d.line.raw.trim() }, ...base.at],
  }));
}

/** Marks each per-diem day whose date a claimed hotel bill charges a breakfast on as that breakfast provided. */
export function hotelBreakfasts(items: Item[]): void {
  const lines = items.filter((i) => i.category === 'lodging').flatMap((i) => (i.parts ?? []).filter((p) => p.kind === 'item' && BREAKFAST.test(p.text)));
  for (const day of items) {
    if (day.category !== 'per diem' || !day.dateText) continue;
    const on = lines.find((p) => p.date === day.dateText);
    if (!on || /\bbreakfast provided\b/.test(day.text ?? '')) continue;
    day.text = `${day.text ?? day.label}; breakfast provided on the hotel bill (${on.text})`;
    day.at = [...day.at, { field: 'expense', line: on.n, quote: on.text }];
  }
}
