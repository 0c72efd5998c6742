/**
 * A meal charged to the room: a restaurant's check posted to a hotel folio (the check typed out under the folio, its
 * dishes and drinks behind the folio's "Riverside Grill Chk#4471" line) is a meal eaten at the hotel, not the room.
 * A reviewer takes it off the lodging expense and checks it as the meal it is: its alcohol, its tip and its meal
 * limit go with it, and the room's cap is held to the room alone.
 */
import type { Item } from './expense.js';
import type { Part } from './receipt.js';
import { textFacts } from './line.js';
import { ALCOHOL, categoriesIn } from './words.js';

/** What a restaurant's check prints: its covers, table, server, check number; or a folio line naming the outlet. */
const RESTAURANT = /\b(?:covers?|table\s*#?\s*\d+|server|waiter|chk\s*#?|check\s*#|guests?\s*:?\s*\d|restaurant|grill|bistro|brasserie|dining|room service|bar)\b/i;

type Line = NonNullable<Item['parts']>[number];

/** A folio line charging a meal from the hotel's own outlets. */
const DINING = /\b(?:in-room dining|room service|restaurant|dining|grill|bistro|brasserie)\b/i;

/** The meals behind a lodging expense's folio lines, split off it as items of their own (the item is reduced). */
export function roomChargedMeals(item: Item, nextIndex: number): Item[] {
  if (item.category !== 'lodging' || !item.parts || item.supported) return [];
  const checks = new Map<string, Line[]>();
  for (const p of item.parts) if (p.behind) checks.set(p.behind.line, [...(checks.get(p.behind.line) ?? []), p]);
  // A folio line that names the hotel's restaurant or room service ("In-Room Dining chk 2231 38.50") is such a meal
  // though its check is not typed out; a breakfast line may be the room's rate ("room with breakfast") and stays.
  for (const p of item.parts) {
    if (p.behind || p.kind !== 'item' || !DINING.test(p.text) || /\b(?:breakfast|frühstück|petit[- ]d[ée]jeuner)\b/i.test(p.text)) continue;
    checks.set(p.text, [{ ...p, behind: { line: p.text, own: [p.text], totalLine: p.text, totalAt: p.n } }]);
    item.parts = item.parts.map((x) => (x === p ? checks.get(p.text)![0] : x));
  }
  const out: Item[] = [];
  for (const lines of checks.values()) {
    const behind = lines[0].behind!;
    const own = behind.own.join('\n');
    // A check whose own words name another kind of expense (the garage's ticket posted to the room) is not a meal.
    const named = categoriesIn(own.slice(0, 4000).toLowerCase());
    const meal = named.includes('meals') || (named.length === 0 && (RESTAURANT.test(own) || RESTAURANT.test(behind.line) || lines.some((p) => ALCOHOL.test(p.text.toLowerCase()))));
    if (!meal) continue;
    const cents = lines.reduce((a, p) => a + p.cents, 0n);
    if (cents > item.cents) continue;
    const facts = textFacts(own.slice(0, 20_000).toLowerCase(), false, true);
    const alcohol = lines.filter((p) => p.kind === 'item' && ALCOHOL.test(p.text.toLowerCase()));
    const tips = lines.filter((p) => p.kind === 'tip');
    const tip = tips.reduce((a, p) => a + p.cents, 0n);
    out.push({
      index: nextIndex + out.length,
      label: behind.line.slice(0, 60),
      category: 'meals',
      cents,
      currency: item.currency,
      people: facts.people,
      alcohol: alcohol.length > 0 ? alcohol.reduce((a, p) => a + p.cents, 0n) : undefined,
      alcoholLines: alcohol.length > 0 ? alcohol.map((p) => p.text) : undefined,
      receipt: true,
      proof: item.proof,
      dateText: /^\S+/.exec(behind.line)?.[0] ?? item.dateText,
      evidence: behind.line,
      text: `${behind.line}\n${own}`,
      receiptText: own,
      parts: lines,
      ...(tips.length > 0 ? { tip: { cents: tip, base: lines.filter((p) => p.kind === 'item').reduce((a, p) => a + p.cents, 0n) } } : {}),
      at: [{ field: 'expense', line: behind.totalAt, quote: behind.totalLine }],
      refs: [],
      merchant: behind.line.replace(/^\S+\s+/, '').slice(0, 40),
    });
    item.parts = item.parts.filter((p) => !lines.includes(p));
    item.cents -= cents;
  }
  if (out.length > 0) {
    const left = item.parts.filter((p: Part & { kind: string }) => p.kind === 'item' && ALCOHOL.test(p.text.toLowerCase()));
    item.alcohol = left.length > 0 ? left.reduce((a, p) => a + p.cents, 0n) : undefined;
    item.alcoholLines = left.length > 0 ? left.map((p) => p.text) : undefined;
  }
  return out;
}
