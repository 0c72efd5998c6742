/**
 * A mileage log (a Miles/Km column under a header row in CSV, TSV or aligned text, or dated lines "52 mi") read into
 * one claim: the distance is the legs' sum (confirmed against the log's total row), the units already claimed this
 * year come from the line that says so, and what the employee claimed (a Claimed column's total, or "= $243.60") is
 * kept to compare. The reimbursable amount is distance × the policy's rate, tier by tier; a rate is never an amount.
 */
import { parseCents } from '../text/amount.js';
import type { Rate } from './policy.js';

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
}

const UNIT_HEAD = /^(?:business\s+)?(miles?|mi|km|kms|kilomet(?:er|re)s?|distance)(?:\s*\(.*\))?$/i;
const YTD = /\b(?:already claimed|so far this|before this claim|year[- ]to[- ]date|ytd|claimed (?:earlier|previously)|earlier in the)\b/i;

function cells(line: string): string[] {
  if (line.includes('\t')) return line.split('\t').map((c) => c.trim());
  if (/\s{2,}/.test(line.trim()) && !/,.*,/.test(line)) return line.trim().split(/\s{2,}/);
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if ((ch === ',' || ch === ';') && !quoted) {
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
  const trip: Trip = { unit: 'mile', tenths: 0n, legs: 0, evidence: '', lines: new Set() };
  let ytdLine: string | undefined;
  for (const l of lines) if (YTD.test(l)) ytdLine ??= l;
  if (ytdLine) {
    const nums = ytdLine.match(/(?<![\d/.-])\d{1,3}(?:,\d{3})+(?![\d])|(?<![\d/.:-])\d{3,6}(?![\d/.:-])/g) ?? [];
    const last = nums.filter((n) => !/^(?:19|20)\d\d$/.test(n)).pop();
    if (last) trip.ytd = BigInt(last.replace(/,/g, ''));
  }
  const header = lines.findIndex((l) => cells(l).some((c) => UNIT_HEAD.test(c)));
  if (header >= 0) {
    const head = cells(lines[header]);
    const col = head.findIndex((c) => UNIT_HEAD.test(c));
    const fromEnd = head.length - 1 - col;
    const claimedCol = head.findIndex((c) => /^(?:claimed|amount|reimbursement)\b/i.test(c));
    trip.unit = /^k/i.test(head[col]) ? 'km' : 'mile';
    trip.evidence = lines[header].trim();
    trip.lines.add(header);
    let claimedSum = 0n;
    for (let k = header + 1; k < lines.length; k++) {
      const row = cells(lines[k]);
      if (lines[k].trim() === '' || row.filter((c) => c !== '').length === 0) {
        if (trip.legs > 0) break;
        continue;
      }
      const d = tenthsOf(row[row.length - 1 - fromEnd] ?? '');
      if (d === undefined) break;
      trip.lines.add(k);
      const money = claimedCol >= 0 ? parseCents(row[row.length - 1 - (head.length - 1 - claimedCol)] ?? '') : undefined;
      if (/\btotal\b/i.test(lines[k])) {
        trip.statedTotal = d;
        if (money !== undefined) trip.claimed = money;
        trip.evidence = lines[k].trim().replace(/\s+/g, ' ');
        break;
      }
      trip.tenths += d;
      trip.legs++;
      if (money !== undefined) claimedSum += money;
    }
    if (trip.claimed === undefined && claimedSum > 0n) trip.claimed = claimedSum;
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
        trip.tenths += tenthsOf(m[1]) ?? 0n;
        trip.legs++;
        trip.unit = unit;
        trip.lines.add(k);
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

/** What the policy pays for the trip: tier by tier from the units already claimed this year. */
export function mileageAllowance(trip: Trip, rates: Rate[]): { cents: bigint; tiers: { tenths: bigint; milli: bigint; cents: bigint }[] } | undefined {
  const mine = rates.filter((r) => r.unit === trip.unit).sort((a, b) => Number(a.after - b.after));
  if (mine.length === 0) return undefined;
  let done = (trip.ytd ?? 0n) * 10n;
  let left = trip.tenths;
  let cents = 0n;
  const tiers: { tenths: bigint; milli: bigint; cents: bigint }[] = [];
  mine.forEach((r, i) => {
    if (left <= 0n) return;
    const next = mine[i + 1];
    const ceiling = next ? (r.upTo ?? next.after) * 10n : undefined;
    const room = ceiling === undefined ? left : ceiling > done ? ceiling - done : 0n;
    const here = room < left ? room : left;
    if (here <= 0n) return;
    const c = (here * r.milli + 500n) / 1000n;
    cents += c;
    tiers.push({ tenths: here, milli: r.milli, cents: c });
    left -= here;
    done += here;
  });
  return { cents, tiers };
}

export function units(tenths: bigint): string {
  return tenths % 10n === 0n ? `${tenths / 10n}` : `${tenths / 10n}.${tenths % 10n}`;
}

/** 7250 → "0.725", 4500 → "0.45". */
export function rateText(milli: bigint): string {
  const s = `${milli / 10000n}.${(milli % 10000n).toString().padStart(4, '0')}`;
  return s.replace(/(\.\d\d\d?)0+$/, '$1').replace(/(\.\d\d)0$/, '$1');
}
