/**
 * The screening questions of a questionnaire, read one by one as a reviewer reads them: every question, not only
 * the ones that name countries. Three layouts: a form tool's export (the question is the column header, the answer
 * the cell), a question line with its answer on the same line ("…?  Y/N: Y", "…? [ ] Yes [x] No"), and a question
 * whose answer sits on the lines under it (tick boxes, a bare Yes/No), a bilingual question's second language
 * included. Answers are Yes/No in any of their spellings (Y/N, 1/0 from Typeform, Sí, ticked boxes); a statement
 * phrased negatively ("The company has never been convicted…  Y/N: N") turns N into the red flag. A screening
 * question left blank cannot be read as a no: it is reported as unanswered.
 */
import { questionRows, type FormExport } from './form.js';

/**
 * 'na': "N/A", "not applicable". A screening question applies to every supplier (each one either is or is not owned
 * from a sanctioned place), so N/A answers nothing: the fact stays undecided and the vendor is held until it is.
 */
export type Reading = 'yes' | 'no' | 'blank' | 'na' | 'unclear';

export interface ScreeningFinding {
  /** The red-flag area, "other: <what>". */
  area: string;
  topic: Topic;
  /** The question and its answer as written (and the explanation under it, when given). */
  quote: string;
  /** Where the answer was read (offset in the text read; for a form export, in its prose). */
  at: number;
}

export type Topic = 'sanctions' | 'pep' | 'conviction' | 'litigation' | 'bankruptcy' | 'debarment' | 'conflict';

/**
 * Screening topics, most specific first: a question may name several ("sanctions list or a government official").
 * `what` names the matter in the flag: "<what> declared" (or `declared`, as a reviewer names it: a PEP owner is its
 * own area beside any other), "<what> question left unanswered".
 */
const TOPICS: { topic: Topic; re: RegExp; what: string; short: string; open: string; declared?: string }[] = [
  { topic: 'conviction', re: /convicted|conviction|indicted|under\s+investigation|investigated|sentenced|condenad/i, what: 'conviction or investigation (fraud, bribery, corruption)', short: 'conviction', open: 'record' },
  { topic: 'litigation', re: /litigation|lawsuit|law\s*suit|legal\s+(?:action|proceeding)|\bsuits?\b|claims?\s+act|litigio|demanda/i, what: 'pending litigation', short: 'litigation', open: 'exposure' },
  { topic: 'bankruptcy', re: /bankrupt|insolven|administration|liquidation|receivership|chapter\s+(?:7|11)|concurso|quiebra|winding[- ]up/i, what: 'bankruptcy or insolvency', short: 'insolvency', open: 'standing' },
  { topic: 'debarment', re: /debar|suspended\s+or\s+excluded|excluded\s+from\s+(?:public|government|federal|state)|exclusion\s+list|ineligible\s+(?:for|to)\s+(?:receive\s+)?(?:public|government|federal)|black-?list/i, what: 'debarment or exclusion', short: 'debarment', open: 'eligibility' },
  { topic: 'pep', re: /politically\s+exposed|politi(?:sch|quement|camente)\s+expo(?:niert|see?|sta)|\bpeps?\b|\bppe\b|(?:government|public|state)\s+(?:official|body|bodies|entity|agency|employee|officer)|government[- ]owned|state[- ]owned|funcionario|official\s+own/i, what: 'government official (PEP) among owners', short: 'government-official', open: 'exposure', declared: 'owner is a politically exposed person' },
  {
    topic: 'conflict',
    re: /conflicts?\s+of\s+interests?|interessenkonflikt|conflit\s+d'interets|conflicto\s+de\s+interes|(?:employee|staff\s+member|officer|director|personnel)\s+(?:of|at)\s+(?:the\s+|our\s+)?(?:buyer|purchaser|client)|(?:relative|family\s+member|spouse|sibling|related)\W+(?:[\p{L}'-]+\W+){0,12}?(?:(?:our|the\s+buyer's|the\s+client's)\s+(?:employees?|staff|officers?|directors?)|government\s+official)/iu,
    what: 'conflict of interest',
    short: 'conflict-of-interest',
    open: 'relationship',
    declared: 'conflict of interest declared (a tie to the buyer, its staff or an official)',
  },
  // With the forms' other languages: Sanktionsliste, sanción, sanzioni, sanctielijst.
  { topic: 'sanctions', re: /sanction|sanktion|sancion|sanzion|sanctie|embargo|\bofac\b|\bsdn\b/i, what: 'sanctions exposure', short: 'sanctions', open: 'exposure' },
];

