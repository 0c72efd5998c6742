/**
 * A day table of meal allowances, as an acquittal or a per-diem page prints it: a header row naming the meals of the
 * day ("Date  Breakfast  Lunch  Dinner  Incidentals  Day total", "Datum  Art des Tages  Frühstück  Mittagessen
 * Abendessen  Pauschale  Kürzung  Betrag", with a second header line under it: "gestellt  gestellt  gestellt"), then
 * one dated row per day. Each row is one day's allowance, claimed at the figure under the day's total column (not the
 * breakfast's figure at its left, and never a breakdown row because its meals add up to it); its cells are read
 * with their column's label ("Lunch: provided 0.00"), so a meal the row says was provided is known.
 */
import type { Amt, Line } from './lines.js';
import type { Entry } from './document.js';
import { mealNamed } from './meal.js';

interface Column {
  label: string;
  at: number;
  /** The meal the column is for (breakfast, lunch, dinner), or incidentals. */
  meal?: string;
  /** The column says whether the meal was provided ("Frühstück gestellt", "Breakfast provided?"): a yes/no cell. */
  asks: boolean;
}

export interface DayTable {
  /** 0-based index of the (first) header row. */
  header: number;
  /** 0-based indices of its day rows. */
  rows: Set<number>;
  cols: Column[];
  /** The column of the day's total ("Day total", "Betrag", "Total"), the last one naming a total. */
  total?: Column;
}

const INCIDENTALS = /\b(?:incidentals?|incidental expenses|nebenkosten|faux frais|spese accessorie|overige)\b/i;
const TOTAL = /\b(?:day total|daily total|total|totaal|totale|betrag|tagesbetrag|summe|erstattung|auszahlung|montant|importo|importe|valor|kwota|bedrag|amount|allowance|reimbursed|payable)\b|支給額|金額|지급액/i;
const DEDUCTION = /\b(?:kürzung|kuerzung|deductions?|less|abzug|réduction|reducción|descuento|riduzione|potrącenia?|korting|avdrag)\b|減額|공제/i;
const ASKS = /\b(?:provided|furnished|included|gestellt|fourni|inclus|fornito|incluso|verstrekt)\b/i;
const PROVIDED = /^(?:provided|furnished|included|hosted|gestellt|fourni|inclus|fornito|incluso|verstrekt)$/i;
const YES = /^(?:ja|yes|y|x|✓|✔|☑|oui|s[iì]|sim)$/i;

/** Every day table of the document (see the module comment). */
export function dayTables(lines: Line[]): DayTable[] {
  const out: DayTable[] = [];
  for (let k = 0; k < lines.length; k++) {
    const l = lines[k];
    if (l.kind !== 'plain' || l.amts.length > 0) continue;
    const cols = columnsOf(l.raw);
    if (cols.filter((c) => c.meal !== undefined && c.meal !== 'incidentals').length < 2) continue;
    // A second header line under it ("gestellt  gestellt  gestellt"): its words belong to the columns above them.
    let body = k + 1;
    const under = lines[body];
    if (under && under.kind === 'plain' && under.amts.length === 0 && !under.dated) {
      for (const w of tokens(under.raw)) {
        const c = columnAt(cols, w.at, w.at + w.t.length);
        if (c) c.label += ` ${w.t}`;
      }
      body++;
    }
    // A table with a deduction column ("Kürzung", "Deduction", "Potrącenie") marks each meal provided with a cross
    // under the meal's own column ("Frühstück  Mittag  Abend" over "x  x  -"): the meal columns ask.
    const deducts = cols.some((c) => DEDUCTION.test(c.label));
    for (const c of cols) c.asks = ASKS.test(c.label) || (deducts && c.meal !== undefined && c.meal !== 'incidentals');
    const rows = new Set<number>();
    for (let j = body; j < lines.length; j++) {
      const r = lines[j];
      if (r.kind === 'sep') continue;
      // A bracketed note under a day's row ("(Frühstück Hotel -5,60 €; Mittagessen Seminar -11,20 €)") is its working.
      if (!r.dated && /^\(.*\)$/.test(r.text.trim()) && rows.size > 0) continue;
      if (!r.dated || r.amts.length === 0) break;
      rows.add(j);
    }
    if (rows.size === 0) continue;
    const total = [...cols].reverse().find((c) => c.meal === undefined && TOTAL.test(c.label) && c !== cols[0]);
    out.push({ header: k, rows, cols, total });
    k = Math.max(...rows);
  }
  return out;
}

