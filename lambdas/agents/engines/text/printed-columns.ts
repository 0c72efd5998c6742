/**
 * A report printed in columns with spaces (a ledger's account listing, a statement pasted from a PDF): its header
 * line names the columns, and a figure belongs to the column it stands under. That is how a practitioner tells a
 * Debit from a Credit (Cargo/Abono, Wn/Ma, Withdrawal/Deposit) figure when neither carries a sign: by where it sits.
 *
 * Read only when the header names two money columns of opposite direction, and only when the reading is proven:
 * every figure stands under exactly one money column; a running balance, where there is one, is explained step by
 * step by the amounts so placed (in one direction of the columns — which one is the side's convention, settled by the
 * table reader); a line without a date that holds money-column figures is a balance line or a totals line whose
 * figures are the sums of the lines above it. A figure beside a header rather than under it, and a line printed
 * without its date (a statement giving each day's date once), are read only when a balance or a total proves it.
 * Anything else and this reading is declined (undefined), so the text is read as before.
 */
import { decimalMarkOf, parseMoney, type DecimalMark } from './amount.js';
import { isDate, isHeaderRow, mapColumns } from './columns.js';
import { balanceCents } from './balance.js';
import { YEARLESS } from './dates.js';
import { withYears } from './layout.js';
import type { RawRow } from './csv.js';
import { BALANCE_LINE } from './ledger.js';

export interface PrintedTable {
  headers: string[];
  rows: RawRow[];
  /** 1-based line of the header. */
  headerLine: number;
  /** The number of balance steps the placed amounts explain (0: the table has no running balance). */
  steps: number;
  /** Totals lines that equal the sums of the lines above them. */
  totals: number;
  /** Lines printed without their date that take the date of the line above. */
  carried: number;
  /** The years given to dates printed without one. */
  years?: number[];
}

interface Span { text: string; start: number; end: number }

