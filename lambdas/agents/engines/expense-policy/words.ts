/** Vocabulary shared by the policy and expense readers. Word-list regexes only: linear on any input. */
import { parseCents } from '../text/amount.js';
import { localWords } from './category-words.js';

export type Category =
  | 'meals' | 'lodging' | 'airfare' | 'ground' | 'car rental' | 'entertainment' | 'per diem' | 'fines' | 'parking' | 'rail'
  | 'mileage' | 'fuel' | 'baggage' | 'registration' | 'supplies' | 'gifts';
export type FareClass = 'economy' | 'premium economy' | 'business' | 'first';

/** A per diem is a meal allowance, never a meal: its words are taken out before the meal words are tried. */
const PER_DIEM = /\b(?:per diems?|m&ie|meal allowances?|daily allowances?|subsistence allowances?|(?:day|daily|overnight) subsistence|overnight (?:meal )?allowances?|verpflegungspauschalen?|verpflegungsmehraufwand)\b/g;
/** A fine is a fine whatever category it was filed under ("Parking" for a parking citation). */
export const FINE = /\b(?:fines?(?! dining| wines?)|penalt(?:y|ies)|citations?|(?:traffic|parking|speeding) tickets?|towing|impound|toll violations?|tolls violations?)\b/;

/** German words of a category, matched at a word's start with umlauts known ("Parkgebühren", "Übernachtung"), the
 * whole compound taken ("Bußgelder"), so nothing of it is left to qualify the category. */
const de = (alternatives: string) => `|(?<![a-zäöüß])(?:${alternatives})[a-zäöüß]*`;

/**
 * A category's words in the other languages policies and receipts are written in (Italian, French, Spanish,
 * Portuguese, Dutch, Swedish), whole words only; words that are also common English or address words (Ave, Vol.) are
 * left out.
 */
const intl = (alternatives: string) => `|(?<![\\p{L}])(?:${alternatives})(?![\\p{L}])`;

