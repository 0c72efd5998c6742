/**
 * Rule 3 of RULES.md, missing tax id: whether the profile shows a tax number or a W-9 / W-8 on file, or says one is
 * not there yet, and the line it shows it on.
 */
import { B, E, clauseAfter, clauseBefore, lineOf, matches, type Finding } from './text.js';

const BARE_EIN = /(?<![\d-])\d{2}-\d{7}(?![\d-])/u;
const BARE_VAT = /(?<![\p{L}\p{N}])(?:ATU\d{8}|CHE-?\d{3}\.?\d{3}\.?\d{3}|PL\d{10}|BE0\d{9}|DE\d{9}|FR[0-9A-Z]{2}\d{9}|GB\d{9}(?:\d{3})?|NL\d{9}B\d{2}|IT\d{11}|ES[0-9A-Z]\d{7}[0-9A-Z]|IE\d{7}[A-Z]{1,2})(?![\p{L}\p{N}])/u;

/**
 * A label as a certificate prints it: Korean, Japanese and Chinese certificates set their labels letter-spaced
 * ("사 업 자 등 록 증", "등 록 번 호"), so any spacing may stand between the letters. Built before the normal form's
 * NFD, so each Hangul syllable keeps its letters together.
 */
const spaced = (word: string) => [...word].map((c) => c.normalize('NFD')).join('\\s*');
/**
 * A Korean business registration number (000-00-00000, a shape no other Korean number has: the corporate registry
 * number is 000000-0000000) under a label that names it: the English ones ("Business Registration No.", "BRN", "Biz
 * Reg No"), the certificate's own 등록번호 / 사업자번호 (the 사업자등록증 the tax office issues prints the number as
 * "등록번호"), or the National Tax Service's status look-up of it ("NTS 사업자 상태조회 for 609-81-…", hometax). The tax
 * office issues it and it is the vendor's VAT number.
 */
const KOREAN_BRN = new RegExp(
  `(?:(?<![\\p{L}])(?:business\\s+reg(?:istration|\\.)?|biz\\.?\\s+reg\\.?|BRN|NTS|hometax)|${['등록번호', '사업자번호', '사업자', '홈택스', '국세청'].map(spaced).join('|')})` +
    `[^\\n\\d]{0,40}(?<![\\d-])\\d{3}-\\d{2}-\\d{5}(?![\\d-])`,
  'iu',
);

export function hasTaxNumber(text: string): boolean {
  return !!readTaxNumbers(text).number || BARE_EIN.test(text) || BARE_VAT.test(text) || KOREAN_BRN.test(text);
}

const W_FORM = new RegExp(`${B}(?:form\\s+)?W-?\\s?(?:9|8\\s?-?BEN(?:-?E)?|8\\s?-?ECI)${E}`, 'giu');
const FORM_MISSING_BEFORE =
  /(?<![\p{L}])(?:no|not|without|missing|awaiting|pending|unsigned|unable\s+to\s+provide|cannot\s+provide|can't\s+provide|refuse[sd]?\s+to\s+provide|(?:will|'ll)\s+(?:send|provide|submit|complete|forward|return|follow\s+up\s+with)|to\s+follow(?:\s+with)?)\s+(?:(?:a|the|our|any|signed|completed|copy\s+of)\s+)*$/iu;
/** Words that say a form or number is not there yet, as a value ("W-9: to follow", "EIN: applied for"). */
const NOT_YET_WORDS =
  "(?:not|no|none|n\\/a|pending|applied\\s+for|to\\s+(?:follow|come)|will\\s+(?:have\\s+to\\s+)?follow|(?:will|'ll)\\s+(?:send|provide|complete|supply|submit|forward|give)|outstanding|missing|later|requested|tbd|tba|awaiting|unavailable|expired|unsigned|coming|being\\s+prepared|in\\s+progress|after\\s+(?:approval|(?:the\\s+)?first\\s+order))(?![\\p{L}])";