const MAX_LINES = 25_000;
const MAX_HEADER = 400;
/** The most single-space groups a figure is printed in ("1 234 567 890,12"). */
const FIGURE_WORDS = 6;
const LEADING_DATE = /^(\d{1,2}[/.-]\d{1,2}(?:[/.-]\d{2,4})?|\d{4}-\d{2}-\d{2}|\d{1,2}[ -][A-Za-z]{3,9}\.?(?:[ -]\d{2,4})?|[A-Za-z]{3,9}\.? \d{1,2}(?:,? \d{4})?) +(?=\S)/;
/** A figure with cents, grouped by commas, points, apostrophes or single spaces, signed or bracketed, maybe marked. */
const FIGURE = /^[-+]?\(?[$€£]?(?:\d{1,3}(?:[ ,.'’]\d{3})+|\d+)[.,]\d{2}\)?-?(?: ?(?:cr|dr|[cdhs]))?$/i;
/** The side mark after a figure (Cr/Dr, C/D, S/H), not part of its size. */
const MARK = / ?(?:cr|dr|[cdhs])\.?$/i;
const plain = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').trim();

/** Runs of text separated by two or more spaces (or, with `words`, by one), with their character positions. */
function spansOf(line: string, words = false): Span[] {
  return [...line.matchAll(words ? /\S+/g : /\S+(?: \S+)*/g)].map((m) => ({ text: m[0], start: m.index, end: m.index + m[0].length }));
}

const isFigure = (t: string) => FIGURE.test(t) && !isDate(t);
const overlaps = (a: Span, b: Span) => a.start < b.end && b.start < a.end;

/** A header line's cells, split where the columns are (two spaces, else one), when it names a date and two sides. */
function headerOf(line: string): Span[] | undefined {
  // A delimited export's header is not a printed one; nor is a line longer than any header is printed.
  if (line.length > MAX_HEADER || /[,;|\t]/.test(line)) return undefined;
  for (const words of [false, true]) {
    const cells = spansOf(line, words);
    if (cells.length < 3 || !isHeaderRow(cells.map((c) => c.text))) continue;
    const { one } = mapColumns(cells.map((c) => c.text));
    const sides = (one.out !== undefined && one.in !== undefined) || (one.debit !== undefined && one.credit !== undefined);
    if (sides) return cells;
  }
  return undefined;
}

/**
 * A line's text runs, with a leading date split from the text after it and the figures at its end split from the
 * text before them, one by one, when each stands under a money column (a column printed one space from the next).
 */
function pieces(line: string, money: Span[]): Span[] {
  const out: Span[] = [];
  for (const s of spansOf(line)) {
    let rest = s;
    const d = LEADING_DATE.exec(rest.text);
    if (d && (isDate(d[1]) || YEARLESS.test(d[1]))) {
      out.push({ text: d[1], start: rest.start, end: rest.start + d[1].length });
      rest = { text: rest.text.slice(d[0].length), start: rest.start + d[0].length, end: rest.end };
    }
    const tail: Span[] = [];
    for (let peeled = true; peeled && !isFigure(rest.text); ) {
      peeled = false;
      const words = rest.text.split(' ');
      for (let k = Math.max(1, words.length - FIGURE_WORDS); k < words.length && !peeled; k++) {
        const figure = words.slice(k).join(' ');
        const at = { text: figure, start: rest.end - figure.length, end: rest.end };
        if (isFigure(figure) && money.some((m) => overlaps(m, at))) {
          const text = words.slice(0, k).join(' ');
          [rest, peeled] = [{ text, start: rest.start, end: rest.start + text.length }, true];
          tail.unshift(at);
        }
      }
    }
    out.push(rest, ...tail);
  }
  return out;
}

export function printedColumns(text: string): PrintedTable | undefined {
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.length > MAX_LINES || lines.some((l) => l.includes('\t'))) return undefined;
  // Every header line that is not a repeat of the one before (a summary block may have a header of its own): the
  // table is the proven reading with the most dated lines.
  const keys: string[] = [];
  // A header line holds no figure with cents: only such lines are looked at as headers.
  const heads = lines.map((l) => (/\d[.,]\d\d\b/.test(l) ? undefined : headerOf(l)));
  const starts = lines.flatMap((_, i) => {
    const h = heads[i];
    const key = h?.map((c) => plain(c.text)).join('|');
    if (!key || keys.includes(key)) return [];
    keys.push(key);
    return [i];
  });
  let best: (PrintedTable & { dated: number }) | undefined;
  for (const at of starts.slice(0, 5)) {
    const read = readUnder(lines, heads, at, text);
    if (read && (!best || read.dated > best.dated)) best = read;
  }
  if (!best) return undefined;
  const { dated: _, ...table } = best;
  return table;
}

/** The lines below the header on line `at` read under its columns, if the placement is proven. */
function readUnder(lines: string[], heads: (Span[] | undefined)[], at: number, text: string): (PrintedTable & { dated: number }) | undefined {
  let header = heads[at]!;
  const headers = header.map((h) => h.text);
  const key = headers.map(plain).join('|');
  const { one } = mapColumns(headers);
  const moneyIdx = [one.out, one.in, one.debit, one.credit, one.balance, one.amount].filter((i): i is number => i !== undefined);
  const sideIdx = [one.out ?? one.debit!, one.in ?? one.credit!];
  const rows: RawRow[] = [];
  // A figure beside its column's header rather than under it: placed only if a balance or a total proves it.
  let loose = false;
  for (let i = at + 1; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    // A header printed again on each page may sit at other positions: the columns are read under the nearest one.
    const again = heads[i];
    if (again && again.map((h) => plain(h.text)).join('|') === key) {
      header = again;
      continue;
    }
    const money = moneyIdx.map((k) => header[k]);
    const cells = headers.map(() => '');
    const put = (k: number, t: string) => (cells[k] = cells[k] === '' ? t : `${cells[k]} ${t}`);
    for (const p of pieces(lines[i], money)) {
      if (isFigure(p.text)) {
        let under = moneyIdx.filter((k) => overlaps(header[k], p));
        if (under.length === 0 && !header.some((h) => overlaps(h, p))) {
          const gap = (k: number) => Math.max(header[k].start - p.end, p.start - header[k].end);
          const sorted = [...moneyIdx].sort((a, b) => gap(a) - gap(b));
          if (sorted.length > 1 && gap(sorted[1]) <= gap(sorted[0]) * 2) return undefined;
          [under, loose] = [[sorted[0]], true];
        }
        // A wide figure reaching under the next header belongs to the one it is aligned with (right, else left edge).
        if (under.length > 1) {
          const [right, left] = [under.filter((k) => header[k].end === p.end), under.filter((k) => header[k].start === p.start)];
          under = right.length === 1 ? right : left.length === 1 ? left : under;
        }
        if (under.length > 1) return undefined;
        if (under.length === 1) {
          if (cells[under[0]] !== '') return undefined;
          put(under[0], p.text);
          continue;
        }
      }
      // Text belongs to the column it starts under; text under a money column to the text column before it.
      let k = header.reduce((best, h, j) => (h.start <= p.start + 1 ? j : best), 0);
      while (k > 0 && moneyIdx.includes(k)) k--;
      put(k, p.text);
    }
    rows.push({ cells, line: i + 1 });
  }
  // Dates printed without the year take it from the document's own full dates (its period), as a pasted statement's.
  const yeared = withYears(rows, [one.date, one.valueDate], text);
  if (yeared && 'error' in yeared) return undefined;
  if (yeared) rows.splice(0, rows.length, ...yeared.rows);
  const mark = decimalMarkOf(rows.flatMap((r) => moneyIdx.map((k) => r.cells[k]))).mark;
  const carried = carryDates(rows, one.date!, sideIdx as [number, number], moneyIdx, mark);
  if (carried === undefined) return undefined;
  const checked = proven(carried.rows, one.date!, sideIdx as [number, number], one.balance, mark);
  // A placement or a date that was inferred, not read, stands only when a balance or a total proves the reading.
  if (!checked || ((loose || carried.count > 0) && checked.steps === 0 && checked.totals === 0)) return undefined;
  return { headers, rows: carried.rows, headerLine: at + 1, ...checked, carried: carried.count, ...(yeared ? { years: yeared.years } : {}) };
}

const TOTAL_WORD = /\b(?:total|totals|subtotal|sum|summe|suma|somme|totale|totaal|obroty|razem|yhteensa|totalt|osszesen|celkem|toplam|turnover|umsatze)\b/i;

/**
 * A statement that prints each day's date once, and a transaction's details over several lines with its figure on
 * the last: an undated line with one figure under the two sides, that is neither a balance line nor a total (its
 * figures the sums of the lines above), is a line of the day above; the text lines since the last figure (the date
 * line of the transaction among them) are its details. Undefined when such a line has no date above it, two figures,
 * or says it is a total.
 */
function carryDates(rows: RawRow[], date: number, [out, inn]: [number, number], money: number[], mark: DecimalMark) {
  const abs = (x: bigint) => (x < 0n ? -x : x);
  const cents = (t: string) => (t === '' ? 0n : abs(parseMoney(t.replace(MARK, ''), mark) ?? 0n));
  const result: RawRow[] = [];
  let [sumOut, sumIn, count, lastDate] = [0n, 0n, 0, ''];
  let pending: RawRow[] = [];
  for (const r of rows) {
    const dated = isDate(r.cells[date].trim());
    const sides = r.cells[out] !== '' || r.cells[inn] !== '';
    const balanceLine = r.cells.some((c) => BALANCE_LINE.test(plain(c)));
    if (dated) lastDate = r.cells[date];
    if (balanceLine || money.some((k) => r.cells[k] !== '')) {
      let row = r;
      if (!dated && sides && !balanceLine) {
        const [o, n] = [cents(r.cells[out]), cents(r.cells[inn])];
        if (o === sumOut && n === sumIn) [sumOut, sumIn] = [0n, 0n];
        else {
          if (lastDate === '' || (r.cells[out] !== '' && r.cells[inn] !== '') || r.cells.some((c) => TOTAL_WORD.test(plain(c)))) return undefined;
          // The details printed above the figure, the transaction's date line among them, are this line's.
          const cells = r.cells.map((c, k) => (k === date ? lastDate : money.includes(k) ? c : [...pending.map((p) => p.cells[k]), c].filter((t) => t !== '').join(' ')));
          row = { cells, line: pending.find((p) => isDate(p.cells[date].trim()))?.line ?? r.line };
          result.splice(result.length - pending.length, pending.length);
          count++;
        }
      }
      if (isDate(row.cells[date].trim()) && sides) [sumOut, sumIn] = [sumOut + cents(row.cells[out]), sumIn + cents(row.cells[inn])];
      result.push(row);
      pending = [];
    } else {
      result.push(r);
      pending.push(r);
    }
  }
  return { rows: result, count };
}

/**
 * The placement is proven: at least one dated line holds a figure; a running balance's steps are all explained (top
 * down or newest first, in one direction of the columns); an undated line with side figures says it is a balance or
 * is a total of the lines above it. Returns the steps and totals that proved it, or undefined.
 */
function proven(rows: RawRow[], date: number, [out, inn]: [number, number], balance: number | undefined, mark: DecimalMark) {
  const cents = (t: string) => (t === '' ? 0n : parseMoney(t.replace(MARK, ''), mark));
  // A balance marked Cr/Dr (in funds, overdrawn) read with its side.
  const balanceOf = (t: string) => balanceCents(t, mark, false);
  const seq: { amount?: bigint; balance?: bigint }[] = [];
  let [sumOut, sumIn, totals, dated] = [0n, 0n, 0, 0];
  for (const r of rows) {
    const [o, n] = [cents(r.cells[out]), cents(r.cells[inn])];
    const b = balance === undefined || r.cells[balance] === '' ? undefined : balanceOf(r.cells[balance]);
    if (o === undefined || n === undefined || (balance !== undefined && r.cells[balance] !== '' && b === undefined)) return undefined;
    const abs = (x: bigint) => (x < 0n ? -x : x);
    const sides = r.cells[out] !== '' || r.cells[inn] !== '';
    if (r.cells.some((c) => BALANCE_LINE.test(plain(c)))) {
      if (b !== undefined) seq.push({ balance: b });
      continue;
    }
    if (isDate(r.cells[date].trim())) {
      if (!sides) {
        if (b !== undefined) seq.push({ balance: b });
        continue;
      }
      dated++;
      [sumOut, sumIn] = [sumOut + abs(o), sumIn + abs(n)];
      seq.push({ amount: abs(n) - abs(o), balance: b });
    } else if (sides) {
      // An undated line with figures under the sides: the totals of the lines above it, or this reading is not proven.
      if (abs(o) !== sumOut || abs(n) !== sumIn) return undefined;
      [sumOut, sumIn, totals] = [0n, 0n, totals + 1];
    }
  }
  if (dated === 0) return undefined;
  let steps = 0;
  if (balance !== undefined) {
    // Top down, or newest first (read bottom up it is top down); the lines between two printed balances (a balance
    // printed at the day's end) make the step together.
    const explains = (sign: bigint, order: typeof seq) => {
      let [prev, sum, moved, n] = [undefined as bigint | undefined, 0n, false, 0];
      for (const { amount, balance: b } of order) {
        if (amount !== undefined) [sum, moved] = [sum + amount, true];
        if (b === undefined) continue;
        if (prev !== undefined && moved) {
          n++;
          if (b - prev !== sign * sum) return undefined;
        }
        [prev, sum, moved] = [b, 0n, false];
      }
      return n > 0 ? n : undefined;
    };
    const found = [explains(1n, seq), explains(-1n, seq), explains(1n, [...seq].reverse()), explains(-1n, [...seq].reverse())];
    steps = found.find((n) => n !== undefined) ?? 0;
    if (steps === 0) return undefined;
  }
  return { steps, totals, dated };
}
