/**
 * One bank reconciliation worked out by hand, shared by the tests that buy it over each channel (the run use case,
 * a credit-billed run, MCP): the Zephyr deposit (4321.09, 4 May) pairs with the books' receipt of 3 May, one day
 * apart; the 12.50 wire fee of 29 May has no book entry. Bank 4321.09 − 12.50 = 4308.59; books 4321.09 → net −12.50,
 * all of it the fee missing in the books.
 */
export const BANK = 'Date,Description,Amount\n2026-05-04,Deposit Zephyr Ltd,4321.09\n2026-05-29,Wire fee,-12.50\n';
export const BOOKS = 'Date,Memo,Amount\n2026-05-03,Zephyr Ltd receipt,4321.09\n';
export const INPUT = { bankStatement: BANK, bookEntries: BOOKS };

export const EXPECTED = {
  reconciled: false,
  matched: 1,
  exceptions: [
    {
      type: 'missing_in_books',
      detail: 'bank line 3 "2026-05-29,Wire fee,-12.50" (2026-05-29, -12.50) has no matching book entry: record it in the books (a fee or payment).',
      amount: -12.5,
    },
  ],
  net_unreconciled: -12.5,
  note: 'Not reconciled: 1 matched of 2 bank lines and 1 book entries; 1 item missing in the books; bank total − book total = -12.50.',
};

/** A bank statement the engine cannot read (no amount column): the buyer's error, naming `bankStatement`. */
export const UNREADABLE_BANK = 'Date,Description\n2026-05-04,Deposit Zephyr Ltd\n';