const FORM_MISSING_AFTER = new RegExp(`^\\s*(?:form\\s*)?[:-]?\\s*(?:is\\s+|was\\s+|has\\s+|will\\s+be\\s+|to\\s+be\\s+|provided\\s+|sent\\s+)?${NOT_YET_WORDS}`, 'iu');
const FORM_PRESENT_AFTER =
  /^\s*(?:form\s*)?(?:\([^)]{0,30}\)\s*)?[:-]?\s*(?:is\s+|was\s+|has\s+been\s+|have\s+been\s+)?(?:on\s+file|attached|enclosed|received|provided|submitted|signed|included|collected|yes|y|ok|completed|uploaded|in\s+hand|verified|filed|(?:came|come|is|was)\s+back|returned|\u2713|\u2714|x)(?![\p{L}])/iu;
const FORM_PRESENT_BEFORE = /(?<![\p{L}])(?:attached|enclosed|signed|completed|received|have|has|provided|submitted|uploaded)\s+(?:(?:a|the|our|is|are|its|your|copy\s+of)\s+)*$/iu;

/** Tax-number labels of the forms vendors send (US, EU, UK, Canada, Latin America, Türkiye, CIS…). */
const TIN =
  `(?:EIN|FEIN|TIN|ITIN|SSN|FTIN|employer\\s+identification\\s+number|social\\s+security\\s+number|taxpayer\\s+identification\\s+number|foreign\\s+tax\\s+identifying\\s+number|tax\\s*(?:payer\\s*)?(?:id(?:entification)?|no\\.?|number|reg(?:istration)?(?:\\s+(?:number|no\\.?))?)|VAT(?:\\s*(?:reg(?:istration)?|id|no\\.?|number))*|USt-?IdNr\\.?|Steuernummer|GST(?:IN)?|HST|QST|PST|TPS|TVQ|TVH|ABN|UTR|SIRE[NT]|NIF|NIPC?|CIF|RFC|RUT|RUC|CUIT|CNPJ|INN|UNP|VKN|TRN|business\\s+number|partita\\s+iva|codice\\s+fiscale|TVA(?:\\s+intra-?communautaire)?|BTW(?:-?(?:nummer|nr\\.?|id))?|numero\\s+d'identification(?:\\s+(?:fiscale|TVA))?` +
  // The tax numbers of the other countries vendors register in, by the label their certificates print: Brazil's
  // CPF, Argentina's CUIL, Colombia's and Central America's NIT, Venezuela's RIF, Türkiye's "vergi kimlik no",
  // Czechia's and Slovakia's DIČ, Croatia's OIB, Hungary's adószám, Switzerland's MWST, Norway's MVA, Denmark's CVR,
  // Finland's ALV / Y-tunnus, Belgium's ondernemingsnummer, Sweden's momsregistreringsnummer, Indonesia's NPWP,
  // Vietnam's MST / mã số thuế, Pakistan's NTN, Kenya's KRA PIN, New Zealand's IRD number, Russia's ИНН, Ukraine's ЄДРПОУ.
  `|CPF|CUIL|NIT|RIF|vergi\\s+(?:kimlik\\s+)?(?:no|numarasi|numaras[ıi])|DIC|OIB|adoszam|MWST(?:-?nr\\.?)?|MVA|CVR|ALV|Y-tunnus|ondernemingsnummer|numero\\s+d'entreprise` +
  `|momsreg\\p{L}*|NPWP|MST|ma\\s+so\\s+thue|NTN|KRA\\s+PIN|IRD\\s+(?:no\\.?|number)|ИНН|ЕДРПОУ|ЄДРПОУ)${E}`;
/**
 * Korea's, Japan's, China's and Taiwan's labels, written without spaces (so without a word guard): 사업자등록번호 (the
 * business registration number the tax office issues, the Korean VAT number), 法人番号 and the invoice 登録番号, 统一社会信用代码
 * and 纳税人识别号, 統一編號, 税号.
 */
