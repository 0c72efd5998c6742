/**
 * A grid of cells (a CSV export, a JSON array, key-value blocks, a pasted statement) read as a practitioner reads a
 * bank or ledger table: find the header row below any title or summary block (or, with no header, identify the
 * columns by content), skip the rows that are balances or totals, and settle each convention from the document's own
 * evidence: the decimal mark, the date order, and the direction of the money (a signed column, Debit/Credit or
 * in/out columns, a D/C-type mark, each with the side's default meaning, overruled by the running balance where the
 * export carries one).
 */
import { AgentInputError } from '../port.js';
import { parseMoney } from './amount.js';
import { calendarNote } from './calendars.js';
import { decideMark, typeDirection } from './ledger-conventions.js';
import { journalRows } from './journal.js';
import { BALANCE_LINE, plain } from './balance-lines.js';

export { BALANCE_LINE } from './balance-lines.js';
import { guessHeaders, isDate, mapColumns, markerColumn, namesDate } from './columns.js';
import { balanceCents, balanceScore, followBalance, movedBalances, readingOrder, signsFromBalance, unreadMoney } from './balance.js';
import { headerlessEdges, headerRowOf, num, realign, recordTypeTable, summaryBalances, suffixDirections, unquoteSingle, withYears } from './layout.js';

export { balanceScore } from './balance.js';
import { dateOrderEvidence, expandCompactDate, readDate, type DateOrder, type DateOrderEvidence } from './dates.js';
import type { RawRow, Transaction } from './table.js';

export interface StatementOptions {
  /** "bank": Debit/S/Dr = money out. "books" (the cash account in the ledger): Debit/S/Dr = money in. */
  perspective: 'bank' | 'books';
  /** The order for numeric dates the document itself does not settle. */
  dateOrder?: DateOrder;
}

export interface Statement {
  lines: Transaction[];
  /** What was read and decided, for the note (short sentences). */
  notes: string[];
  dates: DateOrderEvidence;
  /** The last day the document is known to be complete for (a statement in several parts, only the first given). */
  coversTo?: number;
  /** Why the direction of the amounts could not be told from the document (unsigned, no balance, no mark). */
  undecided?: string;
}

const MAX_CENTS = 10_000_000_000_000n;
/** A status that says the line never moved money (a failed transfer, a declined card, a released hold). */
const NOT_DONE = /^(?:failed|declined|reverted|cancell?ed|rejected|pending|void(?:ed)?|expired|fallid[oa]|rechazad[oa]|annullat[oa]|abgelehnt|storniert|fehlgeschlagen|echoue|refuse|cancelad[oa]|recusad[oa]|pendente|pendiente|agendad[oa]|programad[oa])$/i;
const abs = (n: bigint) => (n < 0n ? -n : n);
const quote = (s: string) => JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s);