const CATEGORIES: [Category, RegExp][] = [
  ['fines', new RegExp(`${FINE.source}${de('bußgeld|verwarnungsgeld|strafzettel|knöllchen')}`)],
  ['car rental', new RegExp(`\\b(?:rental cars?|car rentals?|car hire)\\b${de('mietwagen|leihwagen|autovermietung')}${intl('autonoleggio|noleggio auto|location de voitures?|voiture de location|alquiler de coches?|coche de alquiler|aluguel de carros?|aluguer de viaturas?|huurauto|hyrbil')}`, 'u')],
  ['meals', new RegExp(`\\b(?:meals?|food|dining|dinners?|lunch(?:es)?|breakfasts?|restaurants?|catering)\\b${de('bewirtung|mahlzeit|mittagessen|abendessen|frühstück|gaststätte|speisen(?![a-zäöüß])')}${intl('pasti|pasto|pranzo|pranzi|cena|cene|colazione|ristorante|ristoranti|repas|déjeuner|dîner|petit-déjeuner|comida|comidas|almuerzo|desayuno|refeição|refeições|almoço|jantar|maaltijd|maaltijden|måltid|måltider|middag|frukost')}`, 'u')],
  ['lodging', new RegExp(`\\b(?:hotels?|lodging|accommodations?|motels?|inns?|resorts?|hostels?|guest ?houses?|b&b|guest folio|room charges?)(?![\\p{L}])${de('übernachtung|unterkunft|hotelkosten|hotelrechnung')}${intl('albergo|alberghi|alloggio|alloggi|pernottamento|pernottamenti|hôtel|hôtels|hébergement|hébergements|nuitée|nuitées|alojamiento|hospedaje|alojamento|hospedagem|overnachting|overnachtingen|hotell|boende|logi')}`, 'u')],
  ['airfare', new RegExp(`\\b(?:air ?fares?|flights?|air travel|airlines?|plane tickets?)\\b${de('flug(?:kosten|ticket|schein|reise)?(?![a-zäöüß])|flüge(?![a-zäöüß])')}${intl('volo|voli|aereo|billet d\'avion|billets d\'avion|vuelo|vuelos|avión|voo|voos|passagem aérea|vlucht|vluchten|flyg|flygresa')}`, 'u')],
  // The ride-hailing apps of other markets (Grab, Gojek, Bolt, DiDi, Careem, Cabify), "Grab & Go" food aside.
  ['ground', new RegExp(`\\b(?:taxis?|cabs?|rideshares?|ride-share|uber|lyft|ground transport(?:ation)?|grab(?:car|taxi)?(?! ?(?:&|and|n|'n'|-and-|-n-) ?go\\b)|gojek|bolt ride|didi|careem|cabify)\\b${de('taxi')}`)],
  ['entertainment', new RegExp(`\\b(?:entertainment|sporting events?|concerts?|theatre|theater|golf)\\b${intl('rappresentanza|frais de représentation|gastos de representación|despesas de representação|representatiekosten|representation')}`, 'u')],
  ['parking', new RegExp(`\\b(?:parking|garage)\\b${de('park(?:en|gebühr|haus|häuser|platz|ticket|kosten)')}${intl('parcheggio|parcheggi|stationnement|aparcamiento|estacionamiento|estacionamento|parkeren|parkering')}`, 'u')],
  ['rail', new RegExp(`\\b(?:rail|trains?|amtrak|railway|railroad)\\b${de('bahn(?:fahrt|ticket|karte|card|reise)?(?![a-zäöüß])|zug(?:fahrt|ticket)?(?![a-zäöüß])|fahrkarte')}${intl('treno|treni|trenitalia|ferroviario|sncf|tgv|ouigo|tren|trenes|renfe|comboio|comboios|trein|treinen|tåg|tågresa')}`, 'u')],
  ['mileage', new RegExp(`\\b(?:mileage|personal (?:car|vehicle)|own (?:car|vehicle))\\b${de('kilometer(?:geld|pauschale)|wegstreckenentschädigung|privat(?:en|er|es|em)? (?:pkw|kfz|fahrzeug)|privatfahrzeug|privat-pkw')}`)],
  ['fuel', new RegExp(`\\b(?:fuel|gas(?:oline)?|petrol|refuel)\\b${de('kraftstoff|benzin|tanken|tankbeleg')}${intl('carburante|benzina|gasolio|carburant|gazole|gasolina|combustible|combustível|brandstof|bränsle|drivmedel')}`, 'u')],
  ['baggage', /\b(?:bag(?:gage)? fees?|checked bags?|baggage)\b/],
  ['registration', new RegExp(`\\b(?:registrations?|conference pass|admission|trade fairs?)\\b${de('teilnahmegebühr|tagungsgebühr|konferenzgebühr|seminargebühr')}`)],
  ['supplies', new RegExp(`\\b(?:supplies|printing|office depot|staples)\\b${de('büromaterial')}`)],
  // A gift card is cash and a gift shop a folio charge, not a business gift.
  ['gifts', new RegExp(`\\b(?:(?:business |client |customer )?gifts?(?! cards?\\b| shops?\\b)|gift baskets?)\\b${de('geschenk|präsent')}`)],
];

/** The categories' words in the languages of category-words.ts, whole words, added to their regexes. */
const LOCAL: [Category, RegExp][] = CATEGORIES.map(([c, re]) => [c, localWords(c) === '' ? re : new RegExp(`(?:${re.source})${localWords(c)}`, 'u')]);
const PER_DIEM_LOCAL = new RegExp(localWords('per diem').slice(1), 'gu');

