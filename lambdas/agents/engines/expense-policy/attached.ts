/**
 * A receipt pasted under a report and labelled with the entry it supports ("Attached receipt - line 1", "Receipt for
 * item 3", "Beleg zu Zeile 2", "Justificatif ligne 4") is that entry's document: the fare class it prints ("Voiture 1
 * Place 24 - 1ère classe") is the class of the ticket claimed on that line, though the report's own line names none.
 */
import type { Item } from './expense.js';
import { fareClassIn } from './words.js';

/** "Attached receipt - line 1", "E-ticket for line 2", "Reçu ligne 3": a label naming the line it documents. */
const LABEL = /\b(?:receipts?|attachments?|attached|e-?tickets?|tickets?|invoices?|confirmations?|belege?|justificatifs?|re[çc]us?|billets?)\b[^\n\d]{0,40}?\b(?:line|item|entry|row|ligne|zeile|position|pos)\.?\s*(?:no\.?\s*|#\s*)?(\d{1,3})\b/i;

/** The text of each labelled attachment, by the line number it names: from its label to the next label or the end. */
export function attachments(text: string): Map<number, string> {
  return new Map([...labelled(text)].map(([n, a]) => [n, a.body]));
}

/** Each labelled attachment's text and the 1-based line its text starts on. */
function labelled(text: string): Map<number, { body: string; at: number }> {
  const lines = text.split(/\r\n|\r|\n/);
  const out = new Map<number, { body: string; at: number }>();
  let open: { n: number; body: string[]; at: number } | undefined;
  const close = () => {
    if (open) out.set(open.n, { body: `${out.get(open.n)?.body ?? ''}\n${open.body.join('\n')}`, at: out.get(open.n)?.at ?? open.at });
    open = undefined;
  };
  lines.forEach((line, k) => {
    // "[No.4] 領 収 書 …", "[#2] Receipt": a bracketed number opening a pasted document names the report's line No. 4;
    // the rest of its line is the document's own first line.
    const bracket = BRACKET.exec(line);
    if (bracket) {
      close();
      open = { n: Number(bracket[1]), body: [line.slice(bracket[0].length)], at: k + 1 };
      return;
    }
    const label = LABEL.exec(line);
    // A label is a line of its own (a heading over the pasted document), not a report line that mentions a receipt.
    if (label && line.trim().split(/\s+/).length <= 10 && !/\d[.,]\d{2}\b/.test(line)) {
      close();
      open = { n: Number(label[1]), body: [], at: k + 2 };
      return;
    }
    open?.body.push(line);
  });
  close();
  return out;
}

/** "[No.4]", "[#4]", "[Nr. 4]", "[4]" at a line's start. */
const BRACKET = /^\s*\[(?:no\.?|nr\.?|n[º°o]\.?|#|pos\.?|item)?\s*(\d{1,3})\]\s*/i;

/**
 * A pasted receipt whose amount cannot be read: its figures masked where the scan or the OCR lost digits ("¥2,?60",
 * "合計 ¥2,?6?"), or said to be unreadable ("金額欄不鮮明", "amount illegible", "Betrag unleserlich"). A reviewer
 * cannot confirm the amount claimed from it, so it is no receipt of that amount: the entry it is labelled with is
 * taken as without its receipt (a receipt rule then refuses it, saying why), whatever the report's receipt cell says.
 */
export function illegibleReceipts(items: Item[], text: string): void {
  for (const [n, { body, at }] of labelled(text)) {
    const masked = /(?:[$€£¥]|\b(?:usd|eur|gbp|jpy))\s?(?=[\d,.]*\?)[\d?][\d?,.]*|\d[\d,.]*\?[\d?,.]*\s?(?:円|€|zł)/i.exec(body);
    const said = ILLEGIBLE.exec(body);
    if (!masked && !said) continue;
    const item = items.find((i) => new RegExp(`^\\s*#?${n}\\b`).test(i.evidence ?? '')) ?? items.find((i) => i.index === n);
    if (!item) continue;
    const quote = (masked ?? said)![0];
    const offset = body.slice(0, body.indexOf(quote)).split('\n').length - 1;
    item.receipt = false;
    // The body starts with a newline (its label's line is not in it), so the first line of text is one further.
    item.illegible = { text: quote, line: at + offset - 1 };
  }
}

const ILLEGIBLE = /\b(?:illegible|unreadable|not legible|cannot be read|unleserlich|nicht lesbar|illisible|ilegible|ilegível|illeggibile|nieczytelny|onleesbaar)\b|不鮮明|判読(?:でき(?:ない|ず)|不能)|読み取れない|无法辨认|판독 불가/i;

/**
 * The fare class of a ticket entry that names none, from the attachment labelled with its line: the entry whose line
 * starts with that number ("1  22/10/2025  SNCF Connect …"), else the item of that index.
 */
export function classFromAttachments(items: Item[], text: string): void {
  const found = attachments(text);
  if (found.size === 0) return;
  for (const [n, body] of found) {
    const item = items.find((i) => new RegExp(`^\\s*#?${n}\\b`).test(i.evidence ?? '')) ?? items.find((i) => i.index === n);
    if (!item || item.fareClass !== undefined || (item.category !== 'rail' && item.category !== 'airfare')) continue;
    const fare = fareClassIn(body.toLowerCase());
    if (fare !== undefined) item.fareClass = fare;
  }
}
