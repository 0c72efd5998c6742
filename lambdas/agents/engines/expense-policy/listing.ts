/**
 * A listing closed by its sum: the lines of an e-mail or note each carrying one expense's amount, closed by a total
 * that is exactly their sum ("Total EUR 331,26" under four lines). Each of its lines is one expense, even two of the
 * same amount (the airport train there and back); a pasted receipt below whose total is one of those lines is that
 * line's receipt, though it prints no subtotal, tax or tip; and a line below repeating one of them (the ticket of that
 * train ride) is that expense's support, not another expense.
 */
import type { Line } from './lines.js';

export interface Listing {
  /** 0-based indices of the listing's lines that carry an amount. */
  lines: number[];
  /** 0-based index of its total. */
  total: number;
}

/** Every listing in the document closed by a total equal to the sum of the lines above it (two lines at least). */
export function listings(lines: Line[]): Listing[] {
  const out: Listing[] = [];
  for (let k = 0; k < lines.length; k++) {
    const t = lines[k];
    if (t.kind !== 'total' || t.amts.length === 0) continue;
    const want = t.amts[0].cents;
    const found: number[] = [];
    let sum = 0n;
    let j = k - 1;
    while (j >= 0 && lines[j].kind === 'sep') j--;
    for (; j >= 0 && found.length < 60; j--) {
      const l = lines[j];
      if (l.kind === 'blank' || l.kind === 'sep' || l.kind === 'total' || l.kind === 'subtotal') break;
      if (l.kind !== 'item' || l.amts.length === 0) continue;
      found.push(j);
      sum += l.amts[0].cents;
      if (sum >= want) break;
    }
    if (found.length >= 2 && sum === want) out.push({ lines: found.reverse(), total: k });
  }
  return out;
}

/** Whether a listing above line `start` has a line of this amount: a receipt of that total is that line's. */
export function listedAbove(all: Listing[], lines: Line[], cents: bigint, start: number): boolean {
  return all.some((x) => x.total < start && x.lines.some((i) => lines[i].amts[0].cents === cents));
}

/**
 * A settlement form's recap ("ZESTAWIENIE: Diety 56,25 / Przejazdy 177,60 / Noclegi 389,00 / OGÓŁEM 622,85", a
 * "Summary: Travel / Lodging / Meals" block): a listing closed by its sum whose lines are bare section names, undated,
 * each repeating a figure printed above it, one at least a section's own total ("Razem przejazdy 177,60"). Its lines
 * are the sections again, not expenses: the 0-based indices of its lines and its total.
 */
export function recaps(lines: Line[], all: Listing[]): number[] {
  const out: number[] = [];
  for (const x of all) {
    const first = x.lines[0];
    const above = lines.slice(0, first);
    const bare = x.lines.every((i) => !lines[i].dated && !/\d/.test(lines[i].label) && lines[i].label.split(' ').length <= 4);
    const repeats = (i: number, kinds: string[]) => above.some((l) => kinds.includes(l.kind) && l.amts.some((a) => a.cents === lines[i].amts[0].cents));
    if (!bare || !x.lines.every((i) => lines[i].amts[0].cents === 0n || repeats(i, ['item', 'total', 'subtotal']))) continue;
    if (!x.lines.some((i) => lines[i].amts[0].cents !== 0n && repeats(i, ['total', 'subtotal']))) continue;
    out.push(...x.lines, x.total);
  }
  return out;
}
