/**
 * Which jurisdiction mentions the profile itself denies (RULES.md rule 2, "Denials"). Three readings, each one
 * bounded pass, so a megabyte of names stays linear:
 * - the scope of a denial word in the mention's own sentence: "we have no operations, owners or customers in Iran,
 *   North Korea or Syria", "none of our owners are located in Cuba", "we sell everywhere except Cuba";
 * - a form question or label answered no: "Operations in sanctioned countries (Iran, Syria): No",
 *   "Do you operate in Iran? [ ] Yes [x] No" (the answer may sit on the next lines), or a form tool's export whose
 *   header row holds the question and whose rows all answer no.
 * A scope ends at anything that starts a new statement (RULES.md lists the cues), so a denial never hides a place
 * the vendor says it is in: "no operations in Iran except a sales office in Tehran" still places it in Iran.
 */

import { answerLines, answers } from './answers.js';
import { tickedLabels } from './questions.js';
import { questionStart } from './questions.js';
import { AUX, DENIAL, SUBJECT, tokenize, words, type Mention, type Tok } from './tokens.js';

export type { Mention } from './tokens.js';

/** "not far from Tehran", "not only in Russia", "including but not limited to Iran" assert presence. */
const NOT_A_DENIAL = words(
  'far only just also merely limited near close since long least ' +
    'nur weit bloss lediglich seulement uniquement loin solo solamente lejos apenas somente',
);
/**
 * Denied trouble or denied leaving asserts presence: "no issues operating in Iran", "we never stopped selling to
 * Cuba", "no restrictions on our Tehran branch".
 */
const AFFIRMING = words(
  'issue issues problem problems trouble difficulty difficulties concern concerns complaint complaints restriction ' +
    'restrictions objection objections hesitation stop stopped ceased cease left leave withdraw withdrew withdrawn ' +
    'exit exited quit suspend suspended terminate terminated divest divested close closed end ended ' +
    'probleme problemen schwierigkeiten einschrankungen bedenken problemes difficultes problemas dificultades restricciones',
);
const TURN = words(
  'but however although though whereas while whilst unless until instead rather yet ' +
    'aber jedoch sondern obwohl allerdings mais cependant pourtant toutefois pero sino aunque mas maar',
);
const EXCEPTION = words('except excepting excluding besides outside beyond ausser ausgenommen sauf excepto salvo exceto behalve');
const EXCEPTION_PAIRS = words('other_than apart_from aside_from save_for but_for');
const NEW_PHRASE = words('the a an this that these those our its their my his her your unser unsere unseren unserem unserer notre nos nuestro nuestra nuestros nuestras');
const ONLY = words('only just mainly mostly primarily solely exclusively also but nur auch hauptsachlich aussi seulement surtout tambien solo principalmente');
const INTRODUCER = words(
  'in into to from with within at of by under across throughout for on inside including include includes incl ' +
    'namely like as via among between toward towards involving eg ie ' +
    'zu nach aus von mit bei dans avec vers aux chez en con desde hacia entre',
);
const DETERMINER = words('the any all either each both');
/** Prepositions that place something; a second such phrase after a comma or "and" is a new statement. */
const PLACE = words('in into at from within inside across throughout to with nach aus dans en');
/** "no exposure, e.g. Iran": words that open a list of examples, so the comma before them is not a clause break. */
const LIST_INTRO = words('eg ie including incl namely like such especially particularly notably specifically');