/** Reads the transaction table inside `records` (the header, if any, found among them). */
export function readLedger(given: RawRow[], field: string, options: StatementOptions, givenHeaders?: string[]): Statement {
  const notes: string[] = [];
  let headers = givenHeaders;
  let records = givenHeaders ? given : unquoteSingle(given);
  let body = records;
  // A headerless export's summary row (the account, its period and balances), set aside before the lines are read.
  let summary: RawRow[] = [];
  if (!headers) {
    let at = headerRowOf(records);
    const typed = at < 0 ? recordTypeTable(records) : undefined;
    if (typed) {
      [records, at] = [typed.records, headerRowOf(typed.records)];
      notes.push(`every line opens with a record-type code: the code is not a column; the table is the lines of code ${typed.code}, those of code ${typed.others.join(', ')} are the export's own records (account, period, balances)`);
    }
    if (at >= 0) {
      headers = records[at].cells;
      body = records.slice(at + 1);
      if (at > 0 && !typed) notes.push(`the table starts at its header on line ${records[at].line} (the ${at} line${at === 1 ? '' : 's'} above it are a title or summary)`);
    } else {
      const { table, edges } = headerlessEdges(records);
      headers = guessHeaders(table.map((r) => r.cells), (amounts, balances) => balanceScore(amounts.map(num), balances.map(num)) >= 0.6);
      if (!headers && records.slice(0, 50).some((r) => namesDate(r.cells))) {
        throw new AgentInputError(field, 'no amount column found (expected Amount, or Debit/Credit, or Withdrawal/Deposit)');
      }
      if (!headers) throw new AgentInputError(field, 'no date column found (expected a header such as Date, Posted or Transaction Date)');
      const dateCol = headers.indexOf('Date');
      summary = records.filter((r) => edges.has(r) && !isDate(r.cells[dateCol] ?? ''));
      // A header that names the date but no money column this reader knows: the figures told the columns apart.
      const named = summary.find((r) => namesDate(r.cells));
      notes.push(`${named ? `the header (line ${named.line}) names no money column this reader knows` : 'no header row'}: the columns were identified by their content (${headers.filter((h) => h).join(', ')})`);
      body = records.filter((r) => !summary.includes(r));
    }
  }
  // A two-sided journal as the books: only its rows posted to the bank's account (journal.ts).
  const journal = options.perspective === 'books' ? journalRows(headers, body, field) : undefined;
  if (journal) [headers, body] = [journal.headers, journal.rows];
  if (journal) notes.push(journal.note);
  const { one: col, descriptions, amounts } = mapColumns(headers);
  if (col.date === undefined) throw new AgentInputError(field, 'no date column found (expected a header such as Date, Posted or Transaction Date)');
  // Dates printed without the year take it from the document's other text (its period), else from all of it.
  const textOf = (rows: RawRow[]) => rows.map((r) => r.cells.join(' ')).join('\n');
  const dated = withYears(body, [col.date, col.valueDate], textOf(records.filter((r) => !body.includes(r))));
  const yeared = dated && 'error' in dated ? withYears(body, [col.date, col.valueDate], textOf(records)) : dated;
  if (yeared && 'error' in yeared) throw new AgentInputError(field, yeared.error);
  if (yeared) {
    body = yeared.rows;
    notes.push(`the lines' dates carry no year: ${yeared.years.join(' and ')}, from the document's own dates`);
  }
  const realigned = realign(body, headers.length, descriptions, [col.out, col.in, col.debit, col.credit, col.balance, ...amounts]);
  body = realigned.rows;
  if (realigned.count > 0) {
    notes.push(`${realigned.count} row${realigned.count === 1 ? '' : 's'} had more cells than the header (a delimiter inside an unquoted description): the extra cells were read as part of the description`);
  }
  const cellOf = (r: RawRow, i: number | undefined) => (i === undefined ? '' : (r.cells[i] ?? '').trim());
  const filled = (i: number | undefined) => (i === undefined ? 0 : body.filter((r) => cellOf(r, i) !== '' && num(cellOf(r, i)) !== 0n).length);

  const books = options.perspective === 'books';
  const outCol = col.out ?? (books ? col.credit : col.debit);
  const inCol = col.in ?? (books ? col.debit : col.credit);
  const amountCol = amounts.length > 0 ? amounts.reduce((best, i) => (filled(i) > filled(best) ? i : best)) : undefined;
  const split = (outCol !== undefined || inCol !== undefined) && (amountCol === undefined || filled(outCol) + filled(inCol) > 0);
  if (!split && amountCol === undefined) {
    throw new AgentInputError(field, 'no amount column found (expected Amount, or Debit/Credit, or Withdrawal/Deposit)');
  }
  const moneyCols = (split ? [outCol, inCol] : [amountCol]).filter((i): i is number => i !== undefined);
  const decided = decideMark(body.map((r) => ({ money: moneyCols.map((i) => cellOf(r, i)), balance: cellOf(r, col.balance) })), split, books, field);
  const mark = decided.mark;
  if (decided.note) notes.push(decided.note);

  // Which rows are transactions: a readable date and money; balance lines and undated rows (totals, account
  // headings, footers) are not.
  interface Candidate { r: RawRow; dateText: string; out: bigint; inn: bigint; text: string; moneyText: string; balance?: bigint }
  const candidates: Candidate[] = [];
  // Balances that are not lines; `row` when a dated row that does not say it is a balance showed one without an amount.
  const anchors: { index: number; balance: bigint; row?: { r: RawRow; dateText: string; text: string } }[] = [];
  let skipped = 0;
  const notDone = new Map<string, number>();
  const voided: string[] = [];
  const setAside: string[] = [];
  let fromAmount = 0;
  for (const r of body) {
    if (r.cells.every((c) => c.trim() === '')) continue;
    const where = r.line > 0 ? `row ${candidates.length + 1} (line ${r.line})` : `row ${candidates.length + 1}`;
    const balance = col.balance === undefined ? undefined : balanceCents(cellOf(r, col.balance), mark, books);
    if (col.status !== undefined && NOT_DONE.test(plain(cellOf(r, col.status)))) {
      notDone.set(plain(cellOf(r, col.status)), (notDone.get(plain(cellOf(r, col.status))) ?? 0) + 1);
      continue;
    }
    if (col.voided !== undefined && /^(?:yes|y|true|1|x|void|voided)$/i.test(cellOf(r, col.voided))) {
      voided.push(r.line > 0 ? `line ${r.line}` : `row ${candidates.length + skipped + voided.length + 1}`);
      continue;
    }
    if (r.cells.some((c) => BALANCE_LINE.test(plain(c)))) {
      if (balance !== undefined) anchors.push({ index: candidates.length, balance });
      skipped++;
      continue;
    }
    const dateText = cellOf(r, col.date);
    if (readDate(expandCompactDate(dateText), 'mdy') === undefined && readDate(expandCompactDate(dateText), 'dmy') === undefined) {
      if (/^\d/.test(dateText) && moneyCols.some((i) => cellOf(r, i) !== '')) {
        throw new AgentInputError(field, `${where}: date ${quote(dateText)} is not a date this reader knows (use YYYY-MM-DD)`);
      }
      skipped++;
      continue;
    }
    const read = (i: number | undefined, what: string) => {
      const t = cellOf(r, i);
      if (t === '') return 0n;
      const cents = parseMoney(t, mark);
      if (cents === undefined) throw new AgentInputError(field, `${where}: ${what} ${quote(t)} is not an amount`);
      if (abs(cents) > MAX_CENTS) throw new AgentInputError(field, `${where}: ${what} ${quote(t)} is too large`);
      return cents;
    };
    let [out, inn] = split ? [abs(read(outCol, headers[outCol!] ?? 'amount')), abs(read(inCol, headers[inCol!] ?? 'amount'))] : [0n, read(amountCol, 'amount')];
    let moneyText = moneyCols.map((i) => cellOf(r, i)).filter((t) => t !== '').join(' ');
    // In/out columns empty on this row but the export's own signed amount filled: that figure is the line's.
    if (moneyText === '' && split && amountCol !== undefined && cellOf(r, amountCol) !== '') {
      const a = read(amountCol, headers[amountCol] ?? 'amount');
      [out, inn, moneyText] = [a < 0n ? -a : 0n, a > 0n ? a : 0n, cellOf(r, amountCol)];
      fromAmount++;
    }
    if (moneyText === '') {
      if (balance !== undefined) {
        const text = descriptions.map((i) => cellOf(r, i)).filter((t) => t !== '').join(' ');
        anchors.push({ index: candidates.length, balance, row: { r, dateText, text } });
        skipped++;
        continue;
      }
      // A dated line with no figure at all (a pending card hold, an information line) moved no money that can be
      // read: it is set aside and named, not a reason to refuse the whole export.
      setAside.push(r.line > 0 ? `line ${r.line}` : `row ${candidates.length + skipped + setAside.length + 1}`);
      continue;
    }
    const text = descriptions.map((i) => cellOf(r, i)).filter((t) => t !== '').join(' ');
    candidates.push({ r, dateText, out, inn, text, moneyText, balance });
  }
  if (notDone.size > 0) {
    const n = [...notDone.values()].reduce((a, b) => a + b, 0);
    const what = [...notDone].map(([s, k]) => `${k} ${s}`).join(', ');
    notes.push(`${n} row${n === 1 ? '' : 's'} whose ${headers[col.status!].trim()} says the money never moved (${what}) ${n === 1 ? 'is' : 'are'} not transactions`);
  }
  if (voided.length > 0) {
    const n = voided.length;
    notes.push(`${n === 1 ? 'a row' : `${n} rows`} marked voided in the ${headers[col.voided!].trim()} column (${voided.slice(0, 5).join(', ')}${n > 5 ? ', …' : ''}) ${n === 1 ? 'is' : 'are'} not ${n === 1 ? 'a transaction' : 'transactions'}: a voided document never moved money`);
  }
  if (setAside.length > 0) {
    notes.push(`${setAside.length === 1 ? 'a dated row' : `${setAside.length} dated rows`} with no amount in any money column (${setAside.slice(0, 5).join(', ')}${setAside.length > 5 ? ', …' : ''}) ${setAside.length === 1 ? 'was' : 'were'} set aside: ${setAside.length === 1 ? 'it moves' : 'they move'} no money that can be read`);
  }
  if (fromAmount > 0) notes.push(`${fromAmount} row${fromAmount === 1 ? '' : 's'} with the in/out columns empty ${fromAmount === 1 ? 'was' : 'were'} read from the signed amount column`);
  const skippedAt = notes.length;
  const skippedNote = () => `${skipped} row${skipped === 1 ? ' is' : 's are'} balances, totals or headings, not transactions`;
  if (skipped > 0) notes.push(skippedNote());

  // Direction. Default: the columns' meaning for this side; a mark column or a type word for unsigned amounts.
  let signed = candidates.map((c) => c.inn - c.out);
  if (!split) {
    const marked = suffixDirections(candidates.map((c) => c.moneyText), books);
    if (marked) {
      signed = signed.map((a, k) => abs(a) * BigInt(marked[k]));
      notes.push('the CR/DR written after the amounts gives their direction (an amount without one goes the other way)');
    }
  }
  const marker = split ? undefined : markerColumn(candidates.map((c) => c.r.cells), new Set([col.date, amountCol!, col.balance ?? -1]));
  const unsigned = !split && signed.every((a) => a >= 0n);
  if (unsigned && marker) {
    const [debitMark] = marker.pair;
    // Af/Bij (Dutch: off/on) means the same on both sides; S/H, D/C, Dr/Cr are the bank's or the ledger's own.
    const debitIsOut = debitMark === 'AF' || !books;
    signed = candidates.map((c, k) => {
      const isDebit = (c.r.cells[marker.col] ?? '').trim().toUpperCase() === debitMark;
      return isDebit === debitIsOut ? -signed[k] : signed[k];
    });
    notes.push(`the ${marker.pair.join('/')} mark gives each amount its direction (${marker.pair[0]} = money ${debitIsOut ? 'out' : 'in'})`);
  } else if (unsigned && col.type !== undefined) {
    signed = candidates.map((c, k) => signed[k] * BigInt(typeDirection(cellOf(c.r, col.type), books)));
  }
  const balances = candidates.map((c) => c.balance);
  const withAnchors = (amounts: bigint[]) => {
    const a: (bigint | undefined)[] = [];
    const b: (bigint | undefined)[] = [];
    let k = 0;
    for (let i = 0; i <= candidates.length; i++) {
      for (const anchor of anchors.filter((x) => x.index === i)) {
        a.push(undefined);
        b.push(anchor.balance);
      }
      if (i < candidates.length) {
        a.push(amounts[k]);
        b.push(balances[k++]);
      }
    }
    return [a, b] as const;
  };
  const printedBalance = balances.some((b) => b !== undefined);
  if (printedBalance && candidates.length > 0 && unsigned && !marker && (col.type === undefined || signed.every((a) => a >= 0n))) {
    signed = signsFromBalance(...withAnchors(signed), field, candidates.map((c) => c.r.line));
    notes.push('the direction of each amount is read from the running balance');
  } else if ((printedBalance || anchors.length > 1) && candidates.length > 0) {
    const lines = readingOrder(candidates.map((c) => c.dateText), dateOrderEvidence(candidates.map((c) => c.dateText)).order ?? options.dateOrder ?? 'mdy');
    const turned = followBalance(signed, withAnchors, lines);
    if (turned.flip) signed = signed.map((a) => -a);
    if (turned.note) notes.push(turned.note);
  }
  const unread = printedBalance ? unreadMoney(...withAnchors(signed)) : undefined;
  if (unread !== undefined) {
    const c = candidates[unread];
    throw new AgentInputError(field, `${c.r.line > 0 ? `line ${c.r.line}` : `row ${unread + 1}`}: the running balance moves on this row but the money columns read (${moneyCols.map((i) => quote(headers[i] ?? '')).join(', ')}) hold no amount for it: a money column whose header this reader does not know`);
  }

  // A dated row with a balance and no amount whose balance moved: money moved on it, and the step is its amount.
  const moved = balances.some((b) => b !== undefined) ? movedBalances(...withAnchors(signed), anchors.map((a) => a.row !== undefined)) : new Map<number, bigint>();
  [...moved].sort((a, b) => anchors[b[0]].index - anchors[a[0]].index || b[0] - a[0]).forEach(([k, amount]) => {
    const { index, balance, row } = anchors[k];
    candidates.splice(index, 0, { ...row!, out: amount < 0n ? -amount : 0n, inn: amount > 0n ? amount : 0n, moneyText: '', balance });
    signed.splice(index, 0, amount);
    skipped--;
  });
  if (moved.size > 0) {
    if (skipped > 0) notes[skippedAt] = skippedNote();
    else notes.splice(skippedAt, 1);
    const where = [...moved.keys()].map((k) => anchors[k].row!.r.line).filter((l) => l > 0).map((l) => `line ${l}`).join(', ');
    notes.push(`${moved.size === 1 ? 'a row' : `${moved.size} rows`} with a balance and no amount (${where}) moved the balance: each is read as a line of the step`);
  }

  for (const r of summary) {
    const agree = summaryBalances(r.cells, signed.reduce((a, b) => a + b, 0n));
    if (!namesDate(r.cells)) notes.push(`line ${r.line} is the export's summary (account, period, balances or totals), not a transaction${agree ? `; its balances ${agree[0]} and ${agree[1]} differ by exactly the lines' sum` : ''}`);
  }
  const texts = candidates.flatMap((c) => [c.dateText, cellOf(c.r, col.valueDate)]);
  const calendar = calendarNote(texts);
  if (calendar) notes.push(calendar);
  const dates = dateOrderEvidence(texts);
  if (dates.conflict) throw new AgentInputError(field, dates.conflict);
  const order = dates.order ?? options.dateOrder ?? 'mdy';
  const lines = candidates.map((c, k): Transaction => {
    const reference = cellOf(c.r, col.reference);
    return {
      row: k + 1,
      date: readDate(expandCompactDate(c.dateText), order) ?? readDate(expandCompactDate(c.dateText), order === 'mdy' ? 'dmy' : 'mdy')!,
      dateText: c.dateText,
      description: c.text.replace(/\s+/g, ' ').slice(0, 500),
      amountCents: signed[k],
      ...(reference === '' ? {} : { reference: reference.slice(0, 100) }),
      amountText: c.moneyText,
      ...(c.r.line > 0 ? { line: c.r.line } : {}),
    };
  });
  return { lines, notes, dates };
}
