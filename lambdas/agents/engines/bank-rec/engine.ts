/**
 * Bank reconciliation discrepancy finder (rules: RULES.md beside this file).
 *
 * 1. Read both exports into signed transactions (money in +, money out −; the books' Debit/Credit columns read as
 *    the cash account: Debit = money in).
 * 2. Pair bank lines with book entries one-to-one (match.ts).
 * 3. Every pair with different amounts, every pair more than MATCH_DAYS apart and every line left alone becomes an
 *    exception whose amount is its share of (bank total − book total), so the amounts add up to net_unreconciled.
 */
import type { AgentEngine } from '../port.js';
import { centsToNumber, formatCents } from '../text/amount.js';
import { isoDate, parseTransactions } from '../text/table.js';
import { MATCH_DAYS, pairLines, toLine, type Line, type Pair } from './match.js';
import { exceptionTypes, type BankRecInput, type BankRecResult, type ExceptionType } from './schema.js';

interface Found {
  type: ExceptionType;
  detail: string;
  cents: bigint;
  /** Sort key within its type: the bank row, else the book row. */
  order: number;
}

export const bankRecEngine: AgentEngine<BankRecInput, BankRecResult> = {
  id: 'bank-rec/rules@1',
  analyse(input) {
    const bank = parseTransactions(input.bankStatement, 'bankStatement', { perspective: 'bank' }).map((t) =>
      toLine(t, 'bank'),
    );
    const books = parseTransactions(input.bookEntries, 'bookEntries', { perspective: 'books' }).map((t) =>
      toLine(t, 'books'),
    );
    const pairs = pairLines(bank, books);
    const found = [...pairs.flatMap(fromPair), ...leftovers(bank, pairs), ...leftovers(books, pairs)];
    found.sort((a, b) => exceptionTypes.indexOf(a.type) - exceptionTypes.indexOf(b.type) || a.order - b.order);

    const net = sum(bank) - sum(books);
    const explained = found.reduce((s, f) => s + f.cents, 0n);
    if (explained !== net) throw new Error(`bank-rec invariant broken: exceptions ${explained} ≠ net ${net}`);
    const matched = pairs.filter((p) => p.kind === 'exact').length;
    const reconciled = found.every((f) => f.type === 'timing_difference');
    return {
      reconciled,
      matched,
      exceptions: found.map((f) => ({ type: f.type, detail: f.detail, amount: centsToNumber(f.cents) })),
      net_unreconciled: centsToNumber(net),
      note: summary(reconciled, matched, found, net, bank.length, books.length),
    };
  },
};

const sum = (lines: Line[]) => lines.reduce((s, l) => s + l.amountCents, 0n);
const money = (cents: bigint) => formatCents(cents);
/** A description as quoted data: control characters dropped, at most 60 characters. */
const said = (l: Line) => {
  // eslint-disable-next-line no-control-regex
  const d = l.description.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ').trim();
  return d === '' ? '(no description)' : JSON.stringify(d.length > 60 ? `${d.slice(0, 60)}…` : d);
};
const at = (l: Line) => `${l.side === 'bank' ? 'bank' : 'book'} row ${l.row}, ${isoDate(l.date)}`;

function fromPair(p: Pair): Found[] {
  const { bank, book } = p;
  if (p.kind === 'mismatch') {
    const what = p.by === 'check number' ? `Check ${bank.check}` : p.by === 'reference' ? `Reference ${bank.reference}` : said(bank);
    const diff = bank.amountCents - book.amountCents;
    return [{
      type: 'amount_mismatch',
      detail: `${what} (same ${p.by}): books ${money(book.amountCents)} (${at(book)}), bank ${money(bank.amountCents)} (${at(bank)}); bank − books = ${money(diff)}.`,
      cents: diff,
      order: bank.row,
    }];
  }
  if (p.by === 'amount and date' && Math.abs(p.days) > MATCH_DAYS) {
    const later = p.days > 0 ? 'the bank' : 'the books';
    return [{
      type: 'timing_difference',
      detail: `${said(book)} ${money(book.amountCents)} matched ${said(bank)}, but ${later} dated it ${Math.abs(p.days)} days later (${at(book)}; ${at(bank)}). Amount 0: both sides hold it.`,
      cents: 0n,
      order: bank.row,
    }];
  }
  return [];
}