/** Pass 1: denial scopes, left to right, reset at each sentence end. Marks denied mentions in `out`. */
function scopes(toks: Tok[], out: boolean[]): void {
  let open = false;
  let sawDenial = false;
  let head = true;
  let headComma = false;
  let lastSep: string | undefined;
  let segWords = 0;
  let segIntroduced = false;
  let segMention = false;
  let placeSeen = false;
  let sinceDenial = 0;
  const openScope = () => {
    open = sawDenial = head = true;
    headComma = segIntroduced = segMention = placeSeen = false;
    lastSep = undefined;
    segWords = sinceDenial = 0;
  };
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const prev = toks[i - 1];
    const next = toks[i + 1];
    if (t.k === 'stop' || t.k === 'box') {
      open = sawDenial = false;
      continue;
    }
    if (t.k === 'sep') {
      if (!open) {
        if (t.s === 'nor') openScope();
        continue;
      }
      if (t.s === 'nor' || t.s === 'or' || t.s === '&' || t.s === '/' || t.s === 'and') headComma = false;
      else if (t.s === ',' && head) headComma = true;
      if (t.s === '(' || t.s === ':') head = false;
      if (t.s !== ')') {
        lastSep = t.s;
        segWords = 0;
        segIntroduced = segMention = false;
      }
      continue;
    }
    if (t.k === 'mention') {
      const introduced =
        prev === undefined || prev.k === 'sep' || prev.k === 'mention' || sinceDenial <= 2 ||
        (prev.k === 'word' && (INTRODUCER.has(prev.w) || DETERMINER.has(prev.w) || DENIAL.has(prev.w)));
      if (open && introduced) out[t.m] = true;
      segWords++;
      sinceDenial++;
      segMention = true;
      continue;
    }
    const w = t.w;
    const pair = next?.k === 'word' ? `${w}_${next.w}` : '';
    // "Reg. No. 4123" and "No 5" are numbers, not denials.
    const isDenial = (DENIAL.has(w) || w.endsWith("n't")) && !(w === 'no' && (next?.k === 'stop' || (next?.k === 'word' && /^\d/.test(next.w))));
    if (isDenial) {
      if (next?.k === 'word' && NOT_A_DENIAL.has(next.w)) open = false;
      else openScope();
      continue;
    }
    if (EXCEPTION.has(w) || EXCEPTION_PAIRS.has(pair) || (w === 'exception' && prev?.k === 'word' && prev.w === 'the')) {
      // "no X except Y": Y is there. "everywhere except Y": Y is not.
      if (open || sawDenial) open = sawDenial = false;
      else openScope();
      if (EXCEPTION_PAIRS.has(pair)) i++;
      continue;
    }
    if (TURN.has(w) && !(w === 'yet' && prev?.k === 'word' && (DENIAL.has(prev.w) || prev.w.endsWith("n't")))) {
      open = sawDenial = false;
      continue;
    }
    if (!open) continue;
    const segmentStart = segWords === 0 && lastSep !== undefined;
    const looseSep = lastSep === ',' || lastSep === 'and' || lastSep === '-' || lastSep === ':';
    const theBeforeName = w === 'the' && next?.k === 'mention';
    const inverted = prev?.k === 'word' && AUX.has(prev.w) && sinceDenial <= 1; // "nor do we"
    if (
      (SUBJECT.has(w) && !inverted) ||
      (head && (NOT_A_DENIAL.has(w) || AFFIRMING.has(w))) ||
      (segmentStart && looseSep && (AUX.has(w) || (NEW_PHRASE.has(w) && !theBeforeName))) ||
      (segmentStart && ONLY.has(w))
    ) {
      open = false;
      continue;
    }
    if (LIST_INTRO.has(w)) {
      head = false;
    } else if (INTRODUCER.has(w)) {
      // "No litigation, offices in London and Tehran": a comma series never closed by and/or is not one list.
      if (head && headComma) {
        open = false;
        continue;
      }
      // "no offices in Europe, customers in Tehran": a new phrase after the list, not another item of it.
      if (!head && PLACE.has(w) && placeSeen && looseSep && segWords > 0 && !segIntroduced && !segMention) {
        open = false;
        continue;
      }
      head = false;
      segIntroduced = true;
      if (PLACE.has(w)) placeSeen = true;
    }
    segWords++;
    sinceDenial++;
    if ((head && sinceDenial > 8) || (!head && segWords > 6) || sinceDenial > 30) open = false;
  }
}

/**
 * Questions a form wraps over several lines ("6.2 Does your company have operations in\n Cuba, Iran, North Korea,\n
 * Syria or the Crimea?   No"): the spans of text from the item's first line to the line holding its "?", found as
 * the question reader finds them (questionStart), so the names on the earlier lines are read with the answer.
 */
function wrappedQuestions(text: string): { from: number; to: number }[] {
  const lines = text.split('\n');
  const starts: number[] = [];
  lines.reduce((at, l) => (starts.push(at), at + l.length + 1), 0);
  const spans: { from: number; to: number }[] = [];
  lines.forEach((l, i) => {
    if (!l.includes('?')) return;
    const start = questionStart(lines, i);
    if (start < i) spans.push({ from: starts[start], to: starts[i] + l.length });
  });
  return spans;
}

/**
 * A sentence a form hard-wraps over several lines ("F2 Wir unterhalten keine Geschäftsbeziehungen zu Unternehmen
 * in\n Russland, Iran, Syrien oder den besetzten Gebieten der\n Ukraine"): a line that ends on a word that cannot
 * end a sentence (a preposition, an article, a conjunction) runs on into the next non-blank line, so a denial reads
 * the names its sentence continues with. At most four lines; a blank line, a box or a tab ends it.
 */
