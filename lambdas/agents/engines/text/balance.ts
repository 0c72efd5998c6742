/**
 * A running balance as evidence of the amounts: how many of its steps they explain, and the direction of unsigned
 * amounts (a statement pasted from a PDF, its Debit/Credit columns lost) from the steps they make up.
 */
import { AgentInputError } from '../port.js';
import { parseMoney, type DecimalMark } from './amount.js';
import { expandCompactDate, readDate, type DateOrder } from './dates.js';

const abs = (n: bigint) => (n < 0n ? -n : n);
/** Beyond this many lines between two printed balances the signs are not searched (2^n combinations). */
const MAX_GROUP = 14;

/**
 * Share of the balance steps that the amounts explain, reading the rows top-down (balance after each line) or
 * bottom-up (newest first), whichever explains more; 0 when there are no steps.
 */
export function balanceScore(amounts: (bigint | undefined)[], balances: (bigint | undefined)[]): number {
  let down = 0;
  let up = 0;
  let steps = 0;
  let prev: number | undefined;
  for (let i = 0; i < balances.length; i++) {
    if (balances[i] === undefined) continue;
    if (prev !== undefined) {
      steps++;
      if (amounts[i] !== undefined && balances[i]! - balances[prev]! === amounts[i]) down++;
      if (amounts[prev] !== undefined && balances[prev]! - balances[i]! === amounts[prev]) up++;
    }
    prev = i;
  }
  return steps === 0 ? 0 : Math.max(down, up) / steps;
}

/**
 * Share of the steps between printed balances that the lines between them add up to (an opening and a closing balance
 * with the lines in between, a balance printed at each day's end), top down or newest first, whichever explains more;
 * 0 when there are no such steps. The evidence where no single line's step can be checked.
 */
export function groupScore(amounts: (bigint | undefined)[], balances: (bigint | undefined)[], newestFirst: boolean): number {
  const score = (order: number[]) => {
    let [steps, hits, last, sum, moved] = [0, 0, undefined as bigint | undefined, 0n, false];
    for (const i of order) {
      if (amounts[i] !== undefined) [sum, moved] = [sum + amounts[i]!, true];
      if (balances[i] === undefined) continue;
      if (last !== undefined && moved) [steps, hits] = [steps + 1, hits + Number(last + sum === balances[i])];
      [last, sum, moved] = [balances[i], 0n, false];
    }
    return steps === 0 ? 0 : hits / steps;
  };
  const down = [...amounts.keys()];
  return score(newestFirst ? down.reverse() : down);
}

/**
 * Whether the lines run oldest first ('down') or newest first ('up'), by their dates; undefined when the dates do not
 * say (all one day, or out of order). A sum between two balances reads the same either way but with the opposite
 * sign, so the lines' order must be known before such a step is evidence of direction.
 */
export function readingOrder(dateTexts: string[], order: DateOrder): 'down' | 'up' | undefined {
  const other = order === 'mdy' ? 'dmy' : 'mdy';
  const days = dateTexts.map((t) => readDate(expandCompactDate(t), order) ?? readDate(expandCompactDate(t), other));
  let [later, earlier] = [false, false];
  for (let i = 1; i < days.length; i++) {
    if (days[i] === undefined || days[i - 1] === undefined) return undefined;
    if (days[i]! > days[i - 1]!) later = true;
    if (days[i]! < days[i - 1]!) earlier = true;
  }
  return later === earlier ? undefined : later ? 'down' : 'up';
}

/**
 * Whether the balances printed with the lines say the amounts go the other way from the columns' usual meaning (a
 * book export written in the bank's words): the single steps, else (no single line's step to check, an opening and a
 * closing balance only) the lines between two balances together, in the order the lines' dates run. `seq` places the
 * amounts among the balances.
 */
export function followBalance(
  signed: bigint[], seq: (amounts: bigint[]) => readonly [(bigint | undefined)[], (bigint | undefined)[]], lines: 'down' | 'up' | undefined,
): { flip: boolean; note?: string } {
  const flippedAmounts = signed.map((a) => -a);
  let [straight, flipped] = [balanceScore(...seq(signed)), balanceScore(...seq(flippedAmounts))];
  const grouped = straight === 0 && flipped === 0 && lines !== undefined;
  if (grouped) [straight, flipped] = [groupScore(...seq(signed), lines === 'up'), groupScore(...seq(flippedAmounts), lines === 'up')];
  const [what, s] = grouped ? ['the balances printed between the lines', ''] : ['the running balance', 's'];
  if (flipped > straight && flipped >= 0.5) {
    return { flip: true, note: `${what} show${s} the opposite direction from the columns' usual meaning, so ${grouped ? 'they were' : 'it was'} followed` };
  }
  return { flip: false, ...(straight >= 0.5 ? { note: `${what} confirm${s} the direction of the amounts` } : {}) };
}

/**
 * Unsigned amounts given their direction by the balance. A statement that prints the balance only after the last
 * line of a day leaves several lines between two balances: their signed sum must make the step, and the one way of
 * signing them that does is taken. Read top-down, or bottom-up for a newest-first statement, whichever signs every
 * line; a line no reading signs (or signs two ways) is refused, naming it.
 */
