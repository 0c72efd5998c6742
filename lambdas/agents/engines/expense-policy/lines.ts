/**
 * One line of a pasted document, read as a practitioner scans it: its indentation, the money on it (currency-marked
 * amounts in any position, and bare two-decimal figures such as receipt columns print), the label before the money,
 * and what kind of line it is (an item, a subtotal, a tax or tip line, a total, a payment, a balance). Rates ("$0.725",
 * "1.2655") and unit prices ("@9.00") are not amounts; dates, times, phone numbers and ids are not either.
 */
import { parseCents } from '../text/amount.js';
import { DATE_TOKEN, OTHER_CODES, currencyOf } from './words.js';

export interface Amt {
  cents: bigint;
  currency?: string;
  /** Character offset in the line. */
  at: number;
}

export type Kind = 'blank' | 'sep' | 'plain' | 'item' | 'subtotal' | 'total' | 'balance' | 'tax' | 'tip' | 'payment';

export interface Line {
  n: number;
  raw: string;
  indent: number;
  text: string;
  lower: string;
  amts: Amt[];
  /** The words before the first amount, lower case, a leading date dropped. */
  label: string;
  kind: Kind;
  /** Starts with a date ("03/23/2026", "2/11", "Feb 5") or a list marker ("1)", "2.", "-"). */
  dated: boolean;
  marked: boolean;
}

