/** The policy's text split into the sentences its rules are read from, each with its line and heading. */
import { NOT_ALLOWED } from './policy-types.js';
import { categoriesIn, type Category } from './words.js';

/**
 * Lines, then sentences ending in . ! ? or ; followed by a space; bullets and numbering dropped; headings skipped. Each
 * sentence carries the categories of the heading it sits under ("Lodging", "Hotels.", a table row's first cell), so
 * "Up to $210.00 per night" under "Lodging" is a lodging cap.
 */
export interface PolicySentence {
  sentence: string;
  context: Category[];
  line: number;
  /** A table cell: the row's first cell, naming what the limit in it is for ("Team meal (internal staff only)"). */
  row?: string;
  /** A bullet under a lead refusing what follows ("The following are not reimbursed …:"): a part of that list. */
  refused?: boolean;
  /** The words of the heading the sentence sits under ("RECEIPTS", "A. LODGING"): what a sentence with no subject
   * of its own ("Required for every expense of $75.00 or more") is about. */
  under?: string;
}

/** `german`: the policy is in German; `abbreviated`: in a language whose full stops also close abbreviations and
 * ordinals ("Art. 5", "bv.", "3. Pernottamento"), so such a stop ends no sentence. */
export function sentences(text: string, german = false, abbreviated = german, read: (s: string) => string = (s) => s): PolicySentence[] {
  const out: PolicySentence[] = [];
  let heading: Category[] = [];
  let under: string | undefined;
  // The number of the section whose heading named the categories ("5 Bewirtung"): its subsections ("5.2 Höchstbetrag")
  // that name none are still about them.
  let section: string | undefined;
  let row: { cells: string[]; n: number; bordered: boolean } | undefined;
  // A lead ending in ":" that refuses what it introduces makes each bullet under it one refused part.
  let refusing = false;
  // A table's header row: a column's header may give the unit of the limits under it ("Limit per attendee (USD)").
  let header: string[] | undefined;
  const flush = () => {
    if (!row) return;
    const [first, ...rest] = row.cells;
    if (!row.cells.some((c) => /\d/.test(c)) && row.cells.some((c) => /\p{L}/u.test(c))) header = row.cells;
    const rowCats = categoriesIn(first.toLowerCase());
    if (rowCats.length > 0) heading = rowCats;
    const named = first !== '' && !/\d/.test(first);
    for (const [k, cell] of (named ? rest : row.cells).entries()) {
      const unit = header ? UNIT_HEADER.exec(header[named ? k + 1 : k] ?? '')?.[0].toLowerCase() : undefined;
      for (const { text, label } of alternatives(cell, rest.join(' '))) {
        const bare = trimEnd(text, '.;! \t').trim();
        const c = unit && /^\d[\d.,]*$/.test(bare) ? `${bare} ${unit === 'nightly' ? 'per night' : unit === 'daily' ? 'per day' : unit}` : bare;
        if (c.length > 0 && /\d/.test(c)) out.push({ sentence: named ? `${first}: ${c}` : c, context: heading, line: row.n, row: named ? `${first} ${label}`.trim() : undefined });
      }
    }
    row = undefined;
  };
  for (const { raw: rawLine, n } of wrapped(text, german)) {
    const line = leaders(rawLine.trim());
    // In a table without outer borders, a line starting with "|" is a row whose first cell is empty.
    const cells = tableCells(line, row !== undefined && !row.bordered);
    if (cells.length < 2 && line.length > 0) header = undefined;
    if (cells.length < 2 || (cells.length === 2 && !/^\|/.test(line))) flush();
    if (line.length === 0) continue;
    const indented = /^\s/.test(rawLine);
    const bullet = BULLET.test(line);
    if (!bullet) refusing = false;
    if (bullet && refusing) {
      const s = trimEnd(line.replace(BULLET, ''), '.;! \t').trim();
      if (s.length > 0) out.push({ sentence: s, context: heading, line: n, refused: true, under });
      continue;
    }
    if (/:$/.test(line) && NOT_ALLOWED.test(line.toLowerCase())) refusing = true;
    // A table row: its first cell names what the rest of the row is about. A row whose first cell is empty goes on
    // the row above it (a bordered table wraps a long cell onto the next lines), cell by cell.
    if (cells.length >= 3 || (cells.length === 2 && /^\|/.test(line))) {
      if (row && cells[0] === '' && cells.length <= row.cells.length) row.cells = row.cells.map((c, k) => `${c} ${cells[k] ?? ''}`.trim());
      else {
        flush();
        row = { cells, n, bordered: /^\|/.test(line) };
      }
      continue;
    }
    // A heading's mark and label ("## 3.", "B.", "§ 4") and what it says of itself in brackets ("MEALS (traveler's own
    // meals while on overnight travel)") are not its words.
    // "第4条（宿泊料）": a Japanese or Chinese article's mark, its title in brackets.
    const marked = line.length > 160 ? line : line.replace(/^第\s*\d+\s*[条章節]\s*\(([^)]{1,20})\)$/u, '$1').replace(/^#+\s*/, '').replace(/^[A-Z][.)]\s+(?=\p{Lu})/u, '').replace(/^(\p{Lu}[\p{Lu}\s&/-]+?)\s*\([^)]*\)$/u, '$1');
    const words = marked.replace(ARTICLE, '').replace(/^\s*(?:[-*•]|§\s*\d+[a-z]?|[a-z]?\d+(?:\.\d+)*[.)]?)\s+/i, '').split(/\s+/);
    // The heading's own words, without its number ("5.2", "§ 4").
    const body = marked.replace(ARTICLE, '').replace(/^(?:§\s*)?[a-z]?\d+(?:\.\d+)*[.)]?\s*/i, '');
    // A script written without spaces (Japanese, Chinese) tells a heading by its length, not its words.
    const unspaced = SPACELESS.test(body);
    const headingLike = (unspaced ? body.length <= 16 && !/[。、,]/.test(body) : words.length <= 5) && !/\d/.test(body) && !/[.!?;]\s*\S/.test(body) &&
      !/[.!?;]$/.test(marked) && !/\b(?:is|are|must|may|will|should|shall|not|be|up to|capped|require[sd]?)\b/i.test(marked);
    if (headingLike && !indented) {
      const number = /^(?:§\s*)?(\d+(?:\.\d+)*)/.exec(marked.replace(/^art(?:icle|ikel|icolo|ículo|igo)?\.?\s*(?=\d)/i, ''))?.[1];
      // "Hébergement (nuit, petit-déjeuner inclus)", "Lodging (breakfast included)": what the bracket says is included
      // is no category of the section when the words outside it name one.
      const outside = categoriesIn(read(marked.replace(/\([^)]*\)/g, ' ')).toLowerCase());
      const named = outside.length > 0 ? outside : categoriesIn(read(marked).toLowerCase());
      const sub = named.length === 0 && number !== undefined && section !== undefined && number.startsWith(`${section}.`);
      if (!sub) {
        under = marked.replace(ARTICLE, '').replace(/^(?:§\s*)?[a-z]?\d+(?:\.\d+)*[.)]?\s*/i, '').replace(/:$/, '');
        heading = named;
        section = named.length > 0 ? number : undefined;
      }
      if (/:$/.test(line) || heading.length > 0 || words.length <= 3) continue;
    }
    let first = true;
    for (const part of parts(line, abbreviated)) {
      // "c) No receipts are required for M&IE": a lettered item's mark is no word of it.
      const s = trimEnd(part.replace(/^\s*(?:[-*•]|[a-z]?\d+(?:\.\d+)*[.)]?|\(?[a-z]\))\s+/i, ''), '.;! \t。').trim();
      if (s.length === 0 || /^#/.test(s) || (/:$/.test(s) && s.split(/\s+/).length <= 6)) continue;
      // "Hotels. We reimburse ... up to $250 per night": a one-word lead sentence is the paragraph's heading.
      if (first && !SPACELESS.test(s) && s.split(/\s+/).length <= 2 && !/\d/.test(s) && categoriesIn(s.toLowerCase()).length > 0) {
        heading = categoriesIn(s.toLowerCase());
        first = false;
        continue;
      }
      first = false;
      out.push({ sentence: s, context: heading, line: n, under });
    }
  }
  flush();
  return out;
}

