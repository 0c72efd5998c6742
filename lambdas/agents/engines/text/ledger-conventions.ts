/**
 * Conventions of a bank or ledger table settled from the document's own evidence (ledger.ts reads the table): the
 * decimal mark where no figure shows it, and the direction a checkbook register's document type gives an unsigned
 * amount.
 */
import { AgentInputError } from '../port.js';
import { decimalMarkOf, parseMoney, type DecimalMark } from './amount.js';
import { balanceScore } from './balance.js';
import { balanceCents } from './balance.js';

/** A figure whose only separator is one dot before three digits: 18.500 (eighteen thousand five hundred, or 18.5). */
const DOT_THREE = /^\D*\d{1,3}\.\d{3}\D*$/;
const COMMA_THREE = /^\D*\d{1,3},\d{3}\D*$/;

/**
 * The decimal mark of a table: the figures that show it vote (decimalMarkOf). Where none does and figures such as
 * 18.500 stand in the money columns (pesos, won, rupiah, dong: currencies written without decimals, grouped by dots),
 * the dot groups thousands only when the running balance proves it (its steps are the lines' amounts read so);
 * otherwise the figure cannot be told from 18.5 and the table is refused, saying why.
 *
 * `rows` holds, per row, the money cells ([out, in] where the table splits them, else [amount]) and the balance cell.
 */
export function decideMark(rows: { money: string[]; balance: string }[], split: boolean, books: boolean, field: string): { mark: DecimalMark; note?: string } {
  const cells = rows.flatMap((r) => [...r.money, r.balance]);
  const votes = decimalMarkOf(cells);
  if (votes.comma + votes.point > 0) return votes.mark === ',' ? { mark: ',', note: 'amounts use a decimal comma' } : { mark: '.' };
  const example = cells.find((c) => DOT_THREE.test(c.trim()));
  if (example === undefined || cells.some((c) => COMMA_THREE.test(c.trim()))) return { mark: '.' };
  const amounts = rows.map((r) => {
    if (r.money.every((c) => c.trim() === '')) return undefined;
    const [a, b] = r.money.map((c) => (c.trim() === '' ? 0n : parseMoney(c, ',')));
    if (a === undefined || b === undefined && split) return undefined;
    if (!split) return a;
    const [out, inn] = [a < 0n ? -a : a, b! < 0n ? -b! : b!];
    return inn - out;
  });
  const balances = rows.map((r) => (r.balance.trim() === '' ? undefined : balanceCents(r.balance, ',', books)));
  const steps = balances.filter((b) => b !== undefined).length - 1;
  // The columns' meaning may be the other side's (a book export in the bank's words): either direction proves the grouping.
  const score = Math.max(balanceScore(amounts, balances), balanceScore(amounts.map((a) => (a === undefined ? a : -a)), balances));
  if (steps >= 1 && score >= 0.8) {
    return { mark: ',', note: `figures such as ${JSON.stringify(example.trim())} are whole amounts with a dot grouping thousands: the running balance proves that reading` };
  }
  throw new AgentInputError(field, `figures such as ${JSON.stringify(example.trim())} could be whole amounts grouped by a dot or amounts with three decimals; nothing in the document (a figure grouped twice, a decimal part, a running balance) tells which`);
}

// Not "payment": in a QuickBooks register a Payment is a customer's payment received.
// A checkbook register's document types (Dynamics GP, Sage): unsigned amounts take their direction from them.
const OUT_TYPES = new Set(['withdrawal', 'out', 'debit card', 'check', 'cheque', 'fee', 'service charge', 'bank charge', 'charge', 'transfer out', 'bank fee']);
/** −1 money out, +1 money in, 1 unknown (the amount keeps its own sign); Deposit, Receipt, Interest and the rest are in. */
export function typeDirection(type: string, books: boolean): number {
  const t = type.toLowerCase().replace(/[^a-z ]+/g, '').trim();
  if (t === 'dr' || t === 'debit') return books ? 1 : -1;
  if (t === 'cr' || t === 'credit') return books ? -1 : 1;
  if (OUT_TYPES.has(t)) return -1;
  return 1;
}
