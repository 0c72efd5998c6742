/**
 * Delimited text (RFC 4180 with leniencies) and JSON arrays read into rows of cells, each with the line of the text
 * it starts on, so a finding read from a row can point back at that line. The readers of bank and ledger tables
 * (ledger.ts, table.ts) and of other exports (expense tools, form tools) share these.
 */
import { AgentInputError } from '../port.js';
import { jsonPositions, pathKey } from './json-positions.js';

export interface RawRow {
  cells: string[];
  /** 1-based line of the text the row starts on (0 when unknown). */
  line: number;
}

export function readJson(text: string, field: string, maxRows: number): { headers: string[]; rows: RawRow[] } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new AgentInputError(field, 'starts like JSON but is not valid JSON');
  }
  // {"transactions": [...]}: the one array member of a wrapper object.
  let itemsPath: string[] = [];
  if (data !== null && typeof data === 'object' && !Array.isArray(data)) {
    const arrays = Object.entries(data).filter(([, value]) => Array.isArray(value));
    if (arrays.length !== 1) throw new AgentInputError(field, 'JSON must be an array of objects, one per transaction');
    [itemsPath, data] = [[arrays[0][0]], arrays[0][1]];
  }
  const items = data as unknown[];
  if (items.length > maxRows) throw new AgentInputError(field, `has more than ${maxRows} rows`);
  const headers: string[] = [];
  const seen = new Map<string, number>();
  items.forEach((item, k) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      throw new AgentInputError(field, `row ${k + 1}: each JSON item must be an object`);
    }
    for (const key of Object.keys(item)) {
      if (!seen.has(key)) {
        seen.set(key, headers.length);
        headers.push(key);
      }
    }
  });
  // The line each item opens on, as the buyer sees the text (any line break), for the row's evidence.
  const positions = jsonPositions(text.replace(/\r\n?/g, '\n'));
  const lines = items.map((_, k) => positions.get(pathKey([...itemsPath, k]))?.line);
  const rows = items.map((item, k) => {
    const cells = new Array<string>(headers.length).fill('');
    for (const [key, value] of Object.entries(item as Record<string, unknown>)) {
      cells[seen.get(key)!] =
        value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
    }
    return { cells, line: lines[k] ?? 0 };
  });
  return { headers, rows };
}

const QUOTE = 34;
const CR = 13;
const LF = 10;

/**
 * RFC 4180 with leniencies: any of , ; \t | as delimiter (detected, or given), CRLF or LF, blank lines skipped, cells
 * trimmed. Also the reader of other exports (expense tools, form tools), which map the header names themselves.
 */
export function readCsv(
  text: string,
  field: string,
  maxRows: number,
  delimiterChar = detectDelimiter(text),
): { headers: string[]; rows: RawRow[] } {
  const records = readRecords(text, field, maxRows, delimiterChar);
  if (records.length === 0) throw new AgentInputError(field, 'has no header row (it is empty or blank)');
  const [header, ...rows] = records;
  const width = header.cells.length;
  rows.forEach((r, k) => {
    if (r.cells.length > width && r.cells.slice(width).some((c) => c !== '')) {
      throw new AgentInputError(
        field,
        `row ${k + 1} (line ${r.line}) has ${r.cells.length} cells but the header has ${width} (an amount with a thousands separator must be quoted)`,
      );
    }
  });
  return { headers: header.cells, rows };
}

/** Every non-blank record of delimited text, with the line it starts on (a quoted cell may span lines). */
export function readRecords(text: string, field: string, maxRows: number, delimiterChar: string): RawRow[] {
  const delimiter = delimiterChar.charCodeAt(0);
  const records: RawRow[] = [];
  let cells: string[] = [];
  let cell = '';
  let inQuotes = false;
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  const endCell = () => {
    cells.push(quoted ? cell : cell.trim());
    cell = '';
    quoted = false;
  };
  const endRecord = () => {
    endCell();
    if (cells.some((c) => c.trim() !== '')) {
      if (records.length > maxRows) throw new AgentInputError(field, `has more than ${maxRows} rows`);
      records.push({ cells, line: recordLine });
    }
    cells = [];
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inQuotes) {
      if (c === QUOTE) {
        if (text.charCodeAt(i + 1) === QUOTE) {
          cell += '"';
          i++;
        } else inQuotes = false;
      } else {
        if (c === LF) line++;
        cell += text[i];
      }
    } else if (c === QUOTE && !quoted && cell.length === 0) {
      inQuotes = true;
      quoted = true;
    } else if (c === delimiter) {
      endCell();
    } else if (c === LF || c === CR) {
      if (c === CR && text.charCodeAt(i + 1) === LF) i++;
      endRecord();
      line++;
      recordLine = line;
    } else if (!(quoted || (cell.length === 0 && (c === 32 || c === 9)))) {
      // A stray quote inside an unquoted cell is kept as text; text after a closing quote is ignored.
      cell += text[i];
    }
  }
  if (inQuotes) throw new AgentInputError(field, `line ${recordLine}: a quoted cell is never closed`);
  endRecord();
  return records;
}

/** The delimiter seen most often outside quotes on the first non-blank line; comma on a tie. */
export function detectDelimiter(text: string): string {
  const counts = new Map<string, number>([[',', 0], [';', 0], ['\t', 0], ['|', 0]]);
  let inQuotes = false;
  let started = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') inQuotes = !inQuotes;
    else if (!inQuotes && (ch === '\n' || ch === '\r')) {
      if (started) break;
    } else if (!inQuotes && counts.has(ch)) {
      counts.set(ch, counts.get(ch)! + 1);
      started = true;
    } else if (ch.trim() !== '') started = true;
  }
  let best = ',';
  for (const [d, n] of counts) if (n > counts.get(best)!) best = d;
  return best;
}
