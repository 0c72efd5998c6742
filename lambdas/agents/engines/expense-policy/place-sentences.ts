/**
 * Limits per place written as sentences: "Up to USD 350 per night in Zurich, Geneva and New York; USD 250
 * elsewhere", "Meals: up to USD 110 per day; USD 140 per day in Zurich, London, Tokyo", "Maximum per night: London
 * £175; elsewhere in the UK £120". A reviewer holds an expense to the limit of the place it is in: the limit naming
 * its place (in its own text, else anywhere in the claim), else the one for everywhere else. The sentences are split on
 * ";", so the limits of one rule arrive one after another: a limit naming places makes the plain limit of the same
 * category just before it the limit for everywhere else, and "USD 250 elsewhere" after it is that limit.
 */
import type { Cap } from './policy.js';
import type { Item } from './expense.js';
import { inCountry } from './countries.js';

/** The places a limit's sentence names ("… per night in Zurich, Geneva and New York", "London £175"). */
export function placesNamed(original: string): string[] | undefined {
  // "(110,00 € en Madrid y Barcelona)": a limit by place in brackets after the general one.
  // What the amount includes after it ("150,00 € TTC", "including tax") is no part of the places' line.
  const text = original.replace(/\*\*|__/g, '').trim().replace(/^\((.*)\)\.?$/, '$1')
    .replace(/\s+(?:TTC|HT|TVAC|IVA incluido|incl\.? VAT|including (?:tax|VAT))\s*\.?$/i, '');
  const tail = /\b(?:in|for)\s+(\p{Lu}[\p{L}.'-]*(?:\s+\p{Lu}[\p{L}.'-]*)*(?:\s*(?:,|\/|\band\b|&)\s*\p{Lu}[\p{L}.'-]*(?:\s+\p{Lu}[\p{L}.'-]*)*)*)\s*\.?$/u.exec(text)?.[1];
  const head = /^(?:[^:]{0,60}:\s*)?(\p{Lu}[\p{L}.'-]*(?:\s+\p{Lu}[\p{L}.'-]*){0,2})\s+(?:[$€£¥]|[A-Z]{3}\s?)\d[\d.,]*\s*\.?$/u.exec(text)?.[1]
    // "(Übernachtung ohne Frühstück): München, Frankfurt, Hamburg 130 €": a list of places after the lead's colon, the
    // currency after the amount.
    ?? /^(?:.*:\s+)?(\p{Lu}[\p{L}.'-]*(?:\s+\p{Lu}[\p{L}.'-]*)?(?:\s*(?:,|\/|&)\s*\p{Lu}[\p{L}.'-]*(?:\s+\p{Lu}[\p{L}.'-]*)?){0,8})\s+\d[\d.,]*\s?(?:[$€£¥]|[A-Z]{3})\s*\.?$/u.exec(text)?.[1];
  // "in Milano and Roma up to 170.00 € per night" (Italian "a Milano e Roma massimo …"): the places lead the limit.
  const lead = LEAD.exec(text)?.[1];
  // "hotel (chambre + breakfast) : Paris and petite couronne 150.00 €": the label's named places (the capitalised ones).
  const named = /^[^:]{0,60}:\s*(\p{Lu}[^:\d]{0,80}?)\s+(?:[$€£¥]|[A-Z]{3}\s?)?\d[\d.,]*\s?(?:[$€£¥]|[A-Z]{3})?\s*\.?$/u.exec(text)?.[1];
  const capitalised = named?.split(/\s*(?:,|\/|\b(?:and|und|et|e|y|en)\b|&)\s*/).filter((p) => /^\p{Lu}/u.test(p)).join(', ');
  const list = tail ?? head ?? lead ?? (capitalised || undefined);
  if (list === undefined || /^(?:USD|EUR|GBP|CAD|AUD|Up|Maximum|Max|Limit|Cap)$/i.test(list)) return undefined;
  const places = list.split(/\s*(?:,|\/|\b(?:and|und|et|e|y|en)\b|&)\s*/).map((p) => p.trim()).filter((p) => p.length >= 2);
  return places.length > 0 ? places : undefined;
}

