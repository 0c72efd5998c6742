/**
 * Rows of a printed table read past the columns' positions: a row whose description pushes its figures right of their
 * labels, and lines that state an identifier (bank account, tax registration, telephone), never a row or an item.
 */
import type { RawLine } from './document.js';
import { lineAmount, abs, CENT } from './decimal.js';
import { readNumber, type Decimal } from './number.js';
import { unitWithPack } from './units.js';
import type { Column, Role, Tok } from './text-columns.js';

const NUMERIC: Role[] = ['qty', 'ordered', 'shipped', 'bo', 'price', 'amount', 'pack'];

/**
 * A line that states an identifier: a bank account (IBAN, SWIFT/BIC, sort code, routing, account number), a tax
 * registration (TRN, VAT no., GSTIN, ABN) or a telephone. Its digits are never a quantity or a price: "IBAN AE07 0260
 * 0010 1534 8822 901" is no "260 × 901".
 */
export const IDENTIFIER_LINE = /\b(?:IBAN|SWIFT|BIC|TRN|GSTIN|ABN|BSB)\b|\b(?:sort\s+code|routing\s+(?:no|number|#)|account\s+(?:no\.?|number|#)|acct\.?\s*(?:no\.?|#)|vat\s+(?:reg(?:istration)?\.?|no\.?|number)|tax\s+(?:reg(?:istration)?\.?|id)\s*(?:no\.?|number|#)?)|\b(?:tel|phone|fax|mobile)\s*[.:]/i;

/**
 * A row whose description runs past its column pushes every figure after it to the right, out from under its label
 * ("Bath Towel 70x140 600gsm White (LIN-BT-70140)   300  PCS   27.50   8,250.00 …" under "Description  Qty  Unit
 * Unit Price  Taxable Amt …"): the figures keep the columns' order, so the row's last words are read one to each
 * column right of the description, in order. Kept only when quantity × price is the row's amount to the cent.
 */
export function shiftedRow(toks: Tok[], cols: Column[], descIndex: number, decimal: Decimal, readRow: (cells: Map<Role, Tok[]>) => RawLine | undefined): RawLine | undefined {
  if (descIndex < 0) return undefined;
  const right = cols.slice(descIndex + 1);
  if (right.length < 3 || toks.length <= right.length) return undefined;
  const tail = toks.slice(toks.length - right.length);
  const head = toks.slice(0, toks.length - right.length);
  const cells = new Map<Role, Tok[]>();
  const put = (role: Role, t: Tok) => cells.set(role, [...(cells.get(role) ?? []), t]);
  for (const [k, c] of right.entries()) {
    const t = tail[k];
    const numeric = readNumber(t.text.replace(/%$/, ''), decimal) !== undefined;
    if (NUMERIC.includes(c.role) !== numeric && c.role !== 'other') return undefined;
    if (c.role === 'uom' && !/^[A-Za-z]{1,8}\.?$/.test(t.text) && unitWithPack(t.text) === undefined) return undefined;
    put(c.role, t);
  }
  const lead = cols.slice(0, descIndex);
  for (const t of head) {
    const c = lead.find((x) => t.end > x.start && t.start < x.end);
    put(c ? c.role : 'desc', t);
  }
  const row = readRow(cells);
  if (!row || row.quantity === undefined || row.unitPrice === undefined || row.amount === undefined) return undefined;
  return abs(lineAmount(row.quantity, row.unitPrice, row.priceBase) - row.amount) <= CENT ? row : undefined;
}

