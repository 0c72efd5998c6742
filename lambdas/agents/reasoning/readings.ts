/**
 * What the model reads, per engine family (ADR 0023): the same typed reading the deterministic reader produces, in
 * the structured form the family's engine already accepts as input, each item with the line it was read from.
 *
 *   bank-rec        both exports as transactions (ISO date, description, signed amount, reference), with the opening
 *                   and closing balances where a side states them; rendered as CSV (Date, Description, Amount, Ref:
 *                   one row a transaction, so the engine's details quote a readable row)
 *   expense-policy  the claim as expense items (category, amount, receipt, attendees, …) with the claim's stated
 *                   total; rendered as `{"items": [...]}`; the policy is passed to the engine as the buyer wrote it
 *   po-match        each document's PO number, vendor, currency, lines, charges, subtotal and total; rendered as a
 *                   JSON record per document
 *   vendor-risk     the profile as labelled statements, each from one line; rendered as `Label: value` lines
 *
 * Each family also says what of its reading must be grounded (grounding.ts): the claims per item and the sums.
 */
import { SOURCE, array, boolean, integer, isoDate, number, object, oneOf, string, type Shape } from './schema.js';
import type { Claim, Sum } from './grounding.js';

export interface Reading {
  /** The tool's input schema (JSON Schema) and the check of its answer (zod), built together. */
  shape: Shape;
  /** Which input fields the model reads (the others go to the engine as the buyer wrote them). */
  fields: string[];
  /** What to read, for the system prompt. */
  instructions: string;
  claims(reading: any): Claim[];
  sums(reading: any): Sum[];
  /** The engine's input from the reading (and the fields the model does not read, from `input`). */
  render(reading: any, input: Record<string, unknown>): Record<string, string>;
  /**
   * The item a line of the rendered field was rendered from (1-based), so evidence the engine cites from the rendering
   * can cite the buyer's line instead; absent for renderings that are JSON (one line, no line per item).
   */
  sourceOf?(reading: any, field: string, renderedLine: number): { sourceLine: number; quote: string } | undefined;
}

const money = (description: string) => object({ amount: number(description), ...SOURCE });
const at = (field: string, list: string, i: number) => `${field}.${list}[${i}]`;
const sumCents = (values: number[]) => values.reduce((total, v) => total + Math.round(v * 100), 0) / 100;
const present = <T extends Record<string, unknown>>(record: T): Partial<T> =>
  Object.fromEntries(Object.entries(record).filter(([, v]) => v !== null && v !== undefined && v !== '')) as Partial<T>;

// ---------------------------------------------------------------------------------------------------- bank-rec

/** An RFC 4180 cell: quoted when it holds a comma, a quote or a line break. */
const csvCell = (cell: string) => (/[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""').replace(/[\r\n]+/g, ' ')}"` : cell);

interface Transaction {
  date: string;
  description: string;
  amount: number;
  reference?: string | null;
  sourceLine: number;
  quote: string;
}
interface Money {
  amount: number;
  sourceLine: number;
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
          { reference: string('A check number or reference written on the line, exactly as written.') },
        ),
        `Every transaction line of the ${side}, in order; balance and total lines are not transactions.`,
      ),
    },
    {
      openingBalance: money('The opening balance the document states (signed), else null.'),
      closingBalance: money('The closing balance the document states (signed), else null.'),
    },
  );

