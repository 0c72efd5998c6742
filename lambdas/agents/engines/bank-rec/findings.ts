/**
 * From pairs, groups and the lines left alone to the exceptions a bookkeeper must explain, each with its amount
 * (its share of bank total − book total), a detail that quotes the lines it rests on, and those lines as evidence.
 */
import type { Evidence, EvidenceSource } from '../port.js';
import { formatCents } from '../text/amount.js';
import { isoDate } from '../text/table.js';
import type { Group } from './group.js';
import { MATCH_DAYS, TIMING_DAYS, tokensOf, transposed, type Line, type Pair } from './match.js';
import { exceptionTypes, type ExceptionType } from './schema.js';
import { exchangeNote, foreignOf } from './fx.js';
import { routeNote, routeTwin } from './routes.js';

export interface Found {
  type: ExceptionType;
  detail: string;
  cents: bigint;
  /** Sort key within its type: the bank row, else the book row. */
  order: number;
  /** The lines the finding rests on, the finding's own line first. */
  lines: Line[];
  arithmetic?: string;
}

export const money = (cents: bigint) => formatCents(cents);
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** A description as quoted data: control characters dropped, at most 60 characters. */
export const said = (l: Line) => {
  const d = clean(l.description);
  return d === '' ? '(no description)' : JSON.stringify(d.length > 60 ? `${d.slice(0, 60)}…` : d);
};
// eslint-disable-next-line no-control-regex
const clean = (s: string) => s.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ').trim();

/** Where a line is: its side, the line of the input it was read from (else its row), its date. */
export const at = (l: Line) => `${l.side === 'bank' ? 'bank' : 'book'} ${l.line ? 'line' : 'row'} ${l.line ?? l.row}, ${isoDate(l.date)}`;

/** The verbatim text a finding quotes from a line: the whole line, or around its amount when the line is long. */
export function quoteOf(l: Line): string {
  const src = (l.source ?? '').trim();
  if (src.length <= 160) return src;
  const figure = l.amountText.trim().split(' ')[0];
  const i = figure ? src.indexOf(figure) : -1;
  if (i < 0) return src.slice(0, 160).trim();
  return src.slice(Math.max(0, i - 110), i + figure.length + 40).trim();
}

/** The line quoted inside a detail: shortened (with … where cut) and control characters dropped. */
const shown = (l: Line) => {
  const q = clean(quoteOf(l)).replace(/\s+/g, ' ');
  if (q === '') return said(l);
  return JSON.stringify(q.length > 90 ? `${q.slice(0, 44)} … ${q.slice(-40)}` : q);
};
/** "bank line 14 "…" (2026-03-05, -1254.00)". */
export const cite = (l: Line) => `${l.side === 'bank' ? 'bank' : 'book'} ${l.line ? 'line' : 'row'} ${l.line ?? l.row} ${shown(l)} (${isoDate(l.date)}, ${money(l.amountCents)})`;

/** An exact pair dated 4–10 days apart (a check number or reference pairs whatever the dates; beyond 10 days it is
 * a plain match: a check clears when it clears). */
export const isTiming = (p: Pair) => p.kind === 'exact' && Math.abs(p.days) > MATCH_DAYS && Math.abs(p.days) <= TIMING_DAYS;

export function fromPair(p: Pair): Found[] {
  const { bank, book } = p;
  if (p.kind === 'mismatch') {
    const shared = bank.tokens.find((t) => book.tokens.includes(t));
    const what =
      p.by === 'check number' ? `Check ${bank.check} (same check number)`
      : p.by === 'reference' ? `Reference ${bank.reference} (same reference)`
      : p.by === 'reference in the text' ? `A reference both sides quote (${shared})`
      : p.by === 'stated gross' ? `A credit net of tax withheld, its text stating the gross (${formatCents(book.amountCents)}) the books posted: the withholding was not split off`
      : p.by === 'foreign amount' ? `The same foreign amount on both sides (${foreignOf(bank)?.text})`
      : p.by === 'counterparty' ? `The same counterparty, the only open line of each side within ${MATCH_DAYS} days${transposed(bank.amountCents, book.amountCents) ? ', the amounts the same digits with two transposed (the difference a multiple of 9)' : ''}`
      : `Same ${p.by}`;
    const diff = bank.amountCents - book.amountCents;
    return [{
      type: 'amount_mismatch',
      detail: `${what}: ${cite(bank)} against ${cite(book)}: bank − books = ${money(diff)}.${exchangeNote(bank, book)}`,
      cents: diff,
      order: bank.row,
      lines: [bank, book],
      arithmetic: `${money(bank.amountCents)} − (${money(book.amountCents)}) = ${money(diff)}`,
    }];
  }
  if (isTiming(p)) {
    const later = p.days > 0 ? 'the bank' : 'the books';
    return [{
      type: 'timing_difference',
      detail: `${cite(book)} matched ${cite(bank)}, but ${later} dated it ${Math.abs(p.days)} days later. Amount 0: both sides hold it.`,
      cents: 0n,
      order: bank.row,
      lines: [bank, book],
      arithmetic: `${money(bank.amountCents)} − (${money(book.amountCents)}) = 0.00; ${isoDate(bank.date)} − ${isoDate(book.date)} = ${p.days} days`,
    }];
  }
  return [];
}

/** Lines left unpaired: a repeat of a matched line on the same side, else missing on the other side. */
/**
 * `coversTo`: the last day a statement known to be incomplete covers; `bankLast`: the last day of the bank lines given
 * (a book entry repeating a matched one by another route is read so only when the statement runs past it).
 */
