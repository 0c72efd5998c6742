/**
 * Red flags in how the vendor wants to be paid and whether it can be identified (rules 5 to 7 of RULES.md).
 * A statement the clause itself negates ("we will never ask you to change our bank details") is not a flag.
 */
import { B, E, matches, negatedBefore } from './text.js';
import { hasTaxNumber, lineOf, readTaxNumbers } from './signals.js';

const W = "[\\p{L}'-]+";

// ---- payment redirection -----------------------------------------------------------------------------------------

const CHANGE = 'bank-detail change requested';
const THIRD = 'payment to a third party';
const REDIRECT: { re: RegExp; what: string }[] = [
  {
    what: CHANGE,
    re: new RegExp(
      `${B}(?:update|updated|updating|change|changed|changing|amend|amended|modify|modified|replace|replaced|switch|switched|new)\\s+` +
        `(?:(?:to|our|the|your|my|their|all|its|company|company's|vendor|records?|of|in|on\\s+file)\\s+){0,4}` +
        `(?:bank(?:ing)?\\s+(?:details|information|info|account|instructions|coordinates)|(?:remittance|receiving|beneficiary|payee|payment|wire|ach|deposit|settlement)\\s+(?:account|details|instructions|information|bank)|account\\s+(?:details|number|information))${E}`,
      'giu',
    ),
  },
  {
    what: CHANGE,
    re: new RegExp(`${B}(?:bank(?:ing)?|account|remittance|payment|wire)\\s+(?:details|information|info|instructions|account|number)\\s+(?:have|has)\\s+(?:now\\s+)?(?:been\\s+)?(?:changed|updated)${E}`, 'giu'),
  },
  {
    // "has changed banks", "Change of remittance bank", "Banking information update", "pay … to our new account".
    what: CHANGE,
    re: new RegExp(
      `${B}(?:(?:we|we've|has|have|is|are)\\s+(?:recently\\s+|now\\s+)?(?:chang|switch|mov)(?:ed|ing)\\s+(?:our\\s+|its\\s+)?(?:receivables\\s+|remittance\\s+)?(?:banks?|banking|account)` +
        `|(?:change|update)\\s+(?:of|to|in)\\s+(?:our\\s+)?(?:remittance|receiving|payment|bank(?:ing)?)|(?:bank(?:ing)?|remittance|payment)\\s+(?:details|information|instructions)\\s+(?:update|change)|updated\\s+(?:remittance|bank(?:ing)?|payment)\\s+(?:information|details|instructions)` +
        `|(?:pay(?:ments?)?|remit(?:ted)?|send|wire|transfer)(?:\\s+${W}){0,8}?\\s+(?:to|into)\\s+(?:our|the)\\s+(?:new|updated|different)\\s+(?:bank\\s+)?account)${E}`,
      'giu',
    ),
  },
  {
    what: THIRD,
    re: new RegExp(
      `${B}(?:pay|paid|payment|payments|remit|remittance|wire|transfer|send|deposit|funds)(?:\\s+${W}){0,5}?\\s+(?:to|into|via|through)\\s+(?:(?:the|our|my|a|an|his|her|their)\\s+)?` +
        `(?:partner|partners|partner's|affiliate|affiliate's|agent|agent's|sister\\s+company|parent\\s+company|related\\s+company|associate|director|director's|owner|owner's|ceo|ceo's|personal|private|individual|third[- ]party|nominee|friend|relative|cousin|brother|wife|husband|factor|factoring|another\\s+company|different\\s+company|offshore)${E}`,
      'giu',
    ),
  },
  {
    what: THIRD,
    re: new RegExp(
      `${B}(?:third[- ]party\\s+(?:account|payee|beneficiary|bank|payment)|account\\s+(?:is\\s+)?(?:held\\s+)?(?:in|under)\\s+(?:the\\s+)?name\\s+of\\s+(?:our|a|the|my)\\s+(?:partner|director|owner|affiliate|agent|parent|sister)|(?:account\\s+holder|beneficiary)(?:\\s+name)?\\s+(?:is|will\\s+be|differs|is\\s+different|does\\s+not\\s+match))${E}`,
      'giu',
    ),
  },
];

