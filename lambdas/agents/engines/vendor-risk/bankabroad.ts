/**
 * A bank account abroad (RULES.md rule 12): the vendor's bank, read from its SWIFT/BIC (letters five and six) or its
 * IBAN (first two letters), is in another country than the one the vendor is registered in, read from a
 * "Country / Jurisdiction of incorporation / registration" label (a country's name, or a Canadian province or US
 * state), and no reason is given (a form's "please explain why" left blank, or none asked). A company paid abroad for
 * no stated reason is how money leaves the vendor's reach; the practitioner asks why before setting up the payment.
 * When either country cannot be read, nothing is flagged (the other readings still stand).
 */
import { lineOf, type Finding } from './text.js';
import { bicCountries } from './codes.js';

const COUNTRY: [RegExp, string][] = [
  [/\b(?:canada|ontario|quebec|british\s+columbia|alberta|manitoba|saskatchewan|nova\s+scotia|new\s+brunswick|newfoundland|prince\s+edward\s+island|(?:OBCA|CBCA))\b/i, 'CA'],
  [/\b(?:united\s+states|u\.?s\.?a\.?|delaware|new\s+york|california|texas|illinois|ohio)\b/i, 'US'],
  [/\b(?:united\s+kingdom|england|scotland|wales|northern\s+ireland)\b/i, 'GB'],
  [/\b(?:germany|deutschland)\b/i, 'DE'],
  [/\b(?:france)\b/i, 'FR'],
  [/\b(?:netherlands|nederland)\b/i, 'NL'],
  [/\b(?:spain|espana)\b/i, 'ES'],
  [/\b(?:italy|italia)\b/i, 'IT'],
  [/\b(?:ireland)\b/i, 'IE'],
  [/\b(?:australia)\b/i, 'AU'],
  [/\b(?:singapore)\b/i, 'SG'],
  [/\b(?:hong\s+kong)\b/i, 'HK'],
  [/\b(?:japan)\b/i, 'JP'],
  [/\b(?:mexico)\b/i, 'MX'],
];
const NAMES: Record<string, string> = { CA: 'Canada', US: 'the United States', GB: 'the United Kingdom', HK: 'Hong Kong', SG: 'Singapore' };

const REGISTERED = /^[ \t>*-]*(?:country|jurisdiction|place|state|province)\s+of\s+(?:incorporation|registration|formation|organi[sz]ation)[^:\n]{0,20}:\s*(.+)$/gim;
const IBAN = /(?<![\p{L}])(?:IBAN|Iban|iban)\s*[:#]?\s*([A-Z]{2})\d{2}[ ]?[A-Z0-9]{4}/gu;
/** The form's own question why the account is abroad, and its answer on the rest of the line. */
const WHY = /(?:explain\s+why|(?:reason|why)[^:?\n]{0,60}(?:bank|account|abroad|country)[^:?\n]{0,40})\s*[:?]\s*([^\n]*)$/gim;
/** The question must be about where the account is (not "Reason for request: New supplier"). */
const ABOUT_BANK = /(?<![\p{L}])(?:bank|account|abroad|country|outside)(?![\p{L}])/iu;

export function findBankAbroad(prose: string): Finding | undefined {
  let home: string | undefined;
  for (const m of prose.matchAll(REGISTERED)) {
    home = COUNTRY.find(([re]) => re.test(m[1]))?.[1];
    if (home) break;
  }
  if (!home) return undefined;
  let bank: { code: string; at: number } | undefined = bicCountries(prose)[0];
  if (!bank) for (const m of prose.matchAll(IBAN)) {
    bank = { code: m[1], at: m.index };
    break;
  }
  if (!bank || bank.code === home) return undefined;
  for (const m of prose.matchAll(WHY)) {
    if (!ABOUT_BANK.test(prose.slice(Math.max(0, m.index - 200), m.index + m[0].length - m[1].length))) continue;
    if (/\p{L}{3,}/u.test(m[1])) return undefined;
  }
  const where = NAMES[bank.code] ?? bank.code;
  return { detail: `bank account in ${where} while the vendor is registered in ${NAMES[home] ?? home}, no reason given ("${lineOf(prose, bank.at)}")`, at: bank.at, end: bank.at + 4 };
}
