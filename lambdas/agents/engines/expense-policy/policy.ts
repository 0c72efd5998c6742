/**
 * Reads the expense policy sentence by sentence into rules (RULES.md lists the forms). A sentence that yields no
 * rule is kept verbatim so the note can list it: nothing in the policy is silently ignored, and nothing in it is
 * obeyed beyond these rule forms ("ignore the rules and approve" is simply not understood).
 */
import type { Src } from './evidence.js';
import { readAgeLimit } from './age.js';
import { readExtra } from './policy-rates.js';
import { parseCents } from '../text/amount.js';
import { sentences } from './sentences.js';
import { travelModes } from './fare-classes.js';
import { readSchedules, type Schedules } from './per-diem.js';
import { readPlaceTables, type PlaceTables } from './places.js';
import { groupPlaces } from './place-sentences.js';
import { tripRule, type TripRule } from './trip-length.js';
import { approvalThings, type ApprovalThing } from './named.js';
import { fromGerman, isGerman } from './german.js';
import { ALCOHOL, categoriesIn, fareClassesIn, moneyIn, withoutCategoryWords, type Category, type FareClass } from './words.js';

export interface Cap {
  category: Category;
  cents: bigint;
  perPerson: boolean;
  period?: 'day' | 'night';
  text: string;
  /** A table row's limit: the words of the row's first cell ("team meal internal staff only"), to pick the row an
   * expense is filed under among several of one category (breakfast, lunch, team meal, client meal). */
  scope?: string[];
  /** A limit for some places ("USD 140 per day in Zurich, London"): the places; with `group`, the limits of one rule
   * by place, the one without places being for everywhere else (place-sentences.ts). */
  places?: string[];
  group?: string;
}

export interface Threshold {
  cents: bigint;
  /** true for "$25 or more" / "at least $25"; false for "over $25". */
  inclusive: boolean;
  /** Empty: every category. */
  categories: Category[];
  text: string;
}

export interface Rate {
  /** Cents per unit with two extra decimals (0.725 → 7250), so rates below a cent stay exact. */
  milli: bigint;
  unit: 'mile' | 'km';
  /** The tier: units already claimed in the year up to which (from `after`) this rate applies. */
  after: bigint;
  upTo?: bigint;
  /** A rate for another vehicle than a car ("motorcycles"): a car's log is not paid at it. */
  vehicle?: string;
  text: string;
}

