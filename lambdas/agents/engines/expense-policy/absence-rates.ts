/**
 * Day subsistence by the length of the absence, as public bodies and European policies print it: a table of bands
 * ("More than 5 hours   £6.00", "More than 10 hours   £13.00", "mehr als 8 Stunden   14,00 €", "10+ hours   £13.00"),
 * one rate payable for one period of absence. A practitioner works out each day's absence from the claim's own line
 * (its departure and return times, "Departed 07:40, returned 18:55", or its stated length, "(11 h 15 min)") and pays
 * the rate of the longest band it exceeds; a band with a condition of its own ("and ongoing after 20:00") only when the
 * return time shows it. A day claimed above its band's rate is paid at the rate (flag); a day whose absence the claim
 * does not state cannot be worked out and is held (flag, nothing paid until a reviewer sees the times); a day on which
 * the claim says a meal was provided is not payable where the policy says so.
 */
import type { ItemResult } from './claim.js';
import type { Src } from './evidence.js';
import { parseCents } from '../text/amount.js';
import { policySource, type Policy } from './policy-types.js';

export interface Band {
  hours: number;
  /** "More than 5 hours": the absence must exceed it; "5 hours or more", "at least 5": it may equal it. */
  inclusive: boolean;
  cents: bigint;
  /** A condition the row adds in brackets ("and ongoing after 20:00"): the hour the return must be at or after. */
  after?: number;
  condition?: string;
  text: string;
  line: number;
}

export interface AbsenceRates {
  bands: Band[];
  /** "Day subsistence is not payable where a meal is provided free of charge": the sentence. */
  mealRule?: string;
  /** The sentences read with the table ("Only one rate is payable for any one period of absence"). */
  texts: string[];
}

const UNIT = String.raw`(?:hours?|hrs?\.?|h|stunden|std\.?|heures|horas|ore|godzin(?:y)?|uur|時間)`;
const ROW = new RegExp(String.raw`^\s*(?:[-*•|]\s*)?(more than|over|exceeding|above|at least|mehr als|über|plus de|más de|mais de|oltre|powyżej|meer dan)?\s*(\d{1,2})\s*(\+)?\s*${UNIT}(?:\s+(or more|and over|oder mehr|ou plus|o más|ou mais))?\b([^|£€$\d]*(?:\d{1,2}[:.]\d{2}[^|£€$\d]*)?)[\s|.]{2,}(?:£|€|\$|eur|gbp|usd)?\s?(\d{1,4}[.,]\d{2})\s*(?:£|€|eur|gbp)?\s*\|?\s*$`, 'iu');

/** The bands of a table of rates by hours of absence, two rows or more; the lines read are marked. */
export function readAbsenceRates(text: string, read: Set<number>): AbsenceRates | undefined {
  const lines = text.split(/\r\n|\r|\n/);
  const bands: Band[] = [];
  lines.forEach((l, k) => {
    const m = ROW.exec(l);
    if (!m || (!m[1] && !m[3] && !m[4])) return;
    const condition = m[5].replace(/[()]/g, ' ').trim();
    const after = /\b(?:after|ongoing after|nach|après|después de|após|dopo)\s+(\d{1,2})[:.](\d{2})/i.exec(condition);
    bands.push({
      hours: Number(m[2]), inclusive: !!(m[3] || m[4] || /at least/i.test(m[1] ?? '')), cents: parseCents(m[6].replace(',', '.'))!,
      ...(after ? { after: Number(after[1]) * 60 + Number(after[2]) } : {}), ...(condition ? { condition } : {}), text: l.trim(), line: k + 1,
    });
  });
  if (bands.length < 2) return undefined;
  for (const b of bands) read.add(b.line - 1);
  return { bands: bands.sort((a, b) => a.hours - b.hours), texts: [] };
}

/** Sentences about the bands: one rate a period, none where a meal is provided, the absence after an overnight. */
export function readAbsenceSentence(s: string, original: string, rates: AbsenceRates | undefined): number {
  if (!rates) return 0;
  if (/\bonly one rate\b|\bone rate (?:is )?payable\b/.test(s) || /\bfurther period of absence\b|\bbeyond (?:those|the) 24 hours\b|\bcovers the 24 hours\b/.test(s)) {
    rates.texts.push(original);
    return 1;
  }
  if (/\bnot payable\b/.test(s) && /\bmeals?\b.*\bprovided\b/.test(s)) {
    rates.mealRule = original;
    return 1;
  }
  return 0;
}

