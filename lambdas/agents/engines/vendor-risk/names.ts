/**
 * The names a document gives the vendor, read where a reviewer reads the vendor's name before comparing it with a
 * payee: a labelled legal name in a form (in the registry's own language: Denominazione, Ragione sociale, Firmenname,
 * Raison sociale, Razão social, Handelsnaam…, after a colon, a bar or dotted leaders), a W-9's line 1, the heading of
 * a pasted registry extract (Companies House prints the name on its own line above "Company number"), the company
 * line of the sender's signature, and (when none of these names it) the sender's display name. Only these places count: a company named anywhere
 * else in the text (a factor, a partner, the bank) is not the vendor, so it never vouches for a payee.
 */
import type { EmailFacts } from './email.js';

const NAME_LABEL = new RegExp(
  '^[ \\t>*-]*(?:\\d+(?:\\.\\d+)*[a-z]?[.)]?\\s+)?' +
    '(?:(?:company\\s+)?legal\\s+name|legal\\s+(?:company|entity|business)\\s+name|full\\s+legal\\s+name|registered\\s+(?:company\\s+)?name|company(?:\\s+legal)?(?:\\s+name)?' +
    '|entity\\s+name|vendor|supplier|contractor|business\\s+name|trading\\s+name|dba|name\\s+of\\s+[^:\\n.]*' +
    // The vendor's trading name, declared beside its legal name: "Trading as:", "Operating name", "Nom commercial".
    '|trading\\s+as|t\\/a|d\\/b\\/a|doing\\s+business\\s+as|operating\\s+(?:name|as)(?:\\s*\\([^)\\n]{0,20}\\))?|nom\\s+commercial|enseigne|handelsname|nombre\\s+comercial|nome\\s+commerciale' +
    // A registry's own word for the legal name: Italian, German, French, Spanish/Portuguese, Dutch.
    '|denominazione(?:\\s+sociale)?|ragione\\s+sociale|firmenname|raison\\s+sociale|denomination(?:\\s+sociale)?|razon\\s+social|razao\\s+social|handelsnaam|statutaire\\s+naam' +
    // Polish, Portuguese, Turkish, and the Korean, Japanese and Chinese certificates' name fields (상호, 商号, 名称).
    '|nazwa(?:\\s+(?:firmy|podmiotu|dostawcy))?|nome\\s+empresarial|(?:ticaret\\s+)?unvan[ıi]?|kısa\\s+unvan|' +
    '(?:상호|법인명|회사명|商号|会社名|公司名称|企业名称|名称)'.normalize('NFD') +
    ')' +
    // A qualifier in brackets may stand between the label and its colon: "Company name (local language):".
    '(?:\\s*\\([^)\\n]{1,30}\\))?(?:\\s*[:|]|\\s*(?:\\.\\s*){3,}|\\s{3,}(?=\\S))\\s*(.+)$',
  'gim',
);

/**
 * A legal form closing a company's name: the word that says a line names a company, not a person or a place.
 * Matched at the end of the name, dots and case free ("S.R.L.", "Srl", "GmbH & Co. KG").
 */
const LEGAL_FORM =
  /(?<![\p{L}])(?:ltd|limited|plc|llp|llc|l\.l\.c|inc|incorporated|corp|corporation|gmbh(?:\s*&\s*co\.?\s*kg)?|ag|kg|ug|se|s\.?\s?r\.?\s?l|s\.?\s?p\.?\s?a|s\.?\s?a\.?\s?s|s\.?\s?n\.?\s?c|sarl|sas|s\.?\s?a|s\.?\s?l\.?(?:\s?u)?|b\.?\s?v|n\.?\s?v|ab|a\/s|as|aps|oy|oyj|sp\.\s*z\s*o\.\s*o|s\.?\s?r\.?\s?o|a\.s|kft|zrt|pty\.?\s+ltd|pte\.?\s+ltd|sdn\.?\s+bhd|ltda|lda|k\.?\s?k)\.?$/iu;

/** A company's name: two or more words, the last its legal form, no digits (an address line is no name). */
function companyName(segment: string): string | undefined {
  // A bracket after the name says what the company is part of or was ("… Inc. (a Northbridge Group company)",
  // "(formerly …)"): the name is what stands before it.
  const s = segment.replace(/\s*\([^()\n]*\)\s*$/, '').replace(/^[\s>*|•-]+|[\s,;]+$/g, '');
  if (s.length < 4 || s.length > 90 || /\d/.test(s) || /@|www\.|https?:/i.test(s)) return undefined;
  const words = s.split(/\s+/);
  if (words.length < 2 || !LEGAL_FORM.test(s)) return undefined;
  return s;
}

