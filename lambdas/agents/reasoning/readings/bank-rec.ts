/** The bank-rec reading the model is asked for (see ../readings.ts): its schema, its grounding claims and sums, its rendering. */
import { SOURCE, SPAN, array, isoDate, number, object, string } from '../schema.js';
import { type Money, money, at, type Reading } from '../reading.js';

/** An RFC 4180 cell: quoted when it holds a comma, a quote or a line break. */
const csvCell = (cell: string) => (/[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""').replace(/[\r\n]+/g, ' ')}"` : cell);

interface Transaction {
  date: string;
  description: string;
  amount: number;
  reference?: string | null;
  sourceLine: number;
  lastLine?: number | null;
  quote: string;
}
interface Ledger {
  transactions: Transaction[];
  openingBalance?: Money | null;
  closingBalance?: Money | null;
}

const ledger = (side: string) =>
  object(
    {
      transactions: array(
        object(
          {
            date: isoDate('The transaction date as YYYY-MM-DD.'),
            description: string('The description, memo or payee as written.'),
            amount: number('Signed, from the business\'s side of its bank account: money in positive, money out negative.'),
            ...SOURCE,
          },
          { reference: string('A check number or reference written on the line, exactly as written.'), ...SPAN },
        ),
        `Every transaction line of the ${side}, in order; balance and total lines are not transactions.`,
      ),
    },
    {
      openingBalance: money('The opening balance the document states (signed), else null.'),
      closingBalance: money('The closing balance the document states (signed), else null.'),
    },
  );

export const BANK_REC: Reading = {
  shape: object({ bankStatement: ledger('bank statement'), bookEntries: ledger('book entries (the cash account)') }),
  fields: ['bankStatement', 'bookEntries'],
  instructions: [
    'Read the bank statement export and the cash book entries (CSV, JSON, OFX, MT940 or a pasted statement) into their transactions.',
    'Money in is positive and money out negative on both sides: on the bank a Debit column is money out; in the books (the cash account) a Debit is money in.',
    'A check number belongs in reference. Opening, closing and running balances and totals are not transactions; give the opening and closing balance where the document states them.',
  ].join(' '),
  claims: (reading: Record<string, Ledger>) =>
    BANK_REC.fields.flatMap((field) => {
      const side = reading[field];
      const balances = (['openingBalance', 'closingBalance'] as const).flatMap((name) => {
        const b = side[name];
        return b ? [{ field, at: `${field}.${name}`, sourceLine: b.sourceLine, quote: b.quote, amounts: [b.amount] }] : [];
      });
      return [
        ...side.transactions.map((t, i) => ({ field, at: at(field, 'transactions', i), sourceLine: t.sourceLine, lastLine: t.lastLine, quote: t.quote, amounts: [t.amount], dates: [t.date], identifiers: [t.reference], texts: [t.description] })),
        ...balances,
      ];
    }),
  sums: (reading: Record<string, Ledger>) =>
    BANK_REC.fields.flatMap((field) => {
      const { transactions, openingBalance, closingBalance } = reading[field];
      if (!openingBalance || !closingBalance) return [];
      return [{ at: `${field}.closingBalance`, parts: [openingBalance.amount, ...transactions.map((t) => t.amount)], total: closingBalance.amount }];
    }),
  render: (reading: Record<string, Ledger>) =>
    Object.fromEntries(
      BANK_REC.fields.map((field) => [
        field,
        [['Date', 'Description', 'Amount', 'Ref'], ...reading[field].transactions.map((t) => [t.date, t.description, t.amount.toFixed(2), t.reference ?? ''])].map((row) => row.map(csvCell).join(',')).join('\n'),
      ]),
    ),
  // Line 1 is the header; line k + 2 is transaction k.
  sourceOf: (reading: Record<string, Ledger>, field, line) => reading[field]?.transactions[line - 2],
};
