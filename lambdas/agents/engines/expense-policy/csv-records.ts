/**
 * A CSV export with a header row (Expensify, SAP Concur, Ramp, Circula and the like): its columns recognised by name,
 * in English and in the export languages read (German "Betrag", "Währung", "Beleg"), each row one expense read as a
 * JSON record (records.ts).
 */
import { AgentInputError } from '../port.js';
import { readRecords, detectDelimiter } from '../text/table.js';
import type { Item } from './expense.js';
import { FIELDS, IDENTIFYING, K, jsonItem, plain, type Field } from './records.js';
import { OTHER_CODES } from './words.js';
import { columnWordField, headerWords } from './column-words.js';

const FIELD = 'expense';
const MAX_ROWS = 5_000;
const CODE_CELL = new RegExp(`^(?:usd|eur|gbp|cad|aud|jpy|${OTHER_CODES})$`, 'i');
/** A totals row's label in the exports' other languages ("Totale nota spese", "Razem", "合計", "합계", "Toplam"). */
const LOCAL_TOTAL = /^(?:totale|totaal|totalt|suma|soma|razem|celkem|toplam|jumlah|tổng cộng)(?:[\s:]|$)|^(?:合計|合计|総計|总计|합계|총계)/iu;
const TOTAL_WORD = /(?:^|[\s,])(?:totals?|summa|summe|gesamt(?:summe|betrag)?|totaal|totale|somme|suma|sum)(?=[\s,:]|$)/i;

/**
 * A CSV export's column → the field it holds: an exact name ("Expense Type", "Receipt Status"), else a word in it
 * ("Amount (USD)" → amount). "Original Amount" / "Original Currency" (Expensify's pre-conversion figures) are not
 * the claim. Unknown columns (MCC, Tag, Employee) are not read.
 */
