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
  const lines = text.split(/\r\n|\r|\n/);
  const out = new Map<number, string>();
  let open: { n: number; body: string[] } | undefined;
  const close = () => {
    if (open) out.set(open.n, `${out.get(open.n) ?? ''}\n${open.body.join('\n')}`);
    open = undefined;
  };
  for (const line of lines) {
    const label = LABEL.exec(line);
    // A label is a line of its own (a heading over the pasted document), not a report line that mentions a receipt.
    if (label && line.trim().split(/\s+/).length <= 10 && !/\d[.,]\d{2}\b/.test(line)) {
      close();
      open = { n: Number(label[1]), body: [] };
      continue;
    }
    open?.body.push(line);
  }
  close();
  return out;
}

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
