/**
 * Red flags in how the vendor wants to be paid and whether it can be identified (rules 5 to 7 of RULES.md).
 * A statement the clause itself negates ("we will never ask you to change our bank details") is not a flag.
 */
import { B, E, matches, negatedBefore } from './text.js';
import { hasTaxNumber } from './signals.js';

const W = "[\\p{L}'-]+";

// ---- payment redirection -----------------------------------------------------------------------------------------

const REDIRECT: { re: RegExp; what: string }[] = [
  {
    what: 'bank-detail change requested',
    re: new RegExp(
      `${B}(?:update|updated|updating|change|changed|changing|amend|amended|modify|modified|replace|replaced|switch|switched|new)\\s+` +
        `(?:(?:to|our|the|your|my|their|all|its|company|company's|vendor|records?|of|in|on\\s+file)\\s+){0,4}` +
        `(?:bank(?:ing)?\\s+(?:details|information|info|account|instructions|coordinates)|(?:remittance|receiving|beneficiary|payee|payment|wire|ach|deposit|settlement)\\s+(?:account|details|instructions|information|bank)|account\\s+(?:details|number|information))${E}`,
      'giu',
    ),
  },
  {
    what: 'bank-detail change requested',
    re: new RegExp(`${B}(?:bank(?:ing)?|account|remittance|payment|wire)\\s+(?:details|information|info|instructions|account|number)\\s+(?:have|has)\\s+(?:now\\s+)?(?:been\\s+)?(?:changed|updated)${E}`, 'giu'),
  },
  {
    what: 'bank-detail change requested',
    re: new RegExp(`${B}(?:we|we've|we\\s+have)\\s+(?:recently\\s+)?(?:changed|switched|moved)\\s+(?:our\\s+)?bank(?:s|ing)?${E}`, 'giu'),
  },
  {
    what: 'payment to a third party',
    re: new RegExp(
      `${B}(?:pay|paid|payment|payments|remit|remittance|wire|transfer|send|deposit|funds)(?:\\s+${W}){0,5}?\\s+(?:to|into|via|through)\\s+(?:(?:the|our|my|a|an|his|her|their)\\s+)?` +
        `(?:partner|partners|partner's|affiliate|affiliate's|agent|agent's|sister\\s+company|parent\\s+company|related\\s+company|associate|director|director's|owner|owner's|ceo|ceo's|personal|private|individual|third[- ]party|nominee|friend|relative|cousin|brother|wife|husband|factor|factoring|another\\s+company|different\\s+company|offshore)${E}`,
      'giu',
    ),
  },
  {
    what: 'payment to a third party',
    re: new RegExp(
      `${B}(?:third[- ]party\\s+(?:account|payee|beneficiary|bank|payment)|account\\s+(?:is\\s+)?(?:held\\s+)?(?:in|under)\\s+(?:the\\s+)?name\\s+of\\s+(?:our|a|the|my)\\s+(?:partner|director|owner|affiliate|agent|parent|sister)|(?:account\\s+holder|beneficiary)(?:\\s+name)?\\s+(?:is|will\\s+be|differs|is\\s+different|does\\s+not\\s+match))${E}`,
      'giu',
    ),
  },
];

export function findPaymentRedirection(text: string): string[] {
  const found = new Set<string>();
  for (const { re, what } of REDIRECT) {
    if (found.has(what)) continue;
    for (const m of matches(re, text)) {
      if (negatedBefore(text, m.index)) continue;
      found.add(what);
      break;
    }
  }
  return [...found].map((w) => w);
}

// ---- upfront payment ---------------------------------------------------------------------------------------------

const UPFRONT = new RegExp(
  `${B}(?:` +
    `100\\s*%\\s*(?:of\\s+(?:the\\s+)?(?:total|order|invoice|contract)\\s+(?:value\\s+|amount\\s+)?)?(?:payment\\s+)?(?:pre-?payment|prepaid|advance|in\\s+advance|up-?front|deposit|before|prior|on\\s+order|with\\s+order|at\\s+order)` +
    `|(?:payment|paid|pay|payable|funds|wire|wired|transfer|cash)\\s+(?:(?:is|are|must|be|to|required|due|in\\s+full|made|sent)\\s+)*(?:in\\s+advance|up-?front|before\\s+(?:shipment|shipping|delivery|dispatch|production|work|we\\s+ship|goods|release)|prior\\s+to\\s+(?:shipment|shipping|delivery|dispatch|production|work|release))` +
    `|(?:advance|up-?front)\\s+payments?|pre-?payments?|prepaid\\s+(?:orders?\\s+)?only|cash\\s+in\\s+advance` +
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
    return `"${m[0].replace(/\s+/g, ' ')}"`;
  }
  return undefined;
}