function columnField(header: string): { field?: Field; currency?: string } {
  const words = plain(header).replace(/[^a-z0-9]+/g, ' ').trim();
  const code = new RegExp(`(?:^| )(usd|eur|gbp|cad|aud|jpy|${OTHER_CODES})$`).exec(words)?.[1];
  const bare = (code ? words.slice(0, -code.length) : words).trim();
  const exact = FIELDS.find((f) => K[f].has(bare.replace(/ /g, '')));
  if (exact) return { field: exact, currency: code?.toUpperCase() };
  if (/\boriginal\b/.test(bare)) return {};
  const word = (re: RegExp) => re.test(bare);
  const field: Field | undefined = word(/\b(?:amount|montant|betrag|importe|importo|bedrag)\b/) ? 'amount' : word(/\breceipts?\b/) ? 'receipt' : word(/\bdate\b/) ? 'date'
    : word(/\b(?:merchant|vendor)\b/) ? 'merchant' : word(/\bcategory\b/) ? 'category' : word(/\bcurrency\b/) ? 'currency'
    : word(/\battendees?\b/) ? 'people' : word(/\b(?:description|memo|comments?|purpose)\b/) ? 'description' : undefined;
  // The export's own language ("Fecha de transacción", "Monto (MXN)", "金額(円)", "領収書"): column-words.ts.
  const local = field ?? columnWordField(header);
  // A receipt's number ("Ticket No.", "N° justificatif") says which receipt, not whether there is one.
  if (local === 'receipt' && !field && /(?:^| )(?:no|nr|n|number|numero|num|nummer|id)(?: |$)|番号|#/.test(headerWords(header) + (header.includes('#') ? ' #' : ''))) return {};
  return { field: local, currency: code?.toUpperCase() ?? signCode(header) };
}

/** The currency a header names by its sign ("Valor (R$)", "金額(円)", "Kwota (zł)"). */
function signCode(header: string): string | undefined {
  const sign = /\(\s*(R\$|円|¥|元|원|₩|zł|€|£|₺|₫|Rp|Kč)\s*\)/i.exec(header)?.[1];
  if (!sign) return undefined;
  return ({ 'r$': 'BRL', '円': 'JPY', '¥': 'JPY', '元': 'CNY', '원': 'KRW', '₩': 'KRW', 'zł': 'PLN', '€': 'EUR', '£': 'GBP', '₺': 'TRY', '₫': 'VND', rp: 'IDR', 'kč': 'CZK' } as Record<string, string>)[sign.toLowerCase()];
}

/** Whether a line is a header row: two or more cells, no digits, an amount column and another known one. */
function headerRow(line: string): { cells: number } | undefined {
  const cells = line.split(detectDelimiter(line)).map((c) => c.trim().replace(/^"|"$/g, ''));
  if (cells.length < 2 || cells.some((c) => /\d/.test(c))) return undefined;
  const fields = cells.map((c) => columnField(c).field);
  return fields.includes('amount') && fields.filter((f) => f !== undefined).length >= 2 ? { cells: cells.length } : undefined;
}

/**
 * The line (0-based) of a CSV export's header row: the first line, or the first wide header row under the export's
 * own preamble (a title, "Report ID:,ER-2025-08-004417", "Submitted:,18/08/2025", blank lines: at most two cells a
 * line, or labelled values "Report ID: …,Report Title: …"), as Chrome River, Certify and Happay print their exports.
 */
function headerAt(text: string): number | undefined {
  const lines = text.slice(0, Math.min(text.length, 6000)).split(/\r\n|\r|\n/).slice(0, 30);
  if (lines.length > 0 && headerRow(lines[0])) return 0;
  for (let k = 1; k < lines.length; k++) {
    const found = headerRow(lines[k]);
    if (found && found.cells >= 5) return k;
    const d = detectDelimiter(lines[k]);
    const filled = lines[k].split(d).filter((c) => c.trim() !== '');
    // "Report ID: RPT-…,Report Title: …,Submitted On: 11-Jul-2026" (Happay): a line of labelled values is preamble too.
    if (filled.length > 2 && !filled.every((c) => /^\s*"?[\p{L}][\p{L} .#/()-]{1,40}:\s*\S/u.test(c))) return undefined;
  }
  return undefined;
}

/**
 * A row with more cells than the header, split inside a bracket an export left unquoted ("2日分(2,000円×2)",
 * "(2,5 km x 0,30)"): the cells from the one opening the bracket to the one closing it are one cell again.
 */
function rejoined(cells: string[], width: number): string[] {
  if (cells.length <= width) return cells;
  const out: string[] = [];
  let extra = cells.length - width;
  for (let k = 0; k < cells.length; k++) {
    let cell = cells[k];
    const open = (c: string) => (c.match(/[(\[（]/g) ?? []).length - (c.match(/[)\]）]/g) ?? []).length;
    while (extra > 0 && open(cell) > 0 && k + 1 < cells.length) {
      cell = `${cell},${cells[++k]}`;
      extra--;
    }
    out.push(cell);
  }
  return out;
}

const AMOUNT_CELL = /^[-(]?(?:[$€£¥]\s?)?\d{1,3}(?:[.,\s]\d{3})*(?:[.,]\d{1,2})?\)?(?:\s?[€£¥])?$|^[-(]?\d+(?:[.,]\d{1,2})?\)?$/;
const DATE_CELL = /^\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4}/;

/**
 * A row still wider than its header, read by the shape of its cells: an amount split at its thousands separator by
 * the export's delimiter ("1" and "234.56" under an amount column, the header one cell narrower) is one amount again;
 * the text of a free-text column holding the delimiter ("… (Aceros Deusto S.A.); Lucía Martín") is one cell again,
 * when the cells after it then fall under their columns by shape (amounts under amount columns, dates under dates).
 */
function overflowJoined(cells: string[], fields: (Field | undefined)[], delimiter: string): string[] {
  let out = cells;
  const width = fields.length;
  for (let k = 0; out.length > width && k < width; k++) {
    if (fields[k] === 'amount' && /^-?\d{1,3}$/.test(out[k].trim()) && /^\d{3}(?:[.,]\d{2})?$/.test(out[k + 1]?.trim() ?? '')) {
      out = [...out.slice(0, k), `${out[k].trim()}${delimiter}${out[k + 1].trim()}`, ...out.slice(k + 2)];
    }
  }
  if (out.length <= width) return out;
  const fits = (row: string[]) => row.every((c, k) => {
    const cell = c.trim();
    if (cell === '') return true;
    if (fields[k] === 'amount') return AMOUNT_CELL.test(cell);
    if (fields[k] === 'date') return DATE_CELL.test(cell);
    return true;
  });
  const extra = out.length - width;
  for (let d = 0; d < width; d++) {
    if (fields[d] !== 'description') continue;
    const joined = [...out.slice(0, d), out.slice(d, d + extra + 1).join(delimiter), ...out.slice(d + extra + 1)];
    if (fits(joined)) return joined;
  }
  return out;
}

/** Whether the claim is a CSV export: a header row first, or under the export's preamble. */
export function csvHeader(text: string): boolean {
  return headerAt(text) !== undefined;
}

export function csvItems(text: string): Item[] {
  const lines = text.split(/\r\n|\r|\n/);
  // Under a preamble the table starts at its header row; its rows keep the lines of the whole text.
  const skip = headerAt(text) ?? 0;
  const table = lines.slice(skip).join('\n');
  const delimiter = detectDelimiter(table);
  const [header, ...records] = readRecords(table, FIELD, MAX_ROWS, delimiter);
  if (!header) throw new AgentInputError(FIELD, 'has no header row (it is empty or blank)');
  const headers = header.cells;
  const fields = headers.map((h) => columnField(h).field);
  const rows = records.map((r, k) => {
    const cells = overflowJoined(rejoined(r.cells, headers.length), fields, delimiter);
    if (cells.length > headers.length && cells.slice(headers.length).some((c) => c !== '')) {
      throw new AgentInputError(FIELD, `row ${k + 1} (line ${r.line}) has ${cells.length} cells but the header has ${headers.length} (an amount with a thousands separator must be quoted)`);
    }
    return { ...r, cells, line: r.line > 0 ? r.line + skip : 0 };
  });
  const columns = headers.map(columnField);
  const headerCurrency = columns.find((c) => c.field === 'amount' && c.currency)?.currency;
  // A totals row an export appends (";;;;Total;1.569,10;1.569,10;;") sums the rows above it: it is no expense.
  const summary = (cells: string[]) => {
    // The currency the total is in (";;;;Total;574,68;EUR;;") is no word of the row's label.
    const words = cells.map((c) => c.trim()).filter((c) => c !== '' && !/^[-+(]?[$€£¥]?\d[\d.,]*\)?$/.test(c) && !CODE_CELL.test(c));
    if (words.length > 0 && words.every((c) => /^(?:report |grand |claim )?totals?:?$|^(?:summe|gesamt|gesamtsumme|total général)$/i.test(c) || LOCAL_TOTAL.test(c))) return true;
    // A report's footer rows (",,,,,,,Company Paid,,,0.00", "Amount Due Employee 940.83") name no date, merchant,
    // description or category: a label and its sum, written under another column, never an expense.
    return words.length > 0 && !cells.some((c, k) => c.trim() !== '' && IDENTIFYING.has(columns[k]?.field ?? 'amount'));
  };
  // A line of one cell with no amount under the table ("Exported 18/08/2025 10:05 by …") is the export's note.
  const note = (cells: string[]) => headers.length >= 3 && cells.filter((c) => c.trim() !== '').length === 1 &&
    !cells.some((c, k) => c.trim() !== '' && columns[k]?.field === 'amount');
  // The amount in the reimbursement currency ("Amount (AUD)" beside "Spent Amount" and "Spent Currency") is the claim.
  const coded = columns.findIndex((c) => c.field === 'amount' && c.currency !== undefined);
  const items = rows.filter((row) => !summary(row.cells) && !note(row.cells)).map((row, i) => {
    const entry: Record<string, unknown> = {};
    // A column named for the field ("Category") is read before a looser one ("Type": Brex prints "Reimbursement"), and
    // the expense's date before the report's ("Submitted Date", "Approved Date").
    const loose = (h: string) => Number(/^\W*type\W*$|\b(?:submit\w*|submission|approv\w*|report)\b/i.test(h));
    const order = columns.map((_, k) => k).sort((a, b) => Number(b === coded) - Number(a === coded) || loose(headers[a]) - loose(headers[b]));
    for (const k of order) {
      const field = columns[k].field;
      const cell = (row.cells[k] ?? '').trim();
      if (field !== undefined && cell !== '' && entry[field] === undefined) entry[field] = cell;
    }
    if (coded >= 0 && (row.cells[coded] ?? '').trim() !== '') entry.currency = columns[coded].currency;
    // An empty receipt cell is an export's way of saying there is none.
    if (columns.some((c) => c.field === 'receipt') && entry.receipt === undefined) entry.receipt = false;
    if (entry.currency === undefined && headerCurrency) entry.currency = headerCurrency;
    // No amount in the reimbursement currency (a cash expense not converted yet): the expense is its original amount
    // in its own currency, which the currency rule holds until the conversion is supplied.
    if (entry.amount === undefined) {
      const at = (re: RegExp) => headers.findIndex((h) => re.test(h));
      const [amount, currency] = [at(/^\W*original\W*amount\W*$/i), at(/^\W*original\W*currency\W*$/i)];
      const [a, c] = [(row.cells[amount] ?? '').trim(), (row.cells[currency] ?? '').trim()];
      if (amount >= 0 && currency >= 0 && a !== '' && /^[a-z]{3}$/i.test(c)) {
        entry.amount = a;
        entry.currency = c.toUpperCase();
      }
    }
    const item = jsonItem(entry, i + 1, `row ${i + 1} (line ${row.line})`);
    const raw = row.line > 0 ? lines[row.line - 1]?.trim() : undefined;
    if (raw) item.at = [{ field: 'expense', line: row.line, quote: raw }];
    return item;
  });
  // A totals row named in the export's language ("Summa att återbetala;2375,00;SEK", "Totaal", "Total à rembourser"),
  // its amount the sum of every row above it, is the claim's sum, not another expense.
  const last = items[items.length - 1];
  const above = items.slice(0, -1).reduce((a, x) => a + x.cents, 0n);
  if (items.length >= 3 && TOTAL_WORD.test(last.evidence ?? '') && last.cents === above) items.pop();
  return items.map((item, i) => ({ ...item, index: i + 1 }));
}