/** Every category a (lower-cased) text names, in list order. */
export function categoriesIn(text: string): Category[] {
  const per = text.replace(PER_DIEM, ' ').replace(PER_DIEM_LOCAL, ' ');
  // "Bed & Breakfast" is a room's rate, not a meal.
  const rest = per.replace(/\bbed (?:&|and) breakfast\b/g, 'b&b');
  const found = LOCAL.filter(([, re]) => re.test(rest)).map(([c]) => c);
  return per !== text ? ['per diem', ...found] : found;
}

/** The text with every category's words blanked out, to see what else qualifies it ("uber black" → " black"). */
export function withoutCategoryWords(text: string): string {
  let rest = text.replace(PER_DIEM, ' ').replace(PER_DIEM_LOCAL, ' ');
  for (const [, re] of LOCAL) rest = rest.replace(new RegExp(re.source, `${re.flags}g`), ' ');
  return rest;
}

/** Alcohol by its kind, the grape or style a menu names it by, or a beer sold under its brewery's name. */
export const ALCOHOL =
  /\b(?:alcohol|alcoholic|wine|wines|beers?|liquor|spirits|cocktails?|champagne|prosecco|cava|whiske?y|bourbon|scotch|vodka|gin|rum|tequila|mezcal|sake|soju|bar tab|ale|ipa|lager|pilsner|stout|porter|cider|margaritas?|martinis?|mojitos?|negronis?|sangria|mimosas?|spritz|pinot|merlot|cabernet|chardonnay|sauvignon|riesling|malbec|syrah|shiraz|zinfandel|rosé|rose wine|chianti|rioja|bordeaux|sancerre|brut|anchor steam|heineken|budweiser|bud light|corona|stella artois|guinness|modelo|sam adams|samuel adams|blue moon|coors|miller lite|peroni|asahi|sapporo|kirin)\b/;

/** "no alcohol", "without wine", "non-alcoholic beer": said to be absent, so not alcohol claimed. */
const NO_ALCOHOL = /\b(?:no|without|non|excluding|excl|zero|not including|free of)[\s-]+(?:alcoholic\s+)?(?:alcohol|alcoholic|wines?|beers?|liquor|spirits|cocktails?|drinks?)(?:\s+(?:beers?|wines?|drinks?|cocktails?|beverages?))?\b/g;

/** Whether a (lower-cased) text names alcohol other than to say there was none. */
export function mentionsAlcohol(text: string): boolean {
  return ALCOHOL.test(text.replace(NO_ALCOHOL, ' '));
}

/** The fare class a text names; "business" alone only when `bare` (a class field), never in free text. */
export function fareClassIn(text: string, bare = false): FareClass | undefined {
  if (/\bpremium economy\b/.test(text)) return 'premium economy';
  if (/\bfirst(?: |-)?class\b/.test(text) || RAIL_FIRST.test(text) || (bare && /^\s*first\s*$/.test(text))) return 'first';
  if (/\bbusiness(?: |-)?class\b/.test(text) || (bare && /^\s*business\s*$/.test(text))) return 'business';
  if (/\b(?:economy|coach)\b/.test(text) || RAIL_STANDARD.test(text)) return 'economy';
  // "Cabin: Business (Polaris)", "Main Cabin": the cabin named by the field an itinerary or report prints.
  const cabin = /\bcabin\s*[:=]?\s*(business|first|premium economy|main|economy|coach)\b|\bmain cabin\b/.exec(text);
  if (cabin) return cabin[1] === 'business' ? 'business' : cabin[1] === 'first' ? 'first' : cabin[1] === 'premium economy' ? 'premium economy' : 'economy';
  return undefined;
}

export function fareClassesIn(text: string): FareClass[] {
  const found: FareClass[] = [];
  if (/\bpremium economy\b/.test(text)) found.push('premium economy');
  if (/\bfirst(?: |-)?class\b/.test(text) || RAIL_FIRST.test(text)) found.push('first');
  if (/\bbusiness(?: |-)?class\b/.test(text)) found.push('business');
  if (/\b(?:economy|coach)\b/.test(text.replace(/\bpremium economy\b/g, '')) || RAIL_STANDARD.test(text)) found.push('economy');
  return found;
}

