/** The policy's text split into the sentences its rules are read from, each with its line and heading. */
import { NOT_ALLOWED } from './policy.js';
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
}

export function sentences(text: string): PolicySentence[] {
  const out: PolicySentence[] = [];
  let heading: Category[] = [];
  let row: { cells: string[]; n: number; bordered: boolean } | undefined;
  // A lead ending in ":" that refuses what it introduces makes each bullet under it one refused part.
  let refusing = false;
  const flush = () => {
    if (!row) return;
    const [first, ...rest] = row.cells;
    const rowCats = categoriesIn(first.toLowerCase());
    if (rowCats.length > 0) heading = rowCats;
    const named = first !== '' && !/\d/.test(first);
    for (const cell of named ? rest : row.cells) {
      for (const { text, label } of alternatives(cell, rest.join(' '))) {
        const c = trimEnd(text, '.;! \t').trim();
        if (c.length > 0 && /\d/.test(c)) out.push({ sentence: named ? `${first}: ${c}` : c, context: heading, line: row.n, row: named ? `${first} ${label}`.trim() : undefined });
      }
    }
    row = undefined;
  };
  for (const { raw: rawLine, n } of wrapped(text)) {
    const line = rawLine.trim();
    // In a table without outer borders, a line starting with "|" is a row whose first cell is empty.
    const cells = tableCells(line, row !== undefined && !row.bordered);
    if (cells.length < 2 || (cells.length === 2 && !/^\|/.test(line))) flush();
    if (line.length === 0) continue;
    const indented = /^\s/.test(rawLine);
    const bullet = BULLET.test(line);
    if (!bullet) refusing = false;
    if (bullet && refusing) {
      const s = trimEnd(line.replace(BULLET, ''), '.;! \t').trim();
      if (s.length > 0) out.push({ sentence: s, context: heading, line: n, refused: true });
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
    const words = line.replace(/^\s*(?:[-*•]|[a-z]?\d+(?:\.\d+)*[.)]?)\s+/i, '').split(/\s+/);
    const headingLike = words.length <= 5 && !/\d/.test(line.replace(/^[a-z]?\d+(?:\.\d+)*[.)]?\s*/i, '')) && !/[.!?;]\s*\S/.test(line) &&
      !/[.!?;]$/.test(line) && !/\b(?:is|are|must|may|will|should|shall|not|be|up to|capped|require[sd]?)\b/i.test(line);
    if (headingLike && !indented) {
      heading = categoriesIn(line.toLowerCase());
      if (/:$/.test(line) || heading.length > 0 || words.length <= 3) continue;
    }
    let first = true;
    for (const part of line.split(/(?<=[.!?;])\s+/)) {
      const s = trimEnd(part.replace(/^\s*(?:[-*•]|[a-z]?\d+(?:\.\d+)*[.)]?)\s+/i, ''), '.;! \t').trim();
      if (s.length === 0 || /^#/.test(s) || (/:$/.test(s) && s.split(/\s+/).length <= 6)) continue;
      // "Hotels. We reimburse ... up to $250 per night": a one-word lead sentence is the paragraph's heading.
      if (first && s.split(/\s+/).length <= 2 && categoriesIn(s.toLowerCase()).length > 0) {
        heading = categoriesIn(s.toLowerCase());
        first = false;
        continue;
      }
      first = false;
      out.push({ sentence: s, context: heading, line: n });
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

/** A table row's cells, without the empty ones its outer borders make ("| a | b |" → a, b); one cell for a plain line. */
function tableCells(line: string, unbordered = false): string[] {
  if (!line.includes('|')) return [line];
  const cells = line.split('|').map((c) => c.trim());
  if (/^\|/.test(line) && !unbordered) cells.shift();
  if (/\|$/.test(line) && !unbordered) cells.pop();
  return cells;
}

const BULLET = /^\s*(?:[-*•·]|\(?[a-z]?\d+(?:\.\d+)*[.)]?|[a-z][.)])\s+/i;
const OPEN_END = /(?:[,\u2014\u2013-]|\b(?:and|or|nor|to|of|the|a|an|in|for|with|by|at|on|are|is|be|from|per|than|including|such as|not)\b)$/i;

/**
 * The policy's lines with a sentence wrapped over several lines joined back into one (its first line's number): a
 * line that ends mid-sentence (no closing punctuation, and a comma or a word like "and" last, or the next line going on
 * in lower case) continues on the next line unless that one is blank, a bullet or a table row.
 */
function wrapped(text: string): { raw: string; n: number }[] {
  const out: { raw: string; n: number }[] = [];
  let open: { raw: string; n: number } | undefined;
  for (const [k, raw] of text.split(/\r\n|\r|\n/).entries()) {
    const t = raw.trim();
    const continues = open !== undefined && t !== '' && !t.includes('|') && !BULLET.test(t) && !/^[+=-]{3,}/.test(t) &&
      (OPEN_END.test(open.raw.trim()) || /^[a-z]/.test(t));
    if (open && continues) {
      open.raw = `${open.raw.trimEnd()} ${t}`;
    } else {
      open = { raw, n: k + 1 };
      out.push(open);
    }
    const end = open.raw.trim();
    if (end === '' || /[.!?;:]$/.test(end) || end.includes('|')) open = undefined;
  }
  return out;
}

/** Drops trailing characters from a set without a backtracking regex. */
export function trimEnd(s: string, chars: string): string {
  let end = s.length;
  while (end > 0 && chars.includes(s[end - 1])) end--;
  return s.slice(0, end);
}