export function signsFromBalance(amounts: (bigint | undefined)[], balances: (bigint | undefined)[], field: string, lines: number[]): bigint[] {
  const single = (dir: 1 | -1) => {
    let n = 0;
    for (let i = 0; i < amounts.length; i++) {
      const j = i - dir;
      if (amounts[i] !== undefined && balances[i] !== undefined && balances[j] !== undefined && abs(balances[i]! - balances[j]!) === amounts[i]) n++;
    }
    return n;
  };
  const dirs: (1 | -1)[] = single(1) >= single(-1) ? [1, -1] : [-1, 1];
  let failed = -1;
  for (const dir of dirs) {
    const signed = attempt(amounts, balances, dir);
    if (typeof signed !== 'number') return signed;
    if (failed < 0) failed = signed;
  }
  const k = amounts.slice(0, failed).filter((a) => a !== undefined).length;
  throw new AgentInputError(field, `row ${k + 1}${lines[k] ? ` (line ${lines[k]})` : ''}: the amount has no sign and the running balance does not show which way it went`);
}

/** The signed amounts read in one direction, or the index of the first amount that cannot be signed. */
function attempt(amounts: (bigint | undefined)[], balances: (bigint | undefined)[], dir: 1 | -1): bigint[] | number {
  const order = [...amounts.keys()];
  if (dir === -1) order.reverse();
  const signed = new Map<number, bigint>();
  let prev: bigint | undefined;
  let group: number[] = [];
  for (const i of order) {
    if (amounts[i] !== undefined) group.push(i);
    if (balances[i] === undefined) continue;
    if (group.length > 0) {
      if (prev === undefined) return group[0];
      const signs = solve(group.map((g) => amounts[g]!), balances[i]! - prev);
      if (!signs) return group[0];
      group.forEach((g, k) => signed.set(g, signs[k]));
    }
    prev = balances[i];
    group = [];
  }
  if (group.length > 0) return group[0];
  return amounts.flatMap((a, i) => (a === undefined ? [] : [signed.get(i)!]));
}

/** The one way of signing the sizes that sums to the step, or undefined (none, several, or too many to search). */
function solve(sizes: bigint[], step: bigint): bigint[] | undefined {
  if (sizes.length > MAX_GROUP) return undefined;
  let found: bigint[] | undefined;
  for (let mask = 0; mask < 1 << sizes.length; mask++) {
    const signed = sizes.map((a, k) => (mask & (1 << k) ? -a : a));
    if (signed.reduce((x, y) => x + y, 0n) !== step) continue;
    if (found && found.some((v, k) => v !== signed[k])) return undefined;
    found = signed;
  }
  return found;
}

/**
 * The amounts of balance-only rows that moved the balance, by anchor number. `amounts` and `balances` are the
 * sequence of lines and anchors (an anchor has no amount); `movable[k]` says the k-th anchor is a dated row that
 * does not call itself a balance. Read in the direction the other lines' steps prove (top-down, or bottom-up for
 * newest first, at least half of the steps explained); none when no direction is proven.
 */
export function movedBalances(amounts: (bigint | undefined)[], balances: (bigint | undefined)[], movable: boolean[]): Map<number, bigint> {
  const found = new Map<number, bigint>();
  const anchorNo: number[] = [];
  let k = 0;
  amounts.forEach((a, i) => (anchorNo[i] = a === undefined ? k++ : -1));
  const explained = (order: number[]) => {
    let [steps, hits, last, sum] = [0, 0, undefined as bigint | undefined, 0n];
    for (const i of order) {
      if (amounts[i] !== undefined) sum += amounts[i]!;
      if (balances[i] === undefined) continue;
      if (last !== undefined && amounts[i] !== undefined) [steps, hits] = [steps + 1, hits + Number(last + sum === balances[i])];
      [last, sum] = [balances[i], 0n];
    }
    return steps === 0 ? 0 : hits / steps;
  };
  const down = [...amounts.keys()];
  const up = [...down].reverse();
  const [d, u] = [explained(down), explained(up)];
  if (Math.max(d, u) < 0.5) return found;
  let [last, sum] = [undefined as bigint | undefined, 0n];
  for (const i of d >= u ? down : up) {
    if (amounts[i] !== undefined) sum += amounts[i]!;
    if (balances[i] === undefined) continue;
    if (amounts[i] === undefined && movable[anchorNo[i]] && last !== undefined && last + sum !== balances[i]) {
      found.set(anchorNo[i], balances[i]! - last - sum);
    }
    [last, sum] = [balances[i], 0n];
  }
  return found;
}

/** A balance with its mark: on a statement Cr/H = in funds, Dr/S = overdrawn; in the books D/S = a debit balance. */
export function balanceCents(text: string, mark: DecimalMark, books: boolean): bigint | undefined {
  // The mark may follow the figure with or without a space ("1,114.60 CR", "1,114.60CR", "14 806,23 D").
  const m = /^(.*?\d)\s*(cr|dr|db|c|d|h|s)\.?$/i.exec(text.trim());
  const cents = parseMoney(m ? m[1] : text, mark);
  if (cents === undefined || !m) return cents;
  const debitSide = /^[ds]/i.test(m[2]) || /^dr$/i.test(m[2]);
  return debitSide === books ? abs(cents) : -abs(cents);
}

/**
 * The first line read as zero whose running balance moved on it — the step from the balance before it and to the
 * one after it both non-zero — as its index among the lines (anchors not counted), or undefined. Money moved on that
 * row that no column read holds: a money column under a header the reader does not know, not a line of nothing.
 */
export function unreadMoney(amounts: (bigint | undefined)[], balances: (bigint | undefined)[]): number | undefined {
  let k = -1;
  for (let i = 0; i < amounts.length; i++) {
    if (amounts[i] === undefined) continue;
    k++;
    const [before, own, after] = [balances[i - 1], balances[i], balances[i + 1]];
    if (amounts[i] !== 0n || own === undefined || before === undefined || after === undefined) continue;
    if (own !== before && own !== after) return k;
  }
  return undefined;
}
