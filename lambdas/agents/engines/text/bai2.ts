/**
 * BAI2 (the cash-management balance-reporting format of US banks) read into signed transactions. A file is records
 * of comma-separated fields, each record ended by '/', its kind its first field: 01 file header, 02 group header
 * (the as-of date, YYMMDD, and the group's currency), 03 account identifier (its balances and summaries: type 010
 * opening ledger, 015 closing ledger, 100 total credits, 400 total debits — not transactions), 16 transaction
 * detail, 88 continuation of the record above, 49/98/99 trailers. A 16 record is: type code, amount, funds type
 * (with its extra fields: V a value date and time, S three availability amounts, D a count and that many pairs),
 * bank reference, customer reference, then text to the end of the record. The type code gives the direction
 * (100–399 credits, money in; 400–699 debits, money out); amounts carry no decimal point (implied by the currency:
 * two places, none for a currency without minor units).
 */
import { AgentInputError } from '../port.js';
import { isoDate, readDate } from './dates.js';
import type { Statement } from './ledger.js';
import type { Transaction } from './table.js';

/** The first record is a BAI2 file header and a group header and an account record follow. */
export const isBai2 = (trimmed: string) => /^01,[^\n]*\//.test(trimmed) && /^02,/m.test(trimmed) && /^03,/m.test(trimmed);

const NO_MINOR_UNITS = new Set(['JPY', 'KRW', 'CLP', 'ISK', 'VND', 'PYG', 'UGX', 'XOF', 'XAF']);

interface Record { code: string; fields: string[]; line: number }

export function readBai2(text: string, field: string): Statement {
  const records: Record[] = [];
  text.split(/\r\n|\r|\n/).forEach((raw, i) => {
    const l = raw.trim();
    if (l === '') return;
    const cells = l.replace(/\/$/, '').split(',');
    // An 88 record carries on the record above: its fields (or, after a 16's text began, more text) follow on.
    if (cells[0] === '88' && records.length > 0) {
      const last = records[records.length - 1];
      if (last.code === '16') last.fields[last.fields.length - 1] = `${last.fields[last.fields.length - 1]} ${cells.slice(1).join(',')}`.trim();
      else last.fields.push(...cells.slice(1));
      return;
    }
    records.push({ code: cells[0], fields: cells.slice(1), line: i + 1 });
  });
  const lines: Transaction[] = [];
  const accounts = new Set<string>();
  const balances: { date: number; type: string; cents: bigint }[] = [];
  let [date, currency] = [undefined as number | undefined, 'USD'];
  for (const r of records) {
    if (r.code === '02') {
      const d = /^(\d{2})(\d{2})(\d{2})$/.exec(r.fields[3] ?? '');
      date = d ? readDate(`20${d[1]}-${d[2]}-${d[3]}`, 'mdy') : undefined;
      if (date === undefined) throw new AgentInputError(field, `line ${r.line}: the group's as-of date ${JSON.stringify(r.fields[3] ?? '')} is not a YYMMDD date`);
      currency = (r.fields[5] ?? '').trim() || currency;
    } else if (r.code === '03') {
      accounts.add(r.fields[0]);
      currency = (r.fields[1] ?? '').trim() || currency;
      // Type, amount, item count, funds type (no extra fields read here), repeated.
      for (let k = 2; k + 1 < r.fields.length; k += 4) {
        if (!['', 'Z', '0', '1', '2'].includes(r.fields[k + 3] ?? '')) break; // a funds type with fields of its own
        if (/^0[1-9]\d$/.test(r.fields[k]) && /^[-+]?\d+$/.test(r.fields[k + 1]) && date !== undefined) balances.push({ date, type: r.fields[k], cents: cents(r.fields[k + 1], currency) });
      }
    } else if (r.code === '16') {
      if (date === undefined) throw new AgentInputError(field, `line ${r.line}: a transaction (16) record before any group header (02)`);
      const [type, amount, funds] = r.fields;
      const k = lines.length + 1;
      if (!/^\d{3}$/.test(type ?? '') || !/^\d+$/.test(amount ?? '')) throw new AgentInputError(field, `line ${r.line}: the transaction record's type code or amount is not a number`);
      const code = Number(type);
      if (code >= 890 && code <= 899) continue; // information only: no money moved
      if (code < 100 || code > 699) throw new AgentInputError(field, `line ${r.line}: type code ${type} is neither a credit (100–399) nor a debit (400–699), so its direction cannot be told`);
      const extra = funds === 'V' ? 2 : funds === 'S' ? 3 : funds === 'D' ? 1 + 2 * Number(r.fields[3] ?? 0) : 0;
      const rest = r.fields.slice(3 + extra);
      const [bankRef, customerRef] = [rest[0] ?? '', rest[1] ?? ''];
      const description = rest.slice(2).join(',').trim();
      const sign = code < 400 ? 1n : -1n;
      lines.push({
        row: k, date, dateText: isoDate(date), description, amountCents: sign * cents(amount, currency), amountText: amount,
        ...(customerRef.trim() || bankRef.trim() ? { reference: (customerRef.trim() || bankRef.trim()) } : {}), line: r.line,
      });
    }
  }
  if (accounts.size > 1) throw new AgentInputError(field, `is a BAI2 file of ${accounts.size} accounts (${[...accounts].join(', ')}): give the file of the one account the books are for`);
  const notes = ['read as a BAI2 file: each 16 record is one line (type codes 100–399 money in, 400–699 money out; amounts without a decimal point, two places implied), each 02 group dated by its as-of date; the 03 balances and summaries and the trailers are not lines'];
  const open = balances.find((b) => b.type === '010');
  const close = [...balances].reverse().find((b) => b.type === '015');
  if (open && close) {
    const net = lines.reduce((s, l) => s + l.amountCents, 0n);
    const agree = open.cents + net === close.cents;
    notes.push(`opening ledger (010) of ${isoDate(open.date)} ${money(open.cents)}, closing ledger (015) of ${isoDate(close.date)} ${money(close.cents)}: ${agree ? 'they differ by exactly the lines\' sum' : `the lines' sum ${money(net)} does not account for the difference`}`);
  }
  return { lines, notes, dates: {} };
}

function cents(digits: string, currency: string): bigint {
  const n = BigInt(digits);
  return NO_MINOR_UNITS.has(currency.toUpperCase()) ? n * 100n : n;
}

const money = (c: bigint) => {
  const a = c < 0n ? -c : c;
  return `${c < 0n ? '-' : ''}${a / 100n}.${(a % 100n).toString().padStart(2, '0')}`;
};
