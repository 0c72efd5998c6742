/**
 * A report column headed by a currency ("Original   USD", "Reimb. (USD)", "Amount (EUR)") prints its figures bare:
 * each bare figure under it is in that currency ("CHF 795.00   993.75" under "Original   USD" is CHF 795.00 charged
 * as USD 993.75), so the amount paid abroad and the amount posted in the policy's currency are told apart.
 */
import type { Line } from './lines.js';
import { OTHER_CODES } from './words.js';

const CODE = new RegExp(`^(?:(?:amount|reimb\\.?|reimbursable|reimbursed|posted|claimed|total|billed|charged)\\s*)?\\(?(usd|eur|gbp|cad|aud|jpy|${OTHER_CODES})\\)?$`, 'i');

export function currencyColumns(lines: Line[]): void {
  for (let k = 0; k < lines.length; k++) {
    const l = lines[k];
    if (l.kind !== 'plain' || l.amts.length > 0) continue;
    const cells = [...l.raw.matchAll(/\S+(?: \S+)*/g)];
    if (cells.length < 3) continue;
    const col = cells.find((c) => CODE.test(c[0]));
    if (!col) continue;
    const code = CODE.exec(col[0])![1].toUpperCase();
    const [at, end] = [col.index, col.index + col[0].length];
    // The rows below, up to the end of the table (two blank lines, or a line of words starting at the margin).
    let blanks = 0;
    for (let j = k + 1; j < lines.length && blanks < 2; j++) {
      const r = lines[j];
      if (r.kind === 'blank') {
        blanks++;
        continue;
      }
      blanks = 0;
      const offset = r.raw.length - r.raw.trimStart().length;
      for (const a of r.amts) {
        if (a.currency !== undefined) continue;
        const width = /^\S+/.exec(r.raw.slice(offset + a.at))?.[0].length ?? 1;
        const [from, to] = [offset + a.at, offset + a.at + width];
        // A figure set right under the header's word (numbers are right-aligned, so its end near the word's).
        if (to > at - 1 && from < end + 2) a.currency = code;
      }
    }
    return;
  }
}
