/**
 * Which of a category's limits an expense is held to. A schedule of limits may give one category several rows
 * ("Breakfast 25.00 per day", "Team meal 40.00 per attendee", "Client meal 95.00 per attendee"); a reviewer applies the
 * row that names what the expense is, not the lowest of them. The row whose first cell shares the most words with the
 * expense's own text is that row; when no row's words appear in it, every row applies (the lowest allowance wins, the
 * conservative reading). Limits stated outside a table always apply.
 */
import type { Item } from './expense.js';
import type { Cap, Policy } from './policy.js';
import { MEAL_WORDS } from './meal.js';
import { capsOfPlace } from './place-sentences.js';

export function capsFor(item: Item, policy: Policy): Cap[] {
  // Limits by place: the item's place's (place-sentences.ts).
  let own = capsOfPlace(policy.caps.filter((c) => c.category === item.category), item, claimText.get(item));
  // A limit for a meal eaten alone ("Comidas individuales en viaje", "individual meals") does not govern a meal for
  // several people when a limit per person is there for it.
  if ((item.people ?? 1n) >= 2n && own.some((c) => c.perPerson)) own = own.filter((c) => !(c.scope ?? []).some((w) => ALONE.test(w)) && !ALONE.test(c.text.split(/:/)[0]));
  let scoped = own.filter((c) => c.scope !== undefined && c.scope.length > 0);
  if (scoped.length < 2) return own;
  // A meal known to be a dinner (by its words or its receipt's time) is never held to a row naming another meal
  // ("Breakfast: up to £15.00", "Lunch on a travel day: up to £12.00"), whatever other words it shares with it.
  if (item.meal) {
    const names = (c: Cap, meal: string) => (c.scope ?? []).some((w) => new RegExp(`\\b${w}\\b`).test(MEAL_WORDS[meal as keyof typeof MEAL_WORDS]));
    const mine = scoped.filter((c) => names(c, item.meal!));
    const others = scoped.filter((c) => !mine.includes(c) && Object.keys(MEAL_WORDS).some((m) => m !== item.meal && names(c, m)));
    if (others.length > 0) {
      own.splice(0, own.length, ...own.filter((c) => !others.includes(c)));
      scoped = scoped.filter((c) => !others.includes(c));
      if (scoped.length < 2) return own;
    }
  }
  const pick = (text: string) => {
    const score = (c: Cap) => (c.scope ?? []).filter((w) => new RegExp(`(?<![\\p{L}])${stem(w)}`, 'u').test(text)).length;
    const best = Math.max(...scoped.map(score));
    return best === 0 ? undefined : own.filter((c) => !scoped.includes(c) || score(c) === best);
  };
  // The item's own text first; a message about one expense names it in its subject or cover note ("Subject: Lunch - …").
  const about = aboutOne.get(item);
  // A meal is also named by the words a policy may use for it ("dinner" is the "evening meal"; meal.ts).
  const meal = item.meal ? MEAL_WORDS[item.meal] : undefined;
  return pick([item.text, item.label, item.evidence, item.heading, meal].filter(Boolean).join(' ').toLowerCase()) ?? (about ? pick(about.toLowerCase()) : undefined) ?? own;
}

const ALONE = /^(?:individual|individuales|individuels?|individuelles?|individuali|individuais|einzel\w*|solo|alone)$|\b(?:individual(?:es)?|individuel(?:le)?s?|individuali|individuais|alone|on your own|einzel\w*)\b/i;

/** The whole claim's text, kept for a claim of one expense: all of it is about that expense. */
const aboutOne = new WeakMap<Item, string>();

/** The whole claim's text for each item: a trip's place may be named only in the report's header. */
const claimText = new WeakMap<Item, string>();

export function claimAbout(items: Item[], text: string): void {
  if (items.length === 1) aboutOne.set(items[0], text);
  for (const item of items) claimText.set(item, text);
}

/** "meals" → "meal", "travelling" → "travel": a word's stem, matched at a word start in the expense. */
function stem(w: string): string {
  return w.replace(/(?:ling|ing|es|s)$/, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
