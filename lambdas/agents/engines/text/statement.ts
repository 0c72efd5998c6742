/**
 * Any export of a bank account's lines read into signed transactions (money in +, money out −): the file is first
 * identified (OFX/QFX, CAMT.053, MT940, QuickBooks IIF, JSON, key-value blocks, delimited text, a pasted statement),
 * then read by the reader for that form. The tabular forms share ledger.ts; the bank formats' documented fields are
 * read here directly (compact readers: the XML and SGML libraries that would do it do not fit the bundle budget).
 */
import { AgentInputError } from '../port.js';
import { decimalMarkOf, parseMoney } from './amount.js';
import { mapColumns } from './columns.js';
import { readDate } from './dates.js';
import { readLedger, type Statement, type StatementOptions } from './ledger.js';
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
  if (/<BkToCstmrStmt\b/.test(trimmed.slice(0, 4000))) return readCamt(body, field);
  if (/^:61:/m.test(body) && /^:(?:20|25|60[FM]):/m.test(body)) return readMt940(body, field);
  if (/^!TRNS\b/m.test(body)) return readIif(body, field, options);
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    const { headers, rows } = readJson(trimmed, field, MAX_ROWS);
    if (rows.length === 0) return { lines: [], notes: [], dates: {} };
    return readLedger(rows, field, options, headers);
  }
  const blocks = keyValueBlocks(body);
  if (blocks) return readLedger(blocks.rows, field, options, blocks.headers);
  const records = readRecords(body, field, MAX_ROWS, chooseDelimiter(body));
  try {
    return readLedger(records, field, options);
  } catch (e) {
    const pasted = pastedLines(body);
    if (!(e instanceof AgentInputError) || !/no date column/.test(e.message) || !pasted) throw e;
    const read = readLedger(pasted.rows, field, options, ['Date', 'Description', 'Amount', 'Balance']);
    if (pasted.year) read.notes.unshift(`the lines' dates carry no year: ${pasted.year}, the one year of the statement's own dates`);
    read.notes.unshift('read as a pasted statement: a date, the particulars, then the amount and the balance after it on each line');
    return read;
  }
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

