/**
 * Whether the vendor can be identified (rule 8 of RULES.md): a contact only on free webmail, nothing to check the
 * company against, refused papers, references or call-back, and e-mail header evidence that the sender is not it.
 */
import { B, E, lineOf, matches, type Finding } from './text.js';
import { hasTaxNumber, readTaxNumbers } from './tax.js';

const W = "[\\p{L}'-]+";

// ---- unverifiable identity ---------------------------------------------------------------------------------------

const EMAIL = /(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}._%+-]+@([\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+)/giu;
const FREE_MAIL =
  /^(?:(?:gmail|googlemail|ymail|rocketmail|aol|icloud|me|mac|mail|protonmail|proton|pm|tutanota|tuta|qq|163|126|rediffmail|inbox|zoho|web)\.[a-z]{2,3}|(?:yahoo|hotmail|outlook|live|msn|gmx|yandex|mail)\.[a-z]{2,3}(?:\.[a-z]{2})?)$/i;
const REGISTRATION = new RegExp(
  `${B}(?:company|registration|reg\\.?|registry|crn|entity|file|state\\s+file|ubi|sos\\s+file|commercial\\s+register|trade\\s+register|chamber\\s+of\\s+commerce|kvk|handelsregister|hrb|hra|duns|d-u-n-s|lei|uen|acn|cin|krs|regon|mersis|ticaret\\s+sicil\\p{L}*|nire|rcs|registro\\s+mercantil|corporate\\s+registration)\\s*(?:no\\.?|number|nr\\.?|id|code|#)?\\s*[:#-]?\\s*[A-Z]{0,3}[\\s-]?\\d[\\dA-Z -]{3,}`,
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
    `|(?:contact|communication|reachable|correspondence)\\s+(?:by\\s+|via\\s+|through\\s+)?(?:e-?mail|whatsapp|telegram)\\s+only|(?:e-?mail|whatsapp|telegram)[- ]only` +
    // The phones said to be down and e-mail asked for instead, in one sentence: the call-back is steered away.
    `|(?:phones?|telephones?|phone\\s+lines?|landlines?|office\\s+lines?|telefon\\p{L}*|telefoon\\p{L}*)\\s+(?:${W}\\s+){0,5}?(?:unavailable|down|not\\s+(?:working|available|reachable)|out\\s+of\\s+(?:order|service)` +
    `|niedostepn\\p{L}*|indisponive\\p{L}*|indisponibles?|no\\s+(?:estan\\s+)?disponibles?|nicht\\s+erreichbar|hors\\s+service|fuera\\s+de\\s+servicio|onbereikbaar|kullan[ıi]lam\\p{L}*)` +
    `[^.!?\\n]{0,80}?(?:e-?mail|mailow\\p{L}*|correo|courriel|e-?posta|whatsapp)` +
    // Only by e-mail, and "do not call", in the vendors' languages (Polish, Spanish, Portuguese, German, French,
    // Dutch, Turkish, Italian).
    `|kontakt\\p{L}*\\s+(?:wy[łl]acznie\\s+|tylko\\s+)?(?:mailow\\p{L}*|e-?mailow\\p{L}*)|(?:tylko|wy[łl]acznie)\\s+(?:drog[aą]\\s+)?(?:e-?)?mailow\\p{L}*|nie\\s+dzwoni\\p{L}*` +
    `|(?:solo|solamente|unicamente|apenas|somente|nur|uniquement|seulement|alleen|sadece|solo)\\s+(?:por|per|via|par|pelo|por\\s+el|por\\s+meio\\s+de|tramite)\\s+(?:e-?mail|correo(?:\\s+electronico)?|courriel)` +
    `|no\\s+(?:nos\\s+)?llam\\p{L}*|nao\\s+(?:nos\\s+)?(?:ligu\\p{L}*|telefon\\p{L}*)|nicht\\s+anrufen|ne\\s+pas\\s+(?:nous\\s+)?(?:appeler|telephoner)|niet\\s+(?:op\\s+)?bellen|aramay[ıi]n\\p{L}*|non\\s+(?:ci\\s+)?telefonare)${E}`,
  'iu',
);

export interface IdentityGaps {
  details: Finding[];
  references: boolean;
  callback: boolean;
  papers: boolean;
}

/** What the e-mail layer knows about who wrote the document (email.ts); absent for a form or notes. */
export interface SenderEvidence {
  /** The buyer's own domains: their addresses never vouch for the vendor. */
  buyerDomains: Set<string>;
  /** Header findings that the sender is not who it claims (Reply-To elsewhere, failed authentication, look-alike). */
  spoofing: Finding[];
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

/** A mail domain written on its own, as a note names one ("e-mail domain on all invoices: @acme-supply.com"). */
const AT_DOMAIN = /(?<![\p{L}\p{N}._%+-])@((?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+[\p{L}]{2,})(?![\p{L}\p{N}-])/giu;
export function bareMailDomains(text: string): string[] {
  return [...matches(AT_DOMAIN, text)].map((m) => m[1].toLowerCase());
}

export const isFreeMail = (domain: string) => FREE_MAIL.test(domain);

/** Licences and registrations that name the business: a second anchor beside its tax number. */
const LICENCE = new RegExp(`${B}(?:business\\s+)?licen[cs]e\\s*(?:no\\.?|number|#)?\\s*[:#-]?\\s*[A-Z]{0,3}[\\s-]?\\d`, 'iu');

export function findIdentityGaps(text: string, sender?: SenderEvidence): IdentityGaps {
  const details: Finding[] = [];
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
    const at = [...matches(EMAIL, text)].find((m) => FREE_MAIL.test(m[1]) && !ofBuyer(m[1].toLowerCase()))?.index;
    // The published example (lambdas/agents/examples.ts) pins this wording; the evidence cites the address's line.
    details.push({ detail: `free webmail contact only (${[...new Set(free)].join(', ')})`, at });
    papers = true;
  }
  if (!website && !companyDomain && !registration && !taxNumber) {
    details.push({ detail: 'no website, company registration or tax number to check the company against' });
    papers = true;
  }
  for (const s of sender?.spoofing ?? []) details.push(s);
  const docs = REFUSED_DOCS.exec(text);
  const references = !!docs && /references/i.test(docs[0]);
  if (docs) {
    const detail = references ? `cannot provide references ("${lineOf(text, docs.index)}")` : `will not provide ${(docs[1] ?? '').toLowerCase() || 'registration papers'} ("${lineOf(text, docs.index)}")`;
    details.push({ detail, at: docs.index, end: docs.index + docs[0].length });
    if (!references) papers = true;
  }
  const refused = REFUSED_CALLBACK.exec(text);
  const callback = !!refused || (sender?.spoofing.length ?? 0) > 0;
  if (refused) details.push({ detail: `refuses call-back verification ("${lineOf(text, refused.index)}")`, at: refused.index, end: refused.index + refused[0].length });
  return { details, references, callback, papers };
}
