/**
 * A mileage log (a Miles/Km column under a header row in CSV, TSV or aligned text, or dated lines "52 mi") read into
 * one claim: the distance is the legs' sum (confirmed against the log's total row), the units already claimed this
 * year come from the line that says so, and what the employee claimed (a Claimed column's total, or "= $243.60") is
 * kept to compare. The reimbursable amount is distance × the policy's rate, tier by tier; a rate is never an amount.
 */
import { parseCents } from '../text/amount.js';
import type { ItemResult } from './claim.js';
import { policySource, type Policy, type Rate } from './policy.js';

export interface Trip {
  unit: 'mile' | 'km';
  /** Tenths of a unit. */
  tenths: bigint;
  legs: number;
  statedTotal?: bigint;
  ytd?: bigint;
  claimed?: bigint;
  claimedRate?: string;
  evidence: string;
  lines: Set<number>;
  /** Legs written twice, word for word (same date, journey and distance): the later line, claimed once already. */
  repeats: { line: number; tenths: bigint; text: string; first: number; firstText: string }[];
  /** Rows of a delimited export that are not legs (no distance): other expenses beside the log. */
  others: number[];
  /** The normal commute the log deducts itself (a "Commute Deduction (mi)" column), in tenths: already taken out. */
  commute?: bigint;
  /** Legs that start or end at home ("Home (Plano TX)" in a Start column), for a policy deducting the commute. */
  homeLegs?: number;
}

const UNIT_HEAD = /^(?:business\s+)?(miles?|mi|km|kms|kilomet(?:er|re)s?|distance)(?:\s*\(.*\))?$/i;
const YTD = /\b(?:already claimed|so far this|before this claim|year[- ]to[- ]date|ytd|claimed (?:earlier|previously)|earlier in the)\b/i;

/** A line's cells: tab-, semicolon- or comma-separated (one separator for the whole log, `sep`), or aligned by spaces. */
function cells(line: string, sep?: string): string[] {
  if (line.includes('\t')) return line.split('\t').map((c) => c.trim());
  if (/\s{2,}/.test(line.trim()) && !/,.*,|;.*;/.test(line)) return line.trim().split(/\s{2,}/);
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if ((sep === undefined ? ch === ',' || ch === ';' : ch === sep) && !quoted) {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  out.push(cur.trim());
  return out;
}

const tenthsOf = (s: string): bigint | undefined => {
  const m = /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d))?$/.exec(s.trim());
  return m ? BigInt(m[1].replace(/,/g, '')) * 10n + BigInt(m[2] ?? '0') : undefined;
};