export function findPaymentRedirection(text: string, vendorNames: string[] = []): string[] {
  const found = new Map<string, string>();
  for (const { re, what } of REDIRECT) {
    if (found.has(what)) continue;
    for (const m of matches(re, text)) {
      if (negatedBefore(text, m.index)) continue;
      found.set(what, lineOf(text, m.index));
      break;
    }
  }
  const payee = payeeMismatch(text, vendorNames);
  if (payee && !found.has(THIRD)) found.set(THIRD, payee);
  return [...found].map(([what, line]) => `${what} ("${line}")`);
}

// ---- payee name ---------------------------------------------------------------------------------------------------

const PAYEE = /(?<![\p{L}])(?<!exempt\s+)(?:payee|beneficiary|account\s+(?:name|holder))(?:\s+name)?(?!\s+(?:bank|address|country|code|type))\s*[:-]?\s*([^\n;()|]{3,80})/giu;
/** Legal-form and filler words that do not tell two names apart (short ones, inc, llc, ltd, co…, go by length). */
const LEGAL_WORDS = new Set('limited company corp corporation incorporated gmbh group the and'.split(' '));
export const nameTokens = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .split(/\s+/)
    .filter((w) => w.length > 3 && !LEGAL_WORDS.has(w));

/**
 * A payee or account holder whose name is not the vendor's: paying it pays someone else. Compared word by word with
 * every name the document gives the vendor (legal name, trading name, sender, signature), legal-form words aside;
 * when the document names no vendor nothing is compared.
 */
export function payeeMismatch(text: string, vendorNames: string[]): string | undefined {
  const vendors = vendorNames.map(nameTokens).filter((t) => t.length > 0);
  if (vendors.length === 0) return undefined;
  for (const m of matches(PAYEE, text)) {
    const payee = nameTokens(m[1].replace(/\s+(?:-|–)\s+.*$/, '').replace(/,\s*(?:account|acct|iban|bank).*$/i, ''));
    if (payee.length === 0 || /\d/.test(payee.join(''))) continue;
    if (/^(?:the\s+)?(?:company|vendor|supplier|llc|same)/i.test(m[1].trim())) continue;
    const same = vendors.some((v) => payee.every((w) => v.includes(w)) || v.every((w) => payee.includes(w)));
    if (!same) return lineOf(text, m.index);
  }
  return undefined;
}

// ---- upfront payment ---------------------------------------------------------------------------------------------

const UPFRONT = new RegExp(
  `${B}(?:` +
    `100\\s*%\\s*(?:of\\s+(?:the\\s+)?(?:total|order|invoice|contract)\\s+(?:value\\s+|amount\\s+)?)?(?:payment\\s+)?(?:pre-?payment|prepaid|advance|in\\s+advance|up-?front|deposit|before|prior|on\\s+order|with\\s+order|at\\s+order)` +
    `|(?:payment|paid|pay|payable|funds|wire|wired|transfer|cash)\\s+(?:(?:is|are|must|be|to|required|due|in\\s+full|made|sent)\\s+)*(?:in\\s+advance|up-?front|before\\s+(?:shipment|shipping|delivery|dispatch|production|work|we\\s+ship|goods|release)|prior\\s+to\\s+(?:shipment|shipping|delivery|dispatch|production|work|release))` +
    `|(?:advance|up-?front)\\s+payments?|pre-?payments?|prepaid\\s+(?:orders?\\s+)?only|cash\\s+in\\s+advance` +
    `|(?:\\d{1,3}\\s*%\\s+)?(?:t\\/?t|telegraphic\\s+transfer|wire(?:\\s+transfer)?|bank\\s+transfer|ach)\\s+(?:payment\\s+)?(?:in\\s+advance|up-?front|before\\s+(?:shipment|shipping|delivery|dispatch|production))` +
    `|\\d{1,3}\\s*%\\s+(?:payable\\s+|due\\s+)?(?:on|upon|at|with)\\s+(?:order|signing|contract|po|purchase\\s+order|order\\s+confirmation|confirmation)` +
    `|(?:deposit|down\\s*payment)\\s+(?:(?:of\\s+\\d+\\s*%|is|required|due|payable)\\s+)*(?:before|prior\\s+to|upon\\s+order|with\\s+(?:the\\s+)?order|to\\s+start)` +
    `|\\d{1,3}\\s*%\\s+(?:deposit|down\\s*payment|advance)` +
    `)${E}`,
  'giu',
);
const DISCOUNT_FOR = /discount\s+(?:for|on)\s+$/iu;