const YES = /^(?:yes|y|si|oui|ja|sim|true|1|x)$/i;
const NO = /^(?:no|n|non|nein|nao|none|nil|never|false|0|nope)$/i;
const NOT_APPLICABLE = /^(?:n\s*\/\s*a|n\.a\.?|na|not\s+applicable|does\s+not\s+apply|not\s+relevant)(?![\p{L}])/iu;
/** Answers that leave the fact open: the respondent does not know, or puts it off. */
const UNKNOWN =
  /^(?:unknown|unsure|not\s+sure|not\s+known|to\s+be\s+(?:confirmed|advised|determined)|tb[acd]|pending|to\s+follow|will\s+(?:advise|confirm|follow)|(?:i|we)\s+do(?:n't|\s+not)\s+know|do(?:n't|\s+not)\s+know|prefer\s+not|\?+)(?![\p{L}])/iu;
const BOX = /\[\s*[xX✓✔*•]?\s*\]|\(\s*[xX✓✔*•]?\s*\)|[☐□☒☑■✅]/gu;
const TICKED = /[xX✓✔*•☒☑■✅]/u;
const NEGATION = /(?<![\p{L}])(?:no|not|never|none|free\s+of|without)(?![\p{L}])/iu;
const YN_MARK = /(?<![\p{L}])(?:y\s*\/\s*n|yes\s*\/\s*no|s[ií]\s*\/\s*no)\s*[:-]?/iu;
/** "If yes, please explain", "Details" columns are where an answer is explained, not asked. */
const NOT_A_QUESTION = /^\s*(?:if\s+(?:yes|so|no|unsure)|please\s+(?:explain|describe|give|list)|details?|explanation|comments?)/i;

/**
 * The labels of the ticked boxes, box first ("[ ] Yes [x] No") or label first ("Yes [ ] No [x]"); undefined when
 * the answer has no boxes.
 */
export function tickedLabels(answer: string): string[] | undefined {
  const boxes = [...answer.matchAll(BOX)];
  if (boxes.length === 0) return undefined;
  const boxFirst = answer.trimStart().startsWith(boxes[0][0]);
  const labels: string[] = [];
  boxes.forEach((b, k) => {
    if (!TICKED.test(b[0])) return;
    const from = boxFirst ? b.index! + b[0].length : k === 0 ? 0 : boxes[k - 1].index! + boxes[k - 1][0].length;
    const to = boxFirst ? boxes[k + 1]?.index ?? answer.length : b.index!;
    labels.push(answer.slice(from, to).replace(/[:\-]/g, ' ').trim());
  });
  return labels;
}

/**
 * Whether the words at [from, to) of `line` are the label of a tick box, and whether it is ticked: the box before
 * them on a box-first line ("[ ] Advance payment   [x] 30 days"), the box after them on a label-first one.
 */
export function boxOf(line: string, from: number, to: number): 'ticked' | 'empty' | undefined {
  const boxes = [...line.matchAll(BOX)];
  if (boxes.length === 0) return undefined;
  const boxFirst = line.trimStart().startsWith(boxes[0][0]);
  const own = boxFirst ? boxes.filter((b) => b.index! + b[0].length <= from).pop() : boxes.find((b) => b.index! >= to);
  if (!own) return undefined;
  return TICKED.test(own[0]) ? 'ticked' : 'empty';
}

