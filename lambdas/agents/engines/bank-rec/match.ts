/**
 * One-to-one pairing of bank lines with book entries (the rules are in RULES.md, in the same order). Each pass
 * visits bank lines in row order and takes the earliest-row book entry that qualifies, so the outcome depends only
 * on the input. Every pass is a hash lookup per line: linear in the number of lines.
 */
import type { Transaction } from '../text/table.js';

/** Dates this close are the same item posted normally. */
export const MATCH_DAYS = 3;
/** Up to this many days apart the item still matches, but the gap is reported as a timing difference. */
export const TIMING_DAYS = 10;

export interface Line extends Transaction {
  side: 'bank' | 'books';
  /** A check number, read only on money-out lines: from "CHECK 1042" in the description or a numeric reference. */
  check?: string;
  /** The reference normalised (upper case, letters and digits, leading zeros dropped); only when it has a digit. */
  ref?: string;
  /** The description in lower case, words only, for "same description" comparisons. */
  descKey: string;
  /** Distinctive tokens of the description and reference (with a digit, 4+ characters), upper case, letters and digits. */
  tokens: string[];
  /** The words of the description that can name a counterparty (letters only, 4+, not a banking word). */
  names: string[];
  paired: boolean;
}

export interface Pair {
  bank: Line;
  book: Line;
  /** exact: same amount (a match); mismatch: identified as one item, amounts differ. */
  kind: 'exact' | 'mismatch';
  by: 'check number' | 'reference' | 'amount and date' | 'date and description' | 'reference in the text' | 'counterparty' | 'foreign amount' | 'stated gross';
  /** Bank date − book date, in days. */
  days: number;
}

const PREFIX = /^(?:(?:check|chk|cheque|chq|ck)\b\.?)?\s*(?:no\b\.?|number\b|num\b)?\s*#?\s*/i;
const CHECK_IN_TEXT = /\b(?:check|chk|cheque|chq|ck)\b\.?\s*(?:no\b\.?|number\b|num\b)?\s*#?\s*(\d{1,8})\b/i;

export function toLine(t: Transaction, side: Line['side']): Line {
  let ref = t.reference?.replace(PREFIX, '').toUpperCase().replace(/[^A-Z0-9]/g, '');
  // A zero-padded number is that number; all zeros is a blank field padded to its width.
  if (ref && /^\d+$/.test(ref)) ref = /^0+$/.test(ref) ? undefined : ref.replace(/^0+(?=\d)/, '');
  if (!ref || !/\d/.test(ref)) ref = undefined;
  let check: string | undefined;
  if (t.amountCents < 0n) {
    const inText = CHECK_IN_TEXT.exec(t.description);
    if (inText) check = inText[1].replace(/^0+(?=\d)/, '');
    else if (ref && /^\d{1,8}$/.test(ref)) check = ref;
  }
  const descKey = t.description.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
  const names = [...new Set(t.description.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().split(/[^a-z]+/))]
    .filter((w) => w.length >= 4 && !GENERIC.has(w));
  const tokens = tokensOf(`${t.description} ${t.reference ?? ''}`);
  return { ...t, side, ref, check, descKey, tokens, names, paired: false };
}

