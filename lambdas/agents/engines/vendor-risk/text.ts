/**
 * Text helpers shared by the vendor-risk detectors: one normal form for the profile, clause-local negation, and
 * the dates a profile states. Everything here is bounded by a small window around a match, so a 1 MB profile costs
 * a linear scan, never a quadratic one.
 */

/**
 * One red flag a detector found: its detail (quoting the words it rests on) and where in the text it read them
 * (offsets of the prose it searched); no offset for a finding of absence, which rests on the document as a whole.
 */
export interface Finding {
  detail: string;
  at?: number;
  end?: number;
}

/** Start/end guards that work for any script (JS \b only knows ASCII word characters). */
export const B = '(?<![\\p{L}\\p{N}_])';
export const E = '(?![\\p{L}\\p{N}_])';

/** A normalised text and, for each of its characters, the offset in the buyer's text it was read from. */
export interface MappedText {
  text: string;
  /** `rawAt[i]`: offset in the original of `text[i]`; `rawAt[text.length]` is the original's length. */
  rawAt: number[];
}

const DROPPED = /[\u200B-\u200D\u2060\uFEFF\u00AD]/g;

const FOLDED = new Map<string, string>();

/** One character's normal form (compatibility folded, accents stripped, quotes and dashes made ASCII). */
function foldChar(ch: string): string {
  let folded = FOLDED.get(ch);
  if (folded === undefined) {
    folded = foldOne(ch);
    // Bounded: a text of every code point must not grow the cache without end.
    if (FOLDED.size < 4096) FOLDED.set(ch, folded);
  }
  return folded;
}

function foldOne(ch: string): string {
  return ch
    .normalize('NFKC')
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(DROPPED, '')
    .replace(/[\u2018\u2019\u02BC\u0060\u00B4]/g, "'")
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/[^\S\n\t\r]/gu, ' ');
}

/** `re` replaced by `by` in a mapped text; each replacement character maps to where its match began. */
function replaceMapped(m: MappedText, re: RegExp, by: string): MappedText {
  re.lastIndex = 0;
  const any = re.test(m.text);
  re.lastIndex = 0;
  if (!any) return m;
  const parts: string[] = [];
  const rawAt: number[] = [];
  let last = 0;
  for (const hit of m.text.matchAll(re)) {
    parts.push(m.text.slice(last, hit.index), by);
    for (let i = last; i < hit.index!; i++) rawAt.push(m.rawAt[i]);
    for (let i = 0; i < by.length; i++) rawAt.push(m.rawAt[hit.index!]);
    last = hit.index! + hit[0].length;
  }
  parts.push(m.text.slice(last));
  for (let i = last; i <= m.text.length; i++) rawAt.push(m.rawAt[i]);
  return { text: parts.join(''), rawAt };
}

/**
 * One normal form: compatibility forms folded (full-width letters, ligatures), accents stripped (Côte → Cote,
 * İRAN → IRAN), zero-width characters dropped (so "I\u200Bran" cannot hide a name), curly apostrophes and the
 * dash family made ASCII, every space-like character but tab made a plain space (a tab separates the cells of a
 * pasted spreadsheet form). Case is kept: US state codes need it. Character by character (NFKD, which NFKC then NFD
 * amounts to, decomposes each character on its own, and the marks it reorders are stripped), so every character of
 * the result knows the character of the buyer's text it came from: a finding quotes the buyer's own words.
 */
export function normaliseMapped(raw: string): MappedText {
  const parts: string[] = [];
  const rawAt: number[] = [];
  let last = 0;
  const plain = (to: number) => {
    parts.push(raw.slice(last, to));
    for (let i = last; i < to; i++) rawAt.push(i);
  };
  // Printable ASCII, tab and line breaks are their own normal form: copied in runs (a megabyte profile is mostly that).
  for (const run of raw.matchAll(/[^\t\n\r\x20-\x7e]+/g)) {
    plain(run.index!);
    let i = run.index!;
    for (const ch of run[0]) {
      const folded = foldChar(ch);
      parts.push(folded);
      for (let k = 0; k < folded.length; k++) rawAt.push(i);
      i += ch.length;
    }
    last = i;
  }
  plain(raw.length);
  rawAt.push(raw.length);
  const text = parts.join('');
  let m: MappedText = { text, rawAt };
  m = replaceMapped(m, /\r\n?/g, '\n');
  // Dotted leaders ("Formed ........ 2025-12-03", ". . . . S") join a label to its value: read them as a colon.
  m = replaceMapped(m, / *(?:\.{4,}|(?:\. ){2,}\.) */g, ': ');
  return replaceMapped(m, /:(?: *:)+/g, ':');
}

export function normalise(text: string): string {
  return normaliseMapped(text).text;
}

const LOOKBACK = 160;
/** Where a clause starts: a sentence or line end, a semicolon, or a turn such as "but" / "however". */
// The turns of the vendors' languages end a clause too: "nicht auf das alte Konto, sondern…", "nie na stary, tylko na
// nowy rachunek", "no a la cuenta antigua, sino…".
const CLAUSE_BREAK = /[.;!?\n]\s|\n|(?<![\p{L}])(?:but|however|although|though|whereas|while|yet|instead|rather|sondern|aber|jedoch|mais|pero|sino|ale|lecz|tylko|porem|maar|ancak|fakat)(?![\p{L}])/giu;

