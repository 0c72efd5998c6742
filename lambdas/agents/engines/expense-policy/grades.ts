/**
 * Entitlements by grade and city tier, as Indian and other corporate policies print them: the cities of each tier
 * ("Tier-2: Pune, Ahmedabad, Jaipur", "Tier-3: all other locations") and a table whose rows are grades and whose
 * columns are tiers under a heading naming what they limit ("Hotel (room tariff per night)", "Daily Allowance (DA)
 * per day"), the tiers repeated once per heading. A reviewer takes the row of the claimant's grade (the claim's
 * "Grade: M2") and the column of the tier of the city the expense is in: a hotel is held to that nightly cap, a daily
 * allowance to that rate. A grade the table does not place is held to the lowest row, said in the finding.
 */
import { parseCents } from '../text/amount.js';
import type { PlaceCap } from './places.js';
import type { Place } from './per-diem.js';
import { categoriesIn, type Category } from './words.js';

export interface Tier {
  name: string;
  places: string[];
  fallback: boolean;
}

export interface GradeRow {
  /** The row's label as printed ("M2 - M4", "M1 and above"). */
  label: string;
  /** Per category, per tier (lower-cased, "tier-2"), the amount. */
  amounts: { category: Category; tier: string; cents: bigint }[];
  text: string;
  line: number;
}

export interface Grades {
  tiers: Tier[];
  rows: GradeRow[];
  /** 0-based lines read as the tiers and the table. */
  lines: Set<number>;
}

const TIER = /^\s*(?:[-*•]\s*)?((?:tier|class|category|zone)[- ]?(?:\d|[a-c]|i{1,3}))\s*[:=-]\s*(.+?)\.?\s*$/i;
const FALLBACK = /\b(?:all other|other (?:cities|locations|places|towns)|rest of|elsewhere|remaining)\b/i;
const tierKey = (t: string) => t.toLowerCase().replace(/[\s_]+/g, '-');

export function readGrades(text: string): Grades | undefined {
  const lines = text.split(/\r\n|\r|\n/);
  const out: Grades = { tiers: [], rows: [], lines: new Set() };
  lines.forEach((l, k) => {
    const m = TIER.exec(l);
    if (!m || /\d[\d,.]*\s*$/.test(m[2]) && !/[a-z]{3}/i.test(m[2])) return;
    const fallback = FALLBACK.test(m[2]);
    const places = fallback ? [] : m[2].split(/\s*(?:,|;|\/|\band\b)\s*/).map((p) => p.trim()).filter((p) => /\p{L}{2}/u.test(p));
    if (!fallback && places.length === 0) return;
    out.tiers.push({ name: tierKey(m[1]), places, fallback });
    out.lines.add(k);
  });
  if (out.tiers.length < 2) return undefined;
  const names = new Set(out.tiers.map((t) => t.name));
  for (let h = 1; h < lines.length; h++) {
    const head = lines[h].trim().split(/\s{2,}/);
    const tierCols = head.map((c) => tierKey(c)).filter((c) => names.has(c));
    if (tierCols.length < 2 || !/^(?:grade|band|level|cadre|designation|employee grade|grade\/band)s?$/i.test(head[0])) continue;
    // The headings above the tiers: one per run of tiers, in order ("Hotel (…)", "Daily Allowance (DA) per day").
    const groups = lines[h - 1].trim().split(/\s{2,}/).map((g) => categoriesIn(g.toLowerCase())[0]);
    const columns: { category: Category; tier: string }[] = [];
    let group = -1;
    const seen = new Set<string>();
    for (const tier of tierCols) {
      if (group < 0 || seen.has(tier)) {
        group++;
        seen.clear();
      }
      seen.add(tier);
      const category = groups[group];
      if (category === undefined) return undefined;
      columns.push({ category, tier });
    }
    out.lines.add(h - 1);
    out.lines.add(h);
    for (let k = h + 1; k < lines.length; k++) {
      const cells = lines[k].trim().split(/\s{2,}/);
      const figures = cells.slice(1).map((c) => parseCents(c.replace(/,(?=\d{3}\b)/g, '')));
      if (cells.length !== columns.length + 1 || figures.some((f) => f === undefined)) break;
      out.rows.push({ label: cells[0], amounts: columns.map((c, i) => ({ ...c, cents: figures[i]! })), text: lines[k].trim().replace(/\s+/g, ' '), line: k + 1 });
      out.lines.add(k);
    }
    break;
  }
  return out.rows.length > 0 ? out : undefined;
}

/** The grade the claim names ("Grade: M2", "Band E3"). */
function claimGrade(claim: string): string | undefined {
  return /\b(?:grade|band|cadre)\s*[:=]?\s*([A-Z]{1,3}[- ]?\d{1,2})\b/i.exec(claim)?.[1].toUpperCase().replace(/[- ]/g, '');
}

/** Whether a row's label ("M2 - M4", "M1 and above", "E1-E3", "M5") takes the grade. */
function rowTakes(label: string, grade: string): boolean {
  const g = /^([A-Z]+)(\d+)$/.exec(grade);
  if (!g) return false;
  const range = /^([A-Z]+)\s?(\d+)\s*(?:-|–|to)\s*([A-Z]+)?\s?(\d+)$/i.exec(label.trim());
  if (range) return range[1].toUpperCase() === g[1] && Number(range[2]) <= Number(g[2]) && Number(g[2]) <= Number(range[4]);
  const one = /^([A-Z]+)\s?(\d+)\b/i.exec(label.trim());
  return one !== null && one[1].toUpperCase() === g[1] && Number(one[2]) === Number(g[2]);
}

/** The row of the claim's grade, else the lowest row (per amount), and how it was chosen. */
function rowFor(grades: Grades, claim: string): { row: GradeRow; how: string } {
  const grade = claimGrade(claim);
  const row = grade ? grades.rows.find((r) => rowTakes(r.label, grade)) : undefined;
  if (row) return { row, how: `grade ${grade} (row "${row.label}")` };
  const lowest = [...grades.rows].sort((a, b) => {
    const sum = (r: GradeRow) => r.amounts.reduce((s, x) => s + x.cents, 0n);
    return sum(a) < sum(b) ? -1 : sum(a) > sum(b) ? 1 : 0;
  })[0];
  return { row: lowest, how: `the lowest grade row ("${lowest.label}"), the claimant's grade not being ${grade ? `one the table places (${grade})` : 'stated'}` };
}

/** The lodging caps per place for the claimant's grade, as a table of city caps gives them (places.ts). */
export function gradeCaps(grades: Grades | undefined, claim: string): PlaceCap[] {
  if (!grades) return [];
  const { row } = rowFor(grades, claim);
  return grades.tiers.flatMap((t) => row.amounts.filter((a) => a.category === 'lodging' && a.tier === t.name)
    .map((a) => ({ places: t.places, fallback: t.fallback, cents: a.cents, category: 'lodging' as Category, period: 'night' as const, text: row.text, line: row.line })));
}

/** The daily-allowance rate of each place for the claimant's grade, as a per-diem table gives them (per-diem.ts). */
export function gradeRates(grades: Grades | undefined, claim: string): Place[] {
  if (!grades) return [];
  const { row } = rowFor(grades, claim);
  return grades.tiers.flatMap((t) => row.amounts.filter((a) => a.category === 'per diem' && a.tier === t.name).flatMap((a) =>
    (t.fallback ? [''] : t.places).map((p) => ({ place: p === '' ? `${t.name} (all other locations)` : `${p} (${t.name})`, key: p.split(/\s/)[0].toLowerCase(), full: a.cents, fallback: t.fallback, text: row.text, line: row.line }))));
}