/** Distinctive tokens of a text: words with a digit, 4+ characters once reduced to letters and digits, not a year. */
export const tokensOf = (text: string) => [...new Set(text.toUpperCase().split(/[\s,;:()[\]{}"'#*=+?]+/)
  .map((w) => w.replace(/[^A-Z0-9]/g, ''))
  .filter((w) => w.length >= 4 && /\d/.test(w) && !/^(?:19|20)\d\d$/.test(w)))];

export function pairLines(bank: Line[], books: Line[]): Pair[] {
  const pairs: Pair[] = [];
  const take = (b: Line, k: Line, kind: Pair['kind'], by: Pair['by']) => {
    b.paired = k.paired = true;
    pairs.push({ bank: b, book: k, kind, by, days: b.date - k.date });
  };
  // 1–2. The same check number, then the same reference, with the same amount: the same item whatever the dates.
  exactByKey(bank, books, (l) => l.check && `${l.check}|${l.amountCents}`, (b, k) => take(b, k, 'exact', 'check number'));
  exactByKey(bank, books, (l) => l.ref && `${l.ref}|${l.amountCents}`, (b, k) => take(b, k, 'exact', 'reference'));
  // 3–4. A check number (then a reference) found once on each side, same direction, different amount.
  uniqueByKey(bank, books, (l) => l.check, (b, k) => take(b, k, 'mismatch', 'check number'));
  uniqueByKey(bank, books, (l) => l.ref, (b, k) => take(b, k, 'mismatch', 'reference'));
  // 5. The same amount within the window, closest dates first.
  byAmountAndDate(bank, books, (b, k) => take(b, k, 'exact', 'amount and date'));
  // 6. The same date and description found once on each side, same direction, different amount.
  uniqueByKey(bank, books, (l) => l.descKey && `${l.date}|${l.descKey}`, (b, k) => take(b, k, 'mismatch', 'date and description'));
  return pairs;
}

/**
 * 8. A reference one side quotes in its text and the other holds (found on no other line of either side), dates
 * within TIMING_DAYS, different amounts: the same item at a different amount, or at the right amount with the wrong
 * sign (a refund booked as a payment).
 */
export function pairByQuotedReference(bank: Line[], books: Line[]): Pair[] {
  const count = (lines: Line[]) => {
    const n = new Map<string, number>();
    for (const l of lines) for (const t of l.tokens) n.set(t, (n.get(t) ?? 0) + 1);
    return n;
  };
  const [onBank, inBooks] = [count(bank), count(books)];
  const unique = (t: string) => onBank.get(t) === 1 && inBooks.get(t) === 1;
  const open = (l: Line) => !l.paired;
  const fits = (b: Line, k: Line) =>
    b.amountCents !== k.amountCents && Math.abs(b.date - k.date) <= TIMING_DAYS &&
    (b.amountCents < 0n === k.amountCents < 0n || b.amountCents === -k.amountCents) &&
    b.tokens.some((t) => unique(t) && k.tokens.includes(t));
  const pairs: Pair[] = [];
  for (const b of bank.filter(open)) {
    const mine = books.filter((k) => open(k) && fits(b, k));
    if (mine.length !== 1 || bank.filter((o) => open(o) && fits(o, mine[0])).length !== 1) continue;
    b.paired = mine[0].paired = true;
    pairs.push({ bank: b, book: mine[0], kind: 'mismatch', by: 'reference in the text', days: b.date - mine[0].date });
  }
  return pairs;
}

/** Words of bank and ledger descriptions that name no counterparty, in the languages the readers know. */
const GENERIC = new Set(('payment payments deposit deposits transfer from card debit credit online bank banking electronic withdrawal ' +
  'purchase invoice with the and for direct sepa download visa mastercard order orders sales sale receipt refund fees ' +
  'zahlung gutschrift lastschrift uberweisung paiement virement prelevement pago cobro transferencia recibo bonifico ' +
  'addebito accredito przelew wplata zaplata betaling overboeking incasso recebido recebimento enviado pagamento boleto ' +
  // Legal forms name no one in particular: two companies that are both "Ltda" are not the same counterparty.
  'ltda limited gmbh corp corporation company eireli').split(' '));

/**
 * Two amounts whose digits are the same but for two of them swapped (3,418.62 keyed for 3,481.62): the slip of a
 * hand typing the figure, its difference always a multiple of 9. Only a swap of two digits counts, not any multiple
 * of 9, so an unexplained difference is not read as one.
 */
export function transposed(a: bigint, b: bigint): boolean {
  const [x, y] = [(a < 0n ? -a : a).toString(), (b < 0n ? -b : b).toString()];
  if (x.length !== y.length || x === y) return false;
  const at = [...x].flatMap((c, i) => (c === y[i] ? [] : [i]));
  return at.length === 2 && x[at[0]] === y[at[1]] && x[at[1]] === y[at[0]];
}

/**
 * 9. What is left of one item after every other step: an open bank line and an open book entry of the same
 * direction, within MATCH_DAYS, naming the same counterparty, each the only such line open on its side, amounts
 * within 10% of each other or differing by two digits transposed → `amount_mismatch` (a payout short of the sales
 * booked for it, a figure keyed with two digits swapped). One difference is the
 * reading a bookkeeper gives them, not two unrelated missing items; what the difference is stays to be found.
 */
export function pairByCounterparty(bank: Line[], books: Line[]): Pair[] {
  const abs = (n: bigint) => (n < 0n ? -n : n);
  const fits = (b: Line, k: Line) => {
    if (b.paired || k.paired || b.amountCents === k.amountCents || (b.amountCents < 0n) !== (k.amountCents < 0n)) return false;
    if (Math.abs(b.date - k.date) > MATCH_DAYS || !b.names.some((w) => k.names.includes(w))) return false;
    const [lo, hi] = abs(b.amountCents) < abs(k.amountCents) ? [abs(b.amountCents), abs(k.amountCents)] : [abs(k.amountCents), abs(b.amountCents)];
    return (hi - lo) * 10n <= hi || transposed(lo, hi);
  };
  // Indexed by name word, so a large statement with most lines paired costs one pass.
  const byName = (lines: Line[]) => {
    const map = new Map<string, Line[]>();
    for (const l of lines) {
      if (l.paired) continue;
      for (const w of l.names) {
        const list = map.get(w);
        if (list) list.push(l);
        else map.set(w, [l]);
      }
    }
    return map;
  };
  const [bankNames, bookNames] = [byName(bank), byName(books)];
  const near = (l: Line, index: Map<string, Line[]>) => [...new Set(l.names.flatMap((w) => index.get(w) ?? []))];
  const pairs: Pair[] = [];
  for (const b of bank) {
    if (b.paired) continue;
    const mine = near(b, bookNames).filter((k) => fits(b, k));
    if (mine.length !== 1 || near(mine[0], bankNames).filter((o) => fits(o, mine[0])).length !== 1) continue;
    b.paired = mine[0].paired = true;
    pairs.push({ bank: b, book: mine[0], kind: 'mismatch', by: 'counterparty', days: b.date - mine[0].date });
  }
  return pairs;
}

/** Words that say a line undoes an earlier one: a return, a reversal, a void, a failed payment sent back. */
const UNDO = /\b(?:return(?:ed)?|reversal|reversed|revers(?:e|ing)|void(?:ed)?|fail(?:ed|ure)?|refused|unpaid|r\d{2}|ruckbuchung|ruecklastschrift|rucklastschrift|storno|retour|retourboeking|devolucion|devuelto|rejet|impaye|stornata)\b/i;

/**
 * 10. Two open lines of one side that undo each other: the same size, opposite directions, within TIMING_DAYS, the
 * later one saying it undoes the earlier (a return, a reversal, a void) and both naming the same counterparty or
 * quoting the same reference. A payment that failed and came back moved no money; the other side rightly has
 * nothing for it, so the two are settled against each other and are not exceptions.
 */
export function cancelOut(lines: Line[]): [Line, Line][] {
  const open = lines.filter((l) => !l.paired && l.amountCents !== 0n);
  const bySize = new Map<bigint, Line[]>();
  for (const l of open) {
    const size = l.amountCents < 0n ? -l.amountCents : l.amountCents;
    const list = bySize.get(size);
    if (list) list.push(l);
    else bySize.set(size, [l]);
  }
  const out: [Line, Line][] = [];
  for (const a of open) {
    if (a.paired) continue;
    const b = bySize.get(a.amountCents < 0n ? -a.amountCents : a.amountCents)!.find((o) => !o.paired && o !== a && o.amountCents === -a.amountCents && Math.abs(o.date - a.date) <= TIMING_DAYS &&
      (o.date > a.date || (o.date === a.date && o.row > a.row)) && UNDO.test(plain(o)) &&
      (o.names.some((w) => a.names.includes(w)) || o.tokens.some((t) => a.tokens.includes(t))));
    if (!b) continue;
    a.paired = b.paired = true;
    out.push([a, b]);
  }
  return out;
}

const plain = (l: Line) => `${l.description} ${l.reference ?? ''}`.normalize('NFD').replace(/[\u0300-\u036f]/g, '');

type Key = (l: Line) => string | undefined | false | '';

function group(lines: Line[], key: Key): Map<string, Line[]> {
  const map = new Map<string, Line[]>();
  for (const l of lines) {
    const k = l.paired ? undefined : key(l);
    if (!k) continue;
    const list = map.get(k);
    if (list) list.push(l);
    else map.set(k, [l]);
  }
  return map;
}

/** Each bank line takes the open book entry of its key dated closest to it (the earlier row on a tie). */
function exactByKey(bank: Line[], books: Line[], key: Key, pair: (b: Line, k: Line) => void): void {
  const index = group(books, key);
  for (const b of bank) {
    const k = b.paired ? undefined : key(b);
    const list = k ? index.get(k) : undefined;
    if (!list || list.length === 0) continue;
    let best = 0;
    // A key shared by many entries (the same amount and check number) is rare: the scan stays short.
    for (let i = 1; i < Math.min(list.length, 50); i++) if (Math.abs(list[i].date - b.date) < Math.abs(list[best].date - b.date)) best = i;
    const [book] = list.splice(best, 1);
    pair(b, book);
  }
}

function uniqueByKey(bank: Line[], books: Line[], key: Key, pair: (b: Line, k: Line) => void): void {
  const banks = group(bank, key);
  const index = group(books, key);
  for (const [k, onBank] of banks) {
    const inBooks = index.get(k);
    if (onBank.length !== 1 || inBooks?.length !== 1) continue;
    const [b, book] = [onBank[0], inBooks[0]];
    const sameDirection = b.amountCents < 0n === book.amountCents < 0n;
    if (sameDirection && b.amountCents !== book.amountCents) pair(b, book);
  }
}

/**
 * Day gap 0, then 1, … up to TIMING_DAYS; within a gap, bank lines in row order, each taking the earliest-row book
 * entry of its amount dated that many days before or after. Two different check numbers never pair here.
 */
function byAmountAndDate(bank: Line[], books: Line[], pair: (b: Line, k: Line) => void): void {
  const queues = group(books, (l) => `${l.amountCents}|${l.date}|${l.check ? 'c' : 'n'}`);
  const head = (key: string): Line | undefined => {
    const q = queues.get(key);
    while (q && q.length > 0 && q[0].paired) q.shift();
    return q?.[0];
  };
  for (let gap = 0; gap <= TIMING_DAYS; gap++) {
    for (const b of bank) {
      if (b.paired) continue;
      const kinds = b.check ? ['n'] : ['n', 'c'];
      const dates = gap === 0 ? [b.date] : [b.date - gap, b.date + gap];
      let best: Line | undefined;
      for (const d of dates) {
        for (const kind of kinds) {
          const candidate = head(`${b.amountCents}|${d}|${kind}`);
          if (candidate && (!best || candidate.row < best.row)) best = candidate;
        }
      }
      if (best) pair(b, best);
    }
  }
}
