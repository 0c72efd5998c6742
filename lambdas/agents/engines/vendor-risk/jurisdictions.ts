/**
 * The fixed jurisdiction lists of vendor-risk/rules@1 (sources and dates in RULES.md) and their detector.
 * A name counts unless (a) the profile denies it (negation.ts: "no operations in Iran, Syria or Cuba",
 * "Operations in sanctioned countries (Iran, Syria): No"), or (b) it is a US town: followed by a state ("Lebanon,
 * PA", "Moscow, Idaho"), in a City field beside a US State field, or the same word as such a town elsewhere in the
 * document ("Bank of Cuba (Cuba, MO)") and not put as the country ("in Cuba", "Havana, Cuba"), or (c) it is part of
 * a person's name or a product's (persons.ts: "Kuba Nowak", "Dear Ms Monaco", "Moscow mule mugs").
 */
import { deniedMentions, type Mention } from './negation.js';
import { codeMentions } from './codes.js';
import { personOrProduct } from './persons.js';
import { B, E, matches } from './text.js';

export type JurisdictionLevel = 'sanctioned' | 'high-risk';

interface Jurisdiction {
  name: string;
  level: JurisdictionLevel;
  basis: string;
  /** Regex sources, matched case-insensitively between letter/digit guards. */
  aliases: string[];
  /** Country-code top-level domain seen in a web or email address. */
  tld?: string;
  /** Names in Japanese, Chinese or Korean, written without spaces: matched without the letter guards (katakana keep theirs). */
  cjk?: string[];
}

const OFAC = 'comprehensive sanctions';
const RUSSIA_BASIS = 'sanctions exposure';
const FATF_BLACK = 'FATF call for action';
const FATF_GREY = 'FATF increased monitoring, Feb 2026';

const grey = (name: string, ...aliases: string[]): Jurisdiction => ({ name, level: 'high-risk', basis: FATF_GREY, aliases: aliases.length ? aliases : [name] });