// ---- unverifiable identity ---------------------------------------------------------------------------------------

const EMAIL = /(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}._%+-]+@([\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+)/giu;
const FREE_MAIL =
  /^(?:(?:gmail|googlemail|ymail|rocketmail|aol|icloud|me|mac|mail|protonmail|proton|pm|tutanota|tuta|qq|163|126|rediffmail|inbox|zoho|web)\.[a-z]{2,3}|(?:yahoo|hotmail|outlook|live|msn|gmx|yandex|mail)\.[a-z]{2,3}(?:\.[a-z]{2})?)$/i;
const WEBSITE = new RegExp(
  `(?:https?://|${B}www\\.)[\\p{L}\\p{N}-]+|${B}(?:website|web\\s*site|web|url|site)\\s*[:-]?\\s*[\\p{L}\\p{N}-]+\\.[\\p{L}]{2,}|(?<![@\\p{L}\\p{N}._-])[\\p{L}\\p{N}-]{2,}\\.(?:com|net|org|io|co|biz|info|us|uk|de|fr|nl|ca|au|eu|it|es|ch|se|no|dk|fi|jp|in|sg|ie|be|at)(?![\\p{L}\\p{N}-])`,
  'giu',
);
const REGISTRATION = new RegExp(
  `${B}(?:company|registration|reg\\.?|registry|crn|entity|file|state\\s+file|commercial\\s+register|trade\\s+register|chamber\\s+of\\s+commerce|kvk|handelsregister|hrb|hra|duns|d-u-n-s|lei|uen|acn|cin)\\s*(?:no\\.?|number|nr\\.?|id|code|#)?\\s*[:#-]?\\s*[A-Z]{0,3}[\\s-]?\\d[\\dA-Z -]{3,}`,
  'iu',
);
const REFUSED_DOCS = new RegExp(
  `${B}(?:(?:cannot|can't|can\\s+not|unable\\s+to|will\\s+not|won't|refuse[sd]?\\s+to|decline[sd]?\\s+to|do\\s+not|don't|not\\s+able\\s+to)\\s+(?:${W}\\s+){0,2}(?:provide|give|share|supply|offer|disclose)\\s+(?:${W}\\s+){0,2}(references|registration|certificate\\s+of\\s+incorporation|company\\s+number|business\\s+licen[cs]e)` +
    `|no\\s+(?:trade\\s+|customer\\s+|client\\s+|business\\s+|bank\\s+)?(references)(?!\\s+(?:needed|required))` +
    `|(references)\\s*[:-]?\\s*(?:none|not\\s+available|unavailable|n/?a|withheld|confidential|declined|refused))${E}`,
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

export function findIdentityGaps(text: string): IdentityGaps {
  const details: string[] = [];
  let papers = false;
  const domains = [...matches(EMAIL, text)].map((m) => m[1].toLowerCase());
  const free = domains.filter((d) => FREE_MAIL.test(d));
  const companyDomain = domains.length > free.length;
  const website = [...matches(WEBSITE, text)].some((m) => !FREE_MAIL.test(m[0].replace(/^.*?[:\s/]+(?=[\p{L}\p{N}])/u, '').replace(/^www\./i, '')));
  if (free.length > 0 && !companyDomain) {
    details.push(`free webmail contact only (${[...new Set(free)].join(', ')})`);
    papers = true;
  }
  if (!website && !companyDomain && !REGISTRATION.test(text) && !hasTaxNumber(text)) {
    details.push('no website, company registration or tax number to check the company against');
    papers = true;
  }
  const docs = REFUSED_DOCS.exec(text);
  const references = !!docs && /references/i.test(docs[0]);
  if (docs) {
    details.push(references ? 'cannot provide references' : `will not provide ${(docs[1] ?? '').toLowerCase() || 'registration papers'}`);
    if (!references) papers = true;
  }
  const callback = REFUSED_CALLBACK.test(text);
  if (callback) details.push('refuses call-back verification');
  return { details, references, callback, papers };
}

