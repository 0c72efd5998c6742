/**
 * A pasted bank or ledger export read into transactions: CSV text (header row; comma, semicolon, tab or pipe
 * delimiter; RFC 4180 quotes) or a JSON array of objects serialized as text. Columns are recognised by their header
 * names; money is read by parseCents into integer cents and dates into day numbers (days since 1970-01-01).
 *
 * Everything here is one pass over the text (a character loop, anchored regexes on single short cells), so a
 * megabyte of hostile text costs milliseconds. Anything unreadable is the buyer's error: AgentInputError naming the
 * caller's input field and the row.
 */
import { AgentInputError } from '../port.js';
import { parseCents } from './amount.js';
import { dayNumberOf, type DateOrder } from './dates.js';
import { readCsv, readJson } from './csv.js';

export { detectDelimiter, readCsv, readJson, readRecords, type RawRow } from './csv.js';

export { isoDate } from './dates.js';

export interface Transaction {
  /** 1-based position among the data rows (the header and blank lines are not counted). */
  row: number;
  /** Days since 1970-01-01. */
  date: number;
  dateText: string;
  description: string;
  /** Signed: money in +, money out −. */
  amountCents: bigint;
  reference?: string;
  /** The amount cell(s) as written, e.g. "$1,200.00" (for currency hints). */
  amountText: string;
  /** 1-based line of the input text the transaction was read from (for XML and OFX, the line holding its amount). */
  line?: number;
  /** That line, verbatim: what a finding about this transaction quotes. */
  source?: string;
  /**
   * The items a batch line is made of, as the bank itemises it (a CAMT entry's TxDtls), signed like the line and
   * adding up to it exactly; absent when the line is not itemised or its items do not add up.
   */
  items?: { amountCents: bigint; text: string; line: number }[];
}

export interface TableOptions {
  /**
   * Whose Debit/Credit columns these are. "bank" (a bank statement; the default): Debit = money out of the account.
   * "books" (the cash account in the ledger): Debit = money into cash. Withdrawal/Deposit, Money in/out and
   * Paid in/out columns mean the same on both sides.
   */
  perspective?: 'bank' | 'books';
  /** Numeric dates with the year last: month first (US, the default) unless the column itself proves otherwise. */
  dateOrder?: DateOrder;
  maxRows?: number;
}

export interface TransactionTable {
  transactions: Transaction[];
  headers: string[];
  /** True when the money came from separate Debit/Credit (or in/out) columns. */
  splitColumns: boolean;
  /** The header of the amount column(s), e.g. "Amount (USD)". */
  amountHeaders: string[];
}

export const MAX_ROWS = 20_000;
export const MAX_TEXT = 5_000_000;
/** 100 billion currency units: beyond this a figure is a typo or an attack, and sums stop being exact doubles. */
const MAX_CENTS = 10_000_000_000_000n;

type Role = 'date' | 'description' | 'amount' | 'out' | 'in' | 'debit' | 'credit' | 'type' | 'reference';

/** Exact header names (normalised: lower case, words only), best first within a role. */
const NAMES: Record<Role, string[]> = {
  date: ['date', 'transaction date', 'trans date', 'txn date', 'posting date', 'posted date', 'post date', 'posted',
    'booking date', 'entry date', 'effective date', 'value date', 'cleared date'],
  description: ['description', 'transaction description', 'narrative', 'details', 'detail', 'particulars', 'memo',
    'memo description', 'payee', 'payee name', 'name', 'merchant', 'counterparty', 'remarks', 'text'],
  amount: ['amount', 'transaction amount', 'net amount', 'value', 'sum'],
  out: ['withdrawal', 'withdrawals', 'withdrawal amount', 'money out', 'paid out', 'payment', 'payments', 'spent',
    'outflow', 'out'],
  in: ['deposit', 'deposits', 'deposit amount', 'money in', 'paid in', 'receipt', 'receipts', 'received', 'inflow',
    'in'],
  debit: ['debit', 'debits', 'debit amount', 'dr'],
  credit: ['credit', 'credits', 'credit amount', 'cr'],
  type: ['type', 'transaction type', 'dr cr', 'cr dr', 'debit credit', 'credit debit', 'd c'],
  reference: ['reference', 'ref', 'ref no', 'reference no', 'reference number', 'check', 'check no', 'check number',
    'cheque', 'cheque no', 'cheque number', 'chk', 'chk no', 'num', 'no', 'number', 'doc no', 'document no',
    'document number', 'transaction id', 'id'],
};
/** Words that claim a header for a role when no exact name matched, tried in this order. */
const WORDS: [Role, string[]][] = [
  ['debit', ['debit', 'debits']],
  ['credit', ['credit', 'credits']],
  ['out', ['withdrawal', 'withdrawals', 'payment', 'payments']],
  ['in', ['deposit', 'deposits', 'receipts']],
  ['date', ['date']],
  ['reference', ['reference', 'ref', 'check', 'cheque']],
  ['amount', ['amount']],
  ['description', ['description', 'memo', 'payee', 'narrative', 'details']],
];

