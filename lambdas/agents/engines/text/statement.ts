/**
 * Any export of a bank account's lines read into signed transactions (money in +, money out −): the file is first
 * identified (OFX/QFX, CAMT.053, MT940, QuickBooks IIF, JSON, key-value blocks, delimited text, a pasted statement),
 * then read by the reader for that form. The tabular forms share ledger.ts; the banks' own formats are read in
 * bank-formats.ts.
 */
import { AgentInputError } from '../port.js';
import { mapColumns } from './columns.js';
import { YEARLESS, withYear, yearsOf } from './dates.js';
import { readCamt, readMt940, readOfx } from './bank-formats.js';
import { isBai2, readBai2 } from './bai2.js';
import { BALANCE_LINE, readLedger, type Statement, type StatementOptions } from './ledger.js';
import { printedColumns, type PrintedTable } from './printed-columns.js';
import { MAX_ROWS, MAX_TEXT, readJson, readRecords, type RawRow, type Transaction } from './table.js';

export type { Statement, StatementOptions } from './ledger.js';

export function readStatement(text: string, field: string, options: StatementOptions): Statement {
  if (text.length > MAX_TEXT) throw new AgentInputError(field, `is longer than ${MAX_TEXT} characters`);
  const body = text.replace(/^\uFEFF/, '');
  const trimmed = body.trim();
  if (trimmed === '') throw new AgentInputError(field, 'has no header row (it is empty or blank)');
  const statement = identify(body, trimmed, field, options);
  cite(body, statement.lines);
  if (statement.lines.length === 0) {
    throw new AgentInputError(field, 'has no transactions (a header, balances or totals only): there is nothing to reconcile');
  }
  if (statement.lines.length > MAX_ROWS) throw new AgentInputError(field, `has more than ${MAX_ROWS} rows`);
  return statement;
}

function identify(body: string, trimmed: string, field: string, options: StatementOptions): Statement {
  if (/<OFX>|^OFXHEADER:/im.test(trimmed.slice(0, 2000))) return readOfx(body, field);
  // camt.053 statements, camt.052 account reports and camt.054 notifications carry their lines as the same Ntry.
  if (/<BkToCstmr(?:Stmt|AcctRpt|DbtCdtNtfctn)\b/.test(trimmed.slice(0, 4000))) return readCamt(body, field);
  if (/^!Type:(?:Bank|Cash|CCard|Oth [AL])/im.test(trimmed.slice(0, 200))) return readQif(body, field, options);
  if (/^:61:/m.test(body) && /^:(?:20|25|60[FM]):/m.test(body)) return readMt940(body, field);
  if (/^!TRNS\b/m.test(body)) return readIif(body, field, options);
  if (isBai2(trimmed)) return readBai2(body, field);
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    const { headers, rows } = readJson(trimmed, field, MAX_ROWS);
    if (rows.length === 0) return { lines: [], notes: [], dates: {} };
    return readLedger(rows, field, options, headers);
  }
  const blocks = keyValueBlocks(body);
  if (blocks) return readLedger(blocks.rows, field, options, blocks.headers);
  // A report printed in columns with spaces: each figure read under the column it stands in (Debit or Credit, Cargo
  // or Abono), when its header names both sides and the placement is proven. Before the delimited reading: a comma
  // grouping thousands would otherwise split a printed line into cells.
  const printed = printedColumns(body);
  if (printed) return readPrinted(printed, field, options);
  const records = readRecords(body, field, MAX_ROWS, chooseDelimiter(body));
  try {
    return readLedger(records, field, options);
  } catch (e) {
    if (!(e instanceof AgentInputError) || !/no date column/.test(e.message)) throw e;
    const pasted = pastedLines(body);
    if (!pasted) throw e;
    const read = readLedger(pasted.rows, field, options, ['Date', 'Description', 'Amount', 'Balance']);
    if (pasted.year) read.notes.unshift(`the lines' dates carry no year: ${pasted.year}, from the statement's own dates`);
    read.notes.unshift('read as a pasted statement: a date, the particulars, then the amount and the balance after it on each line');
    // No sign, no CR/DR, no parentheses and no running balance: nothing in the text says which lines are money out.
    const marked = (t: string) => /^\(|-|(?:cr|dr)\.?$/i.test(t.trim());
    if (pasted.rows.every((r) => r.cells[3] === '') && read.lines.every((l) => l.amountCents > 0n && !marked(l.amountText))) {
      read.undecided = 'amounts carry no sign or CR/DR mark and it prints no running balance, so which lines are money out cannot be told';
    }
    return read;
  }
}