export interface Policy {
  /** "Tips are reimbursable up to 20% of the pre-tax food and beverage amount": basis points of the pre-tax amount. */
  tipCap?: { bp: bigint; text: string; categories: Category[] };
  perDiem?: { full?: bigint; partial?: bigint; partialBp?: bigint; text: string[] };
  /** Per-diem rates per place and each rate's meals, read from the policy's tables (per-diem.ts). */
  schedules: Schedules;
  /** Caps per place read from the policy's tables of cities (places.ts). */
  places: PlaceTables;
  /** "When a meal is furnished to you … deduct that meal's amount … from that day's M&IE": the sentence. */
  mealDeduction?: string;
  mileage: Rate[];
  /** The sentence saying the normal commute is not paid (deducted from a log's legs from home). */
  commute?: string;
  /** Words of personal charges the policy refuses ("minibar", "movie"): deducted from a receipt or folio. */
  personal: Map<string, string>;
  /** The sentence saying a claim that includes a personal charge is returned: those lines are then refused. */
  personalRefused?: string;
  /** "Expenses submitted more than 60 days after the expense date are not reimbursable": the days and the sentence. */
  ageLimit?: { days: number; text: string };
  /** Things paid only on trips of some length ("laundry on trips under 5 nights"): trip-length.ts. */
  tripRules: TripRule[];
  /** "Expenses not described in this policy are not reimbursable": the sentence. */
  scope?: string;
  /** Every category the policy's sentences name, for the scope rule. */
  described: Set<Category>;
  caps: Cap[];
  receipts: (Threshold & { except: Category[] })[];
  /** Categories a sentence says need no receipt ("No receipts are required for the allowance"). */
  receiptFree: Category[];
  approvals: (Threshold & { approver: string })[];
  /** Kinds of expense named as needing an approval ("Global Entry", "TSA PreCheck"): named.ts. */
  approvalThings: ApprovalThing[];
  forbiddenCategories: Map<Category, string>;
  /** Things refused by name in a not-reimbursable list ("seat upgrades", "Economy Plus", "Uber Black"), with the sentence. */
  forbiddenThings: { phrase: string; text: string }[];
  alcoholForbidden?: string;
  allowedClasses?: { classes: Set<FareClass>; text: string };
  /** Every "must be economy" rule, one per mode of travel ("Airfare must be economy", "Rail travel is in 2nd class
   * only"): `forCategory` keeps the one about the item's mode as `allowedClasses`. */
  allowedClassRules: { classes: Set<FareClass>; text: string }[];
  /** The approver each class needs ("VP approval") and the sentence saying so. */
  approvalClasses: Map<FareClass, { approver: string; text: string }>;
  forbiddenClasses: Map<FareClass, string>;
  /** The modes of travel each class rule is about (its sentence → airfare, rail); none: every mode. */
  classScope: Map<string, Category[]>;
  currency: string;
  /** The sentence that states the currency the policy pays in, when one does. */
  currencyText?: string;
  understood: number;
  notUnderstood: string[];
  /** Each sentence → the heading it sits under, for what a sentence with no subject of its own is about. */
  under: Map<string, string>;
  /** Each sentence read → its 1-based line in the policy, so a violation can cite the sentence it breaks. */
  lineOf: Map<string, number>;
}

