/**
 * A report column headed by a currency ("Original   USD", "Reimb. (USD)", "Amount (EUR)") prints its figures bare:
 * each bare figure under it is in that currency ("CHF 795.00   993.75" under "Original   USD" is CHF 795.00 charged
 * as USD 993.75), so the amount paid abroad and the amount posted in the policy's currency are told apart.
 */
import type { Line } from './lines.js';
import { shown } from './columns.js';
import { OTHER_CODES } from './words.js';

const CODE = new RegExp(`^(?:(?:amount|reimb\\.?|reimbursable|reimbursed|posted|claimed|total|billed|charged)\\s*)?\\(?(usd|eur|gbp|cad|aud|jpy|${OTHER_CODES})\\)?$`, 'i');

/** An amount column headed by its currency's sign in the report's language ("金額(円)", "Importe (€)", "Valor (R$)"). */
const SIGNED = /^(?:amount|金額|金额|금액|importe|importo|montant|betrag|valor|kwota|tutar|jumlah|số tiền)\s*[(（]\s*(円|¥|￥|원|₩|元|€|£|r\$|zł|₫|rp)\s*[)）]$/iu;
const SIGNS: Record<string, string> = { '円': 'JPY', '¥': 'JPY', '￥': 'JPY', '원': 'KRW', '₩': 'KRW', '元': 'CNY', '€': 'EUR', '£': 'GBP', 'r$': 'BRL', 'zł': 'PLN', '₫': 'VND', rp: 'IDR' };
/** Currencies paid in whole units. */
const WHOLE = new Set(['JPY', 'KRW', 'VND', 'IDR', 'CLP', 'ISK', 'TWD']);

export function currencyColumns(lines: Line[]): void {
  for (let k = 0; k < lines.length; k++) {
    const l = lines[k];
    if (l.kind !== 'plain' || l.amts.length > 0) continue;
    const cells = [...l.raw.matchAll(/\S+(?: \S+)*/g)];
    if (cells.length < 3) continue;
    const col = cells.find((c) => CODE.test(c[0]) || SIGNED.test(c[0]));
    if (!col) continue;
    const code = CODE.exec(col[0])?.[1].toUpperCase() ?? SIGNS[SIGNED.exec(col[0])![1].toLowerCase()];
    // A currency without minor units ("金額(円)", "금액(원)") prints whole figures ("14,720", "290"): each under the
    // column is an amount in it, though no reader takes a bare whole figure for money elsewhere.
    const whole = WHOLE.has(code);
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
      if (whole && r.amts.length === 0) {
        // Set where it shows: Chinese, Japanese and Korean letters take two columns of a fixed-width print.
        const [shownAt, shownEnd] = [shown(l.raw, at), shown(l.raw, end)];
        for (const m of r.raw.matchAll(/(?<=\s|^)(\d{1,3}(?:,\d{3})+|\d{1,7})(?=\s|$)/g)) {
          const [from, to] = [shown(r.raw, m.index), shown(r.raw, m.index + m[0].length)];
          if (to > shownAt - 1 && from < shownEnd + 2) r.amts.push({ cents: BigInt(m[1].replace(/,/g, '')) * 100n, currency: code, at: m.index - offset });
        }
        if (r.amts.length > 0 && r.kind === 'plain') r.kind = 'item';
      }
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
