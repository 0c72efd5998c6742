/**
 * Where a grid's transaction table is and how its rows line up: the header row among title and summary rows, rows a
 * delimiter inside an unquoted description pushed out of line, and the CR/DR written after a figure.
 */
import { decimalMarkOf, parseMoney } from './amount.js';
import { isDate, isHeaderRow, mapColumns } from './columns.js';
import { expandCompactDate, formalDays, readDate, withYear, yearsOf, YEARLESS } from './dates.js';
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
  // Db is the debit mark of Indonesian and Malaysian statements (125.000,00 Db), read as Dr.
  const marks = texts.map((t) => /\d\s*(cr|dr|db)\.?$/i.exec(t.trim())?.[1].toLowerCase().replace('db', 'dr'));
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

/** A cell wrapped in single quotes ('TAKEALOT RETAIL'), as some banks quote their text fields: the text inside. */
const unquote = (c: string) => (/^'[^']*'$/.test(c.trim()) ? c.trim().slice(1, -1) : c);

/**
 * Text cells wrapped in single quotes instead of double ones: when most cells that hold letters are so wrapped, the
 * quotes are the export's and are dropped from every cell.
 */
export function unquoteSingle(records: RawRow[]): RawRow[] {
  const texts = records.flatMap((r) => r.cells.filter((c) => /[a-z]/i.test(c)));
  const wrapped = texts.filter((c) => /^'[^']*'$/.test(c.trim())).length;
  if (wrapped < 3 || wrapped * 2 < texts.length) return records;
  return records.map((r) => ({ ...r, cells: r.cells.map(unquote) }));
}

/**
 * An export whose every line opens with a record-type code (FNB's 2 account, 3 period, 4 opening balance, 5 the
 * transactions and their header, 6 closing balance; others' H/D/T for header, detail, trailer): the code is not a
 * column. Found when no line reads as a header as it stands, every non-blank line's first cell is such a code (one
 * or two letters or digits), there are at least two codes, and without the code a line reads as the table's header.
 * The table is that header and the lines of its code below it; the other codes' lines (the account, the period, the
 * balances) are kept above it, where the reader takes them for the export's title and summary.
 */
export function recordTypeTable(records: RawRow[]): { records: RawRow[]; code: string; others: string[] } | undefined {
  const filled = records.filter((r) => r.cells.some((c) => c.trim() !== ''));
  const code = (r: RawRow) => r.cells[0].trim();
  if (filled.length < 3 || !filled.every((r) => r.cells.length > 1 && /^[A-Za-z0-9]{1,2}$/.test(code(r)))) return undefined;
  const stripped = filled.map((r) => ({ ...r, cells: r.cells.slice(1) }));
  const at = headerRowOf(stripped);
  if (at < 0) return undefined;
  const mine = code(filled[at]);
  const others = [...new Set(filled.map(code))].filter((c) => c !== mine);
  const lines = stripped.filter((_, i) => i > at && code(filled[i]) === mine);
  if (others.length === 0 || lines.length === 0) return undefined;
  const rest = stripped.filter((_, i) => i !== at && (i < at || code(filled[i]) !== mine));
  return { records: [...rest, stripped[at], ...lines], code: mine, others };
}

/**
 * The date cells of a table that prints its dates without the year ("01 Oct", "03/02") written out with the year its
 * other text gives (its period, its heading; `yearsOf`). A yearless date whose year cannot be told is refused by
 * name rather than dropped. Undefined when no date cell lacks its year.
 */