function readPrinted(printed: PrintedTable, field: string, options: StatementOptions): Statement {
  const read = readLedger(printed.rows, field, options, printed.headers);
  const proof = [
    printed.steps > 0 ? `the running balance's ${printed.steps} step${printed.steps === 1 ? '' : 's'} agree with the amounts so placed` : '',
    printed.totals > 0 ? printed.totals === 1 ? "the totals line equals the columns' sums" : `the ${printed.totals} totals lines equal the columns' sums` : '',
  ].filter((p) => p !== '');
  if (printed.carried > 0) read.notes.unshift(`${printed.carried} line${printed.carried === 1 ? '' : 's'} printed without a date took the date of the line above (a statement that prints each day's date once)`);
  if (printed.years) read.notes.unshift(`the lines' dates carry no year: ${printed.years.join(' and ')}, from the document's own dates`);
  read.notes.unshift(
    `read as a report printed in columns (header on line ${printed.headerLine}): each figure belongs to the column it stands under` +
      (proof.length > 0 ? ` (${proof.join('; ')})` : ''),
  );
  return read;
}

/**
 * Each transaction's source line, verbatim, for the findings to quote: the line its row starts on, or within a
 * record that runs over several lines (a quoted cell, a key-value block) the first one holding its amount.
 */
function cite(body: string, lines: Transaction[]): void {
  const text = body.split(/\r\n|\r|\n/);
  for (const t of lines) {
    if (!t.line || t.line > text.length) continue;
    const figure = t.amountText.trim().split(' ')[0];
    for (let l = t.line; figure && l < Math.min(text.length, t.line + 12); l++) {
      if (text[l - 1].includes(figure)) {
        t.line = l;
        break;
      }
    }
    t.source = text[t.line - 1];
  }
}

/** The delimiter that splits the most lines into the same, largest number of cells (quotes respected); comma on a tie. */
function chooseDelimiter(text: string): string {
  let best = ',';
  let bestScore = -1;
  for (const d of [',', ';', '\t', '|']) {
    const counts = new Map<number, number>();
    let n = 0;
    let inQuotes = false;
    for (let i = 0; i <= text.length; i++) {
      const ch = text[i];
      if (ch === '"') inQuotes = !inQuotes;
      else if (ch === d && !inQuotes) n++;
      else if ((ch === '\n' || ch === undefined) && !inQuotes) {
        if (n > 0) counts.set(n, (counts.get(n) ?? 0) + 1);
        n = 0;
      }
    }
    // Lines that agree on a cell count, weighted by that count (a decimal comma gives one "cell" a line, not four).
    const score = Math.max(0, ...[...counts].map(([cells, lines]) => lines * (cells + 1)));
    if (score > bestScore) [best, bestScore] = [d, score];
  }
  return best;
}

/** "Date: …" / "Amount: …" lines in blank-line-separated blocks, one transaction a block; undefined if not that form. */
function keyValueBlocks(text: string): { headers: string[]; rows: RawRow[] } | undefined {
  const headers: string[] = [];
  const rows: RawRow[] = [];
  let line = 0;
  for (const block of text.split(/\r?\n[ \t]*\r?\n/)) {
    const cells: string[] = [];
    const start = line + 1;
    for (const l of block.split(/\r?\n/)) {
      line++;
      const m = /^\s*([A-Za-z][A-Za-z /.()-]{0,30}?)\s*:\s*(.*)$/.exec(l);
      if (!m) continue;
      let k = headers.indexOf(m[1]);
      if (k < 0) k = headers.push(m[1]) - 1;
      cells[k] = m[2].trim();
    }
    line++;
    if (cells.length > 0) rows.push({ cells: Array.from(cells, (c) => c ?? ''), line: start });
  }
  const { one } = mapColumns(headers);
  const found = one.date !== undefined && one.amount !== undefined;
  return found && rows.filter((r) => (r.cells[one.date!] ?? '') !== '').length > 0 ? { headers, rows } : undefined;
}

const MONTH = '(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\\.?';
const DATE_FIRST = new RegExp(
  `^\\s*(\\d{1,2}[ -][A-Za-z]{3,9}\\.?[ -]\\d{2,4}|\\d{1,2}[/.-]\\d{1,2}[/.-]\\d{2,4}|\\d{4}-\\d{2}-\\d{2}|\\d{1,2}[/.-]\\d{1,2}|\\d{1,2}[ -]${MONTH}|${MONTH} \\d{1,2})\\s+(.*)$`,
  'i',
);
const SPACED_LAST = /(?:^|\s{2})(\(?[-+]?[$€£]?\d{1,3}(?: \d{3})+[.,]\d{2}\)?-?(?:\s?(?:cr|dr))?)\s*$/i;
const MONEY_LAST = /(?:^|\s)(\(?[-+]?[$€£]?(?:(?:\d{1,3}(?:,\d{3})+|\d+)\.\d{2}|(?:\d{1,3}(?:\.\d{3})+|\d+),\d{2})\)?-?(?:\s?(?:cr|dr))?)\s*$/i;

/**
 * Lines of a statement pasted from a PDF: a date first, then text, then one or two figures (amount, balance). A
 * statement that prints its lines' dates without the year ("03/02") gives the year once, in its period or heading;
 * when every full date in the text is of one year, that is the year of its lines; over a turn of the year, the
 * months decide. A line whose year cannot be told makes the pasted reading refused, not the line dropped.
 */