export const JURISDICTIONS: Jurisdiction[] = [
  // Each country by its names in the languages of the forms (English, German, French, Spanish, Italian, Portuguese,
  // Dutch), its capital, and the cities and regions a site address names without the country (a plant in "Rason,
  // North Hamgyong" is in North Korea as surely as one in "Pyongyang"). Names that are also common words or names
  // elsewhere (Shiraz the grape, Nampo in Busan, Hama, Mariel) are left out.
  {
    name: 'Iran',
    level: 'sanctioned',
    basis: OFAC,
    aliases: ['iran(?:ian)?', 'islamic\\s+republic\\s+of\\s+iran', 'iranisch(?:e[nmrs]?)?', 'iranien(?:ne)?s?', 'tehran', 'teheran', 'isfahan', 'esfahan', 'mashhad', 'tabriz', 'bandar[\\s-]abbas', 'ahvaz', 'karaj',
      // Polish, Portuguese and Russian forms; the ports, free zones and provinces a shareholder's address names alone.
      'irao', 'iran(?:u|ie|ski\\p{L}*)', 'иран\\p{L}*', 'hormozgan', 'khuzestan', 'bushehr', 'qeshm', 'kish\\s+(?:island|free\\s+(?:trade\\s+)?zone)', 'qom', 'yazd', 'rasht', 'zahedan',
      'khorramshahr', 'bandar[\\s-]anzali', 'bandar[\\s-]imam(?:\\s+khomeini)?', 'chabahar', 'urmia', 'mazandaran', 'kermanshah', 'sistan(?:\\s+(?:and|va)\\s+baluchestan)?'],
    tld: 'ir',
    cjk: ['(?<![ァ-ヺー])イラン(?![ァ-ヺー])', '伊朗', 'テヘラン', '德黑兰', '德黑蘭'],
  },
  {
    name: 'North Korea',
    level: 'sanctioned',
    basis: OFAC,
    aliases: [
      'north\\s+korean?', 'd\\.?p\\.?r\\.?k\\.?', "democratic\\s+people'?s\\s+republic\\s+of\\s+korea", "korea,?\\s+democratic\\s+people'?s\\s+republic", 'pyongyang',
      'nordkorea(?:nisch(?:e[nmrs]?)?)?', 'korea\\s+p[oł]{1,2}nocn\\p{L}*', 'krld', 'kuzey\\s+kore', 'кндр', 'северн\\p{L}*\\s+коре\\p{L}*', 'noord-?korea', 'coree\\s+du\\s+nord', 'corea\\s+del\\s+nor(?:te|d)', 'coreia\\s+do\\s+norte',
      'rason', 'rajin(?:-sonbong)?', 'sonbong', '(?:north\\s+|south\\s+)?hamgyong', '(?:north\\s+|south\\s+)?pyongan', '(?:north\\s+|south\\s+)?hwanghae', 'ryanggang', 'chagang',
      'kaesong', 'sinuiju', 'hamhung', 'chongjin', 'wonsan', 'nampho',
    ],
    tld: 'kp',
    cjk: ['北朝鮮', '北朝鲜', '朝鲜民主主义人民共和国', '朝鮮民主主義人民共和国', '北韓', '北韩', '북한(?!산)', 'ピョンヤン', '平壌', '平壤', '평양', '조선민주주의인민공화국'],
  },
  {
    name: 'Syria',
    level: 'sanctioned',
    basis: OFAC,
    aliases: ['syrian?', 'syrian\\s+arab\\s+republic', 'syrien', 'syrie', 'siria', 'syrisch(?:e[nmrs]?)?', 'syrienne?s?', 'syrii', 'suriye', 'сири\\p{L}*', 'damascus', 'damaskus', 'aleppo', 'halab', 'hasakah', 'qamishli', 'daraa', 'homs', 'lat(?:t)?akia', 'tartus', 'tartous', 'idlib', 'raqqa', 'deir\\s+ez[- ]?zor'],
    tld: 'sy',
    cjk: ['(?<![ァ-ヺー])シリア(?![ァ-ヺー])', '叙利亚', '敘利亞', 'ダマスカス', '大马士革', '大馬士革'],
  },
  { name: 'Cuba', level: 'sanctioned', basis: OFAC, cjk: ['(?<![ァ-ヺー])キューバ(?![ァ-ヺー])', '古巴', 'ハバナ', '哈瓦那'], aliases: ['cuban?', 'kuba', 'kubie', 'santiago\\s+de\\s+cuba', 'kubanisch(?:e[nmrs]?)?', 'havana', 'habana', 'camaguey', 'holguin', 'cienfuegos', 'pinar\\s+del\\s+rio'], tld: 'cu' },
  { name: 'Crimea', level: 'sanctioned', basis: OFAC, cjk: ['(?<![ァ-ヺー])クリミア(?![ァ-ヺー])', '克里米亚', '克里米亞', '크림\\s*반도'], aliases: ['crimean?', 'krim', 'krym(?:ie|u)?', 'kırım', 'крым\\p{L}*', 'crimee', 'sevastopol', 'simferopol', 'yalta', 'kerch', 'feodosi?ya', 'yevpatori?ya', 'eupatoria'] },
  { name: 'Donetsk region', level: 'sanctioned', basis: OFAC, aliases: ['donetsk', 'mariupol', 'horlivka', 'gorlovka', 'makiivka', 'makeyevka'] },
  { name: 'Luhansk region', level: 'sanctioned', basis: OFAC, aliases: ['luhansk', 'lugansk', 'alchevsk', 'sievierodonetsk', 'severodonetsk', 'lysychansk'] },
  { name: 'Russia', level: 'high-risk', basis: RUSSIA_BASIS, cjk: ['(?<![ァ-ヺー])ロシア(?![ァ-ヺー])', '俄罗斯', '俄羅斯', '러시아', 'モスクワ', '莫斯科', '모스크바'], aliases: ['russian?', 'russian\\s+federation', 'russland', 'russie', 'rusia', 'russisch(?:e[nmrs]?)?', 'moscow', 'moskau', 'moscou', 'moscu', 'rosj[aiey]', 'rusya', 'росси\\p{L}*', 'moskwa', 'sankt[\\s-]peterburg'], tld: 'ru' },
  { name: 'Belarus', level: 'high-risk', basis: RUSSIA_BASIS, aliases: ['belarus(?:ian)?', 'byelorussia', 'wei(?:ss|\u00df)russland', 'bielorussie', 'bielorrusia', 'bielorussia', 'minsk', 'bia[łl]orus\\p{L}*', 'беларус\\p{L}*', 'белорусс\\p{L}*'], tld: 'by' },
  { name: 'Myanmar', level: 'high-risk', basis: FATF_BLACK, aliases: ['myanmar', 'burma'] },
  grey('Algeria'),
  grey('Angola'),
  grey('Bolivia'),
  grey('Bulgaria'),
  grey('Cameroon'),
  grey("Cote d'Ivoire", "cote\\s+d'?\\s?ivoire", 'ivory\\s+coast'),
  grey('Democratic Republic of the Congo', 'democratic\\s+republic\\s+of\\s+(?:the\\s+)?congo', 'd\\.?r\\.?\\s+congo', 'drc', 'congo-kinshasa'),
  grey('Haiti'),
  grey('Kenya'),
  grey('Kuwait'),
  grey('Lao PDR', 'laos', 'lao\\s+p\\.?d\\.?r\\.?', "lao\\s+people'?s\\s+democratic\\s+republic"),
  grey('Lebanon'),
  grey('Monaco'),
  grey('Namibia'),
  grey('Nepal'),
  grey('Papua New Guinea', 'papua\\s+new\\s+guinea'),
  grey('South Sudan', 'south\\s+sudan'),
  grey('Venezuela'),
  // "Vietnam-era veteran" is a US certification, not an address.
  grey('Vietnam', 'viet\\s?nam(?![- ]?(?:era|veterans?|war))'),
  grey('British Virgin Islands', 'british\\s+virgin\\s+islands', 'bvi', 'virgin\\s+islands\\s*\\(\\s*u\\.?k\\.?\\s*\\)', 'virgin\\s+islands,\\s+british'),
  grey('Yemen'),
];