/** A place's name: capitalised words, with the particles of names between them ("Rio de Janeiro", "Castellón de la Plana"). */
const NAME = "\\p{Lu}[\\p{L}.'-]*(?:\\s+(?:(?:de|da|do|dos|das|del|de la|di|du|la|le|von|am|upon|on)\\s+)?\\p{Lu}[\\p{L}.'-]*)*";
/** "in Milano and Roma up to 170.00 € per night", "in São Paulo, Rio de Janeiro and Brasília, up to BRL 480.00": the places lead. */
const LEAD = new RegExp(`^(?:[^:]{0,60}:\\s*)?(?:in|for)\\s+(${NAME}(?:\\s*(?:,|\\/|\\b(?:and|und|et|e|y|en)\\b|&)\\s*${NAME})*)\\s*,?\\s+(?:(?:up to|maximum|max\\.?|at most|capped at|limit(?:ed to)?|bis|jusqu'à|hasta|até|fino a)\\s+)?(?:[$€£¥]|[A-Z]{3}\\s?)?\\d`, 'u');

/** "USD 250 elsewhere", "elsewhere in the UK £120", "$90 in all other cities": the limit for every other place. */
export const ELSEWHERE = /\belsewhere\b|\botherwise\b|\b(?:all |any )?other (?:cities|locations|places|destinations|countries|towns|areas)\b|\brest of (?:the )?(?=\p{L})|(?<![\p{L}])(?:übrigen?|sonstigen?|alle anderen) (?:orte|städte|länder|reiseziele)(?![\p{L}])/u;

/**
 * After a sentence was read: its caps (`added`) name places, or it is the limit for everywhere else. `last` is the
 * group of the sentence before (its caps and whether they named places), returned updated for the next sentence.
 */
export function groupPlaces(caps: Cap[], added: Cap[], original: string, lower: string, cents: bigint | undefined, last: Cap[]): Cap[] {
  // "EUR 120 elsewhere in the Netherlands": the limit for every other place; the country it names is no place of its own.
  const places = (added.length > 0 || (cents !== undefined && last.length > 0)) && !ELSEWHERE.test(lower) ? placesNamed(original) : undefined;
  if (places && added.length === 0) {
    // "USD 140 per day in Zurich, London" after "Meals: up to USD 110 per calendar day": the same limit, by place.
    const model = last[0];
    const period = /\bper night\b|\bnightly\b/.test(lower) ? 'night' : /\bper (?:calendar )?day\b|\bdaily\b/.test(lower) ? 'day' : model.period;
    const cap: Cap = { category: model.category, cents: cents!, perPerson: model.perPerson, period, text: original };
    caps.push(cap);
    added = [cap];
  }
  if (places) {
    const key = last.length > 0 && last[0].category === added[0].category ? last[0].group ?? original : original;
    for (const c of added) Object.assign(c, { places, group: key });
    // The plain limit of the same category just before it is the limit for everywhere else.
    for (const c of last) if (c.category === added[0].category && c.places === undefined) c.group = key;
    return [...last.filter((c) => c.group === key), ...added];
  }
  if (added.length === 0 && cents !== undefined && ELSEWHERE.test(lower) && last.some((c) => c.places !== undefined)) {
    const model = last.find((c) => c.places !== undefined)!;
    const cap: Cap = { category: model.category, cents, perPerson: model.perPerson, period: model.period, text: original, group: model.group };
    caps.push(cap);
    return [...last, cap];
  }
  if (added.length > 0 && ELSEWHERE.test(lower) && last.some((c) => c.places !== undefined)) {
    for (const c of added) c.group = last[0].group;
    return [...last, ...added];
  }
  return added;
}

const plain = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '');

/** Whether a text names a place: as a whole word, accents aside. */
export function namesPlace(text: string, place: string): boolean {
  // A country is named by its cities and its own currency too (countries.ts).
  const country = inCountry(text, place);
  if (country !== undefined) return country;
  const key = plain(place).replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');
  return key.length >= 2 && new RegExp(`(?<![\\p{L}\\d])${key}(?![\\p{L}\\d])`, 'iu').test(plain(text));
}

/** Of a category's caps grouped by place, those for the item's place: named by its own text, else by the claim's;
 * else the group's limit for everywhere else; a group with no such limit keeps all its caps (the lowest wins). */
export function capsOfPlace(own: Cap[], item: Item, claim: string | undefined): Cap[] {
  const groups = new Set(own.map((c) => c.group).filter((g): g is string => g !== undefined));
  if (groups.size === 0) return own;
  const text = [item.merchant, item.heading, item.text ?? item.evidence, item.label].filter(Boolean).join('\n');
  let out = own.filter((c) => c.group === undefined);
  for (const g of groups) {
    const members = own.filter((c) => c.group === g);
    const named = (t: string) => members.filter((c) => c.places?.some((p) => namesPlace(t, p)));
    const found = named(text).length > 0 ? named(text) : claim !== undefined ? named(claim) : [];
    const rest = members.filter((c) => c.places === undefined);
    out = out.concat(found.length > 0 ? found : rest.length > 0 ? rest : members);
  }
  return out;
}