/** The company names a line holds, its segments split as a signature splits them ("Accounts - Acme S.r.l. | Como"). */
const namesOnLine = (line: string) => line.split(/\s+[-–|]\s+|\s*\|\s*|,\s+/).map(companyName).filter((n): n is string => n !== undefined);

/** "Company number", "Registered number", "Company registration no.", "Numero REA", "HRB 1234", "KvK-nummer". */
const REGISTRY_NUMBER = /^\s*(?:company\s+(?:registration\s+)?(?:number|no\.?)|regist(?:ered|ration)\s+(?:number|no\.?)|numero\s+rea|hrb\s*\d|kvk)/i;

/** Closings after which a sender signs: English, Italian, German, French, Spanish, Dutch, Nordic. */
const CLOSING =
  /^\s*(?:(?:kind|best|warm|warmest|many)\s+(?:regards|wishes|thanks)|regards|sincerely|yours\s+(?:sincerely|faithfully|truly)|thanks(?:\s+again)?|thank\s+you|cheers|cordiali\s+saluti|distinti\s+saluti|saluti|mit\s+freundlichen\s+gr(?:u|ue)(?:ss|ß)en|freundliche\s+gr(?:u|ue)(?:ss|ß)e|viele\s+gr(?:u|ue)(?:ss|ß)e|cordialement|bien\s+cordialement|saludos|atentamente|un\s+saludo|met\s+vriendelijke\s+groet(?:en)?|med\s+vennlig\s+hilsen|med\s+venlig\s+hilsen|med\s+vanliga\s+h[aä]lsningar|vanliga\s+h[aä]lsningar)[\s,.!]*$/i;

/** A quoted message or forward starts: its lines are another sender's. */
const QUOTE_START = /^\s*(?:>|-{2,}\s*(?:original|forwarded)|from:|on\s.+wrote:|_{5,})/i;

/** The company lines of each signature: the lines after a closing, up to a quoted message (at most eight lines). */
function signatureNames(lines: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!CLOSING.test(lines[i])) continue;
    for (let j = i + 1, seen = 0; j < lines.length && seen < 8; j++) {
      if (QUOTE_START.test(lines[j])) break;
      if (lines[j].trim() === '') {
        if (seen > 0) break;
        continue;
      }
      seen++;
      out.push(...namesOnLine(lines[j]));
    }
  }
  return out;
}

/** The heading of a registry extract: a company name alone on its line, the company number on the next one. */
function registryHeadings(lines: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < lines.length; i++) {
    const name = companyName(lines[i]);
    if (!name || name !== lines[i].trim().replace(/[\s,;]+$/, '')) continue;
    const next = lines.slice(i + 1).find((l) => l.trim() !== '');
    if (next !== undefined && REGISTRY_NUMBER.test(next)) out.push(name);
  }
  return out;
}

/**
 * A label standing mid-line after a sentence ("Thanks for the call. Company: Ridgeback Tools Ltd, VAT …"): the same
 * label a line would start with, capitalised as a label is; its value runs to the next comma, bracket or sentence end.
 */