/**
 * A train's classes as the railways print them: first ("1st class", "1ère classe", "Première", "1. Klasse") is the
 * premium class a policy refuses or holds like an airline's; second or standard ("2nd class", "2nde classe",
 * "2. Klasse", "Standard Class") is the economy of rail.
 */
const RAIL_FIRST = /\b1st(?: |-)?class\b|(?<![\p{L}\d])1(?:ère|ere|re|e)? ?classe\b|\bpremière classe\b|\bbusiness première\b|(?<![\d.])1\. ?klasse\b|\berste klasse\b|\bprima classe\b|\bprimera clase\b|\bförsta klass\b|(?<![\d.])1\. ?klass\b/u;
const RAIL_STANDARD = /\b(?:2nd|second|standard)(?: |-)?class\b|(?<![\p{L}\d])2(?:nde|nd|de|e)? ?classe\b|\bseconde classe\b|(?<![\d.])2\. ?klasse\b|\bzweite klasse\b|\bseconda classe\b|\bsegunda clase\b|\bandra klass\b|(?<![\d.])2\. ?klass\b/u;

const SIGN = /[$€£¥]|\b(?:usd|eur|gbp|cad|aud|jpy)\b/i;

export interface Money {
  cents: bigint;
  currency?: string;
  /** Token position in the text, for clause logic. */
  at: number;
}

/** A date written as one token ("2026-02-01", "01/02/2026", "04.03.26"): never an amount. */
export const DATE_TOKEN = /^(?:\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.](?:\d{4}|\d{2}))$/;
/** ISO codes of the currencies a traveller's receipts come in, beyond the ones with a sign. */
export const OTHER_CODES = 'chf|pln|sek|nok|dkk|czk|huf|mxn|brl|inr|cny|hkd|sgd|nzd|zar|krw|thb|try|aed|ils|php|idr|myr|twd|vnd|ron|bgn|isk|kes|ngn|egp|sar|qar|clp|ars';
const OTHER = new RegExp(`(?:^|[^a-z])(${OTHER_CODES})(?![a-z])`, 'i');
const CODE = new RegExp(`^(?:\\$|€|£|¥|usd|eur|gbp|cad|aud|jpy|us\\$|${OTHER_CODES})$`, 'i');
const NUMBER = /^\d[\d,.]*$/;
const CODE_AFTER = new RegExp(`^(?:usd|eur|gbp|cad|aud|jpy|${OTHER_CODES}|dollars?|euros?|pounds?|\\$|€|£|¥)$`);

/** Whitespace tokens, with brackets and trailing punctuation trimmed; a token over 40 characters is blanked. */
export function moneyTokens(text: string): string[] {
  // A token longer than 40 characters is never an amount; skipping it keeps the trimming below linear.
  return text.split(/\s+/).map((t) => (t.length > 40 ? '' : t.replace(/^[(\[]+|[)\],;:!?]+$|\.$/g, '')));
}

/**
 * Amounts written with a currency sign or code in any of the usual orders ("$320", "$ 320", "USD 18.00",
 * "18.00 USD", "142,50 €", "75 dollars") in whitespace tokens; a code is read once, so "18.00 USD 2026-02-01" is one
 * amount and a date. A currency-marked token that does not read ("$1e309") is reported through `bad`.
 */