/** A day row read with its columns: the day's total (the claim), its cells labelled, and the meals provided. */
export function dayRow(t: DayTable, l: Line): { amount: Amt; text: string; provided: string[] } {
  const cells = new Map<Column, string[]>();
  for (const w of tokens(l.raw)) {
    const c = columnAt(t.cols, w.at, w.at + w.t.length);
    if (c) cells.set(c, [...(cells.get(c) ?? []), w.t]);
  }
  const offset = l.raw.length - l.raw.trimStart().length;
  const totalCell = t.total ? l.amts.filter((a) => columnAt(t.cols, offset + a.at, offset + a.at + 1) === t.total) : [];
  const amount = totalCell[totalCell.length - 1] ?? l.amts[l.amts.length - 1];
  const provided: string[] = [];
  const parts: string[] = [];
  for (const c of t.cols.slice(1)) {
    const words = cells.get(c) ?? [];
    if (c.asks && c.meal) {
      // "Frühstück gestellt: Nein" says the meal was not provided: only a yes is written.
      if (words.some((w) => YES.test(w))) {
        provided.push(c.meal);
        parts.push(`${c.meal} provided`);
      }
      continue;
    }
    if (c.meal && c.meal !== 'incidentals' && words.some((w) => PROVIDED.test(w))) provided.push(c.meal);
    if (words.length > 0) parts.push(`${c.label}: ${words.join(' ')}`);
  }
  const date = /^\S+/.exec(l.text)?.[0] ?? '';
  return { amount, text: `${date} ${parts.join('; ')}`, provided };
}

/** The columns of a header row: its cells set apart by two spaces or more, each starting where its label does. */
function columnsOf(raw: string): Column[] {
  const cols: Column[] = [];
  const re = /\S+(?: \S+)*/g;
  for (let m = re.exec(raw); m !== null; m = re.exec(raw)) {
    const meal = mealNamed(m[0]) ?? (INCIDENTALS.test(m[0]) ? 'incidentals' : undefined);
    cols.push({ label: m[0], at: m.index, meal, asks: false });
  }
  return cols;
}

/** The column a span of a row sits under: the one it overlaps most, a column running to where the next starts. */
function columnAt(cols: Column[], at: number, end: number): Column | undefined {
  let best: Column | undefined;
  let most = 0;
  cols.forEach((c, i) => {
    const stop = cols[i + 1]?.at ?? Infinity;
    const overlap = Math.min(end, stop) - Math.max(at, c.at);
    if (overlap > most) [best, most] = [c, overlap];
  });
  // A figure set right of its header's start, or one starting a little before it (right-aligned under the label).
  return best ?? cols.find((c) => end > c.at - 4 && end <= c.at + 1);
}

function tokens(raw: string): { t: string; at: number }[] {
  const out: { t: string; at: number }[] = [];
  const re = /\S+/g;
  for (let m = re.exec(raw); m !== null; m = re.exec(raw)) out.push({ t: m[0], at: m.index });
  return out;
}

/**
 * One allowance line for the whole trip ("06.10.-09.10.2025  Verpflegungsmehraufwand  Pauschale (Tagesübersicht
 * unten)  84,00") with its day table typed out below, closed by a sum equal to it: the table is the line's own
 * breakdown (read first as a receipt of it), so the line is claimed day by day, each day held to its own rate.
 */
export function dayBreakdowns(lines: Line[], entries: Entry[]): void {
  const tables = dayTables(lines);
  for (const e of entries) {
    const r = e.receipt;
    if (!r || r.lines.length === 0) continue;
    const t = tables.find((x) => r.lines.every((p) => x.rows.has(p.n - 1)));
    if (!t || t.rows.size !== r.lines.length) continue;
    e.days = [...t.rows].sort((a, b) => a - b).map((k) => ({ ...dayRow(t, lines[k]), line: lines[k] }));
    e.receipt = undefined;
  }
}
