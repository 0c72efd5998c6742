/**
 * 7. One line on one side that is the sum of several open lines on the other, dated within MATCH_DAYS of it (a bank
 * deposit of several receipts, one pay run paid as several transfers, a batch collection). Bounded: the closest
 * GROUP_CANDIDATES lines of the same direction, at most GROUP_SIZE in a group, and a total search budget. Exactly one
 * grouping that adds up is a match; two or more that add up equally well are never chosen between.
 */
import { formatCents } from '../text/amount.js';
import { MATCH_DAYS, type Line } from './match.js';

export const GROUP_CANDIDATES = 14;
export const GROUP_SIZE = 6;
const BUDGET = 2_000_000;

export interface Group {
  /** The one line. */
  one: Line;
  /** The lines on the other side that add up to it, in row order. */
  parts: Line[];
}

export interface Grouping {
  groups: Group[];
  /** Why a line that could be a group was left alone. */
  ambiguous: string[];
}

export function groupLines(bank: Line[], books: Line[]): Grouping {
  const out: Grouping = { groups: [], ambiguous: [] };
  const budget = { left: BUDGET };
  findGroups(bank, books, out, budget);
  findGroups(books, bank, out, budget);
  return out;
}

const abs = (n: bigint) => (n < 0n ? -n : n);
const where = (l: Line) => `${l.side === 'bank' ? 'bank' : 'book'} row ${l.row}`;

function findGroups(ones: Line[], others: Line[], out: Grouping, budget: { left: number }): void {
  const byDate = new Map<number, Line[]>();
  for (const l of others) {
    if (l.paired) continue;
    const list = byDate.get(l.date);
    if (list) list.push(l);
    else byDate.set(l.date, [l]);
  }
  for (const one of ones) {
    if (one.paired || one.amountCents === 0n || budget.left <= 0) continue;
    const near: Line[] = [];
    for (let d = -MATCH_DAYS; d <= MATCH_DAYS; d++) {
      for (const l of byDate.get(one.date + d) ?? []) {
        if (!l.paired && l.amountCents !== 0n && (l.amountCents < 0n) === (one.amountCents < 0n) && abs(l.amountCents) < abs(one.amountCents)) near.push(l);
      }
    }
    if (near.length < 2) continue;
    const candidates = near
      .sort((a, b) => Math.abs(a.date - one.date) - Math.abs(b.date - one.date) || a.row - b.row)
      .slice(0, GROUP_CANDIDATES)
      .sort((a, b) => (abs(b.amountCents) > abs(a.amountCents) ? 1 : abs(b.amountCents) < abs(a.amountCents) ? -1 : a.row - b.row));
    const found = subsets(candidates.map((l) => abs(l.amountCents)), abs(one.amountCents), budget);
    if (found.length === 1) {
      const parts = found[0].map((i) => candidates[i]).sort((a, b) => a.row - b.row);
      for (const l of [one, ...parts]) l.paired = true;
      out.groups.push({ one, parts });
    } else if (found.length > 1) {
      const show = (s: number[]) => s.map((i) => candidates[i].row).sort((a, b) => a - b).join('+');
      const side = candidates[0].side === 'bank' ? 'bank rows' : 'book rows';
      out.ambiguous.push(
        `${where(one)} (${formatCents(one.amountCents)}) adds up from ${side} ${show(found[0])} and equally from ${show(found[1])}: no grouping is chosen`,
      );
    }
  }
}

/** Index sets (size 2..GROUP_SIZE) of `sizes` (sorted largest first) adding up to `target`; stops at two. */
function subsets(sizes: bigint[], target: bigint, budget: { left: number }): number[][] {
  const found: number[][] = [];
  const rest = sizes.map((_, i) => sizes.slice(i).reduce((s, x) => s + x, 0n));
  const pick: number[] = [];
  const walk = (i: number, sum: bigint) => {
    if (found.length > 1 || --budget.left <= 0) return;
    if (sum === target) {
      if (pick.length >= 2) found.push([...pick]);
      return;
    }
    if (i >= sizes.length || pick.length >= GROUP_SIZE || sum + rest[i] < target) return;
    if (sum + sizes[i] <= target) {
      pick.push(i);
      walk(i + 1, sum + sizes[i]);
      pick.pop();
    }
    walk(i + 1, sum);
  };
  walk(0, 0n);
  return found;
}