/**
 * A limit cell giving several limits, the later ones labelled ("$260 per night Tier 1 city: $325 per night"), split
 * into one limit each. A label's words, and the places the row's notes list under it ("Tier 1 cities (New York,
 * Boston, …)"), name what that limit is for, so an expense naming one of them is held to it.
 */
function alternatives(cell: string, notes: string): { text: string; label: string }[] {
  if ((cell.match(/[$€£¥]\s?\d|\d[\d.,]*\s+per\b/g) ?? []).length < 2) return [{ text: cell, label: '' }];
  return cell.split(/(?=\b[A-Z][A-Za-z0-9 ]{0,24}:\s*(?:[$€£¥]|[A-Z]{3}\s)?\d)/).map((part) => {
    const label = /^([A-Z][A-Za-z0-9 ]{0,24}):/.exec(part)?.[1] ?? '';
    const lead = label.split(/\s+/).slice(0, 2).join(' ');
    const listed = lead === '' ? undefined : new RegExp(`${lead.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[^(]{0,20}\\(([^)]{1,200})\\)`, 'i').exec(notes)?.[1];
    return { text: part, label: [label, listed ?? ''].join(' ').trim() };
  });
}

/** The unit a column's header gives its figures: "per attendee", "nightly", "per day". */
const UNIT_HEADER = /\bper (?:person|attendee|guest|head|night|day|diem|recipient|participant|employee|trip|meal)\b|\bnightly\b|\bdaily\b/i;

