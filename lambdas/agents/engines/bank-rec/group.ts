/**
 * 7. One line on one side that is the sum of several open lines on the other, dated within MATCH_DAYS of it (a bank
 * deposit of several receipts, one pay run paid as several transfers, a batch collection). Bounded: the closest
 * GROUP_CANDIDATES lines of the same direction, at most GROUP_SIZE in a group, and a total search budget. Exactly one
 * grouping that adds up is a match; two or more that add up equally well are never chosen between.
 */
import { formatCents } from '../text/amount.js';
import { MATCH_DAYS, toLine, type Line } from './match.js';

export const GROUP_CANDIDATES = 14;
export const GROUP_SIZE = 6;
const BUDGET = 2_000_000;

export interface Group {
  /** The one line. */
  one: Line;
  /** The lines on the other side that add up to it, in row order. */
  parts: Line[];
  /** Found item by item from the bank's own breakdown of the line (a CAMT batch entry's TxDtls). */
  byItems?: boolean;
}

export interface Grouping {
  groups: Group[];
  /** Why a line that could be a group was left alone. */
  ambiguous: string[];
}

export function groupLines(bank: Line[], books: Line[]): Grouping {
  const out: Grouping = { groups: [], ambiguous: [] };
  const budget = { left: BUDGET, net: BUDGET };
  for (const one of bank) {
    const parts = one.paired ? undefined : itemsMatched(one, books);
    if (parts) {
      take(one, parts, out);
      out.groups[out.groups.length - 1].byItems = true;
    }
  }
  findGroups(bank, books, out, budget);
  findGroups(books, bank, out, budget);
  return out;
}

/** Search steps left: for sums of one direction, and for netted sums (searched apart so neither starves the other). */
interface Budget { left: number; net: number }

const abs = (n: bigint) => (n < 0n ? -n : n);
const where = (l: Line) => `${l.side === 'bank' ? 'bank' : 'book'} row ${l.row}`;

function findGroups(ones: Line[], others: Line[], out: Grouping, budget: Budget): void {
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
    const candidates = near
      .sort((a, b) => Math.abs(a.date - one.date) - Math.abs(b.date - one.date) || a.row - b.row)
      .slice(0, GROUP_CANDIDATES)
      .sort((a, b) => (abs(b.amountCents) > abs(a.amountCents) ? 1 : abs(b.amountCents) < abs(a.amountCents) ? -1 : a.row - b.row));
    const found = near.length < 2 ? [] : subsets(candidates.map((l) => abs(l.amountCents)), abs(one.amountCents), budget);
    if (found.length === 1) {
      take(one, found[0].map((i) => candidates[i]), out);
    } else if (found.length > 1) {
      const show = (s: number[]) => s.map((i) => candidates[i].row).sort((a, b) => a - b).join('+');
      const side = candidates[0].side === 'bank' ? 'bank rows' : 'book rows';
      out.ambiguous.push(
        `${where(one)} (${formatCents(one.amountCents)}) adds up from ${side} ${show(found[0])} and equally from ${show(found[1])}: no grouping is chosen`,
      );
    } else {
      const net = netOf(one, byDate, budget);
      if (net.length === 1) take(one, net[0], out);
      else if (net.length > 1) {
        const show = (s: Line[]) => s.map((l) => l.row).sort((a, b) => a - b).join('+');
        out.ambiguous.push(`${where(one)} (${formatCents(one.amountCents)}) nets from rows ${show(net[0])} and equally from ${show(net[1])}: no grouping is chosen`);
      }
    }
  }
}

/**
 * A batch line the bank itemises (each item its own amount, the items adding up to the line): each item takes an
 * open book entry of its amount dated within MATCH_DAYS of the line, one that quotes the item's reference or names
 * its party first, then the closest in date, then the earlier row. Every item found, each a different entry → the
 * group; any item not found → undefined (the line is left to the search by sums).
 */
function itemsMatched(one: Line, books: Line[]): Line[] | undefined {
  if (!one.items || one.items.length < 2) return undefined;
  const used = new Set<Line>();
  for (const item of one.items) {
    const said = toLine({ row: 0, date: one.date, dateText: '', description: item.text, amountCents: item.amountCents, amountText: '' }, 'bank');
    const told = (k: Line) => (k.tokens.some((t) => said.tokens.includes(t)) || k.names.some((w) => said.names.includes(w)) ? 0 : 1);
    const best = books
      .filter((k) => !k.paired && !used.has(k) && k.amountCents === item.amountCents && Math.abs(k.date - one.date) <= MATCH_DAYS)
      .sort((a, b) => told(a) - told(b) || Math.abs(a.date - one.date) - Math.abs(b.date - one.date) || a.row - b.row)[0];
    if (!best) return undefined;
    used.add(best);
  }
  return [...used];
}

function take(one: Line, parts: Line[], out: Grouping): void {
  parts.sort((a, b) => a.row - b.row);
  for (const l of [one, ...parts]) l.paired = true;
  out.groups.push({ one, parts });
}

// Kept small: each line of a netted set may go either way, so more candidates would let chance sums through.
const NET_SAME = 6;
const NET_OTHER = 6;
const NET_SIZE = 4;

/**
 * One line that is several lines of the other side netted: receipts less the fees taken from them (a card
 * processor's batch paid net of its fees, booked gross with the fee apart), or income less the tax withheld from it
 * (interest or a dividend paid net, booked net against a gross line and a withholding line). Each line taken the
 * other way is smaller than the one line and dated the same day as a line taken in its direction, as a fee or a
 * withholding is dated with what it was taken from. Sets of at most NET_SIZE that add up exactly; stops at two.
 */
function netOf(one: Line, byDate: Map<number, Line[]>, budget: Budget): Line[][] {
  const out = one.amountCents < 0n;
  const same: Line[] = [];
  const other: Line[] = [];
  for (let d = -MATCH_DAYS; d <= MATCH_DAYS; d++) {
    for (const l of byDate.get(one.date + d) ?? []) {
      if (l.paired || l.amountCents === 0n) continue;
      if ((l.amountCents < 0n) === out) same.push(l);
      else if (abs(l.amountCents) < abs(one.amountCents)) other.push(l);
    }
  }
  const closest = (list: Line[], n: number) =>
    list.sort((a, b) => Math.abs(a.date - one.date) - Math.abs(b.date - one.date) || a.row - b.row).slice(0, n);
  const withFee = closest(other, NET_OTHER).filter((o) => same.some((s) => s.date === o.date));
  if (withFee.length === 0) return [];
  const pool = [...closest(same, NET_SAME), ...withFee];
  const found: Line[][] = [];
  const pick: Line[] = [];
  const walk = (i: number, sum: bigint) => {
    if (found.length > 1 || --budget.net <= 0) return;
    if (sum === one.amountCents && pick.length >= 2) {
      const mine = pick.filter((l) => (l.amountCents < 0n) === out);
      const theirs = pick.filter((l) => (l.amountCents < 0n) !== out);
      if (theirs.length > 0 && theirs.every((o) => mine.some((s) => s.date === o.date))) found.push([...pick]);
    }
    if (i >= pool.length || pick.length >= NET_SIZE) return;
    pick.push(pool[i]);
    walk(i + 1, sum + pool[i].amountCents);
    pick.pop();
    walk(i + 1, sum);
  };
  walk(0, 0n);
  return found;
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