export interface JurisdictionHit {
  name: string;
  level: JurisdictionLevel;
  basis: string;
  /** Where the first mention that counts starts, in the text searched. */
  at: number;
  end: number;
}

/**
 * A person's nationality, citizenship or birthplace is not a place the vendor is in: sanctions programmes reach
 * persons and companies located, resident or organised in the country, not its citizens living elsewhere (a U.S.
 * resident is a U.S. person whatever passport they hold). Read: the value of a Nationality / Citizenship / Country
 * of birth field (on its line, or on the line under a label standing alone, as Companies House prints it), and a
 * demonym naming a person ("Iranian national", "Iranian-born", "Iranian-American", "Iranian citizen").
 */
const PERSONAL_LABEL =
  /(?:nationality|nationalities|citizenship|citizen\s+of|country\s+of\s+(?:birth|citizenship|nationality)|place\s+of\s+birth|birthplace|born\s+in|passport(?:\s+(?:country|issued\s+(?:in|by)))?|national\s+origin|ethnicity)\s*(?:\([^)\n]{0,40}\)\s*)?[:=|\t-]?\s*$/iu;
const PERSONAL_AFTER = /^(?:\s+|-)(?:nationals?|citizens?|citizenship|passport(?:\s+holders?)?|born|american|descent)(?![\p{L}])/iu;

function personal(text: string, start: number, end: number): boolean {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const before = text.slice(Math.max(lineStart, start - 80), start);
  if (PERSONAL_LABEL.test(before)) return true;
  if (PERSONAL_AFTER.test(text.slice(end, end + 30))) return true;
  if (before.trim() === '') {
    // A label alone on the line above: "Nationality" / "Iranian".
    const prevEnd = lineStart - 1;
    const prevStart = prevEnd > 0 ? text.lastIndexOf('\n', prevEnd - 1) + 1 : 0;
    if (prevEnd > 0 && /^\s*(?:nationality|citizenship|country\s+of\s+(?:birth|citizenship))\s*:?\s*$/i.test(text.slice(prevStart, prevEnd))) return true;
  }
  return false;
}

