/**
 * Bank reconciliation discrepancy finder (rules: RULES.md beside this file).
 *
 * 1. Read both exports into signed transactions (money in +, money out −) with text/statement.ts, which identifies
 *    the form (CSV with a title block or none, JSON, OFX, CAMT.053, MT940, IIF, pasted text) and settles each
 *    convention from the document's evidence.
 * 2. Decide the date order: each document by its own dates, else by the other's; when neither settles it and the two
 *    readings give different answers, the conservative one (fewer matches), said in the note.
 * 3. Pair bank lines with book entries (match.ts), group one line with several on the other side, summed or netted
 *    (group.ts), then pair what is left by a quoted reference, the same foreign amount (fx.ts) or the same
 *    counterparty, and settle a line against
 *    its own undoing (match.ts).
 * 4. Every pair with different amounts, every pair 4–10 days apart and every line left alone becomes an exception
 *    whose amount is its share of (bank total − book total), so the amounts add up to net_unreconciled; each cites
 *    the lines it rests on, verbatim with their line numbers, and its arithmetic (findings.ts), which `explain`
 *    returns as the run's evidence.
 */
import { engineOf, type Analysis, type Evidence } from '../port.js';
import { centsToNumber, formatCents } from '../text/amount.js';
import type { DateOrder } from '../text/dates.js';
import { readStatement, type Statement } from '../text/statement.js';
import { isoDate } from '../text/table.js';
import { at, evidenceOf, fromPair, groupNote, isTiming, leftovers, summary, cap } from './findings.js';
import { pairByForeignAmount } from './fx.js';
import { pairByStatedGross } from './gross.js';
import { groupLines, type Group } from './group.js';
import { TIMING_DAYS, cancelOut, pairByCounterparty, pairByQuotedReference, pairLines, toLine, type Line } from './match.js';
import { exceptionTypes, type BankRecInput, type BankRecResult } from './schema.js';

type Outcome = Omit<BankRecResult, 'note'> & { summary: string; groups: Group[]; ambiguous: string[]; evidence: Evidence[] };

function explain(input: BankRecInput): Analysis<BankRecResult> {
  const readBank = (dateOrder?: DateOrder) => readStatement(input.bankStatement, 'bankStatement', { perspective: 'bank', dateOrder });
  const readBooks = (dateOrder?: DateOrder) => readStatement(input.bookEntries, 'bookEntries', { perspective: 'books', dateOrder });
  let [bank, books] = [readBank(), readBooks()];
  const notes: string[] = [];
  // A document whose own dates settle nothing takes its order from the other document's evidence.
  let [bankSettled, booksSettled] = [settled(bank), settled(books)];
  if (!bankSettled && booksSettled) {
    const adopted = adopt('bank', bank, books, readBank);
    if (adopted) [bank, bankSettled] = [adopted.statement, notes.push(adopted.note) > 0];
  }
  if (!booksSettled && bankSettled) {
    const adopted = adopt('book', books, bank, readBooks);
    if (adopted) [books, booksSettled] = [adopted.statement, notes.push(adopted.note) > 0];
  }
  let outcome: Outcome;
  if (bankSettled && booksSettled) outcome = reconcile(bank, books);
  else {
    const example = bank.dates.ambiguous ?? books.dates.ambiguous;
    const [bankD, booksD] = [readBank('dmy'), readBooks('dmy')];
    const [bankM, booksM] = [readBank('mdy'), readBooks('mdy')];
    const monthFirst = reconcile(bankM, booksM);
    const dayFirst = reconcile(bankD, booksD);
    if (sameAnswer(monthFirst, dayFirst)) {
      outcome = monthFirst;
      notes.push(`no date in either document settles whether ${example} is day or month first; both readings give this answer`);
    } else {
      // The conservative reading: not reconciled over reconciled, then fewer matches, then more exceptions.
      const rank = (o: Outcome) => [o.reconciled ? 1 : 0, o.matched, -o.exceptions.length];
      const [a, b] = [rank(monthFirst), rank(dayFirst)];
      const dayWins = a[0] !== b[0] ? b[0] < a[0] : a[1] !== b[1] ? b[1] < a[1] : b[2] < a[2];
      outcome = dayWins ? dayFirst : monthFirst;
      [bank, books] = dayWins ? [bankD, booksD] : [bankM, booksM];
      const other = dayWins ? monthFirst : dayFirst;
      notes.push(
        `dates undecided: nothing in either document settles whether ${example} is day or month first, and the answer depends on it ` +
          `(read ${dayWins ? 'day first' : 'month first'}: ${outcome.matched} matched, ${outcome.reconciled ? 'reconciled' : 'not reconciled'}; ` +
          `read ${dayWins ? 'month first' : 'day first'}: ${other.matched} matched, ${other.reconciled ? 'reconciled' : 'not reconciled'}). ` +
          'The conservative reading is reported; confirm the date format to settle it',
      );
    }
  }

  // A side whose direction no evidence decides is never reported reconciled: it was compared as written (money in).
  const undecided = [bank.undecided && `the bank statement's ${bank.undecided}`, books.undecided && `the book entries' ${books.undecided}`].filter((u): u is string => !!u);
  if (undecided.length > 0) {
    const compared = outcome.summary.replace(/^(?:Not reconciled|Reconciled): /, '');
    outcome = { ...outcome, reconciled: false, summary: `Not reconciled: ${undecided.join('; ')}. Compared as written, each such amount as money in: ${compared}` };
  }
  const { summary: said, groups, ambiguous, evidence, ...result } = outcome;
  const parts = [said, ...groups.map(groupNote), ...ambiguous.map((a) => `${cap(a)}.`), ...notes.map((n) => `${cap(n)}.`)];
  const reading = [readingNote('Bank statement', bank), readingNote('Book entries', books)].filter((n) => n !== '');
  return { result: { ...result, note: [...parts, ...reading].join(' ') }, evidence };
}

