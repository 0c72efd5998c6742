/**
 * A German policy (Reisekostenrichtlinie, Bewirtungsrichtlinie) states the same rule forms as an English one: limits
 * per participant, day or night, a rate per kilometre, receipts required ("gegen Beleg", "ist ein Beleg hochzuladen"),
 * exceptions ("ausgenommen"), refusals ("wird nicht erstattet") and approvals ("bedarf der Genehmigung"). Each German
 * sentence is read through a glossary into those English forms, with German numbers (70,00 €, 10.000 km) written the
 * English way, so one reader applies them; the sentence cited stays the German one. Only these phrases are carried
 * over: anything else in the sentence stays German and is read by nothing.
 */
import { englishNumbers } from './glossary.js';

/** Whether the policy is written in German: its common function words outnumber a stray German term. */
export function isGerman(text: string): boolean {
  const words = text.toLowerCase().match(/[a-zäöüß]+/g) ?? [];
  const german = words.filter((w) => GERMAN.has(w)).length;
  const english = words.filter((w) => ENGLISH_WORDS.has(w)).length;
  return german >= 5 && german > 2 * english;
}

export const GERMAN_WORDS = ['der', 'die', 'das', 'und', 'ist', 'sind', 'werden', 'wird', 'nicht', 'für', 'mit', 'von', 'bei', 'je',
  'eine', 'einer', 'des', 'dem', 'den', 'zu', 'zur', 'zum', 'nach', 'auf', 'über', 'bis', 'oder', 'ohne', 'gegen', 'sowie'];
const GERMAN = new Set(GERMAN_WORDS);
const ENGLISH_WORDS = new Set(['the', 'and', 'is', 'are', 'be', 'for', 'with', 'of', 'to', 'not', 'or', 'per', 'will', 'must', 'any']);

/** A word boundary that knows umlauts and ß (JavaScript's \b does not). */
const L = 'a-zäöüß';
const word = (alternatives: string, suffix = '') => new RegExp(`(?<![${L}])(?:${alternatives})${suffix}(?![${L}])`, 'g');
const NUM = '(?=\\s?(?:[$€£]|eur\\b|euro\\b)?\\s?\\d)';

/** German phrase → the English form the rule readers know; longest and most specific first. */
const GLOSSARY: [RegExp, string][] = [
  // Refusals.
  [word('(?:ist|sind|wird|werden) von der erstattung ausgeschlossen|nicht erstattungsfähig|nicht erstattbar|nicht erstattet|nicht übernommen|nicht ersetzt|nicht abrechenbar|nicht abrechnungsfähig'), 'not reimbursable'],
  [word('keine erstattung'), 'no reimbursement'],
  [word('erstattungsfähig|erstattbar|erstattet|übernommen|ersetzt'), 'reimbursed'],
  // Receipts: "gegen Beleg", "ist ein Beleg hochzuladen", "Belegpflicht".
  [word('gegen (?:vorlage (?:eines|des|der|von) )?(?:original)?(?:belegs?|belegen|quittung|quittungen|rechnung|nachweis|nachweisen)'), 'with a receipt required'],
  [word('belegpflicht(?:ig)?'), 'receipt required'],
  [word('hochzuladen|beizufügen|beizulegen|einzureichen|vorzulegen|vorzuweisen|nachzuweisen'), 'must be attached'],
  [word('(?:original)?(?:belege|quittungen|nachweise|rechnungen)'), 'receipts'],
  [word('(?:original)?(?:beleg|quittung|nachweis|rechnung)'), 'receipt'],
  [word('erforderlich|notwendig|pflicht|verpflichtend|vorgeschrieben'), 'required'],
  [word('ausgenommen|außer|mit ausnahme (?:von|des|der)'), 'except'],
  // Approvals.
  [word('genehmigungspflichtig|zustimmungspflichtig'), 'require approval'],
  [word('bedarf|bedürfen|erfordert|erfordern|benötigt|benötigen'), 'requires'],
  [word('(?:vorherigen? |vorherige )?(?:genehmigung|freigabe|zustimmung)'), 'approval'],
  [word('(?:des |der |dem |die |den |durch (?:den |die ))?(?:vorgesetzten|vorgesetzte|vorgesetzter|führungskraft)'), 'manager'],
  [word('(?:der |die |durch die )?(?:geschäftsführung|geschäftsleitung)'), 'management'],
  // Limits and their units.
  [word(`(?:bis zu|bis|höchstens|maximal|max\\.)${NUM}`), 'up to'],
  [word(`(?:über|mehr als)${NUM}`), 'over'],
  [word(`ab${NUM}`), 'at least'],
  [word('(?:höchstbeträge|höchstsätze)n?'), 'limits'],
  [word('(?:höchstbetrag|höchstsatz|höchstgrenze|obergrenze|grenze)n?|begrenzt auf'), 'limit'],
  // "je Kalendertag höchstens:" before a table or list of amounts: at most.
  [word('höchstens'), 'at most'],
  [word('(?:je|pro) (?:gefahrenem|gefahrenen|gefahrener) (?:kilometer|km)|(?:je|pro) (?:kilometer|km)'), 'per km'],
  [word('(?:je|pro) (?:teilnehmer|teilnehmerin|teilnehmenden|person|personen|gast|kopf|mitarbeiter|mitarbeiterin)'), 'per person'],
  [word('(?:je|pro) (?:bewirteter|bewirtete) person'), 'per person'],
  [word('(?:je|pro) (?:kalendertag|reisetag|tag)|täglich'), 'per day'],
  [word('(?:je|pro) (?:nacht|übernachtung)'), 'per night'],
  [word('(?:je|pro) (?:empfänger|empfängerin|geschenk)'), 'per recipient'],
  [word('je|pro'), 'per'],
  [word('trinkgelder|trinkgeld'), 'tip'],
  [word('alkoholische getränke|alkohol'), 'alcohol'],
  [word('spirituosen'), 'spirits'],
  [word('einschließlich|inklusive|inkl\\.'), 'including'],
  [word('(?:alle )?beträge'), 'amounts'],
  [word('erste klasse|1\\. klasse'), 'first class'],
  [word('ohne'), 'without'],
  [word('werden|sind'), 'are'],
  [word('wird|ist'), 'is'],
  [word('und'), 'and'],
  [word('oder'), 'or'],
];

/** The (lower-cased) German sentence in the English forms the readers know, German numbers written the English way. */
export function fromGerman(s: string): string {
  // 10.000 km → 10000 km; 70,00 € → 70.00 €: German numbers written the English way (glossary.ts).
  let out = englishNumbers(s);
  for (const [re, en] of GLOSSARY) out = out.replace(re, en);
  // German names the approver after the approval ("der Genehmigung des Vorgesetzten"): "manager approval".
  return out.replace(/\b(?:(?:der|die|einer|eine) )?approval (manager|management)\b/g, '$1 approval').replace(/\b(?:der|die|einer|eine) approval\b/g, 'approval');
}
