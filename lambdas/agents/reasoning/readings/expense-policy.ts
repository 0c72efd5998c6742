/** The expense-policy reading the model is asked for (see ../readings.ts): its schema, its grounding claims and sums, its rendering. */
import { SOURCE, SPAN, array, boolean, integer, isoDate, number, object, string } from '../schema.js';
import { laidOut, money, at, present, type Money, type Reading } from '../reading.js';

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
  lastLine?: number | null;
  quote: string;
}
interface ExpenseReading {
  expense: { items: ExpenseItem[]; total?: Money | null };
}

export const EXPENSE_POLICY: Reading = {
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
              ...SPAN,
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
      lastLine: item.lastLine,
      quote: item.quote,
      amounts: [item.amount],
      fieldAmounts: [item.alcohol],
      // More attendees, nights or days raise a cap: a count the claim does not write is not used.
      fieldCounts: [item.attendees, item.nights, item.days],
      currencies: [item.currency],
      dates: [item.date],
      texts: [item.description, item.merchant],
    })),
    ...(expense.total ? [{ field: 'expense', at: 'expense.total', sourceLine: expense.total.sourceLine, quote: expense.total.quote, amounts: [expense.total.amount] }] : []),
  ],
  sums: ({ expense }: ExpenseReading) => (expense.total ? [{ at: 'expense.total', parts: expense.items.map((item) => item.amount), total: expense.total.amount }] : []),
  render: ({ expense }: ExpenseReading, input) => ({ expense: laid(expense).text, expensePolicy: String(input.expensePolicy) }),
  sourceOf: ({ expense }: ExpenseReading, field, line) => (field === 'expense' ? laid(expense).from[line - 1] : undefined),
};

/** The claim as the engine reads it, one item a line (see `laidOut`). */
function laid(expense: ExpenseReading['expense']) {
  return laidOut([
    {
      key: 'items',
      items: expense.items.map((item) => ({
        value: present({
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
        from: item,
      })),
    },
  ]);
}