const CJK_TIN = `(?:${['사업자등록번호', '法人番号', '登録番号', '统一社会信用代码', '統一社會信用代碼', '纳税人识别号', '納稅人識別號', '統一編號', '统一编号', '税号', '稅號'].map(spaced).join('|')})`;
const TIN_LABEL = new RegExp(`${B}${TIN}|${CJK_TIN}`, 'giu');
const TAXID_LATER = new RegExp(`${B}(?:(?:no|without|missing)|(?:will|to)\\s+(?:provide|send|supply|share)(?:\\s+(?:the|our|a|its))?)\\s+${TIN}`, 'iu');
/**
 * What may stand between a label and its value: punctuation, a portal's required-field star ("VAT registration
 * number*") and the label's own words ("NIF (tax id):", "Tax ID / EIN:", "N° TVA intracommunautaire :"), and the
 * separator of a semicolon export's cell ("SIREN;412 837 569").
 */
const FILLER =
  /^(?:[\s:#=/().\[*;,"|-]|\((?:[^()\n\d]|\d+\s+(?:digits?|characters?))*\)|(?<![\p{L}])(?:no|nr|n°|number|num|numero|id|ein|tin|tax|vat|tva|gst|hst|qst|bn|is|reg|registration|account|if\s+any|if\s+required|see\s+instructions|intra-?communautaire)(?![\p{L}]))*/iu;
/** A tax number as written: optional letters, then digits with spaces, dashes, slashes or dots between (≥ 6 digits). */
const NUMBER_VALUE = /^[A-Z]{0,4}[\s-]?\d[\dA-Z \-/.]*/iu;
/**
 * A number masked on the copy ("XXX-XX-4417", "***-**-4417", "•••••6620"): the document had one and redacted it, as
 * a copy passed around should; it is a number on file, not a missing one.
 */
const MASKED = /^(?:[X*•#]{3}-?[X*•#]{2}-?\d{4}|[X*•#]{2}-?[X*•#]{3}\d{4}|[X*•#]{4,}\s?\d{3,4})(?![\dA-Z])/iu;
/** A value that says the number is not there yet. */
const NOT_YET = new RegExp(`^(?:we\\s+|i\\s+|it\\s+|they\\s+)?(?:is\\s+|are\\s+|will\\s+be\\s+)?${NOT_YET_WORDS}`, 'iu');

/** One box of a comb field holding one character. */
const COMB_BOX = /\[\s?([\dA-Z])\s?\]/giu;

const digits = (s: string) => (s.match(/\d/g) ?? []).length;

export interface TaxReading {
  /** The line that shows a tax number. */
  number?: string;
  /** The line that says the number is not there yet, and where. */
  notYet?: string;
  notYetAt?: number;
  /** Where a tax-number label stands with nothing after it or under it (an empty box of a pasted form). */
  blankAt?: number;
}

/** Labelled tax numbers, on the label's line or (a pasted PDF form) on the next non-blank line under it. */
export function readTaxNumbers(text: string): TaxReading {
  const out: TaxReading = {};
  for (const m of matches(TIN_LABEL, text)) {
    const label = m[0];
    // Short capitalised labels (INN, RUT, CIF…) are words too ("Holiday Inn"): they count only in capitals.
    if (/^[A-Za-z]{2,4}$/.test(label) && label !== label.toUpperCase()) continue;
    const lineEnd = text.indexOf('\n', m.index);
    // A PDF form's comb field pasted one character a box ("[5][4] - [2][7][1][9][0][6][3]") is the number it spells.
    // (A value is read from its first 200 characters: a megabyte line is not re-read at every label on it.)
    const rest = text.slice(m.index + label.length, Math.min(lineEnd < 0 ? text.length : lineEnd, m.index + label.length + 200)).replace(COMB_BOX, '$1');
    const value = rest.slice(FILLER.exec(rest)?.[0].length ?? 0);
    const here = NUMBER_VALUE.exec(value);
    if ((here && digits(here[0]) >= 6) || MASKED.test(value)) {
      out.number ??= lineOf(text, m.index);
      continue;
    }
    if (NOT_YET.test(value)) {
      out.notYetAt ??= m.index;
      out.notYet ??= lineOf(text, m.index);
      continue;
    }
    if (value.trim() !== '' || lineEnd < 0) continue;
    const under = nextLine(text, lineEnd);
    const below = under && { text: under.text.replace(COMB_BOX, '$1') };
    const whole = !!below && /^\s*[A-Z]{0,4}[\s-]?\d[\d \-/.]*\s*$/iu.test(below.text);
    if (below && whole && digits(below.text) >= 6) out.number ??= `${lineOf(text, m.index)} / ${below.text.trim()}`;
    else if (below && NOT_YET.test(below.text.trim())) {
      out.notYetAt ??= m.index;
      out.notYet ??= `${lineOf(text, m.index)} / ${below.text.trim()}`;
    } else out.blankAt ??= m.index;
  }
  return out;
}

function nextLine(text: string, from: number): { text: string } | undefined {
  let at = from;
  for (let k = 0; k < 3 && at >= 0 && at < text.length; k++) {
    const nl = text.indexOf('\n', at + 1);
    const line = text.slice(at + 1, nl < 0 ? text.length : nl);
    if (line.trim() !== '') return { text: line };
    at = nl;
  }
  return undefined;
}

/**
 * Signs that the document is about a vendor already in the payables file (an invoice, a notice about open
 * invoices or the vendor record): its tax id is in the master file, so a document that merely does not repeat it
 * shows no gap. A statement that the number is not there still counts.
 */
const EXISTING_VENDOR =
  /(?<![\p{L}])(?:(?:vendor|supplier)\s+(?:file|record|master)|have\s+on\s+file\s+for\s+us|(?:open|outstanding|unpaid)(?:\s+and\s+future)?\s+invoices|next\s+payment\s+run|valued\s+customer|customer\s*(?:#|no\.?\s|number|account)|(?:attached|enclosed)\s+(?:is|are|please\s+find)\s+(?:our\s+)?invoice|invoices?\s+dated|(?:EIN|tax\s+id)[^.\n]{0,40}unchanged)/iu;

/** The tax-documentation gap (with the line it rests on), or undefined when a tax number or a W-9 / W-8 on file is shown. */
export function findTaxGap(text: string): Finding | undefined {
  let present = false;
  let stated: Finding | undefined;
  for (const m of matches(W_FORM, text)) {
    const form = m[0].replace(/^form\s+/i, '').replace(/\s/g, '').toUpperCase();
    const before = clauseBefore(text, m.index).slice(-60);
    const after = clauseAfter(text, m.index + m[0].length, 60);
    if (FORM_MISSING_BEFORE.test(before) || FORM_MISSING_AFTER.test(after)) stated ??= { detail: `${form} stated as not provided ("${lineOf(text, m.index)}")`, at: m.index, end: m.index + m[0].length };
    else if (FORM_PRESENT_AFTER.test(after) || FORM_PRESENT_BEFORE.test(before)) present = true;
  }
  // A promise to send the form later outweighs another sentence that mentions the form: it is not on file today.
  if (stated) return stated;
  const read = readTaxNumbers(text);
  if (present || read.number || hasTaxNumber(text)) return undefined;
  if (read.notYet) return { detail: `tax id stated as not provided yet ("${read.notYet}")`, at: read.notYetAt };
  const later = TAXID_LATER.exec(text);
  if (later) return { detail: `tax id stated as not provided yet ("${lineOf(text, later.index)}")`, at: later.index };
  if (EXISTING_VENDOR.test(text)) return undefined;
  if (read.blankAt !== undefined) {
    return { detail: `no EIN/TIN/VAT number and no W-9 or W-8BEN on file (the tax number is left blank: "${lineOf(text, read.blankAt)}")`, at: read.blankAt };
  }
  return { detail: 'no EIN/TIN/VAT number and no W-9 or W-8BEN on file: none anywhere in the document' };
}

