/** One policy sentence read into the rules it states (RULES.md lists the forms); policy.ts walks the sentences. */
import { travelModes } from './fare-classes.js';
import { approvalThings } from './named.js';
import { readRefusedTiers } from './tier-names.js';
import { itemisedReceipt, readProofRule } from './proof-rules.js';
import { ALCOHOL, categoriesIn, fareClassesIn, moneyIn, withoutCategoryWords, type Category } from './words.js';
import { CAP, INCLUSIVE, MUST, NOT_ALLOWED, PER_DAY, PER_NIGHT, PER_PERSON, type Policy } from './policy-types.js';

/** Said of a thing claimed: it is refused, not just left unpaid. */
const REFUSED_ITEM = /\b(?:is|are|will be|shall be|gets?|get) (?:refused|rejected|declined|disallowed)\b/;

/** An amount a receipt is required from, not a limit: "over $25", "$25 or more". */
const THRESHOLD = /\b(?:over|above|more than|exceeding|exceeds?|or more|at least|and over|or above)\b/;

/** Adds every rule the sentence states; returns how many. */
export function readSentence(s: string, original: string, cents: bigint | undefined, policy: Policy, row?: string, heading: Category[] = []): number {
  let found = 0;
  // "per night (room without breakfast)": what a limit is said to be without is no category of it.
  // "Hotels …, breakfast included: up to 140.00 € per night": a meal the room's price includes qualifies the room, it is
  // no limit of meals (nor is one it excludes).
  const kept = categoriesIn(qualifiersOut(s));
  const categories = kept.length > 0 ? kept : categoriesIn(s);
  const classes = fareClassesIn(s);
  // "Not reimbursable unless the Managing Partner approved it" is an approval rule, not a refusal.
  const approval = s.includes('approv') && /\b(?:require|requires|required|needs?|with|must be|subject to)\b|\bunless\b[^.;]*\bapprov/.test(s);
  const notAllowed = NOT_ALLOWED.test(s);
  if (notAllowed && readRefusedTiers(s, original, policy)) return 1;

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
  // "The terminal slip is NOT an itemized receipt: a meal claimed with a terminal slip only is not reimbursed".
  const proofRule = readProofRule(s, original);
  if (proofRule) {
    policy.proofRules.push(proofRule);
    return found + 1;
  }
  // "No receipts are required for the allowance", "no meal receipts are required": an exception to the receipt rules,
  // not one of them.
  // "DA … needs no receipt", "requires no receipts": the same exception said of its subject.
  if (/(?:^|,\s|;\s)no (?:[a-z&-]+ ){0,2}receipts? (?:is |are )?(?:required|needed)\b|\breceipts? (?:is |are )?not (?:required|needed)\b|\b(?:needs?|requires?) no (?:[a-z&-]+ )?receipts?\b|\b(?:do|does|will) not (?:need|require) (?:a |any )?receipts?\b/.test(s)) {
    if (categories.length === 0) return found;
    // "… fares under JPY 3,000 need no receipt": free of the receipt rules below that amount only.
    if (cents !== undefined && /\b(?:under|below|less than)\s+(?:[a-z]{3}\s?|[$€£¥])?\d/.test(s)) {
      (policy.receiptFreeBelow ??= []).push({ categories, cents, text: original });
      return found + 1;
    }
    policy.receiptFree.push(...categories);
    return found + 1;
  }
  // "Attach a receipt to every expense of $75.00 or more": an instruction is a requirement too.
  // "Without receipts, meals are not reimbursed" requires the receipt; it refuses no category.
  const withoutReceipt = /^(?:[a-z &]+: )?without (?:[\p{L}-]+ ){0,3}(?:receipts?|documentation|proof)\b/u.test(s) && NOT_ALLOWED.test(s);
  // "Paid at cost against a receipt" (and "gegen Beleg"): the receipt is the condition of payment.
  const against = /\bagainst (?:an? |the )?(?:itemi[sz]ed |original |valid )?receipts?\b/.test(s);
  // "An item missing a required receipt is flagged": the requirement stated elsewhere, named here for what follows
  // from breaking it; the sentence requires nothing of its own.
  // What follows from a missing receipt: flagged for review rather than refused.
  const flagging = MISSING_RECEIPT.test(s) && FLAGGED.test(s) && !REFUSED.test(s);
  if (flagging) policy.missingReceiptFlagged ??= original;
  const stating = s.replace(/\b(?:missing|without|lacking|no|lacks|lack of) (?:an? |the |any )?(?:required|needed|necessary|mandatory) receipts?\b/g, '');
  if (stating.includes('receipt') && (MUST.test(stating) || withoutReceipt || against || /^(?:[a-z &]+: )?(?:always )?(?:attach|submit|include|provide|upload|keep)\b/.test(s))) {
    const except = /\b(?:except|other than|excluding)\b(.*)$/.exec(s);
    const itemised = itemisedReceipt(s);
    // "… for every expense of $25.00 or more and for all lodging regardless of amount": two requirements, every
    // category from the amount, the categories named after it at any amount.
    const whole = cents !== undefined && !except ? /^(.*?\b(?:every|all|any|each) (?:expenses?|items?|claims?|costs?)\b.*?)\b(?:and|as well as|plus) (?:for |on )?(?:all |any |every )?(.*?)\b(?:regardless of (?:the )?(?:amount|cost|value)|of any (?:amount|value)|whatever the amount)\b/.exec(s) : null;
    if (whole && categoriesIn(whole[2]).length > 0 && categoriesIn(whole[1]).length === 0) {
      policy.receipts.push({ cents: cents!, inclusive: INCLUSIVE.test(whole[1]), categories: [], text: original, except: [], itemised });
      policy.receipts.push({ cents: 0n, inclusive: true, categories: categoriesIn(whole[2]), text: original, except: [], itemised });
      return found + 1;
    }
    const scoped = except ? categoriesIn(s.slice(0, except.index)) : categories;
    // "Hotel costs against an invoice up to the following limits per night: … 130 €": the amount is the limit, not a
    // receipt threshold; the receipt is required at any amount, and the limit is read below.
    const limit = cents !== undefined && CAP.test(s) && !THRESHOLD.test(s) && categories.length > 0;
    policy.receipts.push({
      cents: limit ? 0n : cents ?? 0n, inclusive: limit || cents === undefined || INCLUSIVE.test(s), categories: scoped, text: original,
      except: except ? categoriesIn(except[1]) : [], itemised,
    });
    if (!limit) return found + 1;
    found++;
  }
  if (flagging) return found + 1;
  // "The alcohol on a meal receipt is refused": the alcohol itself refused, not only left unpaid.
  if (ALCOHOL.test(s) && REFUSED_ITEM.test(s) && !/\b(?:unless|except|if|when)\b/.test(s.slice(0, REFUSED_ITEM.exec(s)!.index))) {
    policy.alcoholRefused ??= original;
    policy.alcoholForbidden ??= original;
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
      // "Expenses not reimbursable: minibar, fines": a lead naming only expenses in general lists nothing itself.
      const listed = /[a-z]{3,}/.test(before.replace(/\b(?:are|is|be|will|shall|the following|following|other|expenses|costs|items|charges)\b/g, '')) ? before : s.slice((negation?.index ?? 0) + (negation?.[0].length ?? 0));
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
  // A policy in another language prints its label in that language: its English reading ("breakfast: up to BRL 30.00")
  // is the line then.
  const scheduled = cents !== undefined && row === undefined
    ? SCHEDULE_LINE.exec(original.toLowerCase().replace(/\*\*|__/g, '')) ?? (/^[^:\d]{2,50}:\s/.test(original) ? SCHEDULE_LINE.exec(s.replace(/,?\s+(?:only\s+)?(?:when|if|unless) (?:it is )?not included\b.*$/, '').replace(/\*\*|__/g, '')) : null)
    : null;
  if (scheduled && categoriesIn(scheduled[1]).length > 0 && categories.length === 1) {
    const scope = scheduled[1].match(/[\p{L}]{3,}/gu)?.filter((w) => !SCOPE_STOP.has(w));
    const period = periodOf(s);
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
    const period = periodOf(s);
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
    // "Le petit-déjeuner n'est remboursé que … (plafond 12,00 €)": a meal limit naming one or two meals (not all three)
    // is theirs, told apart from the other meals' limits (scope.ts).
    const named = (['breakfast', 'lunch', 'dinner'] as const).filter((w) => new RegExp(`\\b${w}\\b`).test(qualifiersOut(s)));
    const mealScope = scope === undefined && categories.includes('meals') && named.length > 0 && named.length < 3 && !/\b(?:including|incl\.?|covers?)\b[^.;]*\b(?:breakfast|lunch|dinner)\b/.test(s) ? [...named] : undefined;
    for (const category of categories) {
      policy.caps.push({ category, cents, perPerson: PER_PERSON.test(s), period, text: original, scope: category === 'meals' ? scope ?? mealScope : scope });
    }
    return found + 1;
  }
  return found;
}

/** "breakfast up to £10.00, lunch up to £12.00, evening meal up to £30.00": each clause a meal's label and one amount. */
function perMeal(s: string): { cents: bigint; scope: string[] }[] | undefined {
  // A lead naming the list ("Meals: breakfast up to …") is not the first meal's label.
  // "up to AUD 30 breakfast, AUD 35 lunch and AUD 90 dinner per person": the amount may come before its meal.
  const clauses = s.replace(/^[a-z &]{3,30}(?:\([^)]{0,40}\))?:\s+(?=[a-z])/, '').split(/,\s*|;\s*|\s+·\s+|\s+and\s+(?=(?:[$€£¥]|[a-z]{3}\s)\d)/).filter((c) => moneyIn(c, () => undefined).length > 0);
  if (clauses.length < 2) return undefined;
  const out: { cents: bigint; scope: string[] }[] = [];
  for (const c of clauses) {
    const money = moneyIn(c, () => undefined);
    // "actual costs up to EUR 25 for a lunch": a lead before the limit, the meal after "for a".
    const label = (/^(?:[a-z ]{0,30}?\bup to\s+)?(?:[$€£¥]|[a-z]{3}\s)\d[\d.,]*\s+(?:for\s+(?:an?\s+|each\s+)?)?((?:breakfast|lunch|dinner|supper|evening meal|brunch)\b)/.exec(c.trim()) ??
      /^([a-z][a-z -]{2,30}?)\s*(?::|up to|max(?:imum)?|capped at|limit)?\s*(?:[$€£¥]|[a-z]{3}\s)?\d/.exec(c.trim()))?.[1].trim();
    if (money.length !== 1 || label === undefined || !/\b(?:breakfast|lunch|dinner|supper|evening meal|brunch)\b/.test(label)) return undefined;
    out.push({ cents: money[0].cents, scope: label.match(/[\p{L}]{3,}/gu)!.filter((w) => !SCOPE_STOP.has(w)) });
  }
  return out;
}

