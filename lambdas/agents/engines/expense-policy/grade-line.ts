/**
 * A daily allowance by grade printed on one line under its lead, as Japanese 旅費規程 print it ("日当は、1日につき次のと
 * おりとする。" over "役員 4,000円 ／ 部長・課長 3,000円 ／ 一般社員 2,000円"), or "Directors €60 / Managers €50 / Staff €40"
 * under "Daily allowance per day:". A practitioner takes the rate of the grade the claim names (its 役職 / grade
 * column or line) and pays the days claimed at it; a claim naming no grade of the line, or several, cannot be placed and
 * is held to the lowest rate, said in the finding. A day trip ("日帰り", "day trip") is paid at half where the policy says
 * so ("前項の額の半額").
 */
import type { ItemResult } from './claim.js';
import { parseCents } from '../text/amount.js';
import { policySource, type Policy } from './policy-types.js';

export interface GradeRate {
  labels: string[];
  cents: bigint;
}

export interface GradeLine {
  rates: GradeRate[];
  text: string;
  line: number;
  /** "日帰り出張の日当は、前項の額の半額とする": the sentence halving the rate on a day trip. */
  halfDayTrip?: string;
}

const PART = /^\s*([^\d/／|]{1,24}?)\s*(?:[¥￥$€£]\s?)?(\d{1,3}(?:[,.]\d{3})*|\d+)(?:[.,](\d{2}))?\s*(?:円|JPY|EUR|USD|GBP|€|£)?\s*$/u;

/** The grade line under a lead naming the daily allowance (checked by `isLead` on the lead's English reading). */
export function readGradeLine(text: string, isLead: (s: string) => boolean, read: Set<number>): GradeLine | undefined {
  const lines = text.split(/\r\n|\r|\n/);
  for (let k = 1; k < lines.length; k++) {
    const parts = lines[k].split(/\s[/／|]\s|[／]/);
    if (parts.length < 2) continue;
    const rates = parts.map((p) => PART.exec(p)).filter((m): m is RegExpExecArray => m !== null && /\p{L}/u.test(m[1]))
      .map((m) => ({ labels: m[1].trim().split(/[・,、]/).map((l) => l.trim()).filter((l) => l !== ''), cents: parseCents(`${m[2].replace(/[,.]/g, '')}.${m[3] ?? '00'}`)! }));
    if (rates.length !== parts.length) continue;
    const lead = lines.slice(Math.max(0, k - 2), k).join(' ');
    if (!isLead(lead)) continue;
    read.add(k);
    const half = lines.slice(k + 1, k + 4).find((l) => /日帰り.*半額|day trips?.*\bhalf\b/i.test(l));
    return { rates, text: lines[k].trim(), line: k + 1, ...(half ? { halfDayTrip: half.replace(/^\s*\d+[.)]\s*/, '').trim() } : {}) };
  }
  return undefined;
}

/** Days an allowance line claims: "2日分", "× 2", "2 days", else one. */
function daysOf(text: string): bigint | undefined {
  const m = /(\d{1,2})\s*日分|[×x]\s?(\d{1,2})\s*\)?\s*$|(\d{1,2})\s*days?\b/iu.exec(text.replace(/(\d),(\d{3})/g, '$1$2'));
  const n = m ? Number(m[1] ?? m[2] ?? m[3]) : undefined;
  return n !== undefined && n > 0 ? BigInt(n) : undefined;
}

export function gradeLineCheck(results: ItemResult[], policy: Policy, claimText: string, m: (cents: bigint) => string): void {
  const g = policy.gradeLine;
  if (!g) return;
  const named = g.rates.filter((r) => r.labels.some((l) => l.length >= 2 && claimText.includes(l)));
  const lowest = g.rates.reduce((a, b) => (b.cents < a.cents ? b : a));
  const rate = named.length === 1 ? named[0] : lowest;
  const how = named.length === 1 ? `the ${rate.labels.join('/')} rate the claim's grade takes` : `the lowest rate (${rate.labels.join('/')}), the claim naming ${named.length === 0 ? 'no grade of the policy' : 'several grades'}`;
  for (const r of results) {
    if (!r.open || r.item.category !== 'per diem') continue;
    const text = r.item.text ?? r.item.evidence ?? r.item.label;
    const days = daysOf(text) ?? 1n;
    const dayTrip = g.halfDayTrip !== undefined && /日帰り|day trip/i.test(text);
    const per = dayTrip ? rate.cents / 2n : rate.cents;
    const due = per * days;
    if (r.allowed <= due && named.length === 1) continue;
    if (r.allowed <= due) {
      // Within the lowest rate: within any grade's.
      continue;
    }
    const over = r.allowed - due;
    r.findings.push({
      severity: 'flag', kind: 'per diem over rate',
      sources: [...r.item.at, policySource(policy, g.text), ...(dayTrip ? [policySource(policy, g.halfDayTrip!)] : [])],
      text: `daily allowance above the rate ("${g.text}"): ${days} day(s) at ${m(per)} (${how}${dayTrip ? ', halved for a day trip' : ''}) = ${m(due)}; claimed ${m(r.allowed)}, ${m(over)} not reimbursed`,
      arithmetic: `${days} × ${m(per)} = ${m(due)}; ${m(r.allowed)} − ${m(due)} = ${m(over)}`,
    });
    r.allowed = due;
  }
}