/** 1-based line of each offset of a text. */
function lineIndex(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) starts.push(i + 1);
  }
  return (offset) => {
    let [lo, hi] = [0, starts.length - 1];
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
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
const YEARLESS = new RegExp(`^(?:\\d{1,2}[/.-]\\d{1,2}|\\d{1,2}[ -]${MONTH}|${MONTH} \\d{1,2})$`, 'i');
const FULL_DATE = /\b(?:\d{1,2}[/.-]\d{1,2}[/.-](\d{4})|(\d{4})-\d{2}-\d{2}|\d{1,2} [A-Za-z]{3,9}\.? (\d{4})|[A-Za-z]{3,9}\.? \d{1,2},? (\d{4}))\b/g;
const MONEY_LAST = /(?:^|\s)(\(?[-+]?[$€£]?(?:(?:\d{1,3}(?:,\d{3})+|\d+)\.\d{2}|(?:\d{1,3}(?:\.\d{3})+|\d+),\d{2})\)?-?(?:\s?(?:cr|dr))?)\s*$/i;

/**
 * Lines of a statement pasted from a PDF: a date first, then text, then one or two figures (amount, balance). A
 * statement that prints its lines' dates without the year ("03/02") gives the year once, in its period or heading;
 * when every full date in the text is of one year, that is the year of its lines (else a yearless line is not read).
 */
function pastedLines(text: string): { rows: RawRow[]; year?: string } | undefined {
  const years = new Set([...text.matchAll(FULL_DATE)].map((m) => m[1] ?? m[2] ?? m[3] ?? m[4]));
  const year = years.size === 1 ? [...years][0] : undefined;
  const rows: { cells: string[]; line: number; figures: string[] }[] = [];
  let yearless = 0;
  text.split(/\r\n|\r|\n/).forEach((l, i) => {
    const m = DATE_FIRST.exec(l);
    if (!m) return;
    let date = m[1];
    if (YEARLESS.test(date)) {
      if (!year) return;
      date = /^[a-z]/i.test(date) ? `${date}, ${year}` : `${date}${/[/.-]/.test(date) ? date.match(/[/.-]/)![0] : ' '}${year}`;
      yearless++;
    }
    let rest = m[2];
    const figures: string[] = [];
    for (let k = 0; k < 2; k++) {
      const f = MONEY_LAST.exec(rest);
      if (!f) break;
      figures.unshift(f[1]);
      rest = rest.slice(0, f.index).trimEnd();
    }
    if (figures.length > 0) rows.push({ cells: [date, rest], line: i + 1, figures });
  });
  if (rows.length === 0) return undefined;
  // Where some lines print the balance after the amount, a line with one figure is a balance line.
  const withBalance = rows.some((r) => r.figures.length === 2);
  return {
    rows: rows.map(({ cells, line, figures }) => {
      const [amount, balance] = figures.length === 2 ? figures : withBalance ? ['', figures[0]] : [figures[0], ''];
      return { cells: [...cells, amount, balance], line };
    }),
    ...(yearless > 0 ? { year } : {}),
  };
}

const decode = (s: string) =>
  s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&').trim();
const isoOf = (digits: string) => `${digits.slice(0, 4)}-${digits.slice(4, 6)}-${digits.slice(6, 8)}`;

function line(field: string, k: number, dateText: string, amountCents: bigint | undefined, description: string, reference: string | undefined, at: number): Transaction {
  const date = readDate(dateText, 'mdy');
  if (date === undefined) throw new AgentInputError(field, `transaction ${k}: date ${JSON.stringify(dateText.slice(0, 40))} is not a date`);
  if (amountCents === undefined) throw new AgentInputError(field, `transaction ${k}: the amount is not an amount`);
  return {
    row: k,
    date,
    dateText,
    description: decode(description).replace(/\s+/g, ' ').slice(0, 500),
    amountCents,
    ...(reference ? { reference: decode(reference).slice(0, 100) } : {}),
    amountText: (Number(amountCents) / 100).toFixed(2),
    line: at,
  };
}

/**
 * OFX 1.x (SGML, leaf tags unclosed) and 2.x (XML). A bank statement's lines are its <STMTTRN>s, TRNAMT signed. An
 * investment statement's cash moves are its bank transactions (INVBANKTRAN's STMTTRN) and the cash TOTAL of each
 * income, buy, sell, return of capital, margin interest and expense (settlement date, else trade date); a
 * reinvestment moves no cash, and positions, balances and the security list are not lines.
 */
function readOfx(text: string, field: string): Statement {
  const at = lineIndex(text);
  const blocks = [...text.matchAll(/<(STMTTRN|INCOME|BUY[A-Z]+|SELL[A-Z]+|RETOFCAP|MARGININTEREST|INVEXPENSE)>[\s\S]*?<\/\1>/gi)];
  const leaf = (block: string, tag: string) => new RegExp(`<${tag}>([^<\\r\\n]*)`, 'i').exec(block)?.[1].trim() ?? '';
  const amountOf = (block: string) => (/^<STMTTRN>/i.test(block) ? 'TRNAMT' : 'TOTAL');
  const mark = decimalMarkOf(blocks.map(([b]) => leaf(b, amountOf(b)))).mark;
  const seen = new Set<string>();
  const lines: Transaction[] = [];
  let repeats = 0;
  let investment = 0;
  for (const { 0: b, index } of blocks) {
    const fitid = leaf(b, 'FITID');
    if (fitid && seen.has(fitid)) {
      repeats++;
      continue;
    }
    if (fitid) seen.add(fitid);
    const tag = amountOf(b);
    if (tag === 'TOTAL') investment++;
    const posted = (leaf(b, 'DTPOSTED') || leaf(b, 'DTSETTLE') || leaf(b, 'DTTRADE')).slice(0, 8);
    const text = [leaf(b, 'NAME'), leaf(b, 'PAYEE'), leaf(b, 'MEMO')].filter((t) => t).join(' ');
    const amountAt = at(index! + Math.max(0, b.search(new RegExp(`<${tag}>`, 'i'))));
    lines.push(line(field, lines.length + 1, isoOf(posted), parseMoney(leaf(b, tag), mark), text, leaf(b, 'CHECKNUM') || leaf(b, 'REFNUM'), amountAt));
  }
  const notes = ['read as an OFX statement: each STMTTRN is one line, TRNAMT signed; the ledger and available balances are not lines'];
  if (investment > 0) notes.push(`${investment} investment transaction${investment === 1 ? '' : 's'} (income, buys, sells) read by the cash TOTAL each moved, dated by settlement; positions and the security list are not lines`);
  if (repeats > 0) notes.push(`${repeats} STMTTRN repeat${repeats === 1 ? 's' : ''} an earlier FITID (the same line downloaded twice) and ${repeats === 1 ? 'is' : 'are'} read once`);
  return { lines, notes, dates: {} };
}

/** CAMT.053: each <Ntry> is one statement line (its TxDtls, even several, are details of that one line). */
function readCamt(text: string, field: string): Statement {
  const at = lineIndex(text);
  const lines: Transaction[] = [];
  let batches = 0;
  let pending = 0;
  for (const { 0: block, index } of text.matchAll(/<Ntry>[\s\S]*?<\/Ntry>/g)) {
    const head = block.replace(/<NtryDtls>[\s\S]*?<\/NtryDtls>/g, '');
    const tag = (t: string, s = head) => new RegExp(`<${t}(?:\\s[^>]*)?>([^<]*)</${t}>`).exec(s)?.[1].trim() ?? '';
    const status = /<Sts>\s*(?:<Cd>)?\s*(\w+)/.exec(head)?.[1];
    if (status && status !== 'BOOK') {
      pending++;
      continue;
    }
    const cents = parseMoney(tag('Amt'), '.');
    const sign = tag('CdtDbtInd') === 'DBIT' ? -1n : 1n;
    const date = /<BookgDt>\s*<(?:Dt|DtTm)>([^<]{10})/.exec(head)?.[1] ?? /<ValDt>\s*<(?:Dt|DtTm)>([^<]{10})/.exec(head)?.[1] ?? '';
    const all = (t: string) => [...block.matchAll(new RegExp(`<${t}>([^<]*)</${t}>`, 'g'))].map((m) => m[1].trim());
    if ((block.match(/<TxDtls>/g) ?? []).length > 1) batches++;
    const e2e = all('EndToEndId').find((r) => r !== 'NOTPROVIDED');
    const text = [...all('Nm'), ...all('Ustrd'), tag('AddtlNtryInf'), ...all('AddtlTxInf')].filter((t) => t).join(' ');
    const amountAt = at(index! + Math.max(0, block.search(/<Amt\b/)));
    lines.push(line(field, lines.length + 1, date, cents === undefined ? undefined : sign * cents, text, e2e ?? tag('AcctSvcrRef'), amountAt));
  }
  const notes = ['read as a CAMT.053 statement: each Ntry is one line (Amt with CdtDbtInd, booking date); the Bal and TxsSummry blocks are not lines'];
  if (batches > 0) notes.push(`${batches} entr${batches === 1 ? 'y carries' : 'ies carry'} several TxDtls (a batch): one bank line each`);
  if (pending > 0) notes.push(`${pending} entr${pending === 1 ? 'y is' : 'ies are'} not booked (Sts other than BOOK) and ${pending === 1 ? 'is' : 'are'} left out`);
  return { lines, notes, dates: {} };
}

const SWIFT_61 = /^(\d{2})(\d{2})(\d{2})(\d{2})?(\d{2})?(RC|RD|C|D)[A-Z]?(\d+,\d{0,2})[A-Z][A-Z0-9]{3}([^/\n]*)/;

/**
 * MT940: each :61: is a line (value date, entry date, C/D/RC/RD mark, amount with a decimal comma); :86: its text.
 * A message that closes with an intermediate balance (:62M:) and no final one (:62F:) is one part of a statement
 * that continues in another message: what the bank booked after its last day is not in it.
 */
function readMt940(text: string, field: string): Statement {
  const fields: [string, string, number][] = [];
  text.split(/\r\n|\r|\n/).forEach((l, i) => {
    const m = /^:(\d{2}[A-Z]?):(.*)$/.exec(l);
    if (m) fields.push([m[1], m[2], i + 1]);
    else if (fields.length > 0 && l.trim() !== '-') fields[fields.length - 1][1] += `\n${l}`;
  });
  const lines: Transaction[] = [];
  fields.forEach(([tag, value, at], i) => {
    if (tag !== '61') return;
    const m = SWIFT_61.exec(value);
    const k = lines.length + 1;
    if (!m) throw new AgentInputError(field, `transaction ${k}: :61: ${JSON.stringify(value.slice(0, 40))} is not a statement line`);
    const [, yy, vm, vd, em, ed, mark, amount, ref] = m;
    let year = 2000 + Number(yy);
    if (em && Number(em) === 12 && Number(vm) === 1) year--;
    if (em && Number(em) === 1 && Number(vm) === 12) year++;
    const date = em && ed ? `${year}-${em}-${ed}` : `${year}-${vm}-${vd}`;
    const cents = parseMoney(amount, ',');
    const sign = mark === 'C' || mark === 'RD' ? 1n : -1n;
    const next = fields[i + 1];
    const narrative = next?.[0] === '86' ? next[1].replace(/\r?\n/g, '').replace(/\?\d{2}/g, ' ').replace(/~\d{2}/g, ' ') : '';
    lines.push(line(field, k, date, cents === undefined ? undefined : sign * cents, narrative, ref && ref !== 'NONREF' ? ref : undefined, at));
  });
  const notes = ['read as an MT940 statement: each :61: is one line (C and RD money in, D and RC money out; decimal comma), :86: its text; :60F:/:62F: are balances'];
  const intermediate = fields.filter(([tag]) => tag === '62M').pop();
  const final = fields.some(([tag]) => tag === '62F');
  const until = intermediate && /^[CD](\d{6})/.exec(intermediate[1].trim())?.[1];
  if (intermediate && !final && until) {
    const day = readDate(`20${until.slice(0, 2)}-${until.slice(2, 4)}-${until.slice(4, 6)}`, 'mdy');
    if (day !== undefined) {
      notes.push(`the message ends at an intermediate balance (:62M: of 20${until.slice(0, 2)}-${until.slice(2, 4)}-${until.slice(4, 6)}) with no final :62F:: the statement continues in a further message, so nothing after that day can be confirmed from this one`);
      return { lines, notes, dates: {}, coversTo: day };
    }
  }
  return { lines, notes, dates: {} };
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