/** "breakfast: $20.00", "lunch 25.00 eur", "dinner: 35,00 € per person": a label and its amount, nothing else. */
const SCHEDULE_LINE = /^([\p{L}][\p{L} &/'-]{0,40}?)(?:\s*\([^)]{0,60}\))?:?\s+(?:(?:up to|max(?:imum)?)\s+)?(?:[$€£¥]|[a-z]{3}\s?)?\d[\d.,]*(?:\s?(?:[$€£¥]|[a-z]{3}))?(?:\s+(?:per|a|each)\s+[a-z]+){0,2}(?:,?\s+(?:including|incl\.?|inclusive of|excluding|excl\.?)\s[^.;:]{0,60})?$/u;

const SCOPE_STOP = new Set(['the', 'and', 'for', 'with', 'only', 'per', 'all', 'other', 'while', 'when', 'not']);

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

/** A sentence about an item without its receipt ("missing a required receipt", "without a receipt", "ohne Beleg"). */
const MISSING_RECEIPT = /\b(?:missing|without|lacking|lacks|no) (?:an? |the |any |its )?(?:required |itemi[sz]ed |original )?receipts?\b|\bohne (?:beleg|quittung)\b|\bsans justificatif\b/;
/** Held for a reviewer, not refused: "flagged for the Controller", "referred to Finance", "zur Prüfung markiert". */
const FLAGGED = /\b(?:flagged|flag|referred|held for review|marked for review|sent for review|escalated)\b|\bzur prüfung\b|\bsignalée?\b/;
const REFUSED = /\b(?:rejected|refused|declined|returned|denied)\b/;

/**
 * The unit of a sentence's limit: per night or per day, unless the amount is said to be per meal (or per person) first
 * and the day only counts meals ("massimo 35,00 € per pasto, al massimo due pasti al giorno": 35 a meal, two a day).
 */
function periodOf(s: string): 'night' | 'day' | undefined {
  const period = PER_NIGHT.test(s) ? 'night' : PER_DAY.test(s) ? 'day' : undefined;
  if (period === undefined) return undefined;
  const unit = /\d(?:[\d.,]*\d)?\s?(?:[$€£¥]|[a-z]{3}\b)?(?:,?\s+(?:including|excluding|incl\.?|excl\.?) (?:tax|vat|taxes))?\s*(?:\/|per|a|each)\s*(meal|night|day|calendar day|person|head|attendee)\b/.exec(s)?.[1];
  return unit === 'meal' && /\b(?:meals?|times?) (?:per|a) day\b/.test(s) ? undefined : period;
}

/** The sentence without what only qualifies its subject: a meal the room's price includes or excludes ("breakfast
 * included", "with breakfast", "(when not included in the room rate)"), so it names no meal limit. */
export function qualifiersOut(s: string): string {
  // "(chambre + breakfast)": a bracket listing what a price includes.
  return s.replace(/\([^()]*\+[^()]*\)/g, ' ').replace(/\b(?:without|excluding|not including|including|incl\.?|with)\s+[\p{L}&-]+(?:\s+[\p{L}&-]+)?|\b(?:breakfast|meals?)\s+(?:included|inclusive)\b|\((?:[^)]*\bincluded\b[^)]*)\)|\b(?:when|if|unless|where) (?:it is )?not included\b[^,;:]*/gu, ' ');
}
