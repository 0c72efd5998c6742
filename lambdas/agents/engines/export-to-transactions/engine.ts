/**
 * Export to transactions (rules: RULES.md beside this file): a pasted bank or ledger export read into clean rows.
 *
 * 1. Read the export (text/table.ts) with a bank statement's reading of Debit/Credit columns (Debit = money out).
 * 2. Emit each row in its original order: ISO date, description, signed amount, reference or null.
 * 3. Total money in and money out in whole cents; name the currency only when the export shows exactly one.
 */
import type { AgentEngine } from '../port.js';
import { centsToNumber, formatCents } from '../text/amount.js';
import { isoDate, readTransactionTable } from '../text/table.js';
import type { ExportInput, ExportResult } from './schema.js';

export const exportToTransactionsEngine: AgentEngine<ExportInput, ExportResult> = {
  // A conversion has no findings to cite (no flag, exception or violation): its transactions are the reading itself.
  explain: (input) => ({ result: exportToTransactionsEngine.analyse(input), evidence: [] }),
  id: 'export-to-transactions/rules@1',
  analyse(input) {
    const table = readTransactionTable(input.export, 'export', { perspective: 'bank' });
    const rows = table.transactions;
    let totalIn = 0n;
    let totalOut = 0n;
    for (const t of rows) {
      if (t.amountCents > 0n) totalIn += t.amountCents;
      else totalOut -= t.amountCents;
    }
    const net = totalIn - totalOut;
    const currency = currencyHint([...table.amountHeaders, ...rows.map((t) => t.amountText)]);
    const debitCredit = table.splitColumns && table.amountHeaders.some((h) => /debit|credit/i.test(h));
    return {
      transactions: rows.map((t) => ({
        date: isoDate(t.date),
        description: t.description,
        amount: centsToNumber(t.amountCents),
        reference: t.reference ?? null,
      })),
      count: rows.length,
      total_in: centsToNumber(totalIn),
      total_out: centsToNumber(totalOut),
      net: centsToNumber(net),
      currency_hint: currency,
      note: summary(rows.map((t) => t.date), totalIn, totalOut, net, currency, debitCredit),
    };
  },
};

const SIGNS: [RegExp, string][] = [
  [/US\$|\bUSD\b/i, 'USD'],
  [/€|\bEUR\b/i, 'EUR'],
  [/£|\bGBP\b/i, 'GBP'],
  [/\bCAD\b|C\$/i, 'CAD'],
  [/\bAUD\b|A\$/i, 'AUD'],
  [/\bJPY\b/i, 'JPY'],
  [/\bCHF\b/i, 'CHF'],
];

/** The one currency the amounts and their headers name; "$" alone stays "$" (it is also CAD, AUD, …). */
function currencyHint(texts: string[]): string | null {
  const seen = new Set<string>();
  for (const text of texts) {
    for (const [pattern, code] of SIGNS) if (pattern.test(text)) seen.add(code);
    const bare = text.replace(/US\$|C\$|A\$/gi, '');
    if (bare.includes('$')) seen.add('$');
    if (bare.includes('¥')) seen.add('¥');
  }
  // A bare "$" next to an explicit dollar code is that dollar.
  // A bare "$" or "¥" next to the one explicit code of that sign is that currency.
  const codes = [...seen].filter((c) => c !== '$' && c !== '¥');
  if (codes.length === 1) {
    const [code] = codes;
    const fits = (!seen.has('$') || ['USD', 'CAD', 'AUD'].includes(code)) && (!seen.has('¥') || code === 'JPY');
    return fits ? code : null;
  }
  return codes.length === 0 && seen.size === 1 ? [...seen][0] : null;
}

function summary(dates: number[], totalIn: bigint, totalOut: bigint, net: bigint, currency: string | null, debitCredit: boolean): string {
  if (dates.length === 0) return 'No transactions: the export has a header but no rows.';
  const first = isoDate(dates.reduce((a, b) => Math.min(a, b)));
  const last = isoDate(dates.reduce((a, b) => Math.max(a, b)));
  const span = first === last ? `on ${first}` : `from ${first} to ${last}`;
  const unit = currency ? ` ${currency}` : '';
  const reading = debitCredit ? ' Debit read as money out, Credit as money in (a bank statement’s columns).' : '';
  const n = dates.length;
  return `${n} transaction${n === 1 ? '' : 's'} ${span}: in ${formatCents(totalIn)}, out ${formatCents(totalOut)}, net ${formatCents(net)}${unit}.${reading}`;
}