/** The clause text before `index`, at most LOOKBACK characters. */
export function clauseBefore(text: string, index: number): string {
  const window = text.slice(Math.max(0, index - LOOKBACK), index);
  let start = 0;
  CLAUSE_BREAK.lastIndex = 0;
  for (let m = CLAUSE_BREAK.exec(window); m; m = CLAUSE_BREAK.exec(window)) start = m.index + m[0].length;
  return window.slice(start);
}

/** The clause text after `end`, at most `max` characters, up to the next line or sentence end. */
export function clauseAfter(text: string, end: number, max = 80): string {
  const window = text.slice(end, end + max);
  const stop = /\n|;|[.!?](?:\s|$)/.exec(window);
  return stop ? window.slice(0, stop.index) : window;
}

// "Nothing paid before work starts" denies the payment as surely as "no payment before work"; so do "keine
// Vorauskasse", "sin anticipo", "sans acompte" in the languages vendors write in.
const NEGATION =
  /(?<![\p{L}'])(?:no|not|never|none|nothing|nobody|without|zero|nor|neither|cannot|[\p{L}]+n't|kein|keine|keinen|nicht|nie|ohne|pas|sans|aucun|aucune|jamais|sin|ningun|ninguna|ninguno|nunca|nessun|nessuna|nessuno|senza|sem|nao|nenhum|nenhuma|bez|nie|brak|geen|zonder)(?![\p{L}'])/giu;
const CONDITION = /(?<![\p{L}'])(?:without|until|unless|before|only\s+(?:after|upon|once|against|with)|ohne|sans|sin|senza|sem|bez|zonder|antes|avant|vor|prima|przed)(?![\p{L}'])/giu;

/**
 * Whether a statement found at `index` is negated in its own clause ("we will never ask you to update our bank
 * details"). With `conditionalIsDemand`, a condition word closer to the match than the negation turns it back into
 * a demand: "we cannot ship without 100% prepayment" demands prepayment.
 */
export function negatedBefore(text: string, index: number, conditionalIsDemand = false, near = false): boolean {
  let clause = clauseBefore(text, index);
  // Near: the denial must be in the same comma phrase ("do not pay the old account, use our new account" asks).
  if (near) clause = clause.slice(Math.max(clause.lastIndexOf(','), clause.lastIndexOf(' - ')) + 1);
  const lastNeg = lastIndexOf(NEGATION, clause);
  if (lastNeg < 0) return false;
  if (!conditionalIsDemand) return true;
  const lastCondition = lastIndexOf(CONDITION, clause);
  if (lastCondition < lastNeg) return true;
  // "Without" is a condition only after a denial ("we cannot ship without prepayment"); alone it denies: "sin
  // anticipo", "sem adiantamento", "ohne Vorauskasse" ask for none.
  if (lastCondition === lastNeg && lastIndexOf(NEGATION, clause.slice(0, lastNeg)) < 0) return true;
  return false;
}

function lastIndexOf(re: RegExp, s: string): number {
  re.lastIndex = 0;
  let last = -1;
  for (let m = re.exec(s); m; m = re.exec(s)) last = m.index;
  return last;
}

/** Every match of a global regex, as [index, match] pairs. */
export function* matches(re: RegExp, text: string): Generator<RegExpExecArray> {
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    yield m;
    if (m[0].length === 0) re.lastIndex++;
  }
}

/**
 * The stretch a flag quotes around `index`: its line, or, when the line is long (a one-line profile), the sentence
 * holding it; at most `max` characters. As [from, to) offsets, so the evidence can quote the same words verbatim.
 */
export function lineSpan(text: string, index: number, max = 160): { from: number; to: number; clipped: boolean } {
  let from = text.lastIndexOf('\n', index - 1) + 1;
  const nl = text.indexOf('\n', index);
  let to = nl < 0 ? text.length : nl;
  if (to - from > max) {
    const line = text.slice(from, to);
    const at = index - from;
    const ends = [...line.matchAll(/(?<=\p{Ll}{2}|\d)[.!?;](?=\s+\p{Lu})/gu)].map((m) => m.index! + 1);
    const start = Math.max(0, ...ends.filter((e) => e <= at));
    const end = Math.min(line.length, ...ends.filter((e) => e > at));
    [from, to] = [from + start, from + end];
  }
  while (from < to && /\s/.test(text[from])) from++;
  while (to > from && /\s/.test(text[to - 1])) to--;
  return to - from > max ? { from, to: from + max - 1, clipped: true } : { from, to, clipped: false };
}

/** The words a flag quotes around `index` (see lineSpan), spaces collapsed, clipped with an ellipsis. */
export function lineOf(text: string, index: number, max = 160): string {
  const { from, to, clipped } = lineSpan(text, index, max);
  const line = text.slice(from, to).replace(/\s+/g, ' ');
  return clipped ? `${line}…` : line;
}

export { dayNumber, firstDate, isoDay, type DaySpan } from './dates.js';
