/**
 * A receipt typed on one or two lines of a note, its parts set apart by " | " or " / " ("Receipt: Seafood gumbo cup
 * 9.00 / Blackened redfish 26.50 / … | Subtotal 52.50 | Tax 8.25% 4.33 | Total 56.83 | Tip 9.00 | Paid 65.83"): read as
 * the receipt it copies, one part a line, its arithmetic checked like any pasted receipt's. A part's line is the note
 * line it was typed on.
 */
import { readLines, type Line } from './lines.js';
import { findReceipts, type Receipt } from './receipt.js';

const APART = /\s+[|/]\s+|\s+[|/]$|^[|/]\s+/;

export function inlineReceipt(block: Line[]): Receipt | undefined {
  const texts: { text: string; n: number }[] = [];
  let open = false;
  for (const l of block) {
    const at = /\b(?:receipt|bill|check|ticket|folio|beleg|ticket de caisse|recibo|ricevuta)\s*:\s*/i.exec(l.raw);
    const apart = APART.test(l.raw.trim());
    if (!apart && !(open && at)) {
      if (open) break;
      continue;
    }
    const from = at && (!open || at.index < 40) ? l.raw.slice(at.index + at[0].length) : l.raw.trim();
    open = true;
    for (const part of from.split(/\s+[|/]\s+|\s+[|/]$|^[|/]\s+/)) if (part.trim() !== '') texts.push({ text: part.trim().replace(/\.$/, ''), n: l.n });
  }
  if (texts.length < 3) return undefined;
  const lines = readLines(texts.map((t) => t.text).join('\n'));
  lines.forEach((l: Line, k) => (l.n = texts[k].n));
  const found = findReceipts(lines, new Set());
  const r = found.length === 1 ? found[0] : undefined;
  return r && !r.unreconciled && r.lines.length >= 2 ? r : undefined;
}
