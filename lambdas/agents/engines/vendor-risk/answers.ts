/**
 * Denials a form states by answering (RULES.md rule 2, "A form answered no" and "A form tool's export"): a question
 * or label naming places, answered no on its own line or on the lines under it (tick boxes). A form tool's export is
 * read as "question: answer" lines (form.ts), so its cells are answered on their own line too.
 */
import { tickedLabels } from './questions.js';
import { AUX, DENIAL, SUBJECT, type Tok } from './tokens.js';

const QUESTION_NUMBER = /^\s*(?:q|question|item|no|#)?\s*\d+[a-z]?\s*$/i;
// With the forms' other languages: German "Nein", French "Non", Dutch "Nee", Portuguese "Não", Nordic "Nej", Polish
// "Nie" / "Brak", Turkish "Hayır" / "Yok", Italian "Nessuno", Finnish "Ei", Norwegian "Nei", Indonesian "Tidak",
// Russian "Нет", Korean "아니오" / "없음", Japanese "いいえ" / "なし", Chinese "否" / "无" (in the normal form of text.ts).
const NO_WORD = `(?:no|none|nil|nope|n\\/?a|not\\s+applicable|no\\s+aplica|nao\\s+(?:se\\s+)?aplica|nie\\s+dotyczy|sans\\s+objet|entfallt|n\\.v\\.t\\.?|zero|0|false|negative|never|nein|non|nee|nao|nej|aucune?|keine?|ninguna?|ninguno|nenhuma?|nessun[oa]?|nie|brak|hay[ıi]r|yok|ei|nei|ingen|geen|tidak|нет|아니오|아니요|없음|해당\\s*없음|いいえ|なし|無し|否|无|無|没有)`.normalize('NFD');
/**
 * A clean no: the word alone ("No", "N/A.", "No - none"), or followed by a clause that denies again and turns
 * nowhere ("No, we do not"). "No sanctions issues" or "No, but our parent company does" are not answers of no.
 */
// A bilingual form answers in both its languages: "Hayır / No", "Nie / No", "Não / No".
const CLEAN_NO = new RegExp(`^\\s*${NO_WORD}(?![\\p{L}\\p{N}/])(?:\\s*[,;:(/-]?\\s*${NO_WORD}\\)?)?\\s*[.!]?\\s*$`, 'iu');
const NO_THEN_DENIAL = new RegExp(`^\\s*${NO_WORD}\\s*[,;:-]\\s*(.*)$`, 'iu');
const DENIES = /(?<![\p{L}'])(?:not|never|no|none|[\p{L}]+n't)(?![\p{L}'])/iu;
const TURNS = /(?<![\p{L}])(?:but|except|however|although|though|only|other\s+than|apart\s+from|besides|aside\s+from|outside)(?![\p{L}])/iu;

function cleanNo(answer: string): boolean {
  if (CLEAN_NO.test(answer)) return true;
  const m = NO_THEN_DENIAL.exec(answer);
  return !!m && DENIES.test(m[1]) && !TURNS.test(m[1]);
}

const BOX_LINE = /^\s*(?:\[\s*[xX✓✔*•]?\s*\]|\(\s*[xX✓✔*•]?\s*\)|[☐□☒☑■✅]|(?:yes|no|n\/a)\s*[:\-]?\s*(?:\[\s*[xX✓✔*•]?\s*\]|\(\s*[xX✓✔*•]?\s*\)|[☐□☒☑■✅]))/iu;

/** 'no' when the answer denies: a bare no / none / N/A, or the one ticked box labelled so. */
export function answerIsNo(answer: string): boolean {
  const ticked = tickedLabels(answer);
  return ticked ? ticked.length > 0 && ticked.every((label) => CLEAN_NO.test(label)) : cleanNo(answer);
}

/**
 * Pass 2: a mention in a question ("…Iran…?") or a label ("Operations in Iran:") whose answer is no. A label's
 * mentions must run in a plain list up to its colon (or cell end), and must not sit in the value of an earlier key
 * on the line ("Country: Iran Sanctions: No" keeps Iran); a table cell must hold more than the name ("Iran | No" in
 * a vendor list is a value). Answers are the rest of the line, else the next non-blank line and its box lines.
 */
export function answers(toks: Tok[], line: string, base: number, nextLines: () => string[], out: boolean[]): void {
  const n = toks.length;
  const isCellEnd = (t: Tok) => t.k === 'stop' && (t.s === '\t' || t.s === '|' || t.s === '",');
  const isColon = (t: Tok) => t.k === 'sep' && t.s === ':';
  // Left to right: whether a key ("Country:") or any word precedes each token in its sentence or cell.
  const keyBefore = new Array<boolean>(n);
  const wordBefore = new Array<boolean>(n);
  let key = false;
  let word = false;
  for (let i = 0; i < n; i++) {
    const t = toks[i];
    keyBefore[i] = key;
    wordBefore[i] = word;
    if (t.k === 'stop' || t.k === 'box') key = word = false;
    else if (isColon(t)) key = !QUESTION_NUMBER.test(line.slice(0, t.at - base));
    else if (t.k === 'word') word = true;
  }
  // Right to left: the question mark or label end each token runs to (-1: none), whether only a plain list lies
  // between (runs of at most four words, none a pronoun, verb or denial), and whether a word does.
  const term = new Array<number>(n);
  const listOnly = new Array<boolean>(n);
  const wordAfter = new Array<boolean>(n);
  let at = -1;
  let plain = true;
  let words = false;
  let run = 0;
  for (let i = n - 1; i >= 0; i--) {
    const t = toks[i];
    term[i] = at;
    listOnly[i] = plain;
    wordAfter[i] = words;
    if ((t.k === 'stop' && t.s === '?') || isColon(t) || isCellEnd(t)) {
      at = i;
      plain = true;
      words = false;
      run = 0;
    } else if (t.k === 'stop' || t.k === 'box') {
      at = -1;
    } else if (t.k === 'word') {
      words = true;
      run++;
      if (run > 4 || SUBJECT.has(t.w) || AUX.has(t.w) || DENIAL.has(t.w)) plain = false;
    } else run = 0;
  }
  const answered = new Map<number, boolean>();
  for (let i = 0; i < n; i++) {
    const t = toks[i];
    if (t.k !== 'mention' || out[t.m] || term[i] < 0) continue;
    const end = toks[term[i]];
    const question = end.k === 'stop' && end.s === '?';
    if (!question && (!listOnly[i] || keyBefore[i] || (!isColon(end) && !wordBefore[i] && !wordAfter[i]))) continue;
    let no = answered.get(term[i]);
    if (no === undefined) {
      // A CSV question cell ends in `?",` before its answer cell; a form export's line in `?: `.
      let answer = line.slice(end.end - base, end.end - base + 200).replace(/^[\s",;|:]+/, '');
      const stop = /[.;!?](?:\s|$)|[|\t]/.exec(answer);
      if (stop) answer = answer.slice(0, stop.index);
      if (answer.trim() === '') answer = nextLines().join(' ');
      no = answerIsNo(answer);
      answered.set(term[i], no);
    }
    if (no) out[t.m] = true;
  }
}

/** The next non-blank line (at most two blank lines on), and the box lines after it ("☐ Yes" / "☒ No" each on its own line). */
export function answerLines(text: string, from: number): string[] {
  const found: string[] = [];
  let at = from;
  let blank = 0;
  let asked = 0;
  while (at < text.length && found.length < 4) {
    const nl = text.indexOf('\n', at + 1);
    const line = text.slice(at + 1, nl < 0 ? text.length : nl);
    at = nl < 0 ? text.length : nl;
    if (line.trim() === '') {
      if (found.length === 0 && ++blank <= 2) continue;
      break;
    }
    // A bilingual form asks the question again in its second language before the boxes.
    if (found.length === 0 && /\?\s*$/.test(line) && !BOX_LINE.test(line) && ++asked <= 2) continue;
    if (found.length > 0 && !BOX_LINE.test(line)) break;
    found.push(line.slice(0, 200));
    if (!BOX_LINE.test(line)) break;
  }
  return found;
}
