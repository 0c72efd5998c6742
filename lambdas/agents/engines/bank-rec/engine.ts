/**
 * Bank reconciliation discrepancy finder (rules: RULES.md beside this file).
 *
 * 1. Read both exports into signed transactions (money in +, money out −) with text/statement.ts, which identifies
 *    the form (CSV with a title block or none, JSON, OFX, CAMT.053, MT940, IIF, pasted text) and settles each
 *    convention from the document's evidence.
 * 2. Decide the date order: each document by its own dates, else by the other's; when neither settles it and the two
 *    readings give different answers, the conservative one (fewer matches), said in the note.
 * 3. Pair bank lines with book entries (match.ts), then group one line with several on the other side (group.ts).
 * 4. Every pair with different amounts, every pair 4–10 days apart and every line left alone becomes an exception
 *    whose amount is its share of (bank total − book total), so the amounts add up to net_unreconciled.
 */
import type { AgentEngine } from '../port.js';
import { centsToNumber, formatCents } from '../text/amount.js';
import type { DateOrder } from '../text/dates.js';
import { readStatement, type Statement } from '../text/statement.js';
import { isoDate, type Transaction } from '../text/table.js';
import { groupLines, type Group } from './group.js';
import { MATCH_DAYS, TIMING_DAYS, pairByQuotedReference, pairLines, toLine, type Line, type Pair } from './match.js';
import { exceptionTypes, type BankRecInput, type BankRecResult, type ExceptionType } from './schema.js';

interface Found {
  type: ExceptionType;
  detail: string;
  cents: bigint;
  /** Sort key within its type: the bank row, else the book row. */
  order: number;
}

type Outcome = Omit<BankRecResult, 'note'> & { summary: string; groups: Group[]; ambiguous: string[] };

export const bankRecEngine: AgentEngine<BankRecInput, BankRecResult> = {
  id: 'bank-rec/rules@1',
  analyse(input) {
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
    if (bankSettled && booksSettled) outcome = reconcile(bank.lines, books.lines);
    else {
      const example = bank.dates.ambiguous ?? books.dates.ambiguous;
      const [bankD, booksD] = [readBank('dmy'), readBooks('dmy')];
      const [bankM, booksM] = [readBank('mdy'), readBooks('mdy')];
      const monthFirst = reconcile(bankM.lines, booksM.lines);
      const dayFirst = reconcile(bankD.lines, booksD.lines);
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

    const { summary, groups, ambiguous, ...result } = outcome;
    const parts = [summary, ...groups.map(groupNote), ...ambiguous.map((a) => `${cap(a)}.`), ...notes.map((n) => `${cap(n)}.`)];
    const reading = [readingNote('Bank statement', bank), readingNote('Book entries', books)].filter((n) => n !== '');
    return { ...result, note: [...parts, ...reading].join(' ') };
  },
};

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
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const readingNote = (what: string, s: Statement) => (s.notes.length === 0 ? '' : `${what}: ${s.notes.join('; ')}.`);

function sameAnswer(a: Outcome, b: Outcome): boolean {
  const key = (o: Outcome) => JSON.stringify([o.reconciled, o.matched, o.exceptions.map((e) => [e.type, e.amount])]);
  return key(a) === key(b);
}

function groupNote(g: Group): string {
  const parts = g.parts.map((l) => `${at(l)} ${money(l.amountCents)}`).join(' + ');
  return `Matched as one group: ${said(g.one)} ${money(g.one.amountCents)} (${at(g.one)}) = ${parts}.`;
}

function reconcile(bankTx: Transaction[], bookTx: Transaction[]): Outcome {
  const bank = bankTx.map((t) => toLine(t, 'bank'));
  const books = bookTx.map((t) => toLine(t, 'books'));
  const pairs = pairLines(bank, books);
  const { groups, ambiguous } = groupLines(bank, books);
  pairs.push(...pairByQuotedReference(bank, books));
  const found = [...pairs.flatMap(fromPair), ...leftovers(bank, pairs, groups), ...leftovers(books, pairs, groups)];
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
    ambiguous,
  };
}

const sum = (lines: Line[]) => lines.reduce((s, l) => s + l.amountCents, 0n);
const money = (cents: bigint) => formatCents(cents);
/** A description as quoted data: control characters dropped, at most 60 characters. */
const said = (l: Line) => {
  // eslint-disable-next-line no-control-regex
  const d = l.description.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ').trim();
  return d === '' ? '(no description)' : JSON.stringify(d.length > 60 ? `${d.slice(0, 60)}…` : d);
};
const at = (l: Line) => `${l.side === 'bank' ? 'bank' : 'book'} row ${l.row}, ${isoDate(l.date)}`;

/** An exact pair dated 4–10 days apart (a check number or reference pairs whatever the dates; beyond 10 days it is
 * a plain match: a check clears when it clears). */
const isTiming = (p: Pair) => p.kind === 'exact' && Math.abs(p.days) > MATCH_DAYS && Math.abs(p.days) <= TIMING_DAYS;

function fromPair(p: Pair): Found[] {
  const { bank, book } = p;
  if (p.kind === 'mismatch') {
    const shared = bank.tokens.find((t) => book.tokens.includes(t));
    const what = p.by === 'check number' ? `Check ${bank.check}` : p.by === 'reference' ? `Reference ${bank.reference}` : p.by === 'reference in the text' ? `${said(bank)} and ${said(book)} (both quote ${shared})` : said(bank);
    const diff = bank.amountCents - book.amountCents;
    return [{
      type: 'amount_mismatch',
      detail: `${what} (${p.by === 'reference in the text' ? 'a reference both sides quote' : `same ${p.by}`}): books ${money(book.amountCents)} (${at(book)}), bank ${money(bank.amountCents)} (${at(bank)}); bank − books = ${money(diff)}.`,
      cents: diff,
      order: bank.row,
    }];
  }
  if (isTiming(p)) {
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
function leftovers(lines: Line[], pairs: Pair[], groups: Group[]): Found[] {
  const matchedHere = new Map<string, Line>();
  const partner = new Map<Line, Line>();
  const bankSideHere = lines[0]?.side === 'bank';
  const matches: [Line, Line][] = [
    ...pairs.filter((p) => p.kind === 'exact').map((p): [Line, Line] => [p.bank, p.book]),
    ...groups.flatMap((g) => g.parts.map((part): [Line, Line] => (g.one.side === 'bank' ? [g.one, part] : [part, g.one]))),
  ];
  for (const [b, k] of matches) {
    const [l, other] = bankSideHere ? [b, k] : [k, b];
    partner.set(l, other);
    for (const key of twinKeys(l)) if (!matchedHere.has(key)) matchedHere.set(key, l);
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
  // The same amount on the same day, on the side that has one more of it than the other: a bank-feed entry made on
  // top of a matched one, or a debit the bank posted twice.
  const keys = [`d|${l.amountCents}|${l.date}`];
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
    const lines = nBank === 1 ? 'the 1 bank line matches' : `all ${nBank} bank lines match`;
    return `Reconciled: ${lines} the books${counts.length ? ` (${counts.join(', ')})` : ''}.`;
  }
  return `Not reconciled: ${matched} matched of ${nBank} bank lines and ${nBooks} book entries; ${counts.join(', ')}; bank total − book total = ${money(net)}.`;
}