const BANK_REC: Reading = {
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
        ...side.transactions.map((t, i) => ({ field, at: at(field, 'transactions', i), sourceLine: t.sourceLine, quote: t.quote, amounts: [t.amount], dates: [t.date], identifiers: [t.reference], texts: [t.description] })),
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

// ---------------------------------------------------------------------------------------------- expense-policy

interface ExpenseItem {
  description: string;
  category: string;
  amount: number;
  currency?: string | null;
  date?: string | null;
  merchant?: string | null;
  receipt?: boolean | null;
  attendees?: number | null;
  nights?: number | null;
  days?: number | null;
  fareClass?: string | null;
  alcohol?: number | null;
  sourceLine: number;
  quote: string;
}
interface ExpenseReading {
  expense: { items: ExpenseItem[]; total?: Money | null };
}

const EXPENSE_POLICY: Reading = {
  shape: object({
    expense: object(
      {
        items: array(
          object(
            {
              description: string('What was bought, as written.'),
              category: string('One of: meals, lodging, airfare, ground, car rental, entertainment, per diem, parking, rail, mileage, fuel, baggage, registration, supplies, fines, alcohol, other.'),
              amount: number('The amount claimed for this expense (for a receipt, its final total), in currency units.', 0),
              ...SOURCE,
            },
            {
              currency: string('The ISO currency code the amount is in (USD for $ unless the claim says otherwise).'),
              date: isoDate('The expense date as YYYY-MM-DD.'),
              merchant: string('The merchant or vendor, as written.'),
              receipt: boolean('true when the claim says a receipt is attached, false when it says there is none; null when it does not say.'),
              attendees: integer('How many people the expense covers, when the claim says.', 1),
              nights: integer('Nights of lodging, when the claim says.', 1),
              days: integer('Days covered, when the claim says.', 1),
              fareClass: string('The travel class (economy, premium economy, business, first), when the claim says.'),
              alcohol: number('The part of the amount that is alcohol, when the claim itemises it.', 0),
            },
          ),
          'One item per expense claimed (a receipt is one expense; its lines are not separate expenses).',
          1,
        ),
      },
      { total: money('The total the claim itself states for all its items (a report total), else null.') },
    ),
  }),
  fields: ['expense'],
  instructions: [
    'Read the expense claim (JSON, CSV, a receipt, a report or lines of text) into the expenses it claims.',
    'A receipt or folio is one expense whose amount is its final total; a report lists one expense per line and its total is not an expense.',
    'Record what the claim says about receipts, attendees, nights, days, travel class and alcohol; leave a fact null when the claim does not state it.',
    'Do not judge the claim: the policy is applied afterwards.',
  ].join(' '),
  claims: ({ expense }: ExpenseReading) => [
    ...expense.items.map((item, i) => ({
      field: 'expense',
      at: at('expense', 'items', i),
      sourceLine: item.sourceLine,
      quote: item.quote,
      amounts: [item.amount],
      fieldAmounts: [item.alcohol],
      dates: [item.date],
      texts: [item.description, item.merchant],
    })),
    ...(expense.total ? [{ field: 'expense', at: 'expense.total', sourceLine: expense.total.sourceLine, quote: expense.total.quote, amounts: [expense.total.amount] }] : []),
  ],
  sums: ({ expense }: ExpenseReading) => (expense.total ? [{ at: 'expense.total', parts: expense.items.map((item) => item.amount), total: expense.total.amount }] : []),
  render: ({ expense }: ExpenseReading, input) => ({
    expense: JSON.stringify({
      items: expense.items.map((item) =>
        present({
          date: item.date,
          merchant: item.merchant,
          description: item.description,
          category: item.category,
          amount: item.amount,
          currency: item.currency,
          receipt: item.receipt,
          attendees: item.attendees,
          nights: item.nights,
          days: item.days,
          class: item.fareClass,
          alcohol: item.alcohol,
        }),
      ),
    }),
    expensePolicy: String(input.expensePolicy),
  }),
};

// ---------------------------------------------------------------------------------------------------- po-match

interface Fact {
  value: string;
  sourceLine: number;
  quote: string;
}
interface PoLine {
  sku?: string | null;
  description: string;
  quantity: number;
  unit?: string | null;
  unitPrice?: number | null;
  amount?: number | null;
  sourceLine: number;
  quote: string;
}
interface PoDocument {
  poNumber?: Fact | null;
  vendor?: Fact | null;
  currency?: string | null;
  lines: PoLine[];
  charges?: { kind: 'tax' | 'freight'; amount: number; sourceLine: number; quote: string }[] | null;
  subtotal?: Money | null;
  total?: Money | null;
}

const fact = (description: string) => object({ value: string(description, 1), ...SOURCE });
const poDocument = (which: string) =>
  object(
    {
      lines: array(
        object(
          { description: string('The item description as written.'), quantity: number('The quantity billed or ordered.', 0), ...SOURCE },
          {
            sku: string('The item number or SKU, exactly as written.'),
            unit: string('The unit of measure as written (EA, CS, box…).'),
            unitPrice: number('The unit price, in currency units.'),
            amount: number('The line total (extension), in currency units.'),
          },
        ),
        `Every item line of the ${which}, in order.`,
        1,
      ),
    },
    {
      poNumber: fact(`The purchase order number the ${which} states, exactly as written.`),
      vendor: fact('The vendor (supplier) name as written.'),
      currency: string('The ISO currency code the document names, else null ($ alone names none).'),
      charges: array(object({ kind: oneOf(['tax', 'freight']), amount: number('In currency units.'), ...SOURCE }), 'Tax and freight (shipping, delivery) lines.'),
      subtotal: money('The subtotal the document states, else null.'),
      total: money('The total the document states, else null.'),
    },
  );
const lineAmount = (line: PoLine) => line.amount ?? Math.round(line.quantity * (line.unitPrice ?? 0) * 100) / 100;

const PO_MATCH: Reading = {
  shape: object({ purchaseOrder: poDocument('purchase order'), invoice: poDocument('invoice') }),
  fields: ['purchaseOrder', 'invoice'],
  instructions: [
    'Read the purchase order and the invoice (JSON, XML, EDI, CSV or text) into each document\'s PO number, vendor, currency, item lines, charges, subtotal and total.',
    'Do not compare them: record what each document says.',
  ].join(' '),
  claims: (reading: Record<string, PoDocument>) =>
    PO_MATCH.fields.flatMap((field) => {
      const doc = reading[field];
      const facts: Claim[] = (['poNumber', 'vendor'] as const).flatMap((name) => {
        const f = doc[name];
        return f ? [{ field, at: `${field}.${name}`, sourceLine: f.sourceLine, quote: f.quote, identifiers: [f.value] }] : [];
      });
      const money = (['subtotal', 'total'] as const).flatMap((name) => {
        const m = doc[name];
        return m ? [{ field, at: `${field}.${name}`, sourceLine: m.sourceLine, quote: m.quote, amounts: [m.amount] }] : [];
      });
      return [
        ...facts,
        ...doc.lines.map((l, i) => ({ field, at: at(field, 'lines', i), sourceLine: l.sourceLine, quote: l.quote, numbers: [l.quantity], amounts: [l.unitPrice, l.amount], identifiers: [l.sku], texts: [l.description] })),
        ...(doc.charges ?? []).map((c, i) => ({ field, at: at(field, 'charges', i), sourceLine: c.sourceLine, quote: c.quote, amounts: [c.amount] })),
        ...money,
      ];
    }),
  sums: (reading: Record<string, PoDocument>) =>
    PO_MATCH.fields.flatMap((field) => {
      const doc = reading[field];
      const sums: Sum[] = doc.lines.flatMap((l, i) =>
        l.unitPrice != null && l.amount != null ? [{ at: `${at(field, 'lines', i)}.amount`, parts: [l.quantity * l.unitPrice], total: l.amount, toleranceCents: 1 }] : [],
      );
      const lines = doc.lines.map(lineAmount);
      const tolerance = doc.lines.length;
      if (doc.subtotal) sums.push({ at: `${field}.subtotal`, parts: lines, total: doc.subtotal.amount, toleranceCents: tolerance });
      if (doc.total) sums.push({ at: `${field}.total`, parts: [...lines, ...(doc.charges ?? []).map((c) => c.amount)], total: doc.total.amount, toleranceCents: tolerance });
      return sums;
    }),
  render: (reading: Record<string, PoDocument>) =>
    Object.fromEntries(
      PO_MATCH.fields.map((field) => {
        const doc = reading[field];
        const charge = (kind: string) => {
          const of = (doc.charges ?? []).filter((c) => c.kind === kind);
          return of.length ? sumCents(of.map((c) => c.amount)) : undefined;
        };
        const record = present({
          poNumber: doc.poNumber?.value,
          vendor: doc.vendor?.value,
          currency: doc.currency,
          lines: doc.lines.map((l) => present({ sku: l.sku, description: l.description, quantity: l.quantity, uom: l.unit, unitPrice: l.unitPrice, amount: l.amount })),
          tax: charge('tax'),
          freight: charge('freight'),
          subtotal: doc.subtotal?.amount,
          total: doc.total?.amount,
        });
        return [field, JSON.stringify(record)];
      }),
    ),
};

// -------------------------------------------------------------------------------------------------- vendor-risk

interface Statement {
  label: string;
  value: string;
  sourceLine: number;
  quote: string;
}

const oneLine = (s: string) => s.replace(/[\r\n]+/g, ' ').trim();

const VENDOR_RISK: Reading = {
  shape: object({
    vendorProfile: object({
      statements: array(
        object({
          label: string('What the statement is about: Vendor, Tax ID, Address, Country, Incorporated, Owner, Bank account, Payment terms, Contact, Sanctions, Statement…', 1),
          value: string('What the profile says about it, in its own words (keep names, places, numbers and dates as written; keep a denial a denial).', 1),
          ...SOURCE,
        }),
        'Every statement of the profile about the vendor: identity, tax number, address, where it and its owners operate, age, bank and payment instructions, answers to questions.',
        1,
      ),
    }),
  }),
  fields: ['vendorProfile'],
  instructions: [
    'Read the vendor profile (a form, a questionnaire, an e-mail, key: value notes or a form export) into labelled statements, one per fact, each from the line it is written on.',
    'Keep what the profile says, including what it denies ("no operations in Iran" stays a denial) and how a question was answered (ticked boxes); do not grade the vendor.',
  ].join(' '),
  claims: ({ vendorProfile }: { vendorProfile: { statements: Statement[] } }) =>
    vendorProfile.statements.map((s, i) => ({ field: 'vendorProfile', at: at('vendorProfile', 'statements', i), sourceLine: s.sourceLine, quote: s.quote, texts: [s.label, s.value] })),
  sums: () => [],
  render: ({ vendorProfile }: { vendorProfile: { statements: Statement[] } }) => ({
    vendorProfile: vendorProfile.statements.map((s) => `${oneLine(s.label).replace(/:/g, ' ')}: ${oneLine(s.value)}`).join('\n'),
  }),
  sourceOf: ({ vendorProfile }: { vendorProfile: { statements: Statement[] } }, field, line) => (field === 'vendorProfile' ? vendorProfile.statements[line - 1] : undefined),
};

/** Per engine family (the engine id before '/'): the families whose paid runs a model may read. */
export const READINGS: Record<string, Reading> = {
  'bank-rec': BANK_REC,
  'expense-policy': EXPENSE_POLICY,
  'po-match': PO_MATCH,
  'vendor-risk': VENDOR_RISK,
};