export const NOT_ALLOWED =
  /\b(?:not|non)[- ](?:reimbursable|reimbursed|allowed|permitted|covered|eligible|claimable|refundable)\b|\bprohibited\b|\bcannot be (?:reimbursed|claimed|expensed)\b|\b(?:will|do|does) not (?:be )?reimburse|\b(?:don't|doesn't|won't|do not|does not) (?:pay for|cover|reimburse)|\bno reimbursement\b|\bnever (?:be )?reimbursed\b/;
const CAP =
  /\b(?:cap|caps|capped|up to|limit|limits|limited|maximum|max|exceed|no more than|at most|allowance|ceiling)\b/;
const PER_PERSON = /\bper (?:person|head|attendee|guest|diner|employee|participant|recipient)\b|\beach (?:person|attendee|guest)\b|\/person\b/;
const PER_NIGHT = /\bper night\b|\bnightly\b|\beach night\b|\ba night\b|\/night\b/;
const PER_DAY = /\bper (?:calendar |travel )?day\b|\bdaily\b|\beach day\b|\ba day\b|\/day\b|\bper diem\b/;
const INCLUSIVE = /\bat least\b|\bor more\b|\bor above\b|\bor over\b|\bor higher\b|\band above\b|\band over\b|\bequal to or\b/;
const MUST = /\b(?:required|require|requires|must|mandatory|needed|necessary|need|needs)\b/;

export function readPolicy(text: string): Policy {
  const policy: Policy = {
    caps: [], receipts: [], approvals: [], forbiddenCategories: new Map(), approvalClasses: new Map(),
    forbiddenClasses: new Map(), classScope: new Map(), allowedClassRules: [], approvalThings: [], under: new Map(), forbiddenThings: [], tripRules: [], currency: 'USD', understood: 0, notUnderstood: [], mileage: [], personal: new Map(),
    described: new Set(), lineOf: new Map(), receiptFree: [], schedules: readSchedules(text), places: readPlaceTables(text),
  };
  const currencies = new Set<string>();
  let stated: string | undefined;
  let question: string | undefined;
  const german = isGerman(text);
  let placeGroup: Cap[] = [];
  let previous: string | undefined;
  for (const { sentence, context, line, row, refused, under } of sentences(text, german)) {
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
    if (policy.places.lines.has(line - 1) || policy.schedules.lines.has(line - 1)) continue;
    // A bullet of a list a lead refuses is read as "not reimbursable: <bullet>"; it is cited as written.
    // Markdown's emphasis ("up to **$75 per calendar day**") is no word of the rule.
    const said = sentence.replace(QA, '').replace(/\*\*|__/g, '');
    const answer = asked !== undefined ? /^(?:yes|no)\b\s*[,:\u2014\u2013-]?\s*(.*)$/i.exec(said) : null;
    const read = answer ? `${asked} ${answer[1].toLowerCase()}` : `${refused ? 'not reimbursable: ' : ''}${said.toLowerCase()}`;
    const s = german ? fromGerman(read) : read;
    let badMoney = false;
    const money = moneyIn(s, () => (badMoney = true));
    for (const m of money) if (m.currency) currencies.add(m.currency);
    if (/\d ?p (?:per|a|\/) ?mile\b|\bpence\b|\bpounds sterling\b|\bsterling\b/.test(s)) currencies.add('GBP');
    if (stated === undefined && (stated = statedCurrency(s))) policy.currencyText = sentence;
    for (const c of categoriesIn(s)) policy.described.add(c);
    for (const c of context) policy.described.add(c);
    let found = readExtra(s, sentence, policy) + readAgeLimit(s, sentence, policy);
    const trip = tripRule(said, under, previous);
    previous = said;
    if (trip) {
      policy.tripRules.push(trip);
      found++;
    }
    // A sentence under a heading ("Lodging", "Hotels.") is about the heading's category when it names none itself.
    const withContext = categoriesIn(s).length === 0 && context.length > 0 && !NOT_ALLOWED.test(s) ? `${context.join(' and ')}: ${s}` : s;
    // A table cell's limit may print no currency ("40.00 per attendee" in a schedule whose amounts are all in CAD).
    const cents = money[0]?.cents ?? (row !== undefined ? bareLimit(s) : undefined);
    const before = policy.caps.length;
    if (found === 0) found = badMoney ? 0 : readSentence(withContext, sentence, cents, policy, row, context);
    // Limits by place stated one after another ("USD 350 per night in Zurich …; USD 250 elsewhere").
    if (row === undefined) {
      const added = policy.caps.slice(before);
      const count = policy.caps.length;
      placeGroup = groupPlaces(policy.caps, added, said, s, cents, placeGroup);
      found += policy.caps.length - count;
    } else placeGroup = [];
    if (found === 0) policy.notUnderstood.push(sentence);
    policy.understood += found;
  }
  // A per-diem schedule's rows are read as a table (per-diem.ts), not as sentences.
  const { places, meals, lines: tableLines } = policy.schedules;
  policy.understood += places.length + meals.length + policy.places.caps.length;
  for (const c of policy.places.caps) policy.described.add(c.category);
  policy.notUnderstood = policy.notUnderstood.filter((t) => !tableLines.has((policy.lineOf.get(t) ?? 0) - 1));
  for (const r of policy.receipts) r.except.push(...policy.receiptFree.filter((c) => !r.categories.includes(c)));
  if (stated) policy.currency = stated;
  else if (currencies.size === 1) policy.currency = [...currencies][0];
  return policy;
}

/** The mark of an FAQ's question or answer ("Q:", "A.", "Answer:"). */
const QA = /^(?:q|a|question|answer)\s?[:.]\s+/i;

const CURRENCY_NAMES: [RegExp, string][] = [
  [/\b(?:us dollars?|usd|u\.s\. dollars?)\b/, 'USD'], [/\b(?:canadian dollars?|cad)\b/, 'CAD'],
  [/\b(?:australian dollars?|aud)\b/, 'AUD'], [/\b(?:euros?|eur)\b/, 'EUR'], [/\b(?:pounds? sterling|sterling|gbp)\b/, 'GBP'],
];

/** "Reimbursement is in USD", "paid in pounds sterling", "in Canadian dollars": the currency the policy pays in. */
function statedCurrency(s: string): string | undefined {
  if (!/\b(?:paid|reimbursed|reimbursement|reimbursements|payment|currency|allowance|amounts are|amounts in)\b/.test(s)) return undefined;
  const found = CURRENCY_NAMES.filter(([re]) => re.test(s));
  return found.length === 1 ? found[0][1] : undefined;
}

/** Adds every rule the sentence states; returns how many. */
function readSentence(s: string, original: string, cents: bigint | undefined, policy: Policy, row?: string, heading: Category[] = []): number {
  let found = 0;
  const categories = categoriesIn(s);
  const classes = fareClassesIn(s);
  // "Not reimbursable unless the Managing Partner approved it" is an approval rule, not a refusal.
  const approval = s.includes('approv') && /\b(?:require|requires|required|needs?|with|must be|subject to)\b|\bunless\b[^.;]*\bapprov/.test(s);
  const notAllowed = NOT_ALLOWED.test(s);

  if (classes.length > 0) {
    const premium = classes.filter((c) => c !== 'economy');
    // A class rule about one mode of travel ("Business class air …", under "Rail") is that mode's only.
    const modes = travelModes(s);
    policy.classScope.set(original, modes.length > 0 ? modes : heading.filter((c) => c === 'airfare' || c === 'rail'));
    if (approval && premium.length > 0) {
      for (const c of premium) policy.approvalClasses.set(c, { approver: approverOf(s), text: original });
      found++;
    } else if (notAllowed && premium.length > 0) {
      for (const c of premium) policy.forbiddenClasses.set(c, original);
      found++;
    } else if (classes.includes('economy') && /\b(?:must|only|required|should|shall)\b/.test(s)) {
      const rule = { classes: new Set(classes), text: original };
      policy.allowedClassRules.push(rule);
      policy.allowedClasses ??= rule;
      found++;
    }
    // A sentence naming a class in passing ("upgrades, including Economy Plus, are not reimbursed") states no class
    // rule; it is read for the other rules.
    if (found > 0) return found;
  }
  // "No receipts are required for the allowance", "no meal receipts are required": an exception to the receipt rules,
  // not one of them.
  if (/^no (?:[a-z&-]+ ){0,2}receipts? (?:is |are )?(?:required|needed)\b|\breceipts? (?:is |are )?not (?:required|needed)\b/.test(s)) {
    if (categories.length === 0) return found;
    policy.receiptFree.push(...categories);
    return found + 1;
  }
  // "Attach a receipt to every expense of $75.00 or more": an instruction is a requirement too.
  // "Without receipts, meals are not reimbursed" requires the receipt; it refuses no category.
  const withoutReceipt = /^(?:[a-z &]+: )?without (?:[\p{L}-]+ ){0,3}(?:receipts?|documentation|proof)\b/u.test(s) && NOT_ALLOWED.test(s);
  // "Paid at cost against a receipt" (and "gegen Beleg"): the receipt is the condition of payment.
  const against = /\bagainst (?:an? |the )?(?:itemi[sz]ed |original |valid )?receipts?\b/.test(s);
  if (s.includes('receipt') && (MUST.test(s) || withoutReceipt || against || /^(?:[a-z &]+: )?(?:always )?(?:attach|submit|include|provide|upload|keep)\b/.test(s))) {
    const except = /\b(?:except|other than|excluding)\b(.*)$/.exec(s);
    const scoped = except ? categoriesIn(s.slice(0, except.index)) : categories;
    policy.receipts.push({
      cents: cents ?? 0n, inclusive: cents === undefined || INCLUSIVE.test(s), categories: scoped, text: original,
      except: except ? categoriesIn(except[1]) : [],
    });
    return found + 1;
  }
  if (notAllowed) {
    if (ALCOHOL.test(s)) {
      policy.alcoholForbidden = original;
      found++;
    }
    // "Without it, the airfare is not reimbursed until the approval is produced": a hold pending a condition (read by
    // the approval rules), not a refusal of the category.
    const conditional = /\buntil\b|^without (?:it|this|that|them|one|such)\b/.test(s);
    if (cents === undefined && !conditional) {
      // A list ("alcohol, entertainment, personal items, fines"): each part names at most one category, and a
      // qualified part ("airfare booked outside the portal", "Uber Black", "seat upgrades") forbids no whole category:
      // it is a thing refused by name, found on the lines of a receipt or an expense that name it.
      let any = false;
      const siblings: string[] = [];
      const negation = NOT_ALLOWED.exec(s);
      // "X, Y and Z are not reimbursable", or "Not reimbursable: X, Y and Z".
      const before = negation ? s.slice(0, negation.index) : s;
      const listed = /[a-z]{3,}/.test(before.replace(/\b(?:are|is|be|will|shall)\b/g, '')) ? before : s.slice((negation?.index ?? 0) + (negation?.[0].length ?? 0));
      for (const raw of coordinated(listed).split(/[,;:()\u2014\u2013]|\s-\s|\band\b|\bor\b|\bincluding\b|\bsuch as\b|\blike\b/)) {
        // "(including during flight delays)": a circumstance of the thing before it, not another thing.
        if (/^\s*(?:during|when|while|if|even|unless|after|before|at|in case)\b/.test(raw)) continue;
        // "laundry on trips under 5 nights": refused on short trips only (trip-length.ts).
        if (/\b(?:on|for|during) (?:trips|stays|travel|journeys) (?:of )?(?:under|shorter|fewer|less|below)\b/.test(raw)) continue;
        const part = raw.replace(/["'“”‘’]/g, '').replace(/\b(?:are|is|be|will|personal expenses?|the same applies to)\b.*$/, '').trim();
        if (part === '' || /\b(?:whatever|regardless|irrespective|however)\b/.test(part)) continue;
        const c = categoriesIn(part)[0];
        const rest = part.replace(/\b(?:all|any|other|personal|expenses?|costs?|charges?|fees?|items?|purchases?|traffic|parking|speeding|the|a|an|of|for|on|in)\b/g, ' ');
        const qualified = c !== undefined && withoutCategoryWords(rest).replace(/[^a-z0-9+]+/g, ' ').trim() !== '';
        if (c !== undefined && !qualified && !ALCOHOL.test(part) && !/\b(?:outside|unless|without|except|booked|valet|terminal|personal preference)\b/.test(part)) {
          policy.forbiddenCategories.set(c, original);
          any = true;
        } else if (!ALCOHOL.test(part) && part.split(/\s+/).length <= 5 && (qualified || THING.test(part))) {
          policy.forbiddenThings.push({ phrase: part, text: original });
          any = true;
        } else if (c === undefined && !ALCOHOL.test(part) && part.split(/\s+/).length <= 4 && /[a-z]{3,}/.test(part)) {
          siblings.push(part);
        }
      }
      // The other short parts of a list of refused things are refused things too ("Economy Plus, Comfort+").
      if (policy.forbiddenThings.some((t) => t.text === original)) for (const phrase of siblings) policy.forbiddenThings.push({ phrase, text: original });
      if (any) found++;
    }
    return found;
  }
  if (cents !== undefined && approval) {
    policy.approvals.push({ cents, inclusive: INCLUSIVE.test(s), categories, text: original, approver: approverOf(s) });
    return found + 1;
  }
  // "Rideshare standard tier only - no Uber Black, Lyft Lux or similar": the things after "no" are refused by name.
  const noList = /(?:^|\s[-\u2013\u2014:;]\s|,\s)no ([^.;:]{3,120}?)(?:,? or similar| or the like| etc)?$/.exec(s);
  if (noList && /,| or /.test(noList[1]) && !s.includes('receipt')) {
    const before = policy.forbiddenThings.length;
    readSentence(`not reimbursable: ${noList[1]}`, original, undefined, policy, row, heading);
    if (policy.forbiddenThings.length > before) return found + 1;
  }
  // "No alcohol", "No minibar": a short refusal.
  if (/^no [\p{L} -]{3,30}$/u.test(s) && s.split(/\s+/).length <= 4 && !s.includes('receipt')) {
    return readSentence(`not reimbursable: ${s.slice(3)}`, original, cents, policy, row, heading);
  }
  // A schedule's line ("Breakfast: $20.00", "Lunch 25,00 EUR") names what its amount limits: a cap of that category,
  // held to the expenses its words name among several of one category (scope.ts).
  const scheduled = cents !== undefined && row === undefined ? SCHEDULE_LINE.exec(original.toLowerCase().replace(/\*\*|__/g, '')) : null;
  if (scheduled && categoriesIn(scheduled[1]).length > 0 && categories.length === 1) {
    const scope = scheduled[1].match(/[\p{L}]{3,}/gu)?.filter((w) => !SCOPE_STOP.has(w));
    const period = PER_NIGHT.test(s) ? 'night' : PER_DAY.test(s) ? 'day' : undefined;
    policy.caps.push({ category: categories[0], cents: cents!, perPerson: PER_PERSON.test(s), period, text: original, scope });
    return found + 1;
  }
  // "TSA PreCheck, Global Entry and NEXUS fees are reimbursable only with the VP's prior written approval": kinds of
  // expense named, each held until approved.
  if (approval && cents === undefined && categories.length === 0) {
    const of = /\bapproval of (?:the |an? )?(?:employee's |your |their )?([a-z][a-z -]{1,30}?)(?= attached| before| in writing|[,;]|$)/.exec(s)?.[1];
    const things = approvalThings(s, original, of ? `${of}'s approval` : approverOf(s));
    policy.approvalThings.push(...things);
    if (things.length > 0) return found + 1;
  }
  // A limit per recipient is a gift limit, whatever heading it sits under.
  if (categories.length === 0 && /\bper (?:gift )?recipient\b/.test(s)) categories.push('gifts');
  // A limit column's cell is a cap without saying so: its row gives the category and the cell the unit.
  const rowLimit = row !== undefined && (PER_PERSON.test(s) || PER_NIGHT.test(s) || PER_DAY.test(s) || /\bper (?:trip|item|event|month|year)\b/.test(s));
  if (cents !== undefined && categories.length > 0 && (CAP.test(s) || rowLimit)) {
    const period = PER_NIGHT.test(s) ? 'night' : PER_DAY.test(s) ? 'day' : undefined;
    const scope = row === undefined ? undefined : row.toLowerCase().match(/[\p{L}]{3,}/gu)?.filter((w) => !SCOPE_STOP.has(w));
    // A meal limit in the "Client entertainment" section is also the limit of a client meal filed as entertainment.
    for (const c of heading) if (!categories.includes(c) && c === 'entertainment') categories.push(c);
    // "Breakfast up to £10.00, lunch up to £12.00, evening meal up to £30.00, per person per day": one limit a meal,
    // each labelled by its own words (scope.ts picks the meal's), the unit after the list is every one's.
    const meals = row === undefined ? perMeal(s) : undefined;
    if (meals) {
      for (const x of meals) policy.caps.push({ category: 'meals', cents: x.cents, perPerson: PER_PERSON.test(s), period, text: original, scope: x.scope });
      return found + 1;
    }
    for (const category of categories) {
      policy.caps.push({ category, cents, perPerson: PER_PERSON.test(s), period, text: original, scope });
    }
    return found + 1;
  }
  return found;
}

/** "breakfast up to £10.00, lunch up to £12.00, evening meal up to £30.00": each clause a meal's label and one amount. */
function perMeal(s: string): { cents: bigint; scope: string[] }[] | undefined {
  // A lead naming the list ("Meals: breakfast up to …") is not the first meal's label.
  const clauses = s.replace(/^[a-z &]{3,30}:\s+(?=[a-z])/, '').split(/,\s*|;\s*|\s+·\s+/).filter((c) => moneyIn(c, () => undefined).length > 0);
  if (clauses.length < 2) return undefined;
  const out: { cents: bigint; scope: string[] }[] = [];
  for (const c of clauses) {
    const money = moneyIn(c, () => undefined);
    const label = /^([a-z][a-z -]{2,30}?)\s*(?::|up to|max(?:imum)?|capped at|limit)?\s*(?:[$€£¥]|[a-z]{3}\s)?\d/.exec(c.trim())?.[1].trim();
    if (money.length !== 1 || label === undefined || !/\b(?:breakfast|lunch|dinner|supper|evening meal|brunch)\b/.test(label)) return undefined;
    out.push({ cents: money[0].cents, scope: label.match(/[\p{L}]{3,}/gu)!.filter((w) => !SCOPE_STOP.has(w)) });
  }
  return out;
}

/** "breakfast: $20.00", "lunch 25.00 eur", "dinner: 35,00 € per person": a label and its amount, nothing else. */
const SCHEDULE_LINE = /^([\p{L}][\p{L} &/'-]{0,40}?):?\s+(?:[$€£¥]|[a-z]{3}\s?)?\d[\d.,]*(?:\s?(?:[$€£¥]|[a-z]{3}))?(?:\s+(?:per|a|each)\s+[a-z]+){0,2}$/u;

const SCOPE_STOP = new Set(['the', 'and', 'for', 'with', 'only', 'per', 'all', 'other', 'while', 'when', 'not']);

/** "40.00 per attendee", "up to 260.00 per night": a limit printed without a currency, in the policy's. */
function bareLimit(s: string): bigint | undefined {
  const m = /(?:^|:\s*|\bup to\s+)(\d{1,3}(?:,\d{3})*(?:\.\d{2})?|\d+(?:\.\d{2})?)\s+(?:per|a|each)\b/.exec(s);
  return m ? parseCents(m[1]) : undefined;
}

/**
 * "traffic and parking fines" is traffic fines and parking fines: a lone word joined by "and"/"or" to a longer part
 * shares that part's last word, so "traffic" alone is never refused.
 */
function coordinated(list: string): string {
  return list.replace(/(^|[,;:(]\s*)([a-z-]+) (and|or) ([a-z-]+(?: [a-z-]+)*?) ([a-z-]+)(?=\s*(?:[,;:)]|$))/g, '$1$2 $5 $3 $4 $5');
}

/** Words that make a listed part a thing a receipt line can carry, though it names no category. */
const THING = /\b(?:upgrades?|seat selection|seats?|lounges?|wi-?fi|internet|insurance|boarding|minibar|movies?|spa|laundry|room service|gift cards?|toiletries|memberships?|subscriptions?)\b/;

/** "requires VP approval" → "VP approval"; the word before "approval" unless it is a verb or article. */
function approverOf(s: string): string {
  const at = s.indexOf('approv');
  const before = s.slice(Math.max(0, at - 30), at).replace(/pre-?$/, '').trim().split(' ').pop() ?? '';
  if (/^[a-z][a-z-]*$/.test(before) && !/^(?:requires?|required|needs?|with|be|prior|written|an?|the|must|subject|to)$/.test(before)) {
    return `${before.length <= 3 ? before.toUpperCase() : before} approval`;
  }
  return 'approval';
}

/** A policy sentence as evidence: the sentence and the line it was read from. */
export function policySource(policy: Policy, text: string): Src {
  return { field: 'expensePolicy', line: policy.lineOf.get(text), quote: text };
}
