/**
 * Where a violation was read, cited back to the buyer's own text. The readers work on a normalised copy (NFKC, lines
 * trimmed), so each source they keep is a line number and the text as they read it; here it is pinned to the line of
 * the input as the buyer sent it, quoting that line verbatim, so an auditor can find it without re-reading.
 */
import type { EvidenceSource } from '../port.js';

export type Field = 'expense' | 'expensePolicy';

/** A place a finding rests on, as a reader kept it: the field, the line it read (1-based) and what it read there. */
export interface Src {
  field: Field;
  line?: number;
  quote: string;
}

export const LINE_BREAK = /\r\n|\r|\n/;

/** The sources pinned to the input's lines; a source that cannot be found on any line is left out. */
export function cite(input: Record<Field, string>, sources: Src[]): EvidenceSource[] {
  const out: EvidenceSource[] = [];
  const seen = new Set<string>();
  for (const s of sources) {
    const found = pin(input[s.field], s);
    if (!found) continue;
    const key = `${s.field}:${found.line}:${found.quote}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ field: s.field, line: found.line, quote: found.quote });
  }
  return out;
}

const squash = (s: string) => s.normalize('NFKC').replace(/\s+/g, ' ').trim();

/**
 * The line a source is on: the reader's line if the quote is there verbatim, else the nearest line holding it, else
 * the line whose normalised text holds it (quoted whole, as the buyer wrote it).
 */
function pin(text: string, s: Src): { line: number; quote: string } | undefined {
  const lines = text.split(LINE_BREAK);
  const quote = s.quote.trim().slice(0, 300);
  if (quote === '') return undefined;
  const order = lines.map((_, k) => k).sort((a, b) => distance(a, s.line) - distance(b, s.line));
  for (const k of order) if (lines[k].includes(quote)) return { line: k + 1, quote };
  const want = squash(quote);
  for (const k of order) {
    if (lines[k].trim() !== '' && squash(lines[k]).includes(want)) return { line: k + 1, quote: lines[k].trim() };
  }
  // A quote the reader joined from several lines: its first line is where it starts.
  const head = squash(quote.split(/\n/)[0]).slice(0, 60);
  if (head.length >= 4) {
    for (const k of order) if (lines[k].trim() !== '' && squash(lines[k]).includes(head)) return { line: k + 1, quote: lines[k].trim() };
  }
  if (s.line !== undefined && lines[s.line - 1]?.trim()) return { line: s.line, quote: lines[s.line - 1].trim() };
  return undefined;
}

function distance(k: number, line: number | undefined): number {
  return line === undefined ? k : Math.abs(k - (line - 1));
}