export function withYears(rows: RawRow[], cols: (number | undefined)[], text: string): { rows: RawRow[]; years: number[] } | { error: string } | undefined {
  const at = cols.filter((c): c is number => c !== undefined);
  const compact = compactYearless(rows, at, text);
  if (compact && 'error' in compact) return compact;
  if (compact && compact.years) return { rows: compact.rows, years: compact.years };
  if (compact) rows = compact.rows;
  if (!rows.some((r) => at.some((c) => YEARLESS.test((r.cells[c] ?? '').trim())))) return undefined;
  const yearOf = yearsOf(text);
  const years = new Set<number>();
  const out: RawRow[] = [];
  for (const r of rows) {
    const cells = [...r.cells];
    for (const c of at) {
      const t = (cells[c] ?? '').trim();
      if (!YEARLESS.test(t)) continue;
      const year = yearOf(t);
      if (year === undefined) return { error: `${r.line > 0 ? `line ${r.line}: ` : ''}the date ${JSON.stringify(t)} carries no year, and the document's own dates do not tell it` };
      cells[c] = withYear(t, year);
      years.add(year);
    }
    out.push({ ...r, cells });
  }
  return { rows: out, years: [...years].sort() };
}

/**
 * A date column written as four digits without the year ("0110", DATEV's Belegdatum: day and month run together),
 * rewritten as "01.10." for the year to be added. Day first when a first pair exceeds 12, month first when a
 * second pair does; when neither does, the one order that puts every date within the period the document prints
 * (its unambiguous full dates, ± 10 days); else refused, since the order cannot be told.
 */
function compactYearless(rows: RawRow[], at: number[], text: string): { rows: RawRow[]; years?: number[] } | { error: string } | undefined {
  const cells = rows.flatMap((r) => at.map((c) => (r.cells[c] ?? '').trim())).filter((t) => t !== '');
  if (cells.length === 0 || !cells.every((t) => /^\d{4}$/.test(t))) return undefined;
  const pairs = cells.map((t) => [Number(t.slice(0, 2)), Number(t.slice(2))]);
  const fits = (day: number, month: number) => day >= 1 && day <= 31 && month >= 1 && month <= 12;
  let orders = (['dm', 'md'] as const).filter((o) => pairs.every(([a, b]) => (o === 'dm' ? fits(a, b) : fits(b, a))));
  if (orders.length === 2) {
    const days = formalDays(text);
    const year = days.length > 0 ? new Date(days[0] * 86_400_000).getUTCFullYear() : undefined;
    const [lo, hi] = [Math.min(...days) - 10, Math.max(...days) + 10];
    orders = orders.filter((o) => year !== undefined && pairs.every(([a, b]) => {
      const d = readDate(o === 'dm' ? `${a}.${b}.${year}` : `${b}.${a}.${year}`, 'dmy');
      return d !== undefined && d >= lo && d <= hi;
    }));
  }
  if (orders.length !== 1) return { error: `dates such as ${JSON.stringify(cells[0])} are day and month without the year, and nothing in the document tells which comes first` };
  const write = (t: string) => (orders[0] === 'dm' ? `${t.slice(0, 2)}.${t.slice(2)}.` : `${t.slice(2)}.${t.slice(0, 2)}.`);
  const written = rows.map((r) => ({ ...r, cells: r.cells.map((t, c) => (at.includes(c) && /^\d{4}$/.test(t.trim()) ? write(t.trim()) : t)) }));
  // The document's full dates spanning less than a year (a DATEV header's fiscal-year start, period from and to): each
  // date takes the one year that puts it within that span, which holds over a fiscal year that is not the calendar's.
  const days = formalDays(text);
  const [lo, hi] = [Math.min(...days), Math.max(...days)];
  if (days.length < 2 || hi - lo > 365) return { rows: written };
  const years = new Set<number>();
  const yeared = written.map((r) => ({ ...r, cells: r.cells.map((t, c) => {
    if (!at.includes(c) || !/^\d\d\.\d\d\.$/.test(t)) return t;
    const first = new Date(lo * 86_400_000).getUTCFullYear();
    const fit = [first, first + 1].filter((y) => { const d = readDate(`${t}${y}`, 'dmy'); return d !== undefined && d >= lo && d <= hi; });
    if (fit.length !== 1) return t;
    years.add(fit[0]);
    return `${t}${fit[0]}`;
  }) }));
  // Every date placed so, or none (then the year is read from the document's dates as for any yearless date).
  if (yeared.some((r) => at.some((c) => /^\d\d\.\d\d\.$/.test(r.cells[c] ?? '')))) return { rows: written };
  return { rows: yeared, years: [...years].sort() };
}