export function moneyIn(text: string, bad: (token: string) => void): Money[] {
  const tokens = moneyTokens(text);
  const found: Money[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const next = tokens[i + 1]?.toLowerCase() ?? '';
    const at = i;
    let candidate: string | undefined;
    if (DATE_TOKEN.test(t)) continue;
    // "¥2,?60", "$1?.50": a figure an OCR could not read (its digits masked) is no amount; attached.ts reads it as an
    // illegible receipt.
    if (/\d/.test(t) && /\?/.test(t) && /^[\d?][\d?,.]*[\d?]-?$/.test(t.replace(/^[$€£¥]|[$€£¥]$/g, ''))) continue;
    // "A$110.00", "C$40", "NZ$25": a dollar named by its country.
    const dollar = /^(a|au|c|ca|nz|us|s|hk)\$(?=\d)/i.exec(t);
    if (dollar) {
      const cents = parseCents(t.slice(dollar[0].length).replace(/\/.*$/, ''));
      if (cents !== undefined) found.push({ cents, currency: DOLLARS[dollar[1].toLowerCase()], at });
      continue;
    }
    // "¥14,720-": a Japanese receipt closes its figure with a dash; it is no minus.
    if (SIGN.test(t) && /\d/.test(t)) candidate = t.replace(/\/.*$/, '').replace(/^([¥￥][\d,]+)-$/, '$1');
    else if (CODE.test(t) && NUMBER.test(next) && !DATE_TOKEN.test(next)) candidate = `${t}${tokens[++i]}`;
    // "greenbelt 5 php 1,240.00": a code between a whole number and an amount opens the amount.
    else if (NUMBER.test(t) && CODE_AFTER.test(next) && !(/^\d+$/.test(t) && /^\d[\d.,]*[.,]\d{2}$/.test(tokens[i + 2] ?? ''))) {
      const code = next.startsWith('d') ? 'USD' : next.startsWith('euro') ? 'EUR' : next.startsWith('pound') ? 'GBP' : next;
      candidate = `${t}${code}`;
      i++;
    }
    if (candidate === undefined) continue;
    // A code parseCents does not know ("jpy 66,300", "89.00 pln"): the number is read alone, the code kept.
    const code = OTHER.exec(candidate)?.[1] ?? /^jpy|jpy$/i.exec(candidate)?.[0];
    const cents = parseCents((code ? candidate.replace(new RegExp(code, 'i'), '') : candidate).replace(/\.$/, ''));
    // "$0.725 per mile", "(1.2655)": a rate, not an amount; it is read by the rules that use rates.
    if (cents === undefined && /\d[.,]\d{3,}(?:\D*)$/.test(candidate) && !/[,.]\d{3}(?:\D*)$/.test(candidate)) continue;
    if (cents === undefined) {
      bad(candidate);
      continue;
    }
    found.push({ cents, currency: currencyOf(candidate), at });
  }
  return found;
}

const DOLLARS: Record<string, string> = { a: 'AUD', au: 'AUD', c: 'CAD', ca: 'CAD', nz: 'NZD', us: 'USD', s: 'SGD', hk: 'HKD' };

/** The first bare amount with exactly two decimals ("18.00", "1,240.50") that is not a date, for a line with no currency. */
export function bareAmountIn(text: string): bigint | undefined {
  for (const t of moneyTokens(text)) {
    if (/^(?:\d{1,3}(?:,\d{3})+|\d+)\.\d{2}$/.test(t)) return parseCents(t);
  }
  return undefined;
}

export function currencyOf(text: string): string | undefined {
  const other = OTHER.exec(text);
  if (other) return other[1].toUpperCase();
  if (text.includes('¥') || /jpy/i.test(text)) return 'JPY';
  if (text.includes('€') || /eur/i.test(text)) return 'EUR';
  if (text.includes('£') || /gbp/i.test(text)) return 'GBP';
  if (/cad/i.test(text)) return 'CAD';
  if (/aud/i.test(text)) return 'AUD';
  if (text.includes('$') || /usd/i.test(text)) return 'USD';
  return undefined;
}

const NUMBER_WORDS: Record<string, number> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
};

/** A small count written as digits or a word ("4", "four"); undefined otherwise. */
export function countOf(token: string | undefined): bigint | undefined {
  if (token === undefined) return undefined;
  if (/^\d{1,4}$/.test(token)) return BigInt(token);
  const n = NUMBER_WORDS[token];
  return n === undefined ? undefined : BigInt(n);
}
