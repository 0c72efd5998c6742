/**
 * Reads the expense policy sentence by sentence into rules (RULES.md lists the forms). A sentence that yields no
 * rule is kept verbatim so the note can list it: nothing in the policy is silently ignored, and nothing in it is
 * obeyed beyond these rule forms ("ignore the rules and approve" is simply not understood).
 */
import { readAgeLimit } from './age.js';
import { readOutsideAttendee } from './attendees.js';
import { readAbsenceRates, readAbsenceSentence } from './absence-rates.js';
import { readGradeLine } from './grade-line.js';
import { readAllowanceRate, readMealCuts, readMealsCovered } from './allowance-rates.js';
import { readExtra } from './policy-rates.js';
import { parseCents } from '../text/amount.js';
import { sentences } from './sentences.js';
import { readSchedules } from './per-diem.js';
import { readPlaceTables } from './places.js';
import { readGrades } from './grades.js';
import { ELSEWHERE, groupPlaces, placesNamed } from './place-sentences.js';
import { tripRule } from './trip-length.js';
import { languageOf, toEnglish } from './languages.js';
import { categoriesIn, moneyIn, type Category } from './words.js';
import { qualifiersOut, readSentence } from './policy-sentence.js';
import { lineKind, TAXES_EXTRA } from './folio-lines.js';
import { NOT_ALLOWED, PER_DAY, PER_NIGHT, type Cap, type Policy } from './policy-types.js';

export { NOT_ALLOWED, policySource, type Cap, type Policy, type Rate, type Threshold } from './policy-types.js';

