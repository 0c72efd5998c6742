/**
 * A form tool's response export (Google Forms, Typeform, Microsoft Forms, Jotform as CSV, or a pasted spreadsheet):
 * the first line is a header row of questions, each line below one response. A practitioner reads each cell against
 * its header, so the export is turned into "question: answer" lines for the prose detectors, and its cells are kept
 * for the question reader (questions.ts). Anything that is not such a table is left alone.
 */
import { detectDelimiter, readCsv } from '../text/table.js';

export interface FormCell {
  header: string;
  value: string;
  /** 1-based response number. */
  response: number;
}

export interface FormExport {
  headers: string[];
  cells: FormCell[];
  /** The export as "header: value" lines, one response after another. */
  prose: string;
}

export function readFormExport(text: string): FormExport | undefined {
  const start = text.search(/\S/);
  const nl = text.indexOf('\n', start);
  if (start < 0 || nl < 0) return undefined;
  const header = text.slice(start, nl);
  const delimiter = header.includes('\t') ? '\t' : detectDelimiter(header);
  if (!header.includes(delimiter)) return undefined;
  let table: ReturnType<typeof readCsv>;
  try {
    table = readCsv(text.slice(start), 'vendorProfile', 1_000, delimiter);
  } catch {
    return undefined;
  }
  const { headers, rows } = table;
  if (headers.length < 3 || rows.length === 0 || rows.some((r) => r.cells.length < headers.length - 1 || r.cells.length > headers.length)) return undefined;
  // A header row is labels: cells with letters, none a bare number or date, none running on into a second sentence
  // (a prose line full of commas is not a header row).
  if (headers.filter((h) => /\p{L}/u.test(h)).length < headers.length - 1) return undefined;
  if (headers.some((h) => /[.!?;]\s+\p{Lu}/u.test(h) || h.length > 400)) return undefined;
  const cells: FormCell[] = [];
  const lines: string[] = [];
  rows.forEach((r, k) => {
    headers.forEach((h, i) => {
      const value = (r.cells[i] ?? '').trim();
      cells.push({ header: h.trim(), value, response: k + 1 });
      lines.push(`${h.trim().replace(/[\s:]+$/, '')}: ${value.replace(/\s*\n\s*/g, ' ')}`);
    });
    lines.push('');
  });
  return { headers, cells, prose: lines.join('\n') };
}

/** Columns that carry when the response was submitted (Google Forms Timestamp, Typeform Submit Date, MS Forms Completion time). */
const SUBMITTED = /^(?:timestamp|submit(?:ted)?\s*(?:date|at|time|on)?(?:\s*\(utc\))?|completion\s+time|date\s+submitted|submission\s+(?:date|time)|end\s*(?:date|time))$/i;

/** The submission cell of the first response, as written, for the review date. */
export function submittedAt(form: FormExport): FormCell | undefined {
  return form.cells.find((c) => c.response === 1 && SUBMITTED.test(c.header.trim()) && /\d/.test(c.value));
}
