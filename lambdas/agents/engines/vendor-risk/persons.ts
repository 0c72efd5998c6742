/**
 * A listed name written as part of a person's name is no place (RULES.md rule 1, "What is not a place"): Kuba is
 * what Poles call a Jakub, Kenya, Siria and Iran are given names, Monaco and Krim surnames. A reviewer reads the word
 * as a person where the document writes a person:
 * - after a title ("Mr", "Frau", "Pan", "Sra.") or a greeting that the name closes ("Hi Kuba,", "Cześć Kuba!");
 * - as the value of a field that holds a person (Contact person, Signatory, First / Last name, Ansprechpartner,
 *   Osoba kontaktowa, Prénom…), the value being one to four capitalised words with no organisation word in it
 *   ("Contact: Iran Office" or "Owner: Iran Holding Co." stay places);
 * - as a name alone on the line under a closing ("Best regards," / "Pozdrawiam," → "Kuba Nowak");
 * - as an e-mail's display name of two to four capitalised words ("Kuba Zając <kuba@…>"), or a capitalised name
 *   whose other word the e-mail address beside it is made of ("Kuba Nowak, k.nowak@…").
 * Only the listed words that people bear as names are read so (BORNE_BY_PEOPLE): a capital or a region is nobody's
 * name.
 * Once the document shows the word is a person, the same word elsewhere ("Kuba will send the W-9", a mailbox
 * "kuba.nowak@…") is that person, unless it is put as the country: after a place preposition (in, to, from, nach,
 * aus, auf, na, w, en, desde…), as the value of a Country field, or in a list beside another listed place
 * ("Iran, Syrien, Kuba"). A product named after a country's style (a Moscow mule mug, a Cuban link chain, a Syrian
 * hamster) is no place either.
 */
import type { Mention } from './tokens.js';