const normaliseHeader = (h: string) =>
  h.toLowerCase().replace(/#/g, ' no ').replace(/[^a-z0-9]+/g, ' ').trim().replace(/ usd$| eur$| gbp$/, '');

/** Role → column index. Each column serves one role; exact names beat word matches. */
function mapColumns(headers: string[]): Partial<Record<Role, number>> {
  const norm = headers.map(normaliseHeader);
  const taken = new Set<number>();
  const map: Partial<Record<Role, number>> = {};
  for (const role of Object.keys(NAMES) as Role[]) {
    let best = -1;
    let bestRank = Infinity;
    norm.forEach((h, i) => {
      const rank = NAMES[role].indexOf(h);
      if (rank >= 0 && rank < bestRank && !taken.has(i)) [best, bestRank] = [i, rank];
    });
    if (best >= 0) {
      map[role] = best;
      taken.add(best);
    }
  }
  for (const [role, words] of WORDS) {
    if (map[role] !== undefined) continue;
    const i = norm.findIndex((h, j) => !taken.has(j) && h.split(' ').some((w) => words.includes(w)));
    if (i >= 0) {
      map[role] = i;
      taken.add(i);
    }
  }
  return map;
}

export function readTransactionTable(text: string, field: string, options: TableOptions = {}): TransactionTable {
  const maxRows = options.maxRows ?? MAX_ROWS;
  if (text.length > MAX_TEXT) throw new AgentInputError(field, `is longer than ${MAX_TEXT} characters`);
  const body = text.replace(/^\uFEFF/, '');
  const trimmed = body.trimStart();
  const json = trimmed.startsWith('[') || trimmed.startsWith('{');
  const { headers, rows } = json ? readJson(trimmed, field, maxRows) : readCsv(body, field, maxRows);
  const col = mapColumns(headers);
  if (col.date === undefined) {
    throw new AgentInputError(field, 'no date column found (expected a header such as Date, Posted or Transaction Date)');
  }
  const books = options.perspective === 'books';
  const outCol = col.out ?? (books ? col.credit : col.debit);
  const inCol = col.in ?? (books ? col.debit : col.credit);
  const split = col.amount === undefined && (outCol !== undefined || inCol !== undefined);
  if (col.amount === undefined && !split) {
    throw new AgentInputError(field, 'no amount column found (expected Amount, or Debit/Credit, or Withdrawal/Deposit)');
  }
  const amountHeaders = (split ? [outCol, inCol] : [col.amount]).filter((i) => i !== undefined).map((i) => headers[i!]);
  const dates = dayNumberOf(rows.map((r) => r.cells[col.date!] ?? ''), options.dateOrder ?? 'mdy');

  const transactions = rows.map((r, k): Transaction => {
    const row = k + 1;
    const where = !json && r.line > 0 ? `row ${row} (line ${r.line})` : `row ${row}`;
    const cell = (i: number | undefined) => (i === undefined ? '' : (r.cells[i] ?? '').trim());
    const dateText = cell(col.date);
    const date = dates[k];
    if (date === undefined) {
      throw new AgentInputError(field, `${where}: date ${quote(dateText)} is not a date this reader knows (use YYYY-MM-DD)`);
    }
    if (typeof date === 'string') throw new AgentInputError(field, `${where}: ${date}`);
    let amountCents: bigint;
    let amountText: string;
    if (!split) {
      amountText = cell(col.amount);
      amountCents = money(amountText, 'amount', where, field);
      const direction = typeDirection(cell(col.type), books);
      if (direction !== 0) amountCents = abs(amountCents) * BigInt(direction);
    } else {
      const outText = cell(outCol);
      const inText = cell(inCol);
      if (outText === '' && inText === '') throw new AgentInputError(field, `${where}: neither a money-out nor a money-in amount`);
      const out = outText === '' ? 0n : abs(money(outText, headers[outCol!], where, field));
      const inn = inText === '' ? 0n : abs(money(inText, headers[inCol!], where, field));
      amountCents = inn - out;
      amountText = [outText, inText].filter((t) => t !== '').join(' ');
    }
    const reference = cell(col.reference);
    return {
      row,
      date,
      dateText,
      description: cell(col.description).replace(/\s+/g, ' ').slice(0, 500),
      amountCents,
      ...(reference === '' ? {} : { reference: reference.slice(0, 100) }),
      amountText,
    };
  });
  return { transactions, headers, splitColumns: split, amountHeaders };
}

export function parseTransactions(text: string, field: string, options?: TableOptions): Transaction[] {
  return readTransactionTable(text, field, options).transactions;
}

function money(text: string, what: string, where: string, field: string): bigint {
  const cents = parseCents(text);
  if (cents === undefined) throw new AgentInputError(field, `${where}: ${what} ${quote(text)} is not an amount`);
  if (abs(cents) > MAX_CENTS) throw new AgentInputError(field, `${where}: ${what} ${quote(text)} is too large`);
  return cents;
}

// Not "payment": in a QuickBooks register a Payment is a customer's payment received.
const OUT_TYPES = new Set(['withdrawal', 'out', 'debit card', 'check', 'cheque', 'fee']);
const IN_TYPES = new Set(['deposit', 'in', 'receipt', 'interest']);
/** −1 money out, +1 money in, 0 unknown (the amount keeps its own sign). */
function typeDirection(type: string, books: boolean): number {
  const t = type.toLowerCase().replace(/[^a-z ]+/g, '').trim();
  if (t === '') return 0;
  if (t === 'dr' || t === 'debit') return books ? 1 : -1;
  if (t === 'cr' || t === 'credit') return books ? -1 : 1;
  if (OUT_TYPES.has(t)) return -1;
  if (IN_TYPES.has(t)) return 1;
  return 0;
}

const abs = (n: bigint) => (n < 0n ? -n : n);
const quote = (s: string) => JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s);

