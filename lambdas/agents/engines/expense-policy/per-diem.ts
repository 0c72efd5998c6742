/**
 * Per-diem schedules a policy prints as tables (the GSA/FTR form): the M&IE rate per location ("San Antonio, TX
 * (Bexar County)   $151   $74" under "Location   Max lodging   M&IE"), and the breakdown of each M&IE total into its
 * meals ("$74 | $18 | $20 | $31 | $5" under "M&IE total | Breakfast | Lunch | Dinner | Incidentals"). A reviewer holds
 * each day's per diem to the rate of the place the claim names, less the meals furnished that day where the policy
 * says to deduct them.
 */
import { parseCents } from '../text/amount.js';

export interface Place {
  /** The place as the row names it, and the words an expense must name to be there ("san antonio"). */
  place: string;
  key: string;
  full: bigint;
  /** "all other locations": the rate where no listed place is named. */
  fallback: boolean;
  text: string;
  line: number;
}

export interface Meals {
  full: bigint;
  meals: Map<string, bigint>;
  text: string;
  line: number;
}

/** A lodging rate printed beside a place's M&IE ("Max lodging", "Lodging (per night, before taxes)"): its nightly cap. */
export interface LodgingRate {
  place: string;
  fallback: boolean;
  cents: bigint;
  text: string;
  line: number;
}

export interface Schedules {
  places: Place[];
  lodging?: LodgingRate[];
  meals: Meals[];
  /** 0-based lines of the policy the tables were read from. */
  lines: Set<number>;
}

const PER_DIEM_HEAD = /^(?:m&ie|m\s?&\s?ie total|per diem|meals? (?:&|and) incidentals?(?: expenses)?|daily (?:meal )?allowance)(?: total| rate)?$/i;
const MEAL = /^(breakfast|lunch|dinner)$/i;
const money = (cell: string) => (/^[$€£]?\s?\d[\d,]*(?:\.\d{2})?$/.test(cell.trim()) ? parseCents(cell.trim()) : undefined);

/** A line's cells: split on "|" when it has them, else on runs of two or more spaces. */
function cellsOf(line: string): string[] {
  const t = line.trim();
  if (t.includes('|')) return t.replace(/^\||\|$/g, '').split('|').map((c) => c.trim());
  return t.split(/\s{2,}/);
}

export function readSchedules(text: string): Schedules {
  const out: Schedules = { places: [], meals: [], lines: new Set() };
  const lines = text.split(/\r\n|\r|\n/);
  for (let h = 0; h < lines.length; h++) {
    const head = cellsOf(lines[h]);
    if (head.length < 3) continue;
    const rate = head.findIndex((c) => PER_DIEM_HEAD.test(c));
    if (rate < 0) continue;
    const meals = head.map((c, k) => (MEAL.test(c) ? k : -1)).filter((k) => k >= 0);
    const lodging = head.findIndex((c) => /^(?:max(?:imum)? )?(?:lodging|hotel|accommodation)\b/i.test(c));
    for (let k = h + 1; k < lines.length; k++) {
      if (/^[\s|+=-]*$/.test(lines[k]) && /[-=]{3,}/.test(lines[k])) {
        out.lines.add(k);
        continue;
      }
      const row = cellsOf(lines[k]);
      if (row.length !== head.length) break;
      const full = money(row[rate]);
      if (full === undefined) break;
      const quote = lines[k].trim().replace(/\s+/g, ' ');
      out.lines.add(h);
      out.lines.add(k);
      if (rate === 0 && meals.length > 0) {
        const amounts = new Map(meals.flatMap((m) => (money(row[m]) === undefined ? [] : [[head[m].toLowerCase(), money(row[m])!] as [string, bigint]])));
        out.meals.push({ full, meals: amounts, text: quote, line: k + 1 });
      } else if (rate > 0 && /\p{L}{3,}/u.test(row[0])) {
        const fallback = /\b(?:all other|other locations|elsewhere|standard)\b/i.test(row[0]);
        const key = row[0].split(/[,(]/)[0].trim().toLowerCase();
        out.places.push({ place: row[0], key, full, fallback, text: quote, line: k + 1 });
        // "Nashville, TN  $251  $86  $22  $23  $36  $5": the place's M&IE broken into its meals on the same row.
        if (meals.length > 0) {
          const amounts = new Map(meals.flatMap((m) => (money(row[m]) === undefined ? [] : [[head[m].toLowerCase(), money(row[m])!] as [string, bigint]])));
          if (amounts.size > 0) out.meals.push({ full, meals: amounts, text: quote, line: k + 1 });
        }
        const room = lodging >= 0 ? money(row[lodging]) : undefined;
        if (room !== undefined) (out.lodging ??= []).push({ place: row[0], fallback, cents: room, text: quote, line: k + 1 });
      }
    }
  }
  return out;
}

/**
 * The per-diem rate of the place an expense names (its own text first, then the claim's): the listed place named,
 * else the "all other locations" row, else (no place known) the lowest listed rate, the conservative reading.
 */
export function placeRate(places: Place[], own: string, claim: string): { place: Place; how: string } | undefined {
  if (places.length === 0) return undefined;
  const named = (t: string) => places.filter((p) => !p.fallback && p.key.length >= 3 && t.toLowerCase().includes(p.key));
  const found = named(own).length > 0 ? named(own) : named(claim);
  if (found.length === 1) return { place: found[0], how: `the rate for ${found[0].place}` };
  const fallback = places.find((p) => p.fallback);
  if (found.length === 0 && fallback) return { place: fallback, how: `the rate for ${fallback.place}, no listed place being named` };
  const lowest = [...(found.length > 0 ? found : places)].sort((a, b) => (a.full < b.full ? -1 : 1))[0];
  return { place: lowest, how: `the lowest rate of the places listed (${lowest.place}), the place not being told apart` };
}

/** The meal a per-diem line says was furnished that day ("lunch provided at TRR", "dinner furnished by the host"). */
export function furnishedMeal(text: string): string | undefined {
  const t = text.toLowerCase();
  const m = /\b(breakfast|lunch|dinner)\b[^.;\n]{0,25}\b(?:provided|furnished|hosted)\b|\b(?:provided|furnished|hosted)\s+(?:\w+\s+){0,2}(breakfast|lunch|dinner)\b/.exec(t);
  return m ? (m[1] ?? m[2]) : undefined;
}
