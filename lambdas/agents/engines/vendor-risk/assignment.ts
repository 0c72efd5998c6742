/**
 * Payment assigned to another party (RULES.md rule 6, "Assignment of receivables"): a notice that the vendor's
 * invoices are to be paid to someone else — a factoring company, an assignee, a lender's lockbox — is a payment
 * redirection however lawful it may be, because it is also the commonest shape of a fraudulent redirection: the money
 * leaves the vendor's account for one the buyer has never paid. A practitioner reads it in the words of assignment
 * ("Notice of Assignment", "has sold and assigned … its accounts receivable", "assignment of receivables", "our
 * factor"), and in an instruction to pay a named company that is not the vendor ("made payable to X", "remit to X",
 * "pay to the order of X", "payments should now be directed to X"). Denied ("we do not factor our invoices"), asked
 * ("Are your receivables assigned?"), or a form label answered no ("Factoring company: N/A") is no notice.
 */
import { answeredNo } from './advance.js';
import { nameTokens } from './names.js';
import { B, E, lineOf, matches, negatedBefore, type Finding } from './text.js';

export const ASSIGN = 'payment assigned to another party';

const WORDS = new RegExp(
  `${B}(?:` +
    `notice\\s+of\\s+(?:assignment|factoring)|(?:assignment|transfer)\\s+of\\s+(?:(?:all|its|our|their|the|your)\\s+)?(?:(?:present\\s+and\\s+future|accounts?)\\s+)?receivables?` +
    `|(?:sold|assigned|transferred|sold\\s+and\\s+assigned|factored)\\s+(?:to\\s+[^.\\n]{1,80}?\\s+)?(?:all\\s+(?:of\\s+)?)?(?:its|their|our|his|her)\\s+(?:(?:present\\s+and\\s+future|outstanding|open)\\s+)?(?:accounts?\\s+receivables?|receivables|invoices)` +
    `|factoring\\s+(?:company|agreement|arrangement|partner|provider)|(?:our|their|its|the\\s+vendor's)\\s+factor|(?:as\\s+)?assignee\\s+of` +
    `)${E}`,
  'giu',
);

/** An instruction to pay a named party: the name follows, capitalised (so the verb is matched in either case by hand), and is compared with the vendor's names. */
const PAY_TO = new RegExp(
  `${B}(?:(?:[Mm]ade\\s+)?[Pp]ayable|[Pp]ay(?:ments?)?(?:\\s+[\\p{L}'-]+){0,4}?\\s+(?:directed|redirected|remitted|made|sent|paid)|[Rr]emit(?:tance)?|[Pp]ay)` +
    `\\s+to(?:\\s+the\\s+order\\s+of)?\\s*:?\\s*([\\p{Lu}][^\\n;()|:]{2,80})`,
  'gu',
);
/** A legal form among a name's words: the capture names a company, not an address or a sentence. */
const COMPANY = /(?<![\p{L}])(?:llc|l\.l\.c\.?|inc\.?|ltd\.?|limited|corp\.?|corporation|gmbh|plc|llp|lp|co\.|company|bank|capital|funding|finance|financial|factors?)(?![\p{L}])/iu;

/** The clause the words stand in asks a question: a question asks, it instructs nothing. */
function asked(text: string, at: number): boolean {
  const nl = text.indexOf('\n', at);
  const rest = text.slice(at, nl < 0 ? text.length : nl);
  const stop = /[.!?](?=\s|$)/.exec(rest);
  return stop !== null && stop[0] === '?';
}

export function findAssignment(text: string, vendorNames: string[]): (Finding & { at: number; end: number }) | undefined {
  for (const m of matches(WORDS, text)) {
    if (negatedBefore(text, m.index) || asked(text, m.index) || answeredNo(text, m.index, m.index + m[0].length)) continue;
    return { detail: `${ASSIGN} ("${lineOf(text, m.index)}")`, at: m.index, end: m.index + m[0].length };
  }
  const vendors = vendorNames.map(nameTokens).filter((t) => t.length > 0);
  if (vendors.length === 0) return undefined;
  for (const m of matches(PAY_TO, text)) {
    if (negatedBefore(text, m.index) || asked(text, m.index)) continue;
    const named = m[1].split(/\s+(?:and|at|via|through|by|with|from|as|effective)\s+|\.\s|\s+-\s+/)[0];
    if (!COMPANY.test(named) || /\d/.test(named)) continue;
    const payee = nameTokens(named);
    if (payee.length === 0) continue;
    const same = vendors.some((v) => payee.every((w) => v.includes(w)) || v.every((w) => payee.includes(w)));
    if (!same) return { detail: `${ASSIGN} ("${lineOf(text, m.index)}")`, at: m.index, end: m.index + m[0].length };
  }
  return undefined;
}