export const bankRecEngine = engineOf<BankRecInput, BankRecResult>('bank-rec/rules@1', explain);

/** The document's dates are unambiguous (ISO, named months, the same number twice) or its own dates prove the order. */
const settled = (s: Statement) => s.dates.order !== undefined || s.dates.ambiguous === undefined;

/**
 * The order for an undecided document from a settled one: the order the other's dates prove, else the one order
 * that puts every date within the other document's period (± TIMING_DAYS); undefined when that does not decide.
 */
function adopt(who: string, own: Statement, other: Statement, reread: (o: DateOrder) => Statement) {
  const example = own.dates.ambiguous;
  if (other.dates.order) {
    return { statement: reread(other.dates.order), note: `${who} dates such as ${example} read ${orderName(other.dates.order)}, as the other document's dates prove` };
  }
  // Only dates whose form is unambiguous (ISO, month names) give the other document a period to be read against.
  if (other.lines.length === 0 || !other.dates.formal) return undefined;
  const days = other.lines.map((l) => l.date);
  const [lo, hi] = [Math.min(...days), Math.max(...days)];
  const fits = (['mdy', 'dmy'] as const)
    .map((o) => [o, reread(o)] as const)
    .filter(([, s]) => s.lines.every((l) => l.date >= lo - TIMING_DAYS && l.date <= hi + TIMING_DAYS));
  if (fits.length !== 1) return undefined;
  const [order, statement] = fits[0];
  return {
    statement,
    note: `${who} dates such as ${example} read ${orderName(order)}: only that reading keeps them within the other document's period (${isoDate(lo)} to ${isoDate(hi)})`,
  };
}

const orderName = (o: DateOrder) => (o === 'dmy' ? 'day first' : 'month first');
const readingNote = (what: string, s: Statement) => (s.notes.length === 0 ? '' : `${what}: ${s.notes.join('; ')}.`);

function sameAnswer(a: Outcome, b: Outcome): boolean {
  const key = (o: Outcome) => JSON.stringify([o.reconciled, o.matched, o.exceptions.map((e) => [e.type, e.amount])]);
  return key(a) === key(b);
}

function reconcile(bankStatement: Statement, bookStatement: Statement): Outcome {
  const bank = bankStatement.lines.map((t) => toLine(t, 'bank'));
  const books = bookStatement.lines.map((t) => toLine(t, 'books'));
  const pairs = pairLines(bank, books);
  const { groups, ambiguous } = groupLines(bank, books);
  pairs.push(...pairByQuotedReference(bank, books));
  pairs.push(...pairByForeignAmount(bank, books));
  pairs.push(...pairByStatedGross(bank, books));
  pairs.push(...pairByCounterparty(bank, books));
  const cancelled = [...cancelOut(bank), ...cancelOut(books)];
  const found = [
    ...pairs.flatMap(fromPair),
    ...leftovers(bank, pairs, groups),
    ...leftovers(books, pairs, groups, bankStatement.coversTo, bank.length > 0 ? Math.max(...bank.map((l) => l.date)) : undefined),
  ];
  found.sort((a, b) => exceptionTypes.indexOf(a.type) - exceptionTypes.indexOf(b.type) || a.order - b.order);

  const net = sum(bank) - sum(books);
  const explained = found.reduce((s, f) => s + f.cents, 0n);
  if (explained !== net) throw new Error(`bank-rec invariant broken: exceptions ${explained} ≠ net ${net}`);
  // A match is a pair or a group that agrees outright; a timing difference is reported as an exception instead.
  const matched = pairs.filter((p) => p.kind === 'exact' && !isTiming(p)).length + groups.length;
  const reconciled = found.every((f) => f.type === 'timing_difference');
  return {
    reconciled,
    matched,
    exceptions: found.map((f) => ({ type: f.type, detail: f.detail, amount: centsToNumber(f.cents) })),
    net_unreconciled: centsToNumber(net),
    summary: summary(reconciled, matched, found, net, bank.length, books.length),
    groups,
    ambiguous: [...ambiguous, ...cancelled.map(cancelNote)],
    evidence: evidenceOf(found),
  };
}

const cancelNote = ([a, b]: [Line, Line]) =>
  `${at(a)} (${formatCents(a.amountCents)}) is undone by ${at(b)} (${formatCents(b.amountCents)}): they cancel, so neither is an exception`;

const sum = (lines: { amountCents: bigint }[]) => lines.reduce((s, l) => s + l.amountCents, 0n);
