/**
 * The clean company the vendor-risk unit tests change one fact of: a questionnaire's labelled lines, every one of
 * them clean (an established US LLC with its EIN, W-9, street address, verified bank and net terms).
 */
export const COMPANY_LINES = [
  'Legal name: Northwind Traders LLC',
  'Registered address: 400 Market St, Suite 200, San Francisco, CA 94105',
  'Date of incorporation: 03/2014',
  'EIN: 12-3456789',
  'W-9: attached',
  'Bank: Chase, verified by call-back',
  'Payment terms: Net 30',
];