/** A table row's cells, without the empty ones its outer borders make ("| a | b |" → a, b); one cell for a plain line. */
function tableCells(line: string, unbordered = false): string[] {
  if (!line.includes('|')) return [line];
  const cells = line.split('|').map((c) => c.trim());
  if (/^\|/.test(line) && !unbordered) cells.shift();
  if (/\|$/.test(line) && !unbordered) cells.pop();
  return cells;
}

/** Letters of scripts written without spaces between words. */
const SPACELESS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/** Sentence ends; a clause after ";" that only excepts ("; except mileage") stays with the rule it excepts. */
const SPLIT = /(?<=[.!?;])\s+(?!(?:except|excluding|other than|ausgenommen|außer)\b)|(?<=[。！？])\s*(?=[^\s)）])/i;
/** German also writes ordinals ("2. Klasse", "1. Januar") and abbreviations ("Abs. 2", "z. B.") with a full stop. */
const GERMAN_ABBREVIATION = /(?:^|[\s(])(?:\d{1,2}|[a-z]|abs|nr|ziff|bzw|ggf|inkl|zzgl|max|ca|lt|gem|vgl|evtl|usw|str|art|bv|incl|excl|ecc|cfr|pag|es|ex|cf|p\.\s?es|p\.\s?ex)\.$/i;

/** The mark of an article ("Art. 5", "Artikel 3", "Articolo 2") before a heading's number: no word of it. */
const ARTICLE = /^art(?:icle|ikel|icolo|ículo|igo)?\.?\s*(?=\d)/i;

/** A line's sentences; in German (and the other continental languages), a full stop after an ordinal or an
 * abbreviation ends none. */
function parts(line: string, abbreviated: boolean): string[] {
  const out: string[] = [];
  for (const p of line.split(SPLIT)) {
    if (abbreviated && out.length > 0 && GERMAN_ABBREVIATION.test(out[out.length - 1].slice(-8))) out[out.length - 1] += ` ${p}`;
    else out.push(p);
  }
  return out;
}

/**
 * A dot leader between a label and its value ("first 10,000 business miles ... 45p per mile") is a row of a
 * schedule, read as "label: value", not as sentence ends.
 */
function leaders(line: string): string {
  if (!/\.{3}|…/.test(line)) return line;
  // Split at the leaders (kept), then each one followed by a value becomes ": "; pieces keep this linear.
  const parts = line.split(/((?:\.{3,}|…)[.…]*)/);
  const out: string[] = [parts[0]];
  for (let k = 1; k < parts.length; k += 2) {
    const next = parts[k + 1] ?? '';
    const rest = next.trimStart();
    if (/^[$€£]|^[^\s\d]{0,12}\d/.test(rest)) {
      out[out.length - 1] = out[out.length - 1].trimEnd();
      out.push(': ', rest);
    } else out.push(parts[k], next);
  }
  return out.join('');
}

const BULLET = /^\s*(?:[-*•·]|\(?[a-z]?\d+(?:\.\d+)*[.)]?|[a-z][.)])\s+/i;
const OPEN_END = /(?:[,\u2014\u2013-]|\b(?:and|or|nor|to|of|the|a|an|in|for|with|by|at|on|are|is|be|from|per|than|including|such as|not)\b)$/i;