const CODES = `USD|EUR|GBP|CAD|AUD|JPY|${OTHER_CODES}`;
/** Signs of the currencies written after (or before) the figure in their countries. */
const LOCAL_SIGN: Record<string, string> = { 'zł': 'PLN', 'zl': 'PLN', 'kč': 'CZK', 'ft': 'HUF', 'lei': 'RON', '₺': 'TRY', 'r$': 'BRL', '₩': 'KRW', '₹': 'INR', '円': 'JPY', '元': 'CNY', '원': 'KRW', '₫': 'VND', 'rp': 'IDR', 'rm': 'MYR' };
const CODE_TOKEN = new RegExp(`^(?:${CODES}|US\\$|C\\$|A\\$|[$€£¥])$`, 'i');
const MONEYISH = /^[-(]?(?:US\$|C\$|A\$|[$€£¥])?-?\d[\d.,'\u00a0]*(?:[€£¥])?\)?$/i;
const LEAD_DATE = /^(?:\d{1,4}[/.-]\d{1,2}(?:[/.-]\d{2,4})?\.?|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{1,2}(?:st|nd|rd|th)?,?(?: \d{4})?|\d{1,2} (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?(?: \d{4})?)(?=\s|$)/i;
const NUMBERED_DATE = new RegExp(`^\\d{1,4}\\s+${LEAD_DATE.source.slice(1)}`, 'i');
const MARKER = /^(?:\d{1,2}[.)]|[-*•·]|\(\d{1,2}\)|[a-z][.)])\s+/i;

/** Every amount on a line, left to right. */
export function amountsIn(line: string): Amt[] {
  const out: Amt[] = [];
  const re = /\S+/g;
  const tokens: { t: string; at: number }[] = [];
  for (let m = re.exec(line); m !== null; m = re.exec(line)) tokens.push({ t: m[0], at: m.index });
  // A local currency's sign after the figure ("112,50 zł", "1 030,30 Kč", "R$ 96,00"): its ISO code.
  for (const tk of tokens) {
    const code = LOCAL_SIGN[tk.t.replace(/[,;:.]+$/, '').toLowerCase()];
    if (code) tk.t = code;
  }
  // "1 030,30 zł", "€ 1 250,00": thousands set apart by a space, the figure beside its currency.
  for (let i = tokens.length - 2; i >= 0; i--) {
    const [a, b] = [tokens[i], tokens[i + 1]];
    if (!/^\d{1,3}$/.test(a.t) || !/^\d{3}(?:[.,]\d{2})?$/.test(b.t.replace(/[,;:]+$/, '')) || b.at !== a.at + a.t.length + 1) continue;
    if (!CODE_TOKEN.test(tokens[i + 2]?.t.replace(/[,;:.]+$/, '') ?? '') && !CODE_TOKEN.test(tokens[i - 1]?.t ?? '')) continue;
    tokens.splice(i, 2, { t: `${a.t}${b.t}`.replace(/^(\d+)(\d{3})([.,]\d{2})?/, (_, x: string, y: string, z = '') => `${x}${y}${z}`), at: a.at });
  }
  for (let i = 0; i < tokens.length; i++) {
    // "Mon 10.11. to Thu 13.11.2025": a day and month with their closing dot is a date, not 10.11.
    if (DAY_MONTH.test(tokens[i].t)) continue;
    // "2 x EUR 30,00": the unit price of a quantity, a working of the line's amount, not a charge of its own.
    // "2 doby x 389,00 zł", "2 nights x 139.00": the count may carry its unit.
    const count = /^\d{1,3}$/.test(tokens[i - 2]?.t ?? '') || (/^\p{L}+\.?$/u.test(tokens[i - 2]?.t ?? '') && /^\d{1,3}$/.test(tokens[i - 3]?.t ?? ''));
    if (/^(?:x|×|\*)$/i.test(tokens[i - 1]?.t ?? '') && count) {
      if (CODE_TOKEN.test(tokens[i].t)) i++;
      continue;
    }
    let t = tokens[i].t.replace(/[,;:]+$/, '').replace(/\.$/, '').replace(/\/[a-z].*$/i, '');
    if (t.length === 0 || t.length > 24 || t.startsWith('@') || t.endsWith('%') || tokens[i + 1]?.t === '%') continue;
    // "2 nights @ £118.00": the unit price after a lone "@", a working of the line's amount.
    // "2 x bilet po 4,80 zł … 9,60", "3 Nächte à 95,00 € … 285,00": the unit price after "po"/"à"/"je", when the
    // line's own amount follows it.
    const each = /^(?:po|à|je)$/i.test(tokens[i - 1]?.t ?? '') && tokens.slice(i + 1).some((x) => /\d[.,]\d{2}(?!\d)/.test(x.t));
    if (tokens[i - 1]?.t === '@' || each) {
      if (CODE_TOKEN.test(t)) i++;
      continue;
    }
    if (DATE_TOKEN.test(t.replace(/[()]/g, ''))) continue;
    let code: string | undefined;
    let codeAfter = false;
    if (CODE_TOKEN.test(t) && i + 1 < tokens.length) {
      const next = tokens[i + 1].t.replace(/[,;:]+$/, '').replace(/\.$/, '');
      if (MONEYISH.test(next) && /\d/.test(next) && !DATE_TOKEN.test(next)) {
        code = t;
        t = next;
        i++;
      } else continue;
    } else if (i + 1 < tokens.length && CODE_TOKEN.test(tokens[i + 1].t.replace(/[,;:.]+$/, '')) && /\d$/.test(t) && !codeOpensNext(t, tokens[i + 2]?.t)) {
      code = tokens[i + 1].t.replace(/[,;:.]+$/, '');
      codeAfter = true;
    }
    if (!MONEYISH.test(t) || !/\d/.test(t)) continue;
    const marked = code !== undefined || /[$€£¥]/.test(t);
    // "14.21 miles", "4.93 ★ Rating", "2.50 kg": a bare figure with a unit after it is a measure, not money.
    if (!marked && UNIT.test(tokens[i + 1]?.t ?? '')) continue;
    const digits = t.replace(/^[-(]+|[)]+$/g, '').replace(/^(?:US\$|C\$|A\$|[$€£¥])/i, '').replace(/[€£¥]$/, '').replace(/^-/, '');
    // A bare figure is money only with two decimals (7.50, 1.190,03); a marked one may be whole (¥66,300, $75).
    if (!marked && !/^\d{1,3}(?:[.,'\u00a0]\d{3})*[.,]\d{2}$|^\d+[.,]\d{2}$/.test(digits)) continue;
    if (/[.,]\d{3,}$/.test(digits) && !/^\d{1,3}(?:[,.'\u00a0]\d{3})+$/.test(digits)) continue; // a rate
    const cents = parseCents(t.replace(/^(?:US\$|C\$|A\$)/i, '$'));
    if (cents === undefined) continue;
    const sign = `${code ?? ''}${t}`;
    const currency = /C\$/i.test(sign) ? 'CAD' : /A\$/i.test(sign) ? 'AUD' : currencyOf(sign.replace(/^US\$/i, '$'));
    out.push({ cents, currency, at: tokens[i].at });
    if (codeAfter) i++;
  }
  return out;
}

/** "Greenbelt 5  PHP 1,240.00": a code between a whole number and an amount is the amount's, not the number's. */
function codeOpensNext(t: string, after: string | undefined): boolean {
  return /^\d+$/.test(t) && after !== undefined && /^\d[\d.,']*[.,]\d{2}$/.test(after.replace(/[,;:]+$/, ''));
}

const DAY_MONTH = /^\(?(?:0?[1-9]|[12]\d|3[01])\.(?:0?[1-9]|1[0-2])\.\)?[,;:]?$/;
const UNIT = /^(?:miles?|mi|km|kms|kilomet(?:er|re)s?|min|mins|minutes?|hrs?|hours?|kg|kgs|lbs?|pounds|oz|kwh|gal|gallons?|l|lit(?:er|re)s?|pts|points|stars?|rating|★|☆|%)[.,;:)]*$/i;
/** "You earned $2.32 in Uber Cash", "points earned": a reward for later, not a charge or a payment of this one. */
const REWARD = /\b(?:you(?:'ve| have)? earned|uber cash|lyft cash|rewards? (?:earned|balance)|(?:points?|miles|cash) earned)\b/i;
/** A total that sums a claim ("Total to reimburse", "Report Total"), never one bill's. */
export const CLAIM_TOTAL = /\b(?:report|claim|claimed|claiming|expense report|expenses|reimburse|reimbursement|reimbursable)\b/;
const SUMMARY = /\b(?:sub-?total|total|totals|totaal|gesamtbetrag|summe|grand total|suma|totale|razem|celkem|összesen|toplam|jumlah|soma|totalt|yhteensä|ogółem)(?![\p{L}])|合計|合计|총계|합계/u;
const BALANCE = /\b(?:balance|saldo|amount due|due (?:to|employee|company)|due$)\b|^less:? (?:cash )?(?:advances?|company paid|prepaid|amounts? paid)\b|^amount payable to (?:the )?(?:traveller|traveler|employee|claimant|staff member)$/;
/** A report's settlement lines under its total ("Advance applied", "Amount to be reimbursed", "To reimburse
 * (personal)"): what is owed after the claim is summed, never an expense. */
const SETTLEMENT = /^(?:(?:net |total )?amount (?:to be |due to be )?reimbursed|(?:net |total |amount )?to (?:be )?reimburse(?:d)?\b|advances? (?:applied|paid|received|deducted|used)(?: [a-z]{3})?$|less advances?(?: [a-z]{3})?$)/;
/** The same lines in the languages of the reports read ("Avances perçues", "Net à rembourser", "Auszahlungsbetrag",
 * "Importe a reembolsar", "Totale da rimborsare"). */
const SETTLEMENT_INTL = /^(?:(?:net |montant |reste |total )?à rembourser|avances? (?:perçues?|reçues?|déduites?)|(?:erstattungs|auszahlungs)betrag|abzüglich (?:vorschuss|vorschüsse)|vorschuss|(?:importe |total )?a reembolsar|anticipos?(?: recibidos?)?|(?:totale |importo )?da rimborsare|anticipi(?: ricevuti)?)\b/u;
/** "Montant dû au salarié", "Montant payé par la société", "Avances": a French report's settlement lines. */
const SETTLEMENT_FR = /^(?:montant d[uû] (?:au |à l'|à la )?(?:salariée?|collaborat(?:eur|rice)|employée?)|montant (?:payé|réglé) par (?:la société|l'entreprise)|avances?)$/u;
const TAX = /\b(?:tax|taxes|vat|mwst|ust|gst|hst|pst|tva|iva|ptu|btw|moms)\b|税/;
const TIP = /^(?:tip|tips|gratuity|gratuities|trinkgeld|pourboire|propina|mancia|fooi|napiwek|dricks|drikkepenge|service charge|(?:discretionary|optional) service(?: charge)?)\b/;
/** A bilingual label ("Pourboire / Tip", "Gesamt / Total") names its line in each language: any of them tells. */
const anyPart = (re: RegExp, label: string) => re.test(label) || label.split(/\s+\/\s+/).some((p) => re.test(p));
const PAYMENT =
  /^(?:visa|mastercard|master card|amex|american express|discover|diners|jcb|debit|credit card|card|cash|change|tendered|payment|zahlung|gegeben|bar|bargeld|rückgeld|gotówka|reszta|karta|espèces|efectivo|contanti|resto|cambio|お預り|お釣り|クレジット|現金)\b|^(?:お預り|お釣り|クレジット)/;

/** "Total VAT 49,57", "SUMA PTU 6,59": the sum of the taxes printed in a breakdown (kind 'plain'), no expense. */
export function taxSummary(l: Line): boolean {
  return l.kind === 'plain' && l.amts.length > 0 && SUMMARY.test(l.label) && TAX.test(l.label);
}

export function readLines(text: string): Line[] {
  const lines = text.split(/\r?\n/).map((raw, n): Line => {
    const indent = raw.length - raw.trimStart().length;
    const text = raw.trim().replace(/\s+/g, ' ');
    const lower = text.toLowerCase();
    const amts = raw.length > 4000 || REWARD.test(raw) ? [] : amountsIn(raw.trim());
    const first = amts[0];
    const before = first ? raw.trim().slice(0, first.at) : raw.trim();
    const lead = LEAD_DATE.exec(before.trim());
    const label = (lead ? before.trim().slice(lead[0].length) : before).toLowerCase().replace(/[\s:.#*|/-]+$/, '').replace(/\s+/g, ' ').trim();
    // A report's numbered row ("   7 06/08/2026 M&IE …"): its line number, then its date.
    const dated = LEAD_DATE.test(text) || NUMBERED_DATE.test(text);
    const marked = MARKER.test(text) && !/^[-*=_]{3,}/.test(text);
    let kind: Kind;
    if (text.length === 0) kind = 'blank';
    else if (/^[-=_*~·.+|\s]{5,}$/.test(text)) kind = 'sep';
    else if (amts.length === 0) kind = 'plain';
    else if (/\bsub-?total\b/.test(label)) kind = 'subtotal';
    else if (BALANCE.test(label) || (!dated && !marked && (SETTLEMENT.test(label) || SETTLEMENT_INTL.test(label) || SETTLEMENT_FR.test(label)) && !SUMMARY.test(label))) kind = 'balance';
    // "SUMA PTU 6,59", "Total VAT": the sum of the taxes printed in a breakdown, not the bill's total.
    else if (SUMMARY.test(label) && TAX.test(label) && !/\b(?:incl|including|inc)\b/.test(label) && label.split(' ').length <= 3) kind = 'plain';
    else if (SUMMARY.test(label) || (!dated && !marked && /\btotal\b/.test(lower))) kind = 'total';
    else if (amts.some((a) => a.cents < 0n) || PAYMENT.test(label)) kind = 'payment';
    else if (anyPart(TIP, label)) kind = 'tip';
    else if (TAX.test(label) && label.split(' ').length <= 6 && !/[+]|,(?!\d)/.test(label)) kind = 'tax';
    else kind = 'item';
    return { n: n + 1, raw, indent, text, lower, amts, label, kind, dated, marked };
  });
  leadDayMonths(lines);
  for (let k = 1; k < lines.length; k++) {
    if (lines[k].kind !== 'item') continue;
    let j = k - 1;
    while (j > 0 && lines[j].kind === 'sep') j--;
    // "MN Sales + Mpls Downtown Tax" right under the subtotal: two taxes named on one line ("+" elsewhere is a
    // working: "room + taxes").
    if (lines[j].kind === 'subtotal' && /\btax(?:es)?$/.test(lines[k].label) && lines[k].label.split(' ').length <= 6) lines[k].kind = 'tax';
    // A bare "Amount" under the tax lines (a Clover or Square slip, before the tip) is the bill's running total.
    else if (lines[j].kind === 'tax' && /^(?:amount|sale|sale amount|purchase)$/.test(lines[k].label)) lines[k].kind = 'total';
  }
  return lines;
}

/** A bare day and month leading a line ("8.10", "24.3", "9.10"), no currency beside it. */
const LEAD_DAY_MONTH = /^(?:0?[1-9]|[12]\d|3[01])\.(?:0?[1-9]|1[0-2])(?=\s)/;

/**
 * A summary written day by day ("8.10  hotel -> customer  6.40", "9.10  customer -> port  10.20"): two or more lines
 * running one under the other, each led by a bare day and month and carrying an amount after its words, are dated
 * lines; the leading figure is the day, not a charge, and the amount at the line's end is the expense.
 */
function leadDayMonths(lines: Line[]): void {
  const leads = lines.map((l) =>
    l.amts.length >= 2 && LEAD_DAY_MONTH.test(l.text) && l.amts[0].currency === undefined && l.amts[0].at === 0 &&
    /\p{L}{2}/u.test(l.raw.trim().slice(0, l.amts[l.amts.length - 1].at)));
  for (let k = 0; k < lines.length; k++) {
    if (!leads[k] || !(leads[k - 1] || leads[k + 1])) continue;
    const l = lines[k];
    l.amts = l.amts.slice(1);
    l.dated = true;
    const before = l.raw.trim().slice(0, l.amts[0].at);
    l.label = before.replace(LEAD_DAY_MONTH, '').toLowerCase().replace(/[\s:.#*|/-]+$/, '').replace(/\s+/g, ' ').trim();
  }
}