/** Lines left unpaired: a repeat of a matched line on the same side, else missing on the other side. */
function leftovers(lines: Line[], pairs: Pair[]): Found[] {
  const matchedHere = new Map<string, Line>();
  const partner = new Map<Line, Line>();
  for (const p of pairs) {
    if (p.kind !== 'exact') continue;
    const [l, other] = lines[0]?.side === 'bank' ? [p.bank, p.book] : [p.book, p.bank];
    partner.set(l, other);
    for (const k of twinKeys(l)) if (!matchedHere.has(k)) matchedHere.set(k, l);
  }
  return lines
    .filter((l) => !l.paired)
    .map((l): Found => {
      const original = twinKeys(l).map((k) => matchedHere.get(k)).find((t) => t !== undefined);
      const bankSide = l.side === 'bank';
      const cents = bankSide ? l.amountCents : -l.amountCents;
      if (original) {
        const other = partner.get(original)!;
        return {
          type: bankSide ? 'duplicate_on_bank' : 'duplicate_in_books',
          detail: `${said(l)} ${money(l.amountCents)} (${at(l)}) repeats ${at(original)}, which matches ${at(other)}; ${bankSide ? 'the books have it once: ask the bank to reverse the repeat' : 'the bank has it once: remove the repeat from the books'}.`,
          cents,
          order: l.row,
        };
      }
      if (bankSide) {
        return {
          type: 'missing_in_books',
          detail: `${said(l)} ${money(l.amountCents)} (${at(l)}) has no matching book entry: record it in the books${l.amountCents < 0n ? ' (a fee or payment)' : ' (interest or a receipt)'}.`,
          cents,
          order: l.row,
        };
      }
      if (l.check) {
        return {
          type: 'outstanding_check',
          detail: `Check ${l.check} ${said(l)} ${money(l.amountCents)} (${at(l)}) has not cleared the bank.`,
          cents,
          order: l.row,
        };
      }
      return {
        type: 'missing_on_bank',
        detail: `${said(l)} ${money(l.amountCents)} (${at(l)}) is not on the bank statement: ${l.amountCents >= 0n ? 'a deposit in transit if recent, else find it' : 'a payment not yet cleared, or never made'}.`,
        cents,
        order: l.row,
      };
    });
}

/** Keys under which two lines on one side count as the same item written twice (the amount always equal). */
function twinKeys(l: Line): string[] {
  const keys = [`d|${l.amountCents}|${l.date}|${l.descKey}|${l.ref ?? ''}`];
  if (l.check) keys.push(`c|${l.amountCents}|${l.check}`);
  if (l.ref) keys.push(`r|${l.amountCents}|${l.ref}`);
  return keys;
}

const LABELS: Record<ExceptionType, [string, string]> = {
  missing_in_books: ['item missing in the books', 'items missing in the books'],
  missing_on_bank: ['book entry not on the bank', 'book entries not on the bank'],
  outstanding_check: ['outstanding check', 'outstanding checks'],
  duplicate_on_bank: ['duplicate bank line', 'duplicate bank lines'],
  duplicate_in_books: ['duplicate book entry', 'duplicate book entries'],
  amount_mismatch: ['amount mismatch', 'amount mismatches'],
  timing_difference: ['timing difference', 'timing differences'],
};

function summary(reconciled: boolean, matched: number, found: Found[], net: bigint, nBank: number, nBooks: number): string {
  const counts = exceptionTypes
    .map((t) => [t, found.filter((f) => f.type === t).length] as const)
    .filter(([, n]) => n > 0)
    .map(([t, n]) => `${n} ${LABELS[t][n === 1 ? 0 : 1]}`);
  if (reconciled) {
    if (nBank === 0 && nBooks === 0) return 'Reconciled: both sides have no transactions.';
    const lines = matched === 1 ? 'the 1 bank line matches' : `all ${matched} bank lines match`;
    return `Reconciled: ${lines} the books${counts.length ? ` (${counts.join(', ')})` : ''}.`;
  }
  return `Not reconciled: ${matched} matched of ${nBank} bank lines and ${nBooks} book entries; ${counts.join(', ')}; bank total − book total = ${money(net)}.`;
}