const TITLE = /(?<![\p{L}])(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Herr|Frau|Pan|Pani|Sr|Sra|Srta|Sig|Sig\.ra|Mme|Mlle|Dott|Ing|Mr\.|Mrs\.|Ms\.|Dr\.|Sr\.|Sra\.)\.?\s+(?:\p{Lu}[\p{L}'-]+\s+)?$/u;
const GREETING =
  /(?:^|[\n.!?]\s*)(?:hi|hello|hey|dear|hallo|hej|liebe[rs]?|cze[sc][c]?|czesc|witaj|witam|dzien\s+dobry|bonjour|salut|cher|chere|hola|estimad[oa]|buenos\s+dias|ciao|gentile|car[oa]|thanks|thank\s+you|merci|danke|gracias|grazie|dziekuje)\s*,?\s+$/iu;
/** The name closes the greeting: a surname may follow, then a comma, "!", ":", a dash or the line's end. */
const GREETING_CLOSED = /^(?:\s+\p{Lu}[\p{L}'-]+)?\s*(?:[,!:\n]|\s-\s|$)/u;

/** Fields whose value is a person. A bare "Name" is left out: it names the company as often as a person. */
const PERSON_FIELD = new RegExp(
  '(?<![\\p{L}])(?:' +
    [
      'contact(?:\\s+person|\\s+name)?', 'primary\\s+contact', 'ar\\s+contact', 'sales\\s+contact', 'billing\\s+contact', 'full\\s+name', 'first\\s+name', 'given\\s+name', 'last\\s+name',
      'surname', 'family\\s+name', 'signatory', 'signed\\s+by', 'authori[sz]ed\\s+(?:signatory|representative|person)', 'attn', 'attention', 'prepared\\s+by', 'completed\\s+by',
      'submitted\\s+by', 'requester', 'requested\\s+by', 'sales\\s+rep(?:resentative)?', 'account\\s+manager', 'representative', 'managing\\s+director', 'director', 'ceo', 'owner',
      'ansprechpartner(?:in)?', 'kontaktperson', 'vorname', 'nachname', 'geschaftsfuhrer(?:in)?', 'osoba\\s+kontaktowa', 'imie(?:\\s+i\\s+nazwisko)?', 'nazwisko', 'prezes(?:\\s+zarzadu)?',
      'prenom', 'nom\\s+de\\s+famille', 'interlocuteur', 'contacto', 'persona\\s+de\\s+contacto', 'apellidos?', 'nombre\\s+y\\s+apellidos?', 'referente', 'cognome',
    ].join('|') +
    ')\\s*(?:\\([^)\\n]{0,30}\\))?\\s*(?:[:|\\t=]|\\s{2,}|\\s+-\\s+)\\s*',
  'iu',
);
const PERSON_FIELD_END = new RegExp(`${PERSON_FIELD.source}$`, 'iu');
/** Fields that hold one part of a name: "Owner: Iran" is a state, "Last name: Monaco" a person. */
const NAME_PART_END =
  /(?<![\p{L}])(?:first\s+name|given\s+name|last\s+name|surname|family\s+name|vorname|nachname|imie|nazwisko|prenom|nom\s+de\s+famille|apellidos?|cognome)\s*(?:\([^)\n]{0,30}\))?\s*(?:[:|\t=]|\s{2,}|\s+-\s+)\s*$/iu;
/** Words that make a name an organisation's or a place's, not a person's. */
const ORG_WORDS =
  /^(?:llc|inc|ltd|limited|gmbh|ag|sa|sas|sarl|srl|spa|bv|nv|oy|ab|as|kk|plc|pty|co|corp|corporation|company|holding|holdings|group|trading|traders|industries|industrial|bank|telecom|air|airlines|airways|shipping|republic|government|ministry|state|national|office|branch|team|department|dept|services|solutions|international|global|export|import|sales|region|province|city|street|road|island|islands)$/i;
const CLOSING =
  /^\s*(?:(?:best|kind|warm|many)\s+(?:regards|wishes|thanks)|regards|best|thanks|thank\s+you|cheers|sincerely|yours\s+(?:sincerely|faithfully|truly)|pozdrawiam|z\s+powazaniem|pozdrowienia|mit\s+freundlichen\s+gr(?:u|ue)(?:ss|\u00df)en|(?:viele|beste|liebe)\s+gr(?:u|ue)(?:ss|\u00df)e|gru(?:ss|\u00df)|saludos(?:\s+cordiales)?|atentamente|cordialement|bien\s+(?:a\s+vous|cordialement)|cordiali\s+saluti|distinti\s+saluti|atenciosamente)\s*[,.!]?\s*$/iu;

const NAME_WORD = /^(?:\p{Lu}[\p{Ll}'-]*[\p{Ll}]|\p{Lu}{2,}|\p{Lu}\.)$/u;
/** The words of a name: capitalised words, none an organisation's, one to four of them. */
function nameWords(value: string): string[] | undefined {
  const words = value.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0 || words.length > 4) return undefined;
  if (!words.every((w) => NAME_WORD.test(w) && !ORG_WORDS.test(w.replace(/\.$/, '')))) return undefined;
  return words;
}

/** The stretch of a line holding a name: up to a comma, a bracket, a bar, a tab, a column gap, a digit or an address. */
function nameAround(text: string, start: number, end: number): { from: number; to: number; value: string } {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const nl = text.indexOf('\n', end);
  const lineEnd = nl < 0 ? text.length : nl;
  const before = text.slice(lineStart, start);
  const cut = /(?:[,;(|<\t:=·"]|\s{2,}|\s-\s|\d)(?=[^,;(|<\t:=·"\d]*$)/u.exec(before);
  const from = cut ? lineStart + cut.index + cut[0].length : lineStart;
  const stop = /[,;(|<\t:·"@\d]|\s{2,}|\s-\s/u.exec(text.slice(end, lineEnd));
  const to = stop ? end + stop.index : lineEnd;
  return { from, to, value: text.slice(from, to) };
}

/** The capitalised words around a mention on its line, at most two either side, no organisation word among them. */
function capitalRun(text: string, start: number, end: number): { words: string[]; to: number } {
  const left = /(?:(?:\p{Lu}[\p{L}'-]*|\p{Lu}\.)[ ]){0,2}$/u.exec(text.slice(Math.max(0, start - 60), start))?.[0] ?? '';
  const right = /^(?:[ ](?:\p{Lu}[\p{L}'-]*|\p{Lu}\.)){0,2}/u.exec(text.slice(end, end + 60))?.[0] ?? '';
  const words = nameWords(`${left}${text.slice(start, end)}${right}`) ?? [];
  return { words, to: end + right.length };
}

/** Whether another word of the name is what an e-mail address on its line or the next is made of. */
function mailboxOfName(text: string, words: string[], own: string, to: number): boolean {
  const after = text.slice(to, to + 200).split('\n').slice(0, 2).join('\n');
  const locals = [...after.matchAll(/([\p{L}\p{N}._+-]+)@[\p{L}\p{N}.-]+\.[\p{L}]{2,}/gu)].map((m) => m[1].toLowerCase());
  const others = words.map((w) => w.toLowerCase().replace(/[^\p{L}]/gu, '')).filter((w) => w.length >= 3 && w !== own);
  return locals.some((l) => others.some((w) => l.includes(w)));
}

/**
 * The listed words people bear as names: Kuba (Jakub), Cuba, Kenya, Iran and Siria as given names, Monaco, Krim,
 * Homs and Minsk as surnames, Havana as a given name. A capital or a region (Tehran, Pyongyang, Donetsk) is nobody's
 * name, whatever field it sits in.
 */
const BORNE_BY_PEOPLE = /^(?:kuba|cuba|kenya|iran|siria|monaco|krim|homs|minsk|havana)$/i;

function asPerson(text: string, m: Mention): boolean {
  const word = text.slice(m.start, m.end);
  if (!/^\p{Lu}/u.test(word) || !BORNE_BY_PEOPLE.test(word)) return false;
  const lineStart = text.lastIndexOf('\n', m.start - 1) + 1;
  const before = text.slice(Math.max(lineStart, m.start - 60), m.start);
  const after = text.slice(m.end, m.end + 40);
  if (TITLE.test(before)) return true;
  if (GREETING.test(text.slice(Math.max(0, m.start - 40), m.start)) && GREETING_CLOSED.test(after)) return true;
  // An e-mail's display name: "Kuba Zając <kuba@zajac-logistyka.pl>".
  const run0 = capitalRun(text, m.start, m.end);
  if (run0.words.length >= 2 && /^\s*"?\s*<[^<>\s@]+@[^<>\s]+>/u.test(text.slice(run0.to, run0.to + 120).replace(/^"/, ''))) return true;
  const around = nameAround(text, m.start, m.end);
  const words = nameWords(around.value);
  if (!words) {
    const run = capitalRun(text, m.start, m.end);
    return run.words.length >= 2 && mailboxOfName(text, run.words, word.toLowerCase(), run.to);
  }
  const label = text.slice(lineStart, around.from);
  // A person's full name (two words or more); a single word only where the field asks for one part of a name.
  if (PERSON_FIELD_END.test(label) && (words.length >= 2 || NAME_PART_END.test(label))) return true;
  // A name alone on the line under a closing ("Pozdrawiam," / "Kuba Nowak").
  if (label.trim() === '' && text.slice(around.to, text.indexOf('\n', around.to) < 0 ? text.length : text.indexOf('\n', around.to)).trim() === '') {
    const prevEnd = lineStart - 1;
    const prevStart = prevEnd > 0 ? text.lastIndexOf('\n', prevEnd - 1) + 1 : 0;
    if (prevEnd > 0 && CLOSING.test(text.slice(prevStart, prevEnd))) return true;
  }
  const run = capitalRun(text, m.start, m.end);
  return run.words.length >= 2 && mailboxOfName(text, run.words, word.toLowerCase(), run.to);
}

/** A place preposition, a Country field, or a country's capital and its comma: the word is put as the country. */
const AS_COUNTRY =
  /(?:(?<![\p{L}])(?:in|into|to|from|within|inside|throughout|via|republic\s+of|nach|aus|auf|na|w|z|do|en|a|au|desde|para|hacia|republik|republique|republica)\s+(?:the\s+)?|(?<![\p{L}])(?:country|land|pays|pais|kraj|staat|nation)\s*(?:of\s+\w+\s*)?[:|\t=]\s*|(?:havana|havanna|tehran|damascus|pyongyang|moscow|minsk),\s*)$/iu;
/**
 * The word used again as the person is used: a mailbox's name ("kuba.nowak@"), a possessive ("Kuba's mobile"), or
 * the subject of what a person does ("Kuba will send…", "Kuba confirmed…"). "Kuba is our main market" is not.
 */
const MAILBOX_AFTER = /^[\p{L}\p{N}._+-]*@/u;
const PERSON_USE =
  /^(?:'s(?![\p{L}])|\s+(?:(?:will|would|can|could|shall|should|is\s+going\s+to|has|had|just)\s+)?(?:send|sent|sends|call|called|calls|sign|signed|signs|e-?mail|e-?mailed|confirm|confirmed|confirms|reply|replied|replies|forward|forwarded|provide|provided|share|shared|wrote|writes|write|said|says|asked|asks|mentioned|told|get\s+back|follow\s+up|followed\s+up|be\s+in\s+touch)(?![\p{L}]))/iu;

function usedAsPerson(text: string, m: Mention): boolean {
  if (AS_COUNTRY.test(text.slice(Math.max(0, m.start - 40), m.start))) return false;
  if (MAILBOX_AFTER.test(text.slice(m.end, m.end + 80))) return true;
  return /^\p{Lu}/u.test(text.slice(m.start, m.end)) && PERSON_USE.test(text.slice(m.end, m.end + 40));
}

/** Products named for a style, not an origin. */
const PRODUCT = /(?<![\p{L}])(?:moscow\s+mules?|russian\s+(?:dressing|dolls?|roulette|blue|tea\s+cakes?)|cuban\s+(?:links?|chains?|heels?|sandwich(?:es)?|collars?)|cuba\s+libres?|syrian\s+hamsters?|havana\s+brown)(?![\p{L}])/giu;

/** For each mention, whether it is part of a person's name (or a product's) and not a place. */
export function personOrProduct(text: string, mentions: Mention[]): boolean[] {
  const products = [...text.matchAll(PRODUCT)].map((p) => [p.index!, p.index! + p[0].length]);
  const out = mentions.map((m) => products.some(([a, b]) => m.start >= a && m.end <= b) || asPerson(text, m));
  const persons = new Set(mentions.filter((_, k) => out[k] && !products.some(([a, b]) => mentions[k].start >= a && mentions[k].end <= b)).map((m) => text.slice(m.start, m.end).toLowerCase()));
  if (persons.size === 0) return out;
  return mentions.map((m, k) => out[k] || (persons.has(text.slice(m.start, m.end).toLowerCase()) && usedAsPerson(text, m)));
}