function pastedLines(text: string): { rows: RawRow[]; year?: string } | undefined {
  const yearOf = yearsOf(text);
  let unread = false;
  const rows: { cells: string[]; line: number; figures: string[] }[] = [];
  const yearless = new Set<number>();
  text.split(/\r\n|\r|\n/).forEach((l, i) => {
    const m = DATE_FIRST.exec(l);
    if (!m) return;
    let date = m[1];
    if (YEARLESS.test(date)) {
      const year = yearOf(date);
      if (!year) {
        unread = true;
        return;
      }
      date = withYear(date, year);
      yearless.add(year);
    }
    let rest = m[2];
    const figures: string[] = [];
    for (let k = 0; k < 2; k++) {
      // A figure grouped by single spaces ("31 207,44") is one figure when wider space sets it off from the text.
      const f = SPACED_LAST.exec(rest) ?? MONEY_LAST.exec(rest);
      if (!f) break;
      figures.unshift(f[1]);
      rest = rest.slice(0, f.index).trimEnd();
    }
    if (figures.length > 0) rows.push({ cells: [date, rest], line: i + 1, figures });
  });
  // A line whose year cannot be told is not dropped in silence: the pasted reading is refused.
  if (rows.length === 0 || unread) return undefined;
  // Where some lines print the balance after the amount, a line with one figure is a balance line when it says so
  // (Balance brought forward); any other is a line whose balance the statement prints only at the day's end.
  const withBalance = rows.some((r) => r.figures.length === 2);
  const balanceOnly = (text: string) => BALANCE_LINE.test(text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').trim());
  return {
    rows: rows.map(({ cells, line, figures }) => {
      const [amount, balance] = figures.length === 2 ? figures : withBalance && balanceOnly(cells[1]) ? ['', figures[0]] : [figures[0], ''];
      return { cells: [...cells, amount, balance], line };
    }),
    ...(yearless.size > 0 ? { year: [...yearless].join(' and ') } : {}),
  };
}

/**
 * QIF (Quicken Interchange Format): one transaction a block ending in `^`; D the date, T (or U) the signed amount, P
 * the payee, M the memo, N the check number. The short year forms (3/ 2'26) are written out; the date order is then
 * settled like any other table's.
 */
function readQif(text: string, field: string, options: StatementOptions): Statement {
  const rows: RawRow[] = [];
  let cells = ['', '', '', '', ''];
  let at = 0;
  text.split(/\r\n|\r|\n/).forEach((l, i) => {
    const code = l.charAt(0);
    const value = l.slice(1).trim();
    if (code === '^') {
      if (cells[0] !== '' || cells[1] !== '') rows.push({ cells, line: at || i + 1 });
      [cells, at] = [['', '', '', '', ''], 0];
    } else if (code === 'D') cells[0] = value.replace(/\s+/g, '').replace(/'(\d{2})$/, '/20$1').replace(/'(\d{4})$/, '/$1');
    else if (code === 'T' || (code === 'U' && cells[1] === '')) [cells[1], at] = [value, i + 1];
    else if (code === 'P') cells[2] = value;
    else if (code === 'N') cells[3] = value;
    else if (code === 'M') cells[4] = value;
  });
  const read = readLedger(rows, field, options, ['Date', 'Amount', 'Payee', 'Num', 'Memo']);
  return { ...read, notes: ['read as QIF: each ^-ended block is one line, T its signed amount', ...read.notes] };
}

/** QuickBooks IIF: the TRNS line of each transaction is the bank account's side; SPL lines are the other side. */
function readIif(text: string, field: string, options: StatementOptions): Statement {
  const records = readRecords(text, field, MAX_ROWS * 4, '\t');
  const header = records.find((r) => r.cells[0] === '!TRNS')?.cells.slice(1);
  if (!header) throw new AgentInputError(field, 'an IIF file needs its !TRNS header line');
  let rows = records.filter((r) => r.cells[0] === 'TRNS').map((r) => ({ cells: r.cells.slice(1), line: r.line }));
  const accnt = header.findIndex((h) => h.toUpperCase() === 'ACCNT');
  const notes = ['read as QuickBooks IIF: each TRNS line is one entry of the bank account (signed); SPL lines are its other side'];
  if (accnt >= 0) {
    const counts = new Map<string, number>();
    for (const r of rows) counts.set(r.cells[accnt], (counts.get(r.cells[accnt]) ?? 0) + 1);
    if (counts.size > 1) {
      const main = [...counts].sort((a, b) => b[1] - a[1])[0][0];
      rows = rows.filter((r) => r.cells[accnt] === main);
      notes.push(`only the TRNS lines of ${JSON.stringify(main)}, the account most of them post to, are read`);
    }
  }
  const read = readLedger(rows, field, options, header);
  return { ...read, notes: [...notes, ...read.notes] };
}