/** One answer as written: tick boxes, a Y/N mark, a bare word, or prose. */
export function readAnswer(raw: string): Reading {
  const text = raw.replace(YN_MARK, ' ').trim();
  const labels = tickedLabels(text);
  if (labels) {
    if (labels.length === 0) return 'blank';
    if (labels.every((l) => NOT_APPLICABLE.test(l))) return 'na';
    const words = labels.map((l) => l.split(/\s*\/\s*|\s+/).filter(Boolean));
    if (words.every((w) => w.some((x) => YES.test(x)) && !w.some((x) => NO.test(x)))) return 'yes';
    if (words.every((w) => w.some((x) => NO.test(x)) && !w.some((x) => YES.test(x)))) return 'no';
    return 'unclear';
  }
  if (text === '' || /^[_\s.-]*$/.test(text)) return 'blank';
  if (NOT_APPLICABLE.test(text)) return 'na';
  if (UNKNOWN.test(text)) return 'unclear';
  const first = /^[\p{L}\p{N}/]+/u.exec(text)?.[0] ?? '';
  if (YES.test(first)) return 'yes';
  if (NO.test(first)) return 'no';
  return NEGATION.test(text) ? 'no' : 'unclear';
}

/** Whether a question is phrased so that "yes" is the clean answer ("No director is a public official.  Y/N: Y"). */
function negativelyPhrased(question: string): boolean {
  const q = question.replace(/^\s*(?:[A-Z]{0,2}\d+[a-z]?[.)]?|[a-z][.)])\s*/i, '');
  if (!q.includes('?')) return NEGATION.test(q);
  return /^(?:is|are|has|have|does|do|was|were)\s+(?:[\p{L}'-]+\s+){0,3}?(?:not|never|free\s+of)(?![\p{L}])/iu.test(q);
}

/**
 * A sanctions question about what the vendor itself does to stay clear of sanctions (screening its customers and
 * suppliers, a compliance programme, policy or training, complying with the laws), not about whether it is exposed:
 * "Do you screen your own customers against EU and US sanctions lists?  Yes" is good practice. A question that also
 * asks about exposure (on a list, owned by, operations in, dealings with, flagged or failed by a screening) is read
 * as an exposure question.
 */
const CONTROL =
  /(?<![\p{L}])(?:screen(?:s|ed|ing)?|vet(?:s|ted|ting)?|check(?:s|ed|ing)?\s+(?:your|its|their|all|our)?\s*(?:own\s+)?(?:customers|clients|suppliers|counterpart|business\s+partners|third\s+parties)|(?:compliance|screening|export[- ]control)\s+(?:programme|program|policy|policies|procedures?|process(?:es)?|officer|function|system|controls?)|(?:programme|program|policy|policies|procedures?|controls|training)\s+(?:on|for|covering|to\s+(?:ensure|comply|manage))|comply|complies|compliant|adhere|abide|train(?:s|ed|ing)?\s+(?:your|its|their|all)?\s*(?:staff|employees))(?![\p{L}])/iu;
const EXPOSURE =
  /(?<![\p{L}])(?:identified|listed|designated|named|targeted|subject\s+to|sanctioned\s+(?:person|party|entity|individual|country|countries|jurisdiction|region)|owned|controlled|operations?|offices?|sales|sourcing|customers\s+in|located|resident|organi[sz]ed|(?:business|dealings?|transactions?|trade|trading)\s+(?:with|in)|violat\w*|breach\w*|penalt\w*|investigat\w*|flagged|hits?|match(?:ed|es)?|blocked|frozen|prohibited|restricted|debarred|denied|appear\w*|fail\w*|(?:been|being|is|are|was|were)\s+sanctioned|sanctioned\s+by)(?![\p{L}])/iu;
function asksControl(question: string): boolean {
  return CONTROL.test(question) && !EXPOSURE.test(question);
}

/** A question about the vendor's own conflict policy or an undertaking to disclose one asks about a control, not a tie. */
const CONFLICT_CONTROL = /polic(?:y|ies)|procedures?|programme|program|code\s+of|training|(?:agree|undertake|commit)\s+to|will\s+you|do\s+you\s+(?:have|maintain)/i;

function topicsOf(question: string): typeof TOPICS {
  return TOPICS.filter((t) => t.re.test(question) && !(t.topic === 'conflict' && CONFLICT_CONTROL.test(question)));
}

interface Asked {
  question: string;
  answer: string;
  quote: string;
  at: number;
}

function finding(asked: Asked): ScreeningFinding | undefined {
  if (NOT_A_QUESTION.test(asked.question)) return undefined;
  const topics = topicsOf(asked.question);
  if (topics.length === 0) return undefined;
  const reading = readAnswer(asked.answer);
  const t = topics[0];
  const what = t.topic === 'sanctions' && reading === 'blank' ? 'sanctions-exposure' : t.what;
  if (reading === 'blank') return { area: `other: ${what} question left unanswered`, topic: t.topic, quote: asked.quote, at: asked.at };
  if (reading === 'na') return { area: `other: ${t.short} question answered N/A - ${t.open} cannot be determined`, topic: t.topic, quote: asked.quote, at: asked.at };
  if (reading === 'unclear') return { area: `other: ${what} answer unclear`, topic: t.topic, quote: asked.quote, at: asked.at };
  // A question on the vendor's own controls is the other way round: yes is the clean answer, no the gap.
  const control = t.topic === 'sanctions' && asksControl(asked.question);
  const risk = negativelyPhrased(asked.question) !== control ? reading === 'no' : reading === 'yes';
  if (!risk) return undefined;
  const area = control ? 'sanctions compliance control answered no' : t.declared ?? `${what} declared`;
  return { area: `other: ${area}`, topic: t.topic, quote: asked.quote, at: asked.at };
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const QUESTION_END = /\?(?=[^?]*$)/;
const EXPLANATION = /^\s*(?:explanation|details?|detalle|if\s+yes|comments?)\b/i;
const ANSWER_LINE =
  /^\s*(?:\[\s*[xX✓✔*•]?\s*\]|\(\s*[xX✓✔*•]?\s*\)|[☐□☒☑■✅]|(?:yes|no|y|n|s[ií]|ja|nein|oui|non|nee|sim|nao|n\s*\/\s*a|not\s+applicable|unknown|unsure)(?![\p{L}])|(?:y\s*\/\s*n|yes\s*\/\s*no)\s*:)/iu;
/** A questionnaire item's opening: "4.3", "Q7", "b)", a bullet. */
const NUMBERED = /^\s*(?:(?:q(?:uestion)?\s*)?[A-Z]?\d+(?:\.\d+)*[.):]?|[a-z][.)]|[-•])\s+\S/iu;

