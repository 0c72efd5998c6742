/**
 * One example input per engine (documents show it with the result the engine computes for it: see
 * registry.agentExample). Realistic, small, and in the formats buyers paste.
 */
export const AGENT_EXAMPLES = {
  'bank-rec': {
    input: {
      bankStatement:
        'Date,Description,Amount\n' +
        '2026-10-01,Deposit - Invoice 1001,"1,250.00"\n' +
        '2026-10-03,CHECK 2041,-420.00\n' +
        '2026-10-07,ACH Payroll,"-3,100.00"\n' +
        '2026-10-31,Monthly service fee,-15.00\n',
      bookEntries:
        'Date,Memo,Amount,Check No\n' +
        '2026-10-01,Invoice 1001 receipt,1250.00,\n' +
        '2026-10-02,Office lease,-420.00,2041\n' +
        '2026-10-07,Payroll,-3100.00,\n' +
        '2026-10-30,Check to Acme Supply,-560.00,2042\n',
    },
  },
  'po-match': {
    input: {
      purchaseOrder: JSON.stringify({
        poNumber: 'PO-1042',
        vendor: 'Acme Supply Co',
        currency: 'USD',
        lines: [
          { sku: 'WID-10', description: 'Widget 10mm', quantity: 100, unitPrice: 2.5 },
          { sku: 'BOLT-4', description: 'Bolt M4', quantity: 500, unitPrice: 0.12 },
        ],
        total: 310,
      }),
      invoice: JSON.stringify({
        invoiceNumber: 'INV-88731',
        poNumber: 'PO-1042',
        vendor: 'Acme Supply Co',
        currency: 'USD',
        lines: [
          { sku: 'WID-10', description: 'Widget 10mm', quantity: 100, unitPrice: 2.75 },
          { sku: 'BOLT-4', description: 'Bolt M4', quantity: 500, unitPrice: 0.12 },
        ],
        total: 335,
      }),
    },
  },
  'expense-policy': {
    input: {
      expense: "Team dinner at Luigi's, 4 people, $320, receipt attached",
      expensePolicy: 'Meals are capped at $75 per person per day. Receipts are required for any expense over $25. Alcohol is not reimbursable.',
    },
  },
  'vendor-risk': {
    input: {
      vendorProfile:
        'Vendor: Harbor Freight Logistics Ltd. Founded 2025. Contact: harborfreight.logistics@gmail.com. ' +
        'Address: PO Box 4471, Wilmington DE. Requests 50% payment in advance. W-9 to follow.',
    },
  },
  'export-to-transactions': {
    input: {
      export:
        'Posting Date,Details,Debit,Credit,Ref\n' +
        '10/01/2026,Customer payment - Invoice 1001,,"1,250.00",INV1001\n' +
        '10/03/2026,CHECK 2041,420.00,,2041\n' +
        '10/31/2026,Service fee,15.00,,\n',
    },
  },
} as const;
