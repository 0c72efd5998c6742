/**
 * The language a policy is written in, and its sentences read in the English forms the rule readers know. German
 * (german.ts), Dutch (dutch.ts) and Italian (italian.ts) policies are read through a glossary of their rule phrases;
 * the sentence cited stays the one the policy prints.
 */
import { fromGerman, isGerman } from './german.js';
import { DUTCH, DUTCH_WORDS } from './dutch.js';
import { ITALIAN, ITALIAN_WORDS } from './italian.js';
import { translate } from './glossary.js';

export type Language = 'de' | 'nl' | 'it';

const ENGLISH_WORDS = new Set(['the', 'and', 'is', 'are', 'be', 'for', 'with', 'of', 'to', 'not', 'or', 'will', 'must', 'any']);
const WORDS: [Language, Set<string>][] = [['nl', new Set(DUTCH_WORDS)], ['it', new Set(ITALIAN_WORDS)]];

/** The policy's language: the one whose common words outnumber the others' (a stray foreign term is no language). */
export function languageOf(text: string): Language | undefined {
  if (isGerman(text)) return 'de';
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  const english = words.filter((w) => ENGLISH_WORDS.has(w)).length;
  const counts = WORDS.map(([lang, set]) => ({ lang, n: words.filter((w) => set.has(w)).length })).sort((a, b) => b.n - a.n);
  const [best, next] = counts;
  return best.n >= 5 && best.n > 2 * english && best.n > 2 * (next?.n ?? 0) ? best.lang : undefined;
}

/** The sentence in the English forms the readers know. German is read lower-cased; the others keep the case of the
 * words they do not translate, so places ("in Antwerpen en Brussel") stay names. */
export function toEnglish(language: Language | undefined, s: string): string {
  if (language === 'de') return fromGerman(s.toLowerCase());
  if (language === 'nl') return translate(s, DUTCH);
  if (language === 'it') return translate(s, ITALIAN);
  return s;
}
