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
  /** 1-based line of the text where the cell's response row starts. */
  line: number;
  /** Offsets in `prose` of the cell's "header: value" line and of its value. */
  at: number;
  valueAt: number;
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
  let { headers, rows } = table;
  const fields = fieldRows(headers, rows, text.slice(0, start));
  if (fields) return fields;
  if (headers.length < 3 || rows.length === 0 || rows.some((r) => r.cells.length < headers.length - 1 || r.cells.length > headers.length)) return undefined;
  const merged = subHeaderRow(headers, rows[0].cells);
  if (merged) [headers, rows] = [merged, rows.slice(1)];
  if (rows.length === 0) return undefined;
  // A header row is labels: cells with letters, none a bare number or date, none running on into a second sentence
  // (a prose line full of commas is not a header row).
  if (headers.filter((h) => /\p{L}/u.test(h)).length < headers.length - 1) return undefined;
  if (headers.some((h) => /[.!?;]\s+\p{Lu}/u.test(h) || h.length > 400)) return undefined;
  const cells: FormCell[] = [];
  const lines: string[] = [];
  const skipped = (text.slice(0, start).match(/\n/g) ?? []).length;
  let at = 0;
  rows.forEach((r, k) => {
    headers.forEach((h, i) => {
      const value = (r.cells[i] ?? '').trim();
      const label = `${h.trim().replace(/[\s:]+$/, '')}: `;
      const line = `${label}${value.replace(/\s*\n\s*/g, ' ')}`;
      cells.push({ header: h.trim(), value, response: k + 1, line: r.line + skipped, at, valueAt: at + label.length });
      lines.push(line);
      at += line.length + 1;
    });
    lines.push('');
    at += 1;
  });
  return { headers, cells, prose: lines.join('\n') };
}

/**
 * A supplier record exported one field a row (Ivalua, a buyer's portal: "Section;Field;Value", "Rubrique;Champ;Valeur",
 * "Feld;Wert"): each row is its field's label and value, read as the "label: value" line a reviewer reads. A value
 * holding the delimiter itself ("62 % ; 38 %") runs on to the row's end.
 */
const FIELD_COLUMN = /^(?:field(?:\s+name)?|champ|libelle|intitule|feld(?:name)?|bezeichnung|campo|veld|attribute|attribut|label|key|item)$/i;
const VALUE_COLUMN = /^(?:value|valeur|wert|inhalt|angabe|valor|valore|waarde|contenu|reponse\s+fournisseur|data)$/i;

type Table = ReturnType<typeof readCsv>;
function fieldRows(headers: string[], rows: Table['rows'], before: string): FormExport | undefined {
  const f = headers.findIndex((h) => FIELD_COLUMN.test(h.trim()));
  const v = headers.findIndex((h) => VALUE_COLUMN.test(h.trim()));
  if (f < 0 || v !== f + 1 || v !== headers.length - 1 || rows.length < 2) return undefined;
  const skipped = (before.match(/\n/g) ?? []).length;
  const cells: FormCell[] = [];
  const lines: string[] = [];
  let at = 0;
  for (const r of rows) {
    const field = (r.cells[f] ?? '').trim();
    if (field === '') continue;
    const value = r.cells.slice(v).join(' ; ').trim();
    const label = `${field.replace(/[\s:]+$/, '')}: `;
    const line = `${label}${value.replace(/\s*\n\s*/g, ' ')}`;
    cells.push({ header: field, value, response: 1, line: r.line + skipped, at, valueAt: at + label.length });
    lines.push(line);
    at += line.length + 1;
  }
  return cells.length > 0 ? { headers: cells.map((c) => c.header), cells, prose: lines.join('\n') } : undefined;
}

/** What a SurveyMonkey export's second header row says under a question: the kind of answer, or an option's name. */
const SUB_HEADER = /^(?:open-ended\s+response|response|other\s*\(please\s+specify\)|[\p{L}\p{N} /()-]{1,40})$/iu;

/**
 * SurveyMonkey exports two header rows: the question over its first column (the columns after it left blank), and
 * under each column what it holds ("Response", "Other (please specify)", "City/Town"). Read together, each column is
 * "question - part" ("How would you like to be paid? - Other (please specify)"); undefined when the first row below
 * the header is not such a row.
 */
function subHeaderRow(headers: string[], first: string[]): string[] | undefined {
  const blanks = headers.filter((h) => h.trim() === '').length;
  const labels = first.filter((c) => c.trim() !== '');
  if (blanks === 0 || labels.length === 0 || !labels.some((c) => /^(?:open-ended\s+)?response$/i.test(c.trim()))) return undefined;
  if (!labels.every((c) => SUB_HEADER.test(c.trim()))) return undefined;
  let question = '';
  return headers.map((h, i) => {
    if (h.trim() !== '') question = h.trim();
    const part = (first[i] ?? '').trim();
    return part === '' || /^(?:open-ended\s+)?response$/i.test(part) ? question : `${question} - ${part}`;
  });
}

/** Columns that carry when the response was submitted (Google Forms Timestamp, Typeform Submit Date, MS Forms Completion time). */
const SUBMITTED = /^(?:timestamp|submit(?:ted)?\s*(?:date|at|time|on)?(?:\s*\(utc\))?|completion\s+time|date\s+submitted|submission\s+(?:date|time)|end\s*(?:date|time))$/i;

/** The submission cell of the first response, as written, for the review date. */
export function submittedAt(form: FormExport): FormCell | undefined {
  return form.cells.find((c) => c.response === 1 && SUBMITTED.test(c.header.trim()) && /\d/.test(c.value));
}

/**
 * A questionnaire exported one question a row (SAP Ariba SLP, Coupa, Jaggaer: "Section | Question ID | Question |
 * Response | Comment"): the question is a cell of the row, not the column's header. Each row is read as a reviewer
 * reads it, its question with its own answer and the comment beside it; undefined when the export has no question
 * and answer columns.
 */
export interface QuestionRow {
  question: string;
  answer: string;
  comment: string;
  /** Offsets in `prose` of the answer's value (or of its question, when the answer is blank). */
  at: number;
}

const QUESTION_COLUMN = /^(?:question(?:\s+text)?|questions?\s*\/\s*requirement|frage|pregunta|question\s+libelle)$/i;
const ANSWER_COLUMN = /^(?:response|answer|supplier\s+(?:response|answer)|reply|antwort|respuesta|reponse|value)$/i;
const COMMENT_COLUMN = /^(?:comments?|remarks?|explanation|details?|notes?|supplier\s+comments?)$/i;

export function questionRows(form: FormExport): QuestionRow[] | undefined {
  const q = form.headers.findIndex((h) => QUESTION_COLUMN.test(h.trim()));
  const a = form.headers.findIndex((h) => ANSWER_COLUMN.test(h.trim()));
  if (q < 0 || a < 0) return undefined;
  const c = form.headers.findIndex((h) => COMMENT_COLUMN.test(h.trim()));
  const width = form.headers.length;
  const rows: QuestionRow[] = [];
  for (let start = 0; start + width <= form.cells.length; start += width) {
    const row = form.cells.slice(start, start + width);
    const answer = row[a];
    rows.push({
      question: row[q].value,
      answer: answer.value,
      comment: c >= 0 ? row[c].value : '',
      at: answer.value === '' ? row[q].valueAt : answer.valueAt,
    });
  }
  return rows;
}
