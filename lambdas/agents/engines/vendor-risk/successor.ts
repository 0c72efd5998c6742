/**
 * A payee that is the vendor's successor in law (RULES.md rule 6, "A successor by amalgamation or merger"). When two
 * companies amalgamate or one is merged into the other, the continuing corporation is the same legal person as each
 * of them: it holds their property and owes and is owed their debts. Paying it is paying the vendor, under the name it
 * now has; an acquisition is not that (the bought company stays a separate legal person, and paying its parent pays
 * someone else). The vendor's own word for it proves nothing: a payee changed to another name is what a fraud asks
 * for. A practitioner takes it from the public register, so the engine takes it only from the buyer's own record
 * (verified.ts): one paragraph or numbered item that names a register, says amalgamated or merged (not denied: "no
 * amalgamation filed"), and names both the vendor and the payee. The change of payee and bank is still a change,
 * released only as every change is, by the buyer's recorded call-back with a second control.
 */
import { nameTokens } from './names.js';
import { blocks } from './verified.js';

/** A public register searched or extracted, in the words of the registers vendors are in. */
const REGISTER =
  /(?<![\p{L}])(?:regist(?:ry|er|re|ro)|handelsregister\p{L}*|companies\s+house|corporations\s+canada|ic\s+corporations|bizfile|kvk|kbo|krs|ares|visura|kbis|extrai?ct\p{L}*|auszug|corporate\s+(?:search|profile)|profile\s+report|certificate\s+of\s+(?:amalgamation|merger))(?![\p{L}])/iu;
/** Amalgamated or merged into one: the words of the registers and of the practitioners who read them. */
const MERGED =
  /(?<![\p{L}])(?:amalgamat\p{L}*|merged|merger|merging|successor(?:\s+by\s+merger)?|continuing\s+(?:corporation|company|entity)|absorbed|absorption|fusion\p{L}*|fusie|fusione|fusao|verschmelz\p{L}*|verschmolzen|przejec\p{L}*|po[lł]\p{L}czen\p{L}*)(?![\p{L}])/giu;
/** A denial of it: "no amalgamation filed", "not merged", "has never been amalgamated". */
const DENIED = /(?<![\p{L}])(?:no|not|never|nor|neither|without|kein\p{L}*|pas\s+de|sin|sem|brak)\s+(?:[\p{L}'-]+\s+){0,2}$/iu;
/** "remains a separate legal entity": the two are not one. */
const SEPARATE = /(?<![\p{L}])(?:separate|distinct|independent)\s+(?:legal\s+)?(?:entity|entities|company|companies|corporation|person)(?![\p{L}])/iu;

const named = (tokens: Set<string>, name: string) => {
  const words = nameTokens(name);
  return words.length > 0 && words.every((w) => tokens.has(w));
};

/**
 * Whether the buyer's own record (`record`, its own words only) shows `payee` to be the successor of the vendor
 * (one of `vendorNames`) by amalgamation or merger, read from a register.
 */
export function successorOnRecord(record: string, payee: string, vendorNames: string[]): boolean {
  for (const block of blocks(record)) {
    const text = block.text;
    if (!REGISTER.test(text) || SEPARATE.test(text)) continue;
    const merged = [...text.matchAll(MERGED)].some((m) => !DENIED.test(text.slice(Math.max(0, m.index - 40), m.index)));
    if (!merged) continue;
    const tokens = new Set(nameTokens(text));
    if (named(tokens, payee) && vendorNames.some((v) => !named(new Set(nameTokens(payee)), v) && named(tokens, v))) return true;
  }
  return false;
}