/** German nouns are capitalised, so a wrapped line is told by the word it ends on or by its hanging indent. */
const GERMAN_OPEN_END = /(?:^|\s)(?:und|oder|der|die|das|des|dem|den|ein|eine|einer|eines|einem|je|pro|für|mit|von|vom|zu|zur|zum|bei|beim|nach|auf|in|im|an|am|ist|sind|wird|werden|nicht|bis|über|als|gegen|ohne|sowie|bzw)$/i;

/** A numbered item of five words or more whose next line is indented under its text ("(2) Bei Nutzung …" / "    Kilometer …"). */
function hanging(line: string, next: string): boolean {
  const lead = /^(\s*)(?:§\s*\d+[a-z]?|\(?[a-z]?\d+(?:\.\d+)*[.)]?|[a-z][.)])\s+/i.exec(line);
  if (!lead || /[.!?;:]$/.test(line.trim())) return false;
  const indent = /^\s*/.exec(next)![0].length;
  return indent > lead[1].length && indent >= lead[0].length - 1 && line.trim().split(/\s+/).length >= 6;
}

/**
 * The policy's lines with a sentence wrapped over several lines joined back into one (its first line's number): a
 * line that ends mid-sentence (no closing punctuation, and a comma or a word like "and" last, a bracket left open, or the next line going on
 * in lower case or with a bracket qualifying it) continues on the next line unless that one is blank, a bullet or a table row.
 */
function wrapped(text: string, german = false): { raw: string; n: number }[] {
  const out: { raw: string; n: number }[] = [];
  let open: { raw: string; n: number } | undefined;
  for (const [k, raw] of text.split(/\r\n|\r|\n/).entries()) {
    const t = raw.trim();
    const continues = open !== undefined && t !== '' && !t.includes('|') && !BULLET.test(t) && !/^[+=-]{3,}/.test(t) &&
      (OPEN_END.test(open.raw.trim()) || /^[a-z]/.test(t) || /^\((?![\p{L}\d]{1,3}\))\p{L}/u.test(t) || unclosed(open.raw) || (german && (GERMAN_OPEN_END.test(open.raw.trim()) || hanging(open.raw, raw))));
    if (open && continues) {
      open.raw = `${open.raw.trimEnd()} ${t}`;
    } else {
      open = { raw, n: k + 1 };
      out.push(open);
    }
    const end = open.raw.trim();
    if (end === '' || /[.!?;:。]$/.test(end) || end.includes('|')) open = undefined;
  }
  return out;
}

/** A bracket opened and not closed ("The terminal slip (Moneris, Global"): the sentence goes on below. */
function unclosed(s: string): boolean {
  return (s.match(/\(/g)?.length ?? 0) > (s.match(/\)/g)?.length ?? 0);
}

/** Drops trailing characters from a set without a backtracking regex. */
export function trimEnd(s: string, chars: string): string {
  let end = s.length;
  while (end > 0 && chars.includes(s[end - 1])) end--;
  return s.slice(0, end);
}
