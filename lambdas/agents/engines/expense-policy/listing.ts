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