const MID_LABEL =
  /(?:[.!?;]\s+|\s{2,}|\t)(?:Company(?:\s+name)?|Legal\s+name|Registered\s+name|Vendor|Supplier|Trading\s+name|Trading\s+as)\s*:\s*([^,;|(\n]+?)(?=\s*(?:[,;|(\n]|\.\s|\.?$))/gmu;

/**
 * A trading name the document ties to a legal name ("MTHEMBU FLEET SERVICES (PTY) LTD T/A FLEETPRO GAUTENG", "Acme
 * Ltd trading as Acme Signs", "Bakkerij Jansen B.V. h/a Broodhuys", "Lone Oak LLC dba Oak Coffee"): when the legal
 * name is one the document gives the vendor, the trading name is the vendor's too, the same legal person.
 */
export const TRADES_AS = '(?:t\\/a|trading\\s+as|h\\/a|handelend\\s+als|handelnd\\s+als|d\\/b\\/a|dba|doing\\s+business\\s+as|operating\\s+as)';
const TRADING_AS = new RegExp(`([\\p{L}\\p{N}&.'’() -]{3,80}?)\\s+${TRADES_AS}\\s+([\\p{L}\\p{N}&.'’ -]{2,60})`, 'giu');

function tiedTradingNames(prose: string, names: string[]): string[] {
  const own = names.map(nameTokens).filter((t) => t.length > 0);
  const out: string[] = [];
  for (const m of prose.matchAll(TRADING_AS)) {
    const legal = nameTokens(m[1]);
    if (legal.length === 0 || !own.some((v) => v.every((w) => legal.includes(w)))) continue;
    const trading = m[2].replace(/\s+(?:-|–)\s+.*$/, '').trim();
    if (nameTokens(trading).length > 0) out.push(trading);
  }
  return out;
}

/** Legal-form and filler words that do not tell two names apart (short ones, inc, llc, ltd, co…, go by length). */
const LEGAL_WORDS = new Set(
  'limited company corp corporation incorporated gmbh group the and anonim sirketi limitada sociedad sociedade spolka empresaria aktiengesellschaft gesellschaft haftung responsabilite responsabilidad limitee besloten vennootschap jusikhoesa kabushiki kaisha'.split(' '),
);
/** The Korean, Japanese and Chinese legal forms, written onto the name without a space (주식회사 대한정밀, 株式会社みなと精機). */
const CJK_LEGAL_FORM = new RegExp('주식회사|유한회사|\\(주\\)|株式会社|有限会社|合同会社|股份有限公司|有限责任公司|有限公司'.normalize('NFD'), 'gu');
/** Letters the normal form keeps that a bank's holder field writes plain (Wrocław → WROCLAW, Ørsted → ORSTED). */
const PLAIN: Record<string, string> = { ł: 'l', ø: 'o', đ: 'd', ı: 'i', ß: 'ss', æ: 'ae', œ: 'oe', þ: 'th', ð: 'd' };
export const nameTokens = (name: string) =>
  name
    .toLowerCase()
    .replace(CJK_LEGAL_FORM, ' ')
    .replace(/[łøđıßæœþð]/gu, (c) => PLAIN[c])
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .split(/\s+/)
    .filter((w) => w.length > 3 && !LEGAL_WORDS.has(w));

/** A label left without a name ("Doing Business As: (none)", "Trading name: N/A", "same as above"). */
const NO_NAME = /^[(\[]?\s*(?:none|n\/?a|nil|not\s+applicable|same(?:\s+as\s+(?:above|legal\s+name))?|as\s+above|-+|keine|aucun|ninguno)\s*[)\]]?\.?$/i;

/**
 * A vendor record exported as JSON (a payables platform's API object): its name keys, camel- or snake-cased
 * ("legalName", "company_name", "vendorProfileName"), and the bare "name" only among the record's top-level keys (the
 * least indented), since a nested "name" is a contact's, a bank's or a field's.
 */
const JSON_NAME_KEY = /^([ \t]*)"((?:legal|company|vendor|supplier|business|registered|entity|trading|vendor[_]?profile)[_]?name|name)"\s*:\s*"([^"\n]{2,90})"/gimu;
function jsonNames(prose: string): string[] {
  const keys = [...prose.matchAll(/^([ \t]*)"[^"\n]+"\s*:/gm)];
  if (keys.length < 3) return [];
  const top = Math.min(...keys.map((k) => k[1].length));
  const out: string[] = [];
  for (const m of prose.matchAll(JSON_NAME_KEY)) {
    if (m[2].toLowerCase() === 'name' && m[1].length !== top) continue;
    out.push(m[3]);
  }
  return out;
}

/** Every name the document gives the vendor (see the module comment), for comparing payees. */
export function vendorNames(prose: string, email?: EmailFacts): string[] {
  const names: string[] = [];
  for (const m of prose.matchAll(NAME_LABEL)) names.push(m[1].replace(/\s+-\s+.*$/, '').replace(/\s{3,}\S.*$/, ''));
  // A W-9 / W-8 pasted from its PDF puts the name on the line under "1 Name of entity/individual…".
  for (const m of prose.matchAll(/^\s*1\s+name\s+of\s+[^\n]*\n\s*([^\n]+)/gim)) names.push(m[1]);
  const lines = prose.split('\n');
  for (const m of prose.matchAll(MID_LABEL)) names.push(m[1]);
  names.push(...registryHeadings(lines), ...signatureNames(lines), ...jsonNames(prose));
  names.push(...tiedTradingNames(prose, names));
  // The sender's display name stands in only when the document names the company nowhere else: it is most often a
  // person, and an account in the sender's own name is not the company's.
  const found = names.map((n) => n.trim()).filter((n) => n.length > 1 && !NO_NAME.test(n));
  if (found.length === 0 && email?.sender?.name) found.push(email.sender.name.trim());
  return found;
}
