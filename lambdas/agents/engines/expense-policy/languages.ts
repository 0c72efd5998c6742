/**
 * The language a policy is written in, and its sentences read in the English forms the rule readers know. Each
 * language is a glossary of its rule phrases (german.ts, dutch.ts, italian.ts, french.ts, spanish.ts, portuguese.ts,
 * polish.ts, japanese.ts) and the common words that tell it apart; the sentence cited stays the one the policy prints.
 * Adding a language is adding its entry here: its common words (or its script) and its glossary.
 */
import { fromGerman, GERMAN_WORDS } from './german.js';
import { DUTCH, DUTCH_WORDS } from './dutch.js';
import { ITALIAN, ITALIAN_WORDS } from './italian.js';
import { FRENCH, FRENCH_WORDS } from './french.js';
import { SPANISH, SPANISH_WORDS } from './spanish.js';
import { PORTUGUESE, PORTUGUESE_WORDS } from './portuguese.js';
import { POLISH, POLISH_WORDS } from './polish.js';
import { fromJapanese, JAPANESE_SCRIPT } from './japanese.js';
import { translate } from './glossary.js';

export type Language = 'de' | 'nl' | 'it' | 'fr' | 'es' | 'pt' | 'pl' | 'ja';

/** A language told by its common words: the words, and its glossary (German has its own reading, lower-cased). */
const BY_WORDS: [Language, string[], [RegExp, string][]][] = [
  ['de', GERMAN_WORDS, []], ['nl', DUTCH_WORDS, DUTCH], ['it', ITALIAN_WORDS, ITALIAN], ['fr', FRENCH_WORDS, FRENCH],
  ['es', SPANISH_WORDS, SPANISH], ['pt', PORTUGUESE_WORDS, PORTUGUESE], ['pl', POLISH_WORDS, POLISH],
];
/** A language told by its script (a share of the letters): the script and how a sentence is read. */
const BY_SCRIPT: [Language, RegExp, (s: string) => string][] = [['ja', JAPANESE_SCRIPT, fromJapanese]];

/** A word two languages share ("en", "de", "la", "des", "na") tells neither apart: each list keeps its own words only. */
const OWN: [Language, Set<string>][] = BY_WORDS.map(([lang, words]) => [
  lang, new Set(words.filter((w) => !BY_WORDS.some(([other, ws]) => other !== lang && ws.includes(w)))),
]);

const ENGLISH_WORDS = new Set(['the', 'and', 'is', 'are', 'be', 'for', 'with', 'of', 'to', 'not', 'or', 'will', 'must', 'any']);

/** The policy's language: its script, else the one whose own common words outnumber English's and every other's. */
export function languageOf(text: string): Language | undefined {
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  for (const [lang, script] of BY_SCRIPT) if ((text.match(script)?.length ?? 0) >= Math.max(10, letters * 0.3)) return lang;
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  const english = words.filter((w) => ENGLISH_WORDS.has(w)).length;
  const counts = OWN.map(([lang, set]) => ({ lang, n: words.filter((w) => set.has(w)).length })).sort((a, b) => b.n - a.n);
  const [best, next] = counts;
  return best.n >= 5 && best.n > 2 * english && best.n > 2 * (next?.n ?? 0) ? best.lang : undefined;
}

/** What a lone comma in a number is in this text: thousands where it shows "1,900.00" and never "1.900,00" (Mexico). */
function commaOf(s: string, language: Language): 'decimal' | 'thousands' {
  if (language === 'ja') return 'thousands';
  return /\d,\d{3}\.\d{2}(?!\d)/.test(s) && !/\d\.\d{3},\d{2}(?!\d)/.test(s) ? 'thousands' : 'decimal';
}

/** The sentence in the English forms the readers know. German is read lower-cased; the others keep the case of the
 * words they do not translate, so places ("in Antwerpen en Brussel") stay names. `whole`: the policy, whose numbers
 * tell what a comma is. */
export function toEnglish(language: Language | undefined, s: string, whole = s): string {
  if (language === undefined) return s;
  if (language === 'de') return fromGerman(s.toLowerCase());
  const script = BY_SCRIPT.find(([lang]) => lang === language);
  if (script) return script[2](s);
  const glossary = BY_WORDS.find(([lang]) => lang === language)![2];
  return translate(s, glossary, commaOf(whole, language));
}
