/**
 * When unsure, say so. A policy sentence the readers do not understand, that states a rule (a requirement, a refusal,
 * an approval, a cap or limit) about something the claim actually holds, must not leave that item approved: the item is
 * flagged for a reviewer with the sentence quoted, its amount withheld until the reviewer applies it. What the sentence
 * is about is its subject, the words before its rule ("Rail travel is in 2nde classe only": rail; "Alcohol may be
 * included only at dinner": alcohol, not dinner): it bears on an item of the category its subject names, or on an item
 * whose own text (merchant, description) shares a name of two telling words with it ("Global Entry").
 *
 * Not held by it: a question; a clause about the form of the documents (a receipt, folio or invoice: the receipt
 * rules apply to those) unless it refuses the expense; a sentence referring to a limit already read ("the cap is per night and includes room tax",
 * "count toward the same daily limit") with no amount of its own; a heading of three words or fewer.
 */
import type { ItemResult } from './claim.js';
import { languageOf, toEnglish } from './languages.js';
import { NOT_ALLOWED, policySource, type Policy } from './policy.js';
import { categoriesIn, moneyIn, OTHER_CODES, type Category } from './words.js';

const RULE = /\b(?:must|required|requires?|mandatory|only|never|prohibited|forbidden|excluded|disallowed|cannot|may not|shall not|not (?:be )?(?:exceed|paid)|approval|pre-?approv\w*|authori[sz]ation|caps?|capped|limits?|limited|maximum|up to|at most|no more than|exceed(?:s|ing)?)\b/;
/** An amount: a currency sign or code next to a number ("€ 70", "220.00 eur", "chf 300"). */
const AMOUNT = new RegExp(`(?:[$€£¥]|\\b(?:usd|eur|gbp|cad|aud|jpy|${OTHER_CODES})\\b)\\s?\\d|\\d(?:[\\d.,]*\\d)?\\s?(?:[$€£¥]|\\b(?:usd|eur|gbp|cad|aud|jpy|${OTHER_CODES})\\b)`);
const THRESHOLD = /^\S+\s?\S*\s+(?:and (?:over|above|up)|or (?:more|over|above))\b/;
const DOCUMENTS = /\b(?:receipts?|folios?|invoices?|slips?|memos?|documentation|statements?|belege?|quittung(?:en)?)\b|\b(?:must|should|shall) (?:show|state|include|list|contain|record|give|name)\b/;
/** A word that makes a sentence say something: without one (nor an amount) it is a label ("Hotel: Tier 1 cities: Tier 1 limit"). */
const VERB = /\b(?:is|are|be|been|must|may|might|will|shall|should|can|cannot|need|needs|require[sd]?|reimburs\w*|paid|pay|claim\w*|book\w*|cover\w*|exceed\w*|allow\w*|permit\w*|approv\w*|apply|applies|count|counts)\b/;
/** "the nightly cap", "the same daily limit", "the following limits", "that approval": a rule stated elsewhere. */
const REFERENCE = /\b(?:the|this|that|these|those|same|such|following)\s+(?:[\p{L}-]+\s+){0,3}(?:limits?|caps?|maximums?|allowances?|rates?|ceilings?|approval)\b/u;
/** Words that name nothing in particular: a shared pair of them is no shared name. */
const GENERIC = new Set(['the', 'and', 'for', 'with', 'from', 'your', 'our', 'any', 'all', 'are', 'per', 'not', 'this', 'that', 'each', 'business',
  'travel', 'trip', 'trips', 'expense', 'expenses', 'cost', 'costs', 'fee', 'fees', 'charge', 'charges', 'amount', 'paid', 'personal', 'employee',
  'company', 'card', 'client', 'customer', 'night', 'nights', 'day', 'days', 'room', 'total', 'receipt', 'approval', 'policy', 'only', 'one',
  'site', 'office', 'team', 'meeting', 'work', 'home', 'local', 'other', 'time', 'year', 'date', 'own', 'self', 'alone']);

interface Unread {
  sentence: string;
  categories: Category[];
  pairs: Set<string>;
}