/** Residence stated somewhere: then a nationality beside it is only a nationality. */
const RESIDENCE = /(?<![\p{L}])(?:resid(?:ence|ent|ing|es)|domicile[ds]?|lives\s+in|living\s+in)(?![\p{L}])/iu;

/**
 * A listed nationality with no residence stated anywhere: where the person lives cannot be told from the document,
 * so the engine holds for it (a question to ask every owner, not a finding against the nationality).
 */
export interface NationalityOnly {
  name: string;
  at: number;
  end: number;
}

const ALIAS_INDEX: Jurisdiction[] = [];
// One guard around all the names (not one per name): the same matches, checked once a position.
const ANY_ALIAS = new RegExp(
  `${B}(?:${JURISDICTIONS.flatMap((j) => j.aliases.map((a) => { ALIAS_INDEX.push(j); return `(${a})${E}`; })).join('|')})` +
    `|${JURISDICTIONS.flatMap((j) => (j.cjk ?? []).map((a) => { ALIAS_INDEX.push(j); return `(${a.normalize('NFD')})`; })).join('|')}`,
  'giu',
);

const TLD = new RegExp(
  `(?:@|//|www\\.)[\\p{L}\\p{N}.-]*\\.(${JURISDICTIONS.filter((j) => j.tld).map((j) => j.tld).join('|')})(?![\\p{L}\\p{N}-])`,
  'giu',
);

const US_STATES =
  'alabama|alaska|arizona|arkansas|california|colorado|connecticut|delaware|florida|georgia|hawaii|idaho|illinois|indiana|iowa|kansas|kentucky|louisiana|maine|maryland|massachusetts|michigan|minnesota|mississippi|missouri|montana|nebraska|nevada|new\\s+hampshire|new\\s+jersey|new\\s+mexico|new\\s+york|north\\s+carolina|north\\s+dakota|ohio|oklahoma|oregon|pennsylvania|rhode\\s+island|south\\s+carolina|south\\s+dakota|tennessee|texas|utah|vermont|virginia|washington|west\\s+virginia|wisconsin|wyoming';
const US_STATE_CODE = /^\s*,?\s*(?:A[KLRZ]|C[AOT]|D[CE]|FL|GA|HI|I[ADLN]|K[SY]|LA|M[ADEINOST]|N[CDEHJMVY]|O[HKR]|PA|RI|S[CD]|T[NX]|UT|V[AT]|W[AIVY])(?![\p{L}])/u;
const US_STATE_NAME = new RegExp(`^\\s*,?\\s*(?:${US_STATES})${E}`, 'iu');

/** "City: Lebanon" with a US state in the State field after it ("State: PA", "State/Province: Pennsylvania"). */
const CITY_LABEL = /(?:city|town|city\s*\/\s*town|municipality)\s*\*?\s*[:|\t]\s*$/i;
const STATE_FIELD = /^[^\n]*\n?[^\n]*?(?<![\p{L}])state(?:\s*\/\s*province)?\s*\*?\s*[:|\t]([^\n]*)/iu;

function usCityField(text: string, start: number, after: string): boolean {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  if (!CITY_LABEL.test(text.slice(Math.max(lineStart, start - 40), start))) return false;
  const state = STATE_FIELD.exec(after)?.[1];
  return state !== undefined && (US_STATE_CODE.test(state) || US_STATE_NAME.test(state));
}

/**
 * A street named after a country ("150 Cuba Street, Wellington", "Moscow Road, London", "Calle Cuba 14", "Rue de
 * Syrie"): the street's name is no place; the address's city and country, written beside it, are read as usual.
 * Only street words: "Tehran Mall", "a Cuba court", "the Iran way" are not streets.
 */