const RUNS_ON = words(
  'in into to of from with within at by for on and or nor the a an any our including such ' +
    'zu nach aus von mit bei und oder der die das den dem des ein eine einer einem keine kein ' +
    'dans de du des la le les et ou aux au avec en del las los el con y',
);
function runsOn(line: string): boolean {
  if (/[\t☐□☒☑■✅]|\[\s*[xX✓✔*•]?\s*\]/u.test(line)) return false;
  const last = /([\p{L}]+)\s*$/u.exec(line);
  return last !== null && RUNS_ON.has(last[1].toLowerCase());
}

/** The lines [from, to) a line's sentence spans: back while the line above runs on, forward while its own does. */
function sentenceLines(text: string, lineStart: number, lineEnd: number): { from: number; to: number } {
  let from = lineStart;
  for (let n = 0; n < 3 && from > 0; n++) {
    const prevStart = text.lastIndexOf('\n', from - 2) + 1;
    const prev = text.slice(prevStart, from - 1);
    if (prev.trim() === '' || !runsOn(prev)) break;
    from = prevStart;
  }
  let to = lineEnd;
  for (let n = 0; n < 3 && to < text.length; n++) {
    const lineFrom = text.lastIndexOf('\n', to - 1) + 1;
    if (!runsOn(text.slice(lineFrom, to))) break;
    const nl = text.indexOf('\n', to + 1);
    const next = text.slice(to + 1, nl < 0 ? text.length : nl);
    if (next.trim() === '') break;
    to = nl < 0 ? text.length : nl;
  }
  return { from, to };
}

const BOX_MARK = /\[\s*[xX✓✔*•]?\s*\]|[☐□☒☑■✅]/u;
const DISOWNS = /(?<![\p{L}])(?:not|nicht|no|nein|non|false|falsch|falso|faux|pas|incorrect|unzutreffend|disagree)(?![\p{L}])/iu;

/**
 * Whether the answer boxes after a statement's last name deny it: the ticked labels (short, as answer labels are) all
 * say no, or none is ticked.
 */
function statementDisowned(tail: string): boolean {
  if (!BOX_MARK.test(tail)) return false;
  const labels = tickedLabels(tail.replace(/^[\s.;:,!?)(-]*/, ''));
  if (labels === undefined || labels.some((l) => l.split(/\s+/).length > 4)) return false;
  return labels.length === 0 || labels.every((l) => DISOWNS.test(l));
}

/** For each mention (sorted by position), whether the profile denies it. */
export function deniedMentions(text: string, mentions: Mention[]): boolean[] {
  const out = mentions.map(() => false);
  const spans = mentions.length > 0 ? wrappedQuestions(text) : [];
  let s = 0;
  let k = 0;
  while (k < mentions.length) {
    const ownStart = text.lastIndexOf('\n', mentions[k].start - 1) + 1;
    const nl = text.indexOf('\n', mentions[k].start);
    const { from: lineStart, to: lineEnd } = sentenceLines(text, ownStart, nl < 0 ? text.length : nl);
    // New lines blanked, offsets kept: the wrapped sentence is read as one line.
    const line = text.slice(lineStart, lineEnd).replace(/\n/g, ' ');
    let first = k;
    while (first > 0 && mentions[first - 1].start >= lineStart) first--;
    const toks = tokenize(line, lineStart, mentions, first);
    const before = out.slice();
    scopes(toks, out);
    // A form's statement is the vendor's only once ticked as true: "Wir unterhalten keine Geschäftsbeziehungen … in
    // Iran … [ ] trifft zu [X] trifft nicht zu" says the opposite of its words, and one left unticked says nothing.
    const lastMention = toks.findLast((t) => t.k === 'mention');
    if (lastMention && statementDisowned(line.slice(lastMention.end - lineStart))) out.forEach((v, i) => (out[i] = v && before[i]));
    while (s < spans.length && spans[s].to < lineEnd) s++;
    const span = spans[s];
    if (span && span.from <= lineStart && lineEnd < span.to) {
      // The line is inside a wrapped question: read it to the question's end (new lines blanked, offsets kept).
      const whole = text.slice(span.from, span.to).replace(/\n/g, ' ');
      answers(tokenize(whole, span.from, mentions, k), whole, span.from, () => answerLines(text, span.to), out);
    } else answers(toks, line, lineStart, () => answerLines(text, lineEnd), out);
    while (k < mentions.length && mentions[k].start < lineEnd) k++;
  }
  return out;
}

