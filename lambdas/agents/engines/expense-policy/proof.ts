/**
 * What kind of document supports an expense, as a reviewer tells them apart: an itemised receipt (the goods or
 * services bought, line by line), a card-terminal slip (only the amount, a tip and the total, with the terminal's
 * approval words: Moneris, Square, Clover, "APPROVED", "AUTH", "CUSTOMER COPY"), or a card statement line. A
 * policy may accept only the first ("a terminal slip is not an itemized receipt"); the reader only states which.
 */
import type { Receipt } from './receipt.js';

export type ProofKind = 'itemised receipt' | 'card slip' | 'card statement';

export interface Proof {
  kind: ProofKind;
  /** The line that shows it: the slip's approval or terminal line, the note saying so, the statement line. */
  text: string;
  line?: number;
}

/** The one charge a slip prints before the tip: the sale's amount, in the languages terminals print. */
const SALE = /^(?:amount|amt|montant|purchase|achat|sale|vente|base|subtotal|sub-total|importe|betrag|umsatz|kwota|bedrag|belopp|beløb|total due)(?:\s*\/\s*(?:amount|amt|montant|purchase|achat|sale|vente|importe|betrag))?$/i;
/** What a payment terminal prints and a restaurant's itemised bill does not. */
const TERMINAL = /\b(?:moneris|square|clover|verifone|ingenico|sumup|global payments|worldpay|elavon|approved|approuv[ée]e?|aprobad[ao]|genehmigt|autori[sz]ation|auth(?:orization)?\s*(?:code|#|no)|autor#?|customer copy|cardholder copy|copie du client|copie client|retain this copy|conservez cette copie|terminal id|tid|mid|entry method|contactless|chip read|aid:?\s*a0)\b/i;
/** The employee saying only the slip was kept ("the restaurant only gave me the card slip"), or that no itemised
 * bill was had ("I never got the itemized bill"), which with a slip named is the same. */
const ONLY_SLIP = /\bonly (?:gave me |have |got |kept )?(?:the |a )?(?:card |credit card |terminal |payment )?slip\b/i;
const NO_ITEMISED = /\b(?:never got|did not get|didn't get|no|without|lost|forgot) (?:the |an |my )?itemi[sz]ed (?:bill|receipt|invoice)\b/i;
const SLIP = /\b(?:card|terminal|credit card|payment|visa|amex|mastercard) slip\b/i;
const STATEMENT = /\b(?:card|credit card|amex|visa|bank) statement\b|\bstatement (?:line|screenshot|extract)\b/i;

/** The kind of a receipt found in the document, from its own lines. */
export function receiptProof(r: Receipt): Proof {
  const items = r.lines.filter((p) => p.kind === 'item');
  const goods = items.filter((p) => !SALE.test(p.text.replace(/[-(]?[$€£¥]?\s?\d[\d.,]*\s*[€£$]?\)?\s*$/, '').replace(/[:.]+\s*$/, '').trim()));
  const own = r.own ?? [];
  const terminal = own.find((t) => TERMINAL.test(t));
  if (goods.length === 0 && items.length <= 1 && terminal !== undefined) return { kind: 'card slip', text: terminal.trim() };
  return { kind: 'itemised receipt', text: r.totalLine, line: r.totalAt };
}

/** What the expense's own text says of its support: only a card slip, or a card statement line and no receipt. */
export function statedProof(text: string, hasReceipt: boolean): Proof | undefined {
  // The sentence may wrap ("… only gave me the" / "card slip, …"): read joined, quote the line it starts on.
  const lines = text.split('\n');
  const joined = lines.join(' ');
  const m = ONLY_SLIP.exec(joined) ?? (SLIP.test(joined) ? NO_ITEMISED.exec(joined) : null);
  if (m) {
    let at = 0;
    const slip = lines.find((t) => (at += t.length + 1) > m.index) ?? m[0];
    return { kind: 'card slip', text: slip.trim() };
  }
  if (hasReceipt && !NO_ITEMISED.test(joined)) return undefined;
  const statement = text.split('\n').find((t) => STATEMENT.test(t));
  return statement ? { kind: 'card statement', text: statement.trim() } : undefined;
}
