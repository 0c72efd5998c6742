/**
 * What a policy accepts as a receipt. A card-terminal slip prints only the amount paid and a card statement line only
 * the merchant and the sum: neither shows what was bought, so a policy asking for an itemised receipt ("An itemized
 * receipt is required for every expense"), or saying so of them ("The terminal slip is NOT an itemized receipt: a
 * meal claimed with a terminal slip only is not reimbursed", "Credit card statements are not accepted as receipts"),
 * refuses an expense supported by one of them alone, as a receipt missing.
 */
import type { Src } from './evidence.js';
import type { Item } from './expense.js';
import type { ProofKind } from './proof.js';
import type { Policy, Threshold } from './policy-types.js';
import { categoriesIn, type Category } from './words.js';
import { NOT_ALLOWED } from './policy-types.js';

export interface ProofRule {
  /** The kinds of support the rule refuses as a receipt. */
  kinds: ProofKind[];
  /** The categories it is said of (a meal claimed with a slip only); empty: every expense. */
  categories: Category[];
  text: string;
}

const SLIP = /\b(?:(?:credit |debit )?card|terminal|payment|pos|visa|amex|mastercard|charge|till)(?: terminal)? (?:slips?|vouchers?|receipts? from the terminal)\b|\bterminal slips?\b/;
const STATEMENT = /\b(?:(?:credit |debit )?card|bank|amex|visa|account) statements?\b|\bstatement (?:lines?|extracts?|screenshots?)\b/;
/** Said of the slip or statement: it is no receipt, or an expense with it alone is not paid. */
const NO_RECEIPT = /\b(?:is|are) not (?:an? |considered (?:an? )?|accepted as (?:an? )?|acceptable as (?:an? )?|valid (?:as )?(?:an? )?)?(?:itemi[sz]ed |valid |original |proper )?receipts?\b|\b(?:is|are) not (?:accepted|acceptable|sufficient|enough)\b|\bdo(?:es)? not (?:count|qualify) as (?:an? )?(?:itemi[sz]ed |valid )?receipts?\b|\bnot (?:an? )?(?:substitute|replacement) for (?:an? |the )?(?:itemi[sz]ed )?receipts?\b|\bnot be accepted\b/;
const ALONE = /\b(?:only|alone|by itself|by themselves|on (?:its|their) own)\b/;

/** The rule a sentence states of slips or statements as receipts, if it states one. */
export function readProofRule(s: string, original: string): ProofRule | undefined {
  const kinds: ProofKind[] = [];
  if (SLIP.test(s)) kinds.push('card slip');
  if (STATEMENT.test(s)) kinds.push('card statement');
  if (kinds.length === 0) return undefined;
  if (!NO_RECEIPT.test(s) && !(ALONE.test(s) && NOT_ALLOWED.test(s))) return undefined;
  return { kinds, categories: categoriesIn(s), text: original };
}

/** "An itemized receipt is required …": a receipt rule that a slip or statement does not meet. */
export function itemisedReceipt(s: string): boolean {
  return /\bitemi[sz]ed (?:receipts?|bills?|invoices?)\b/.test(s) && !/\bnot (?:required|needed|necessary)\b/.test(s);
}

/**
 * Whether the item's only support is one the policy does not take as its receipt: the sentence that says so (a rule of
 * slips or statements naming the item's category or none, else an itemised-receipt rule covering the item), the
 * finding's text and the line showing the support.
 */
export function slipRefused(item: Item, policy: Policy, covers: (rule: Threshold) => boolean): { rule: string; text: string; proof: Src[] } | undefined {
  const proof = item.proof;
  if (proof === undefined || proof.kind === 'itemised receipt') return undefined;
  const named = policy.proofRules.find((r) => r.kinds.includes(proof.kind) && (r.categories.length === 0 || (item.category !== undefined && r.categories.includes(item.category))));
  const rule = named?.text ?? policy.receipts.find((r) => r.itemised && covers(r) && !(item.category !== undefined && r.except.includes(item.category)))?.text;
  if (rule === undefined) return undefined;
  return {
    rule,
    text: `itemised receipt required ("${rule}"): only a ${proof.kind} supports it ("${proof.text.slice(0, 120)}"), which shows the amount paid, not what was bought`,
    proof: [{ field: 'expense', line: proof.line, quote: proof.text }],
  };
}
