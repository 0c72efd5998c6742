/**
 * The claim's own grand total, where the claimant states one ("TOTAL CLAIMED (A + B)  667.05", "Total amount claimed:
 * $1,203.85"): a practitioner never pays more than the claimant asked for. When the items this engine read would pay
 * more than that, the reading has taken something for an expense that is not one (a table's other column, a line of
 * the papers under the claim): the claim is held for review, citing the total, and no more than it is reimbursable.
 * Only a gross claim total counts, never an "amount payable" net of an advance, and only one such line in the text.
 */
import { parseCents } from '../text/amount.js';

const LABEL = /^\s*(?:grand\s+)?(?:total\s+(?:amount\s+)?claimed|claim(?:ed)?\s+total|total\s+of\s+(?:the\s+)?claim)\b[^0-9\n]*?([-–]?\s*(?:[A-Z]{3}\s*)?[$€£]?\s*\d[\d,.' ]*\d)\s*$/i;

export interface ClaimedTotal {
  cents: bigint;
  line: number;
  quote: string;
}

/** The claim's stated grand total, when exactly one line states it; else undefined. */
export function claimedTotal(expense: string): ClaimedTotal | undefined {
  const found: ClaimedTotal[] = [];
  expense.split(/\r?\n/).forEach((text, k) => {
    const m = LABEL.exec(text);
    if (!m) return;
    const cents = parseCents(m[1].replace(/\s+/g, ''));
    if (cents !== undefined && cents > 0n) found.push({ cents, line: k + 1, quote: text.trim() });
  });
  return found.length === 1 ? found[0] : undefined;
}