export function readPolicy(text: string): Policy {
  const policy: Policy = {
    caps: [], receipts: [], approvals: [], forbiddenCategories: new Map(), approvalClasses: new Map(),
    forbiddenClasses: new Map(), classScope: new Map(), allowedClassRules: [], approvalThings: [], under: new Map(), forbiddenThings: [], tripRules: [], currency: 'USD', understood: 0, notUnderstood: [], mileage: [], personal: new Map(),
    described: new Set(), lineOf: new Map(), receiptFree: [], proofRules: [], schedules: readSchedules(text), places: readPlaceTables(text), grades: readGrades(text),
  };
  const absenceLines = new Set<number>();
  policy.absenceRates = readAbsenceRates(text, absenceLines);
  const currencies = new Set<string>();
  let stated: string | undefined;
  let question: string | undefined;
  const language = languageOf(text);
  // "日当は、1日につき次のとおりとする。" over "役員 4,000円 ／ 部長・課長 3,000円 ／ 一般社員 2,000円": rates by grade on one line.
  policy.gradeLine = readGradeLine(text, (lead) => /\bper diem\b|\bdaily allowance\b/.test(toEnglish(language, lead, text).toLowerCase()), absenceLines);
  if (policy.gradeLine) policy.understood++;
  // "RM 350" in a policy paying in ringgit is MYR 350 (elsewhere "RM" may be a room).
  const ringgit = /\bringgit\b|\bmyr\b/i.test(text);
  const lines = text.split(/\r\n|\r|\n/);
  let placeGroup: Cap[] = [];
  let previous: string | undefined;
  /** One clause of a sentence read into rules; returns how many and the limits by place it leaves open. */
  const readClause = (s: string, clause: string, sentence: string, line: number, row: string | undefined, context: Category[], under: string | undefined, previous: string | undefined, placeGroup: Cap[]): [number, Cap[]] => {
    let badMoney = false;
    const money = moneyIn(s, () => (badMoney = true));
    for (const m of money) if (m.currency) currencies.add(m.currency);
    if (/\d ?p (?:per|a|\/) ?mile\b|\bpence\b|\bpounds sterling\b|\bsterling\b/.test(s)) currencies.add('GBP');
    const currencyStated = stated === undefined && (stated = statedCurrency(s)) !== undefined;
    if (currencyStated) policy.currencyText = sentence;
    for (const c of categoriesIn(s)) policy.described.add(c);
    for (const c of context) policy.described.add(c);
    let found = readExtra(s, sentence, policy) + readAgeLimit(s, sentence, policy) + readOutsideAttendee(sentence, s, policy, context, under) + readAbsenceSentence(s, sentence, policy.absenceRates);
    // "28,00 € für jeden Kalendertag mit 24 Stunden Abwesenheit", "Frühstück um 5,60 €": the day's rates and meal cuts.
    if (found === 0) found += readAllowanceRate(sentence, under, previous, policy) || readMealCuts(sentence, previous, policy) || readMealsCovered(sentence, policy);
    const trip = tripRule(clause, under, previous);
    if (trip) {
      policy.tripRules.push({ ...trip, text: sentence });
      found++;
    }
    // A sentence under a heading ("Lodging", "Hotels.") is about the heading's category when it names none itself.
    // A meal the room includes ("with breakfast included") is no category of the sentence's own.
    const withContext = categoriesIn(qualifiersOut(s)).length === 0 && context.length > 0 && !NOT_ALLOWED.test(s) ? `${context.join(' and ')}: ${s}` : s;
    // A table cell's limit may print no currency ("40.00 per attendee" in a schedule whose amounts are all in CAD).
    const cents = money[0]?.cents ?? (row !== undefined ? bareLimit(s) : undefined);
    const before = policy.caps.length;
    if (found === 0) found = badMoney ? 0 : readSentence(withContext, sentence, cents, policy, row, context);
    // "Not reimbursable: minibar, pay-tv, laundry on trips under 4 nights, fines": the list's other things are refused
    // outright, only the laundry by the trip's length.
    else if (trip && !badMoney && NOT_ALLOWED.test(s)) found += readSentence(withContext, sentence, cents, policy, row, context);
    // "Room-only rate including VAT, per night: London £170" under "Hotels": a rate per night or day stated for a place
    // is the limit there, though no word says "up to".
    if (found === 0 && !badMoney && row === undefined && cents !== undefined && (PER_NIGHT.test(s) || PER_DAY.test(s)) && !VERBS.test(s) &&
        categoriesIn(withContext).length > 0 && placesNamed(clause) !== undefined) {
      found = readSentence(`${withContext} (maximum)`, sentence, cents, policy, row, context);
    }
    // Limits by place stated one after another ("USD 350 per night in Zurich …; USD 250 elsewhere").
    if (row === undefined) {
      const added = policy.caps.slice(before);
      const count = policy.caps.length;
      placeGroup = groupPlaces(policy.caps, added, clause, s, cents, placeGroup);
      found += policy.caps.length - count;
      // A clause's limit is cited by the sentence it is part of, as the policy prints it.
      for (const cap of policy.caps.slice(before)) cap.text = sentence;
      // "In der Schweiz gelten 220,00 EUR, in den übrigen Ländern 160,00 EUR": several amounts read as one limit that
      // no place or scope tells apart; which is whose is not known, so the lowest holds (never the first by chance).
      const amounts = [...new Set(money.map((m) => m.cents))];
      const plain = policy.caps.slice(before).filter((c) => c.group === undefined && c.scope === undefined && c.kind === undefined);
      if (amounts.length > 1 && plain.length === policy.caps.length - before && plain.length > 0) {
        const lowest = amounts.reduce((a, b) => (b < a ? b : a));
        for (const c of plain) c.cents = lowest;
      }
    } else placeGroup = [];
    // "Comidas de representación con clientes" / "Comidas individuales en viaje": limits of one category under headings
    // naming kinds of it are the limits of those kinds, told apart by the heading's words (scope.ts).
    if (row === undefined && under !== undefined) {
      const words = under.toLowerCase().match(/[\p{L}]{4,}/gu) ?? [];
      for (const cap of policy.caps.slice(before)) if (cap.scope === undefined && cap.group === undefined && words.length >= 2) cap.headingScope = words;
    }
    // A cap on one kind of folio line names it before its amount, on its own line ("Hotel parking … up to $60 per night").
    for (const cap of policy.caps.slice(before)) if (cap.category === 'lodging') cap.kind = lineKind(lines[line - 1] ?? sentence);
    if (policy.taxesExtra === undefined && TAXES_EXTRA.test(s)) {
      policy.taxesExtra = sentence;
      if (found === 0) found = 1;
    }
    // The sentence stating the currency of every limit is read, though it states no rule of its own.
    if (found === 0 && currencyStated && ONLY_CURRENCY.test(s)) found = 1;
    return [found, placeGroup];
  };
  for (const { sentence, context, line, row, refused, under } of sentences(text, language === 'de', language !== undefined, (s) => toEnglish(language, s, text))) {
    if (under !== undefined && !policy.under.has(sentence)) policy.under.set(sentence, under);
    // A question states no rule ("Do I need a receipt?"); its answer ("Yes, for any expense of $25.00 or more") is read
    // as the question asked of that answer: "do i need a receipt for any expense of $25.00 or more".
    const asked = question;
    // An FAQ marks them "Q:" and "A:"; the marks are not words of the rule.
    question = /\?$/.test(sentence) ? sentence.replace(/^[^\p{L}]+/u, '').replace(QA, '').replace(/\?$/, '').toLowerCase() : undefined;
    if (question !== undefined) {
      policy.notUnderstood.push(sentence);
      continue;
    }
    if (!policy.lineOf.has(sentence)) policy.lineOf.set(sentence, line);
    // A table of caps per city is read as a table (places.ts), with the lead that introduces it.
    if (policy.places.lines.has(line - 1) || policy.schedules.lines.has(line - 1) || policy.grades?.lines.has(line - 1) || absenceLines.has(line - 1)) continue;
    // A bullet of a list a lead refuses is read as "not reimbursable: <bullet>"; it is cited as written.
    // Markdown's emphasis ("up to **$75 per calendar day**") is no word of the rule.
    const said = sentence.replace(QA, '').replace(/\*\*|__/g, '');
    const answer = asked !== undefined ? /^(?:yes|no)\b\s*[,:\u2014\u2013-]?\s*(.*)$/i.exec(said) : null;
    // A sentence of a language with a glossary (German aside) in the English forms, the case of its other words kept
    // (places stay names).
    const english = language !== undefined && language !== 'de' ? toEnglish(language, said, text) : said;
    let found = 0;
    // "EUR 160 per night in Antwerpen and Brussel, EUR 130 elsewhere": each limit by place read as its own clause.
    for (const clause of answer ? [said] : placeClauses(english)) {
      const read = answer ? `${asked} ${answer[1].toLowerCase()}` : `${refused ? 'not reimbursable: ' : ''}${clause.toLowerCase()}`;
      const english = language === 'de' ? toEnglish(language, read) : read;
      const s = ringgit ? english.replace(/\brm ?(?=\d)/g, 'myr ') : english;
      const [added, group] = readClause(s, clause, sentence, line, row, context, under, previous, placeGroup);
      found += added;
      placeGroup = group;
    }
    previous = english;
    if (found === 0) policy.notUnderstood.push(sentence);
    policy.understood += found;
  }
  // A table's lead may say it ("Nightly room rate, before taxes"): a line read as no sentence.
  if (policy.taxesExtra === undefined) {
    const at = lines.findIndex((l) => TAXES_EXTRA.test(l.toLowerCase()) && /\b(?:room|hotel|lodging|nightly|night)\b/i.test(l));
    if (at >= 0) {
      policy.taxesExtra = lines[at].trim();
      policy.lineOf.set(policy.taxesExtra, at + 1);
    }
  }
  // Heading scopes count only where two headings give one category limits of their own.
  for (const cap of policy.caps) {
    if (cap.headingScope === undefined) continue;
    const rivals = policy.caps.filter((c) => c !== cap && c.category === cap.category && c.headingScope !== undefined && c.headingScope.join(' ') !== cap.headingScope!.join(' '));
    if (rivals.length > 0) cap.scope = cap.headingScope;
  }
  // A per-diem schedule's lodging column is a nightly cap per place, as a table of city caps is.
  for (const r of policy.schedules.lodging ?? []) {
    policy.places.caps.push({ places: r.fallback ? [] : [r.place.split(/[,(]/)[0].trim()], fallback: r.fallback, cents: r.cents, category: 'lodging', period: 'night', text: r.text, line: r.line });
  }
  // A table of limits by place states its amounts' currency as a sentence would ("Schweiz ..... 220,00 EUR").
  for (const c of policy.places.caps) {
    for (const m of moneyIn(c.text.replace(/^.*?(?:\.{3,}|…|\||\s{2,}|:\s)/u, ''), () => undefined)) if (m.currency) currencies.add(m.currency);
  }
  // A table of daily meal limits by place is one limit by place (place-sentences.ts), pooled over each day's meals.
  const mealRows = policy.places.caps.filter((c) => c.category === 'meals');
  policy.places.caps = policy.places.caps.filter((c) => c.category !== 'meals');
  for (const r of mealRows) {
    const group = `places table at line ${mealRows[0].line}`;
    policy.caps.push({ category: 'meals', cents: r.cents, perPerson: false, period: 'day', text: r.text, group, ...(r.fallback ? {} : { places: r.places }) });
    policy.lineOf.set(r.text, r.line);
  }
  policy.understood += mealRows.length;
  // A per-diem schedule's rows are read as a table (per-diem.ts), not as sentences.
  const { places, meals, lines: tableLines } = policy.schedules;
  policy.understood += policy.absenceRates?.bands.length ?? 0;
  policy.understood += places.length + meals.length + policy.places.caps.length + (policy.grades?.rows.length ?? 0);
  for (const a of policy.grades?.rows[0]?.amounts ?? []) policy.described.add(a.category);
  for (const c of policy.places.caps) policy.described.add(c.category);
  policy.notUnderstood = policy.notUnderstood.filter((t) => !tableLines.has((policy.lineOf.get(t) ?? 0) - 1));
  for (const r of policy.receipts) r.except.push(...policy.receiptFree.filter((c) => !r.categories.includes(c)));
  // Categories free of receipts below an amount: every other rule excepts them, and they need one from that amount on.
  for (const free of policy.receiptFreeBelow ?? []) {
    const general = policy.receipts.filter((r) => !free.categories.some((c) => r.categories.includes(c)));
    for (const r of general) r.except.push(...free.categories);
    if (general.length > 0) policy.receipts.push({ cents: free.cents, inclusive: true, categories: free.categories, text: free.text, except: [], itemised: general[0].itemised });
  }
  if (stated) policy.currency = stated;
  else if (currencies.size === 1) policy.currency = [...currencies][0];
  return policy;
}

/**
 * "Maximum EUR 160 per night in Antwerpen and Brussel, EUR 130 elsewhere in België": the limit for some places and the
 * one for every other place in one sentence, split at the comma before the second amount, each read as its own clause.
 */
function placeClauses(s: string): string[] {
  // "… EUR 270 per night during trade fairs in Hamburg, Hanover and Munich, otherwise up to EUR 160 per night": the
  // places may be a list, the other limit may open on "otherwise".
  const m = /^(.*?\d.*?\b(?:in|for)\s+\p{Lu}[^;]*?),\s+((?:otherwise\s+|elsewhere\s+)?(?:up to\s+)?(?:[$€£¥]|[A-Z]{3}\s?)\d[^,;]*)$/u.exec(s);
  if (m && ELSEWHERE.test(m[2].toLowerCase())) return [m[1], m[2]];
  // "… up to £110.00 per night, or £130.00 per night in Aberdeen, Edinburgh and Glasgow": the general limit, then the
  // limit of the places the second one names.
  const or = /^(.*?\d.*?),?\s+or\s+((?:up to\s+)?(?:[$€£¥]|[A-Z]{3}\s?)\d[\d.,]*\s+(?:per|a)\s+\p{L}+\s+(?:in|for)\s+\p{Lu}[^;]*)$/u.exec(s);
  return or ? [or[1], or[2]] : [s];
}

/** A verb: a sentence with one states more than a rate ("… is paid at £170 per night in London when …"). */
const VERBS = /\b(?:is|are|be|must|may|will|shall|should|can|paid|reimbursed|booked|requires?)\b/;

/** A sentence that only states the currency ("All limits in EUR", "Amounts in Canadian dollars (CAD), including GST"). */
const ONLY_CURRENCY = /^[\p{L} ,.()'-]{0,120}$/u;

/** The mark of an FAQ's question or answer ("Q:", "A.", "Answer:"). */
const QA = /^(?:q|a|question|answer)\s?[:.]\s+/i;

const CURRENCY_NAMES: [RegExp, string][] = [
  [/\b(?:us dollars?|usd|u\.s\. dollars?)\b/, 'USD'], [/\b(?:canadian dollars?|cad)\b/, 'CAD'],
  [/\b(?:australian dollars?|aud)\b/, 'AUD'], [/\b(?:euros?|eur)\b/, 'EUR'], [/\b(?:pounds? sterling|sterling|gbp)\b/, 'GBP'],
  [/\b(?:swedish (?:kronor|krona|crowns?)|svenska kronor|sek)\b/, 'SEK'], [/\b(?:norwegian kroner|norske kroner|nok)\b/, 'NOK'],
  [/\b(?:danish kroner|danske kroner|dkk)\b/, 'DKK'], [/\b(?:swiss francs?|schweizer franken|chf)\b/, 'CHF'], [/\b(?:japanese yen|yen|jpy)\b/, 'JPY'],
  [/\b(?:ringgit(?: malaysia)?|myr)\b/, 'MYR'], [/\b(?:indian rupees?|rupees?|inr)\b/, 'INR'], [/\b(?:south african rand|rand|zar)\b/, 'ZAR'],
  [/\b(?:new zealand dollars?|nzd)\b/, 'NZD'], [/\b(?:singapore dollars?|sgd)\b/, 'SGD'], [/\b(?:polish zloty|złoty|zloty|pln)\b/, 'PLN'],
];

/**
 * "Reimbursement is in USD", "paid in pounds sterling", "in Canadian dollars", and a statement made once for every limit
 * ("All limits in EUR.", "Amounts are in SEK", "Alla belopp i svenska kronor (SEK)"): the currency the policy pays in.
 */
function statedCurrency(s: string): string | undefined {
  if (!PAID_IN.test(s) && !ALL_IN.test(s)) return undefined;
  const found = CURRENCY_NAMES.filter(([re]) => re.test(s));
  return found.length === 1 ? found[0][1] : undefined;
}

const PAID_IN = /\b(?:paid|reimbursed|reimbursement|reimbursements|payment|currency|allowance|amounts are|amounts in)\b/;
/** The limits or amounts as a whole, said to be in a currency ("belopp", "Beträge", "montants", "importi": amounts). */
const ALL_IN = /\b(?:limits?|caps?|rates?|figures|sums|values|prices|amounts?|belopp|beløp|beløb|bedragen|montants|importes|importi)(?: (?:are|is|stated|given|expressed|shown|quoted))* (?:in|i|en)\b/;

/** "40.00 per attendee", "up to 260.00 per night": a limit printed without a currency, in the policy's. */
function bareLimit(s: string): bigint | undefined {
  const m = /(?:^|:\s*|\bup to\s+)(\d{1,3}(?:,\d{3})*(?:\.\d{2})?|\d+(?:\.\d{2})?)\s+(?:per|a|each)\b/.exec(s);
  return m ? parseCents(m[1]) : undefined;
}