/** The pairs of telling words a text holds side by side: "global entry", "entry renewal". */
function pairsOf(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\d][\p{L}\d'-]*/gu) ?? [];
  const out: string[] = [];
  for (let k = 0; k + 1 < words.length; k++) {
    const [a, b] = [words[k], words[k + 1]];
    if (a.length < 3 || b.length < 3 || /^\d/.test(a) || /^\d/.test(b) || GENERIC.has(a) || GENERIC.has(b)) continue;
    // A plural names the same thing: "ferry crossings" is a ferry crossing.
    const one = (w: string) => w.replace(/(?<=[^s])s$/, '');
    out.push(`${one(a)} ${one(b)}`);
  }
  return out;
}

/** The unread sentences that state a rule, each with what it is about. */
export function unreadRules(policy: Policy, policyText: string): Unread[] {
  // A Dutch, German or Italian sentence is read in the English forms, as its rules were.
  const language = languageOf(policyText);
  const read = new Set(policy.caps.map((c) => c.category).concat(policy.places.caps.map((c) => c.category)));
  if (policy.perDiem || policy.schedules.places.length > 0) read.add('per diem');
  for (const a of policy.grades?.rows[0]?.amounts ?? []) read.add(a.category);
  if (policy.mileage.length > 0) read.add('mileage');
  // The amounts of rules already read: an unread sentence restating one ("The $75 is a daily total") adds no limit.
  const known = new Set<bigint>([...policy.caps, ...policy.places.caps, ...policy.receipts, ...policy.approvals].map((r) => r.cents));
  for (const c of [policy.perDiem?.full, policy.perDiem?.partial]) if (c !== undefined) known.add(c);
  for (const c of policy.schedules.places) known.add(c.full);
  // A policy in a language no glossary reads (French, Spanish) has its limits in words no reader knows: an amount
  // alone is no sign of an unread rule there, every sentence being unread.
  const bare = language !== undefined || !unreadLanguage(policyText);
  const out: Unread[] = [];
  for (const sentence of policy.notUnderstood) {
    const raw = sentence.replace(/\*\*|__/g, '').replace(/^(?:q|a|question|answer)\s?[:.]\s+/i, '');
    // A rule is stated in a sentence's first few hundred characters; the rest (a pasted blob) is not read.
    // A label in quotation marks is a name to use ('itemize them as "Personal (non-reimbursable)"'), no rule of its own.
    const s = toEnglish(language, raw, policyText).toLowerCase().replace(/\s+/g, ' ').slice(0, 600).replace(/"[^"]{1,60}"|“[^”]{1,60}”/g, '""');
    if (/\?$/.test(s) || s.split(/\s+/).length <= 3) continue;
    // "Repas d'affaires avec un client : voir article 6": a pointer to the section stating the rule, no rule itself.
    if (/(?:^|:\s*|\(\s*)(?:see|voir|véase|ver|vedi|siehe|zie|patrz)\s+(?:l['’]|el |la |o |a |den |die )?(?:article|articolo|artículo|artigo|artikel|section|sección|secção|clause|§)\s*\d/.test(s)) continue;
    const money = moneyIn(s, () => undefined);
    if (money.length === 0 && !VERB.test(s)) continue;
    // "The cap is per night and includes room tax", "It is not a per-meal limit": a rule already read, qualified.
    const referring = REFERENCE.test(s) || /^(?:it|this|that|they|these|those)\b.*\b(?:limits?|caps?|allowances?|rates?)\b/.test(s);
    const named = categoriesIn(s);
    if (money.length === 0 && referring && (named.length === 0 ? read.size > 0 : named.every((c) => read.has(c)))) continue;
    const under = policy.under.get(sentence)?.toLowerCase();
    const categories = new Set<Category>();
    const pairs = new Set<string>();
    // Each clause is its own rule ("… is NOT an itemized receipt: a meal claimed with a terminal slip only is not
    // reimbursed"). A clause about the form of the documents is for the receipt rules, unless it refuses the expense.
    // The label a sentence opens with ("Hotels: London 190 GBP, …", "Meals while travelling in Japan: the company
    // pays …") is what its clauses are about when their own words name nothing.
    const clauses = s.split(/:\s|;\s/);
    const label = clauses.length > 1 && /^[^:;]{1,80}:\s/.test(s) ? clauses[0] : undefined;
    for (const clause of clauses) {
      const refusal = NOT_ALLOWED.exec(clause);
      // An amount no reader took is a limit all the same ("Hotel in Zürich: CHF 300", "Lodging - London 170 GBP"):
      // its subject is the words before it.
      // Not an amount from which something else is required ("$25 and over"), nor one of a rule already read.
      const amount = AMOUNT.exec(clause);
      const fresh = bare && amount !== null && !THRESHOLD.test(clause.slice(amount.index)) && moneyIn(clause, () => undefined).some((x) => !known.has(x.cents));
      const rule = RULE.exec(clause) ?? refusal ?? (fresh ? amount : null);
      if (!rule || (DOCUMENTS.test(clause) && !refusal)) continue;
      // The subject: the words before the rule (the refusal's, when the clause refuses); a clause opening on its rule
      // ("Required for every expense of $75.00 or more", "Up to DKK 1.400 per night") is about its heading
      // ("RECEIPTS", "Hotel"), else about all it names.
      const at = refusal && refusal.index > rule.index ? refusal.index : rule.index;
      const before = clause.slice(0, at);
      const opening = before.split(/\s+/).filter((w) => w !== '').length < 2;
      if (opening && under !== undefined && DOCUMENTS.test(under) && !refusal) continue;
      const labelled = label !== undefined && clause !== label ? label : undefined;
      const subject = (!opening ? before : under !== undefined && categoriesIn(under).length > 0 ? under : labelled ?? clause)
        .replace(/\([^)]*\)/g, ' ').replace(/,? ?[\p{L} -]{0,30}\binclud(?:ed|ing)\b.*$|\b(?:including|excluding|incl\.?|except)\b.*$/u, ' ');
      const cats = categoriesIn(subject);
      const from = cats.length === 0 && labelled !== undefined ? [subject, labelled] : [subject];
      for (const t of from) for (const c of categoriesIn(t)) categories.add(c);
      for (const t of from) for (const p of pairsOf(t)) pairs.add(p);
    }
    if (categories.size > 0 || pairs.size > 0) out.push({ sentence, categories: [...categories], pairs });
  }
  return out;
}

/** Each open item an unread rule bears on: flagged with the sentence quoted, its amount withheld for a reviewer. */
export function unreadCheck(results: ItemResult[], policy: Policy, policyText: string, m: (cents: bigint) => string): void {
  const rules = unreadRules(policy, policyText);
  if (rules.length === 0) return;
  for (const r of results) {
    if (!r.open) continue;
    const own = [r.item.merchant, r.item.heading, r.item.evidence ?? r.item.label].filter(Boolean).join(' ');
    const pairs = new Set(pairsOf(own));
    const bearing = rules.filter((u) => (r.item.category !== undefined && u.categories.includes(r.item.category)) || [...u.pairs].some((p) => pairs.has(p)));
    if (bearing.length === 0) continue;
    r.findings.push({
      severity: 'flag', kind: 'policy sentence not understood',
      text: `policy sentence not understood: a reviewer must apply it (${bearing.map((u) => `"${u.sentence.slice(0, 240)}"`).join('; ')}); ${m(r.allowed)} withheld until then`,
      sources: [...r.item.at, ...bearing.map((u) => policySource(policy, u.sentence))],
    });
    r.allowed = 0n;
    r.open = false;
  }
}

const ENGLISH = new Set(['the', 'and', 'is', 'are', 'be', 'for', 'with', 'of', 'to', 'not', 'or', 'will', 'must', 'any', 'per']);
/** French and Spanish function words no Dutch or Italian sentence uses (a French policy may be taken for Dutch). */
const ROMANCE = new Set(['les', 'des', 'du', 'est', 'sont', 'dans', 'aux', 'pour', 'une', 'et', 'los', 'las', 'para', 'el', 'y', 'por']);

/** Whether the policy is written in a Romance language no glossary reads (its function words outnumber English ones). */
function unreadLanguage(text: string): boolean {
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  const romance = words.filter((w) => ROMANCE.has(w)).length;
  return romance >= 5 && romance > 2 * words.filter((w) => ENGLISH.has(w)).length;
}