export function readMileage(text: string): Trip | undefined {
  const lines = text.split(/\r?\n/);
  const trip: Trip = { unit: 'mile', tenths: 0n, legs: 0, evidence: '', lines: new Set(), repeats: [], others: [] };
  let ytdLine: string | undefined;
  for (const l of lines) if (YTD.test(l)) ytdLine ??= l;
  if (ytdLine) {
    const nums = ytdLine.match(/(?<![\d/.-])\d{1,3}(?:,\d{3})+(?![\d])|(?<![\d/.:-])\d{3,6}(?![\d/.:-])/g) ?? [];
    const last = nums.filter((n) => !/^(?:19|20)\d\d$/.test(n)).pop();
    if (last) trip.ytd = BigInt(last.replace(/,/g, ''));
  }
  const header = lines.findIndex((l) => cells(l).some((c) => UNIT_HEAD.test(c)));
  if (header >= 0) {
    // A semicolon export writes decimal commas: its cells are split on the semicolons only.
    const sep = /;/.test(lines[header]) && !/\t/.test(lines[header]) ? ';' : undefined;
    const head = cells(lines[header], sep);
    const col = head.findIndex((c) => UNIT_HEAD.test(c));
    const fromEnd = head.length - 1 - col;
    const claimedCol = head.findIndex((c) => /^(?:claimed|amount|reimbursement)\b/i.test(c) && !/\b(?:id|no|number|type|date|status)\b/i.test(c));
    // "Commute Deduction (mi)": the normal commute the employee took out of the row's distance.
    const commuteCol = head.findIndex((c, k) => k !== col && /\bcommut/i.test(c));
    // "Start", "From", "Origin": where the leg began.
    const fromCol = head.findIndex((c) => /^(?:start|from|origin|start point|starting point|von)\b/i.test(c));
    // An export's "Distance Unit" column says per row what a bare "Distance" column is counted in.
    const unitCol = head.findIndex((c) => /^(?:distance\s+|mileage\s+)?units?(?:\s+of\s+measure)?$|^uom$/i.test(c));
    trip.unit = /^k|\((?:in )?(?:km|kms|kilomet)/i.test(head[col]) ? 'km' : 'mile';
    // An export row with no distance (a car park beside the trips) is another expense, not a leg of the log.
    const delimited = /[;\t]|,.*,/.test(lines[header]) && !/\s{2,}/.test(lines[header].trim());
    trip.evidence = lines[header].trim();
    trip.lines.add(header);
    let claimedSum = 0n;
    for (let k = header + 1; k < lines.length; k++) {
      // A rule drawn under the legs ("-----   -------") sits between them and their total row.
      if (/^[\s=_-]+$/.test(lines[k]) && /[=_-]{3,}/.test(lines[k]) && trip.legs > 0) {
        trip.lines.add(k);
        continue;
      }
      const row = cells(lines[k], sep);
      if (lines[k].trim() === '' || row.filter((c) => c !== '').length === 0) {
        if (trip.legs > 0) break;
        continue;
      }
      const cell = delimited ? row[col] : row[row.length - 1 - fromEnd];
      const d = tenthsOf(cell ?? '');
      if (d === undefined && delimited && (cell ?? '').trim() === '' && row.length === head.length) {
        trip.others.push(k);
        continue;
      }
      if (d === undefined) break;
      trip.lines.add(k);
      const money = claimedCol >= 0 ? parseCents((delimited ? row[claimedCol] : row[row.length - 1 - (head.length - 1 - claimedCol)]) ?? '') : undefined;
      if (/\btotal\b/i.test(lines[k])) {
        trip.statedTotal = d;
        if (money !== undefined) trip.claimed = money;
        trip.evidence = lines[k].trim().replace(/\s+/g, ' ');
        break;
      }
      if (unitCol >= 0 && trip.legs === 0) {
        const u = (delimited ? row[unitCol] : row[row.length - 1 - (head.length - 1 - unitCol)]) ?? '';
        if (/^k(?:m|ms|ilomet)/i.test(u)) trip.unit = 'km';
      }
      const cellAt = (c: number) => (delimited ? row[c] : row[row.length - 1 - (head.length - 1 - c)]) ?? '';
      const less = commuteCol >= 0 ? tenthsOf(cellAt(commuteCol)) : undefined;
      if (less !== undefined) trip.commute = (trip.commute ?? 0n) + less;
      if (fromCol >= 0 && /^(?:home|wohnung|zuhause|domicile|hjemme|hemma)\b/i.test(cellAt(fromCol))) trip.homeLegs = (trip.homeLegs ?? 0) + 1;
      leg(trip, lines, k, less !== undefined && less <= d ? d - less : d);
      if (money !== undefined) claimedSum += money;
    }
    claimLine(trip, lines);
    if (trip.claimed === undefined && claimedSum > 0n) trip.claimed = claimedSum;
    // With no total row, the first leg is the line to quote rather than the header.
    const firstLeg = [...trip.lines].find((k) => k > header);
    if (trip.statedTotal === undefined && firstLeg !== undefined) trip.evidence = lines[firstLeg].trim().replace(/\s+/g, ' ');
  } else {
    lines.forEach((l, k) => {
      const m = /(?:^|\s)(\d{1,3}(?:,\d{3})+|\d+(?:\.\d)?)\s*(mi|miles?|km|kms|kilomet(?:er|re)s?)\b/i.exec(l);
      if (!m) return;
      const unit = /^k/i.test(m[2]) ? 'km' : 'mile';
      if (/\btotal\b/i.test(l)) {
        trip.statedTotal = tenthsOf(m[1]);
        const claimed = /=\s*((?:US)?[$€£]\s?[\d,]+\.\d{2})/.exec(l)?.[1];
        if (claimed) trip.claimed = parseCents(claimed.replace(/^US/, ''));
        trip.claimedRate = /(?:x|×|@|at)\s*((?:[$€£]\s?)?\d+(?:\.\d+)?\s?p?)(?:\s*(?:per|\/)\s*(?:mile|mi|km))?/i.exec(l)?.[1];
        trip.evidence = l.trim().replace(/\s+/g, ' ');
        trip.lines.add(k);
      } else if (/^\s*(?:\d{1,4}[/.-]\d{1,2}|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{1,2}|\d{1,2} (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec))/i.test(l)) {
        leg(trip, lines, k, tenthsOf(m[1]) ?? 0n);
        trip.unit = unit;
      }
    });
  }
  if (trip.legs === 0) return undefined;
  if (trip.claimedRate === undefined) {
    const rateLine = lines.find((l) => /\brate used\b|\bat\s+\S+\s*(?:per|\/)\s*(?:mile|km)\b/i.test(l));
    trip.claimedRate = rateLine ? /((?:[$€£]\s?)?\d+(?:\.\d+)?\s?p?)\s*(?:\/|per)\s*(?:mile|mi|km)/i.exec(rateLine)?.[1] : undefined;
  }
  return trip;
}

/** One leg of the log; a leg whose line repeats an earlier one word for word is noted as a repeat. */
function leg(trip: Trip, lines: string[], k: number, tenths: bigint): void {
  const key = (j: number) => lines[j].trim().replace(/\s+/g, ' ').toLowerCase();
  const first = [...trip.lines].find((j) => j !== k && key(j) === key(k));
  const text = (j: number) => lines[j].trim().replace(/\s+/g, ' ');
  if (first !== undefined) trip.repeats.push({ line: k, tenths, text: text(k), first, firstText: text(first) });
  trip.tenths += tenths;
  trip.legs++;
  trip.lines.add(k);
}

/**
 * The line under a log's total that prices it ("346 miles @ 45p   £155.70"): its amount is what was claimed for the
 * log, and its rate the rate used. It restates the log's distance, so it is the log's, not another expense.
 */
function claimLine(trip: Trip, lines: string[]): void {
  if (trip.statedTotal === undefined || trip.claimed !== undefined) return;
  const last = Math.max(...trip.lines);
  for (let k = last + 1, seen = 0; k < lines.length && seen < 2; k++) {
    const l = lines[k];
    if (l.trim() === '') continue;
    seen++;
    const m = /^\s*(\d{1,3}(?:,\d{3})+|\d+(?:\.\d)?)\s*(?:mi|miles?|km|kms|kilomet(?:er|re)s?)\b.*?((?:US)?[$€£]\s?[\d,]+\.\d{2}|[\d,]+[.,]\d{2}\s?(?:€|eur|gbp|usd))\s*$/i.exec(l);
    if (!m || tenthsOf(m[1]) !== trip.statedTotal) continue;
    trip.claimed = parseCents(m[2].replace(/^US/, ''));
    trip.claimedRate = /(?:x|×|@|at)\s*((?:[$€£]\s?)?\d+(?:[.,]\d+)?\s?p?)(?![\d.,])/i.exec(l)?.[1];
    trip.lines.add(k);
    return;
  }
}

export interface Allowance {
  cents: bigint;
  /** Each tier's distance × rate, written out ("303.229 miles × 0.70"), and what it pays. */
  tiers: { text: string; cents: bigint }[];
  /** When the log's unit is not the rate's: the distance converted ("488 kms = 303.229 miles"). */
  conversion?: string;
}

/** 1.609344 km to the mile, in millionths. */
const KM_PER_MILE = 1_609_344n;
const MICRO = 1_000_000n;

/**
 * What the policy pays for the trip: tier by tier from the units already claimed this year. A log in km under a
 * rate per mile (or the reverse) is converted first (1 mile = 1.609344 km): a rate per mile is never paid per km.
 * Distances are worked in millionths of the rate's unit so the conversion stays exact to the cent.
 */
export function mileageAllowance(trip: Trip, rates: Rate[]): Allowance | undefined {
  let unit = trip.unit;
  const car = rates.filter((r) => r.vehicle === undefined);
  let mine = car.filter((r) => r.unit === unit);
  let micro = (tenths: bigint) => tenths * (MICRO / 10n);
  let conversion: string | undefined;
  if (mine.length === 0) {
    unit = trip.unit === 'km' ? 'mile' : 'km';
    mine = car.filter((r) => r.unit === unit);
    if (mine.length === 0) return undefined;
    micro = trip.unit === 'km' ? (t) => (t * (MICRO / 10n) * MICRO) / KM_PER_MILE : (t) => (t * (MICRO / 10n) * KM_PER_MILE) / MICRO;
    conversion = `${units(trip.tenths)} ${trip.unit}s = ${microText(micro(trip.tenths))} ${unit}s (1 mile = 1.609344 km)`;
  }
  mine.sort((a, b) => Number(a.after - b.after));
  let done = micro((trip.ytd ?? 0n) * 10n);
  let left = micro(trip.tenths);
  let cents = 0n;
  const tiers: Allowance['tiers'] = [];
  mine.forEach((r, i) => {
    if (left <= 0n) return;
    const next = mine[i + 1];
    const ceiling = next ? (r.upTo ?? next.after) * MICRO : undefined;
    const room = ceiling === undefined ? left : ceiling > done ? ceiling - done : 0n;
    const here = room < left ? room : left;
    if (here <= 0n) return;
    const c = (here * r.milli + 50_000_000n) / 100_000_000n;
    cents += c;
    tiers.push({ text: `${microText(here)} ${unit}s × ${rateText(r.milli)}`, cents: c });
    left -= here;
    done += here;
  });
  return { cents, tiers, conversion };
}

/** Millionths of a unit → "303.229" (to the thousandth), "488". */
function microText(micro: bigint): string {
  const th = (micro + 500n) / 1000n;
  const frac = (th % 1000n).toString().padStart(3, '0').replace(/0+$/, '');
  return frac ? `${th / 1000n}.${frac}` : `${th / 1000n}`;
}

export function units(tenths: bigint): string {
  return tenths % 10n === 0n ? `${tenths / 10n}` : `${tenths / 10n}.${tenths % 10n}`;
}

/** 7250 → "0.725", 4500 → "0.45". */
export function rateText(milli: bigint): string {
  const s = `${milli / 10000n}.${(milli % 10000n).toString().padStart(4, '0')}`;
  return s.replace(/(\.\d\d\d?)0+$/, '$1').replace(/(\.\d\d)0$/, '$1');
}

/**
 * A report's mileage entry stating its distance on its detail lines ("Business Distance: 178 km (89 km each way)"):
 * one trip of that distance (the first one written: the total before its working; after a working of legs times a
 * distance, "2 x 98 km = 196 km", its result), claimed at the entry's amount.
 */
export function statedTrip(text: string, claimed: bigint): Trip | undefined {
  const lower = text.toLowerCase();
  const labelled = /\b(?:distance|mileage|miles driven|km driven|kilomet(?:er|re)s driven)\b[^\n\d]{0,25}(\d{1,3}(?:,\d{3})*|\d+)(?:\.(\d))?\d*\s*(km|kms|kilomet(?:er|re)s?|mi|miles?)\b/.exec(lower);
  // "2 x 98 km = 196 km": the legs times the distance, worked out; the distance is its result.
  const worked = /(?:^|[\s(:])\d{1,2}\s*[x×*]\s*\d+(?:\.\d)?\s*(?:km|kms|mi|miles?)\s*=\s*(\d{1,3}(?:,\d{3})*|\d+)(?:\.(\d))?\d*\s*(km|kms|kilomet(?:er|re)s?|mi|miles?)\b/.exec(lower);
  const bare = worked ?? labelled ?? /(?:^|[\s(])(\d{1,3}(?:,\d{3})*|\d+)(?:\.(\d))?\d*\s*(km|kms|kilomet(?:er|re)s?|miles?)\b/.exec(lower);
  if (!bare) return undefined;
  const tenths = BigInt(bare[1].replace(/,/g, '')) * 10n + BigInt(bare[2] ?? '0');
  if (tenths === 0n) return undefined;
  const unit = /^k/.test(bare[3]) ? 'km' : 'mile';
  const rate = /\brate\b[^\n\d]{0,10}((?:[$€£]\s?)?\d+\.\d{2,3}(?:\s*(?:usd|eur|gbp|cad))?)/.exec(lower)?.[1];
  return { unit, tenths, legs: 1, claimed, claimedRate: rate, evidence: bare[0].trim(), lines: new Set(), repeats: [], others: [] };
}

/**
 * Under a policy that pays a log less the normal commute, legs that start at home with no commute taken out cannot be
 * worked out from the log: the log is held (flag, nothing paid now) until the commute is deducted.
 */
export function commuteCheck(results: ItemResult[], policy: Policy, m: (cents: bigint) => string): void {
  if (!policy.commute) return;
  for (const r of results) {
    const trip = r.item.mileage?.trip;
    if (!trip || !trip.homeLegs || trip.commute !== undefined || !r.open) continue;
    r.findings.push({
      severity: 'flag', kind: 'commute not deducted', sources: [...r.item.at, policySource(policy, policy.commute)],
      text: `${trip.homeLegs} leg(s) of the log start at home and no commute is deducted ("${policy.commute}"); the normal commute is not known, so ${m(r.allowed)} is held until it is deducted`,
    });
    r.allowed = 0n;
    r.open = false;
  }
}
