/**
 * Where a grid's transaction table is and how its rows line up: the header row among title and summary rows, rows a
 * delimiter inside an unquoted description pushed out of line, and the CR/DR written after a figure.
 */
import { decimalMarkOf, parseMoney } from './amount.js';
import { isDate, isHeaderRow, mapColumns } from './columns.js';
import { expandCompactDate, readDate } from './dates.js';
import type { RawRow } from './table.js';

/**
 * Rows with more cells than the header, because a description held the delimiter unquoted ("TESCO, LEEDS"): when the
 * money columns all sit after a description column and, shifted by the extra cells, every one of them reads as a
 * figure or is empty where it did not before, the extra cells are joined back into that description.
 */
export function realign(rows: RawRow[], width: number, descriptions: number[], money: (number | undefined)[]): { rows: RawRow[]; count: number } {
  const cols = money.filter((i): i is number => i !== undefined);
  const d = descriptions[0];
  if (d === undefined || cols.length === 0 || cols.some((i) => i < d)) return { rows, count: 0 };
  const reads = (cells: string[]) => cols.every((i) => {
    const t = (cells[i] ?? '').trim();
    return t === '' || num(t) !== undefined;
  });
  let count = 0;
  const out = rows.map((r) => {
    const extra = r.cells.length - width;
    if (extra <= 0 || reads(r.cells)) return r;
    const cells = [...r.cells.slice(0, d), r.cells.slice(d, d + extra + 1).join(','), ...r.cells.slice(d + extra + 1)];
    if (!reads(cells) || cols.every((i) => (cells[i] ?? '').trim() === '')) return r;
    count++;
    return { ...r, cells };
  });
  return { rows: out, count };
}

/**
 * The header of the transaction table: of the rows that read as a header, the one with the most dated rows under it
 * (a statement summary above the table can have a header of its own, "Statement Date, Total Paid In"); the table
 * starts at the first row that repeats it (a header repeated on each page of a PDF export keeps every page).
 */
export function headerRowOf(records: RawRow[]): number {
  const heads = records.map((r, i) => (isHeaderRow(r.cells) ? i : -1)).filter((i) => i >= 0);
  if (heads.length <= 1) return heads[0] ?? -1;
  const key = (i: number) => records[i].cells.map((c) => c.trim().toLowerCase()).join('\u0001');
  // The dated rows under a header, down to the next header that differs from it.
  const dated = (h: number, k: number) => {
    const col = mapColumns(records[h].cells).one.date!;
    const next = heads.slice(k + 1).find((n) => key(n) !== key(h)) ?? records.length;
    return records.slice(h + 1, next).filter((r) => {
      const t = expandCompactDate((r.cells[col] ?? '').trim());
      return readDate(t, 'dmy') !== undefined || readDate(t, 'mdy') !== undefined;
    }).length;
  };
  let best = heads[0];
  let bestCount = -1;
  heads.forEach((h, k) => {
    const count = dated(h, k);
    if (count > bestCount) [best, bestCount] = [h, count];
  });
  return heads.find((h) => key(h) === key(best))!;
}

/**
 * A headerless export can open (or close) with a row of another shape: the account's summary, as PNC's download
 * prints it (the account number, the period's first and last day, the opening and closing balance, the counts of
 * credits and debits). The columns are identified from the rows of the table's own width (the width most rows have);
 * an edge row of another width is a transaction only if its cell in the date column reads as a date, else it is the
 * summary and is set aside; so is an edge row that holds no date at all (a totals line). Rows inside the table are
 * left to the reader as they are.
 */
export function headerlessEdges(records: RawRow[]): { table: RawRow[]; edges: Set<RawRow> } {
  if (records.length < 3) return { table: records, edges: new Set() };
  const counts = new Map<number, number>();
  for (const r of records) counts.set(r.cells.length, (counts.get(r.cells.length) ?? 0) + 1);
  const [width, n] = [...counts].reduce((best, c) => (c[1] > best[1] ? c : best), [0, 0]);
  const edges = new Set<RawRow>();
  if (n < 2 || n * 2 < records.length) return { table: records, edges };
  // A row that holds no date at all (a totals or account line) is no line either, whatever its width.
  const apart = (r: RawRow) => r.cells.length !== width || !r.cells.some((c) => isDate(c.trim()));
  for (let i = 0; i < records.length && apart(records[i]); i++) edges.add(records[i]);
  for (let i = records.length - 1; i >= 0 && apart(records[i]); i--) edges.add(records[i]);
  return { table: records.filter((r) => !edges.has(r)), edges };
}

/**
 * A summary row's balances checked against the lines: two of its figures, the earlier the opening and the later the
 * closing balance, that differ by exactly the lines' sum. The pair found, or undefined when none agrees.
 */
export function summaryBalances(cells: string[], total: bigint): [string, string] | undefined {
  const figures = cells.map((c) => c.trim()).filter((c) => /\d[.,]\d{2}$/.test(c) && num(c) !== undefined);
  for (let i = 0; i < figures.length; i++) {
    for (let j = i + 1; j < figures.length; j++) if (num(figures[i])! + total === num(figures[j])) return [figures[i], figures[j]];
  }
  return undefined;
}

/** A figure in a cell, or undefined (either decimal mark; for telling columns apart before the mark is settled). */
export function num(text: string | undefined): bigint | undefined {
  const t = (text ?? '').trim().replace(/\s*(?:cr|dr|[cdsh])$/i, '');
  if (!/\d/.test(t)) return undefined;
  return parseMoney(t, decimalMarkOf([t]).mark);
}

/**
 * Amounts marked CR or DR after the figure (a pasted statement: "2,500.00 CR", debits often unmarked): on a statement
 * CR is money in, in the cash book DR is. Where only one mark is used, an unmarked amount goes the other way; with
 * both marks in use it keeps its own sign. Undefined when no amount carries a mark.
 */
export function suffixDirections(texts: string[], books: boolean): number[] | undefined {
  const marks = texts.map((t) => /\d\s*(cr|dr)\.?$/i.exec(t.trim())?.[1].toLowerCase());
  if (!marks.some((m) => m)) return undefined;
  const inMark = books ? 'dr' : 'cr';
  const both = marks.includes('cr') && marks.includes('dr');
  const only = marks.find((m) => m);
  return marks.map((m, k) => {
    if (m) return m === inMark ? 1 : -1;
    if (both) return /^\(|^-|-$/.test(texts[k].trim()) ? -1 : 1;
    return only === inMark ? -1 : 1;
  });
}