export function leftovers(lines: Line[], pairs: Pair[], groups: Group[], coversTo?: number, bankLast?: number): Found[] {
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
      const exact = twinKeys(l).map((k) => matchedHere.get(k)).find((t) => t !== undefined);
      const near = exact ?? nearTwin(l, [...partner.keys()]);
      const routed = near ? undefined : routeTwin(l, partner, bankLast);
      const original = near ?? routed;
      const bankSide = l.side === 'bank';
      const cents = bankSide ? l.amountCents : -l.amountCents;
      const share = bankSide ? undefined : `−(${money(l.amountCents)}) = ${money(cents)}`;
      const base = { cents, order: l.row, ...(share ? { arithmetic: share } : {}) };
      if (original) {
        const other = partner.get(original)!;
        return {
          ...base,
          type: bankSide ? 'duplicate_on_bank' : 'duplicate_in_books',
          detail: `${cite(l)} repeats ${cite(original)}${exact ? '' : routed ? routeNote(l, routed) : ` (the same amount and counterparty, ${Math.abs(l.date - original.date)} day${Math.abs(l.date - original.date) === 1 ? '' : 's'} apart)`}, which matches ${cite(other)}; ${bankSide ? 'the books have it once: ask the bank to reverse the repeat' : 'the bank has it once: remove the repeat from the books'}.`,
          lines: [l, original, other],
        };
      }
      if (bankSide) {
        return {
          ...base,
          type: 'missing_in_books',
          detail: `${cite(l)} has no matching book entry: record it in the books${l.amountCents < 0n ? ' (a fee or payment)' : ' (interest or a receipt)'}.`,
          lines: [l],
        };
      }
      if (l.check) {
        return { ...base, type: 'outstanding_check', detail: `Check ${l.check}: ${cite(l)} has not cleared the bank.`, lines: [l] };
      }
      const why = coversTo !== undefined && l.date > coversTo
        ? `dated after ${isoDate(coversTo)}, the last day the bank statement given covers: it cannot be confirmed until the rest of the statement is seen`
        : l.amountCents >= 0n ? 'a deposit in transit if recent, else find it' : 'a payment not yet cleared, or never made';
      return { ...base, type: 'missing_on_bank', detail: `${cite(l)} is not on the bank statement: ${why}.`, lines: [l] };
    });
}

/** Keys under which two lines on one side count as the same item written twice (the amount always equal). */
function twinKeys(l: Line): string[] {
  // The same amount on the same day, on the side that has one more of it than the other: a bank-feed entry made on
  // top of a matched one, or a debit the bank posted twice.
  const keys = [`d|${l.amountCents}|${l.date}`];
  if (l.check) keys.push(`c|${l.amountCents}|${l.check}`);
  if (l.ref) keys.push(`r|${l.amountCents}|${l.ref}`);
  // The same amount quoting the same invoice or payment reference: one receipt posted twice under two entry numbers.
  for (const t of l.tokens) keys.push(`q|${l.amountCents}|${t}`);
  return keys;
}

/**
 * A matched line of the same side that this one repeats a day apart: the same amount, the same counterparty named,
 * dated the day before or after (further apart, the same payee at the same amount is as likely a second purchase:
 * parking, a coffee), and nothing that tells them apart (two different check numbers, or references
 * quoted in the descriptions none of which the other quotes). A bill entered from the bank feed and again by hand the
 * next day, or a direct debit the bank collected twice, reads this way; two invoices of the same amount do not,
 * because each quotes its own number. The closest in date is taken (the earlier row on a tie).
 */
const TWIN_DAYS = 1;

function nearTwin(l: Line, matched: Line[]): Line | undefined {
  const quoted = tokensOf(l.description);
  const twins = matched.filter((m) => {
    if (m.amountCents !== l.amountCents || Math.abs(m.date - l.date) > TWIN_DAYS) return false;
    if (!m.names.some((w) => l.names.includes(w))) return false;
    if (l.check && m.check && l.check !== m.check) return false;
    const theirs = tokensOf(m.description);
    return quoted.length === 0 || theirs.length === 0 || quoted.some((t) => theirs.includes(t));
  });
  return twins.sort((a, b) => Math.abs(a.date - l.date) - Math.abs(b.date - l.date) || a.row - b.row)[0];
}

/** The evidence of each finding, in the result's order. */
export function evidenceOf(found: Found[]): Evidence[] {
  return found.map((f, i) => ({
    finding: `exceptions[${i}] ${f.type}`,
    sources: f.lines.filter((l) => l.line && quoteOf(l) !== '').map((l): EvidenceSource => ({
      field: l.side === 'bank' ? 'bankStatement' : 'bookEntries',
      line: l.line,
      quote: quoteOf(l),
    })),
    ...(f.arithmetic ? { arithmetic: f.arithmetic } : {}),
  }));
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

export function summary(reconciled: boolean, matched: number, found: Found[], net: bigint, nBank: number, nBooks: number): string {
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

export function groupNote(g: Group): string {
  const parts = g.parts.map((l) => `${at(l)} ${money(l.amountCents)}`).join(' + ');
  const how = g.byItems ? 'Matched item by item (the bank\'s own breakdown of the entry)' : 'Matched as one group';
  return `${how}: ${said(g.one)} ${money(g.one.amountCents)} (${at(g.one)}) = ${parts}.`;
}

export { cap };