export function findUpfrontPayment(text: string): string | undefined {
  for (const m of matches(UPFRONT, text)) {
    if (negatedBefore(text, m.index, true)) continue;
    if (DISCOUNT_FOR.test(text.slice(Math.max(0, m.index - 20), m.index))) continue;
    return `"${m[0].replace(/\s+/g, ' ')}" ("${lineOf(text, m.index)}")`;
  }
  return undefined;
}

// ---- unverifiable identity ---------------------------------------------------------------------------------------

const EMAIL = /(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}._%+-]+@([\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+)/giu;
const FREE_MAIL =
  /^(?:(?:gmail|googlemail|ymail|rocketmail|aol|icloud|me|mac|mail|protonmail|proton|pm|tutanota|tuta|qq|163|126|rediffmail|inbox|zoho|web)\.[a-z]{2,3}|(?:yahoo|hotmail|outlook|live|msn|gmx|yandex|mail)\.[a-z]{2,3}(?:\.[a-z]{2})?)$/i;
const REGISTRATION = new RegExp(
  `${B}(?:company|registration|reg\\.?|registry|crn|entity|file|state\\s+file|commercial\\s+register|trade\\s+register|chamber\\s+of\\s+commerce|kvk|handelsregister|hrb|hra|duns|d-u-n-s|lei|uen|acn|cin)\\s*(?:no\\.?|number|nr\\.?|id|code|#)?\\s*[:#-]?\\s*[A-Z]{0,3}[\\s-]?\\d[\\dA-Z -]{3,}`,
  'iu',
);
const REFUSED_DOCS = new RegExp(
  `${B}(?:(?:cannot|can't|can\\s+not|unable\\s+to|will\\s+not|won't|refuse[sd]?\\s+to|decline[sd]?\\s+to|do\\s+not|don't|not\\s+able\\s+to)\\s+(?:${W}\\s+){0,2}(?:provide|give|share|supply|offer|disclose)\\s+(?:${W}\\s+){0,2}(references|registration|certificate\\s+of\\s+incorporation|company\\s+number|business\\s+licen[cs]e)` +
    `|no\\s+(?:trade\\s+|customer\\s+|client\\s+|business\\s+|bank\\s+)?(references)(?!\\s+(?:needed|required))` +
    // "References: none yet" is a new company's missing track record (young company), not a refusal.
    `|(references)\\s*[:-]?\\s*(?:none(?!\\s+yet)|not\\s+available|unavailable|n/?a|withheld|confidential|declined|refused))${E}`,
  'iu',
);
const REFUSED_CALLBACK = new RegExp(
  `${B}(?:(?:refuse[sd]?|decline[sd]?|will\\s+not|won't|cannot|can't|unable\\s+to|do\\s+not|don't|not\\s+available\\s+for|no)\\s+(?:${W}\\s+){0,3}?(?:call-?backs?|call\\s+back|phone\\s+(?:calls?|verification|number)|verification\\s+calls?|telephone\\s+(?:calls?|verification|number)|calls?)` +
    `|call-?back(?:\\s+verification)?\\s*[:-]?\\s*(?:refused|declined|not\\s+(?:possible|allowed|permitted|available)|no)` +
    `|(?:contact|communication|reachable|correspondence)\\s+(?:by\\s+|via\\s+|through\\s+)?(?:e-?mail|whatsapp|telegram)\\s+only|(?:e-?mail|whatsapp|telegram)[- ]only)${E}`,
  'iu',
);

export interface IdentityGaps {
  details: string[];
  references: boolean;
  callback: boolean;
  papers: boolean;
}

/** What the e-mail layer knows about who wrote the document (email.ts); absent for a form or notes. */
export interface SenderEvidence {
  /** The buyer's own domains: their addresses never vouch for the vendor. */
  buyerDomains: Set<string>;
  /** Header findings that the sender is not who it claims (Reply-To elsewhere, failed authentication, look-alike). */
  spoofing: string[];
}

/** A host name as written in a web address or a bare "example.com": the whole name, "meridianpolymer.com.cy" included. */
const HOST =
  /(?:https?:\/\/|(?<![@\p{L}\p{N}._%+-]))(?:www\.)?((?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+(?:com|net|org|info|biz|io|co|design|tech|app|dev|ai|shop|store|online|site|example|[a-z]{2}))(?![\p{L}\p{N}-]|\.[\p{L}\p{N}])/giu;

/** Domains a text names as websites (www., https://, "Website:", a bare example.com). */
export function websiteDomains(text: string): string[] {
  return [...matches(HOST, text)].map((m) => m[1].toLowerCase().replace(/^www\./, '')).filter((d) => !/^\d+\./.test(d));
}

export function emailDomains(text: string): string[] {
  return [...matches(EMAIL, text)].map((m) => m[1].toLowerCase());
}

export const isFreeMail = (domain: string) => FREE_MAIL.test(domain);

/** Licences and registrations that name the business: a second anchor beside its tax number. */
const LICENCE = new RegExp(`${B}(?:business\\s+)?licen[cs]e\\s*(?:no\\.?|number|#)?\\s*[:#-]?\\s*[A-Z]{0,3}[\\s-]?\\d`, 'iu');

export function findIdentityGaps(text: string, sender?: SenderEvidence): IdentityGaps {
  const details: string[] = [];
  let papers = false;
  const buyer = sender?.buyerDomains ?? new Set<string>();
  const ofBuyer = (d: string) => [...buyer].some((b) => d === b || d.endsWith(`.${b}`));
  const domains = emailDomains(text).filter((d) => !ofBuyer(d));
  const free = domains.filter((d) => FREE_MAIL.test(d));
  const companyDomain = domains.length > free.length;
  const website = websiteDomains(text).some((d) => !FREE_MAIL.test(d) && !ofBuyer(d));
  const taxNumber = hasTaxNumber(text) || !!readTaxNumbers(text).number;
  const registration = REGISTRATION.test(text) || LICENCE.test(text);
  // Webmail alone is common for sole traders; with a tax number and a registration or licence to check, the
  // business can still be verified.
  if (free.length > 0 && !companyDomain && !(taxNumber && registration)) {
    details.push(`free webmail contact only (${[...new Set(free)].join(', ')})`);
    papers = true;
  }
  if (!website && !companyDomain && !registration && !taxNumber) {
    details.push('no website, company registration or tax number to check the company against');
    papers = true;
  }
  for (const s of sender?.spoofing ?? []) details.push(s);
  const docs = REFUSED_DOCS.exec(text);
  const references = !!docs && /references/i.test(docs[0]);
  if (docs) {
    details.push(references ? `cannot provide references ("${lineOf(text, docs.index)}")` : `will not provide ${(docs[1] ?? '').toLowerCase() || 'registration papers'} ("${lineOf(text, docs.index)}")`);
    if (!references) papers = true;
  }
  const refused = REFUSED_CALLBACK.exec(text);
  const callback = !!refused || (sender?.spoofing.length ?? 0) > 0;
  if (refused) details.push(`refuses call-back verification ("${lineOf(text, refused.index)}")`);
  return { details, references, callback, papers };
}