const STREET_AFTER = /^\s+(?:street|st\.?|road|rd\.?|avenue|ave\.?|lane|ln\.?|boulevard|blvd\.?|drive|terrace|crescent|parade|highway|hwy\.?|stra(?:ss|\u00df)e|str\.|gasse|weg|straat|laan|gracht)(?![\p{L}])/iu;
const STREET_BEFORE = /(?<![\p{L}])(?:calle|avenida|av\.|rue|avenue|boulevard|via|viale|rua|travessa|ulica|ul\.)(?:\s+(?:de(?:\s+la)?|del|do|da|di|della))?\s+$/iu;

/** The words that put a town's name as the country: a place preposition, "Republic of", a city and its comma. */
const COUNTRY_BEFORE = /(?:(?<![\p{L}])(?:in|into|to|from|within|inside|throughout|republic\s+of)\s+(?:the\s+)?|(?:havana|tehran|damascus|aleppo|beirut|moscow|minsk|pyongyang|caracas),\s*)$/iu;

/** Each listed jurisdiction the profile places the vendor in, once, in list order; and nationalities with no residence. */
export function findJurisdictions(text: string): { hits: JurisdictionHit[]; nationalityOnly: NationalityOnly[] } {
  const mentions: (Mention & { j: Jurisdiction })[] = [];
  const nationalities: (Mention & { j: Jurisdiction })[] = [];
  const towns = new Set<string>();
  for (const m of matches(ANY_ALIAS, text)) {
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 80);
    if (STREET_AFTER.test(after) || STREET_BEFORE.test(text.slice(Math.max(0, m.index - 24), m.index))) continue;
    if (US_STATE_CODE.test(after) || US_STATE_NAME.test(after) || usCityField(text, m.index, after)) {
      towns.add(m[0].toLowerCase());
      continue;
    }
    const mention = { start: m.index, end: m.index + m[0].length, j: ALIAS_INDEX[m.slice(1).findIndex((g) => g !== undefined)] };
    (personal(text, mention.start, mention.end) ? nationalities : mentions).push(mention);
  }
  // Once the document places a US town ("Cuba, MO"), the same word elsewhere is that town ("Bank of Cuba", "hauling
  // out of Cuba") unless it is put as the country: "in Cuba", "Republic of Cuba", "Havana, Cuba".
  if (towns.size > 0) {
    const asCountry = (m: Mention) => COUNTRY_BEFORE.test(text.slice(Math.max(0, m.start - 40), m.start));
    const kept = mentions.filter((m) => !towns.has(text.slice(m.start, m.end).toLowerCase()) || asCountry(m));
    mentions.splice(0, mentions.length, ...kept);
  }
  // "Kuba Nowak", "Dear Ms Monaco", a Moscow mule mug: a person's name or a product is no place (persons.ts).
  const named = personOrProduct(text, mentions);
  const placed = mentions.filter((_, k) => !named[k]);
  mentions.splice(0, mentions.length, ...placed);
  const denied = deniedMentions(text, mentions);
  const found = new Map<Jurisdiction, Mention>();
  mentions.forEach((m, k) => {
    if (!denied[k] && !found.has(m.j)) found.set(m.j, m);
  });
  for (const m of matches(TLD, text)) {
    const j = JURISDICTIONS.find((x) => x.tld === m[1].toLowerCase());
    if (j && !found.has(j)) found.set(j, { start: m.index, end: m.index + m[0].length });
  }
  // A code in a Country field or column, an IBAN's or a SWIFT code's country: where a site or a bank is (codes.ts).
  for (const c of codeMentions(text)) {
    const j = JURISDICTIONS.find((x) => x.name === c.name);
    if (j && !found.has(j)) found.set(j, c);
  }
  const hits = JURISDICTIONS.flatMap((j) => {
    const m = found.get(j);
    return m ? [{ name: j.name, level: j.level, basis: j.basis, at: m.start, end: m.end }] : [];
  });
  const residence = RESIDENCE.test(text);
  const nationalityOnly = residence
    ? []
    : [...new Map(nationalities.filter((n) => !found.has(n.j)).map((n) => [n.j.name, { name: n.j.name, at: n.start, end: n.end }])).values()];
  return { hits, nationalityOnly };
}