/**
 * Where the question ending on line `i` starts: a questionnaire wraps a long question over several lines and puts
 * the answer after the last one ("4.3 Is your company … organized,\n located … (e.g., OFAC SDN List)? *  N/A").
 * Earlier lines join when they lead back to the item's number, or when line `i` plainly continues a sentence.
 */
export function questionStart(lines: string[], i: number): number {
  if (NUMBERED.test(lines[i])) return i;
  let k = i;
  while (k > 0 && i - k < 4) {
    const prev = lines[k - 1];
    const ended = prev.trim() === '' || prev.includes('?') || YN_MARK.test(prev) || ANSWER_LINE.test(prev) || /\S\s{4,}\S/.test(prev.trim()) || /:\s*$/.test(prev);
    if (ended || /^\s*[▼►▶#=]/u.test(prev)) break;
    k--;
    if (NUMBERED.test(lines[k])) return k;
  }
  if (/^\s*[\p{Ll}(]/u.test(lines[i])) return k;
  // A line that starts with a name ("Syria or the occupied regions…?") continues the line above when that one stops
  // mid-sentence, on a comma or a joining word ("…sell to Russia, Belarus, Iran, Cuba, North Korea,"): read back
  // over such lines only.
  // The line it leads back to must open a question ("Does…", "Is…", "Any…"): a field line ending on a comma
  // ("Address: Calle 5, Havana,") is no part of the question under it.
  let j = i;
  while (j > k && RUNS_ON_END.test(lines[j - 1])) j--;
  return j < i && QUESTION_OPEN.test(lines[j]) ? j : i;
}

const QUESTION_OPEN =
  /^\s*(?:is|are|was|were|does|do|did|has|have|had|will|would|can|could|should|any|please|in\s+which|which|what|where|whether|indicate|list|name)(?![\p{L}])/iu;

/** A line that stops mid-sentence: on a comma, or on a word that joins what follows (and, or, of, to, in…). */
const RUNS_ON_END = /(?:,|(?<![\p{L}])(?:and|or|nor|of|to|in|into|from|with|for|on|at|by|the|a|an|any|including|such\s+as))\s*$/iu;

/** Questions asked in the text, with their answers (same line, or the lines under them). */
function textQuestions(text: string): Asked[] {
  const lines = text.split('\n');
  const starts: number[] = [];
  lines.reduce((at, l) => (starts.push(at), at + l.length + 1), 0);
  const out: Asked[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    let question: string;
    let rest: string;
    const q = QUESTION_END.exec(line);
    const mark = YN_MARK.exec(line);
    if (q && (!mark || mark.index > q.index)) {
      question = line.slice(0, q.index + 1);
      rest = line.slice(q.index + 1);
    } else if (mark && mark.index > 10) {
      question = line.slice(0, mark.index);
      rest = line.slice(mark.index);
    } else continue;
    const start = questionStart(lines, i);
    if (start < i) question = `${lines.slice(start, i).map((l) => l.trim()).join(' ')} ${question.trim()}`;
    // A portal marks a required question with "*" between the question and its answer.
    rest = rest.replace(/^\s*\*+/, ' ');
    if (topicsOf(question).length === 0) continue;
    const quoteLines = [start < i ? `${clip(question.trim(), 200)} ${rest.trim()}` : line.trim().replace(/\s{3,}/g, '  ')];
    let j = i;
    if (rest.trim() === '') {
      // The answer is under the question, after any further question lines (a bilingual form asks twice).
      j = i + 1;
      while (j < lines.length && (lines[j].trim() === '' || (QUESTION_END.test(lines[j]) && !ANSWER_LINE.test(lines[j])))) {
        if (lines[j].trim() !== '') quoteLines.push(lines[j].trim());
        if (j - i > 4) break;
        j++;
      }
      if (j >= lines.length || !ANSWER_LINE.test(lines[j])) continue;
      rest = lines[j];
      quoteLines.push(lines[j].trim());
    } else if (!YN_MARK.test(rest) && !ANSWER_LINE.test(rest)) {
      continue;
    }
    const next = lines[j + 1];
    if (next !== undefined && EXPLANATION.test(next)) quoteLines.push(clip(next.trim(), 160));
    out.push({ question, answer: rest, quote: clip(quoteLines.join(' / '), 320), at: starts[j] + (lines[j].length - lines[j].trimStart().length) });
  }
  return out;
}

function formQuestions(form: FormExport): Asked[] {
  // A questionnaire exported a question a row: each row's question with its own answer and comment.
  const rows = (questionRows(form) ?? []).map((r) => ({
    question: r.question,
    answer: r.answer,
    quote: `${clip(r.question, 200)} → ${r.answer === '' ? '(blank)' : clip(r.answer, 120)}${r.comment ? ` / ${clip(r.comment, 160)}` : ''}`,
    at: r.at,
  }));
  return rows.concat(form.cells
    .filter((c) => c.header.includes('?') || YN_MARK.test(c.header))
    .map((c) => ({
      question: c.header,
      answer: c.value,
      quote: `${clip(c.header, 200)} → ${c.value === '' ? '(blank)' : clip(c.value, 120)}`,
      // A blank answer is shown by its question; an answer by itself.
      at: c.value === '' ? c.at : c.valueAt,
    })));
}

/** Every screening question whose answer is a red flag, blank or unreadable, once per area. */
export function screeningFindings(text: string, form: FormExport | undefined): ScreeningFinding[] {
  const asked = form ? formQuestions(form) : textQuestions(text);
  const seen = new Set<string>();
  const out: ScreeningFinding[] = [];
  for (const a of asked) {
    const f = finding(a);
    if (f && !seen.has(f.area)) {
      seen.add(f.area);
      out.push(f);
    }
  }
  return out;
}