/** Minutes of absence a claim line states: from its departure and return times, else its stated length. */
export function absenceOf(line: string): { minutes: number; back?: number; how: string } | undefined {
  // Amounts ("£13.00", "14,00 €") and dates are no times of day.
  const text = line.replace(/(?:[£€$]|\b(?:gbp|eur|usd|chf)\b)\s?\d+[.,]\d{2}|\d+[.,]\d{2}\s?(?:[£€$]|\b(?:gbp|eur|usd|chf)\b)|\b\d{1,2}[./]\d{1,2}[./]\d{2,4}\b/gi, ' ');
  const times = [...text.matchAll(/(?<![\d:.])([01]?\d|2[0-3])[:.h]([0-5]\d)(?![\d:])/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  const stated = /(\d{1,2})\s*h(?:ours?|rs?)?\s*(?:(\d{1,2})\s*(?:min|m)\b)?|(\d{1,2}(?:[.,]\d{1,2})?)\s*(?:hours|hrs)\b/i.exec(text.replace(/([01]?\d|2[0-3])[:.h][0-5]\d/g, ' '));
  const statedMin = stated ? (stated[1] !== undefined ? Number(stated[1]) * 60 + Number(stated[2] ?? 0) : Math.round(Number(stated[3].replace(',', '.')) * 60)) : undefined;
  if (times.length >= 2) {
    const [from, to] = [times[0], times[1]];
    const span = to >= from ? to - from : to + 1440 - from;
    // Two readings that disagree: the shorter is what the evidence shows for certain.
    const minutes = statedMin !== undefined ? Math.min(span, statedMin) : span;
    return { minutes, back: to, how: `${hm(from)} to ${hm(to)}${statedMin !== undefined && statedMin !== span ? ` (stated ${hm(statedMin, true)})` : ''}` };
  }
  return statedMin !== undefined ? { minutes: statedMin, how: `stated as ${hm(statedMin, true)}` } : undefined;
}

const hm = (min: number, length = false) => length ? `${Math.floor(min / 60)} h ${min % 60} min` : `${String(Math.floor(min / 60)).padStart(2, '0')}:${String(min % 60).padStart(2, '0')}`;

/** A day-subsistence line: a per-diem item that is not an overnight allowance. */
const NIGHT = /\bovernight\b|\bnight\b|\bübernachtung|\bnuit\b|\bnoche\b|\bnoite\b|\bnotte\b|\bnocleg/i;
const PROVIDED = /\bmeals?\b[^.;\n]{0,30}\b(?:provided|supplied|included)\b|\b(?:lunch|dinner|breakfast)\s+(?:was\s+)?provided\b/i;
const NOT_PROVIDED = /\bno meals?\b[^.;\n]{0,20}\bprovided\b|\bmeals? not provided\b|\bwithout meals?\b/i;

export function absenceCheck(results: ItemResult[], policy: Policy, m: (cents: bigint) => string): void {
  const rates = policy.absenceRates;
  if (!rates) return;
  for (const r of results) {
    if (!r.open || r.item.category !== 'per diem') continue;
    const text = r.item.text ?? r.item.evidence ?? r.item.label;
    if (NIGHT.test(text)) {
      // "After overnight period: 07:15 - 17:30": the absence beyond an overnight's 24 hours is a day of its own.
      if (!/\bafter (?:the )?overnight\b/i.test(text)) continue;
    }
    const rules = [...rates.texts];
    const sources: Src[] = [...r.item.at, ...rates.bands.map((b) => policySource(policy, b.text)), ...rules.map((t) => policySource(policy, t))];
    const hold = (why: string, kind: string) => {
      r.findings.push({ severity: 'flag', kind, sources, text: `${why}: ${m(r.allowed)} withheld until a reviewer works it out` });
      r.allowed = 0n;
      r.open = false;
    };
    if (rates.mealRule && PROVIDED.test(text) && !NOT_PROVIDED.test(text)) {
      r.findings.push({ severity: 'flag', kind: 'allowance not payable', sources: [...sources, policySource(policy, rates.mealRule)],
        text: `day subsistence is not payable where a meal is provided ("${rates.mealRule}"); the claim says a meal was provided: ${m(r.allowed)} not reimbursed` });
      r.allowed = 0n;
      r.open = false;
      continue;
    }
    const away = absenceOf(text);
    if (!away) {
      hold('the day subsistence rate depends on the hours of absence, which the claim does not state', 'allowance not worked out');
      continue;
    }
    const band = [...rates.bands].reverse().find((b) => (b.inclusive ? away.minutes >= b.hours * 60 : away.minutes > b.hours * 60) &&
      (b.after === undefined || (away.back !== undefined && away.back >= b.after)) && (b.condition === undefined || b.after !== undefined));
    const rate = band?.cents ?? 0n;
    if (r.allowed <= rate) continue;
    const over = r.allowed - rate;
    r.findings.push({
      severity: 'flag', kind: 'allowance over rate', sources,
      text: `day subsistence for an absence of ${hm(away.minutes, true)} (${away.how}) is ${band ? `${m(rate)} ("${band.text.replace(/\s{2,}/g, ' ')}")` : `not payable (no band of "${rates.bands[0].text.replace(/\s{2,}/g, ' ')}" reached)`}; claimed ${m(r.allowed)}, ${m(over)} not reimbursed`,
      arithmetic: `${m(r.allowed)} − ${m(rate)} = ${m(over)}`,
    });
    r.allowed = rate;
  }
}
