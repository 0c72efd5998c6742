/**
 * A hotel folio carries more than the room: taxes, parking, Wi-Fi, laundry. A policy may cap one kind of line
 * ("Hotel parking … actual, up to $60 per night"): that cap holds the folio's lines of that kind, not the whole folio.
 * It may pay the room taxes at cost on top of the nightly cap ("Lodging taxes are reimbursed at actual cost in addition
 * to the maximum lodging rate", "Nightly room rate, before taxes"): the tax lines are then not held to it. Lines held
 * to a cap of their own, and taxes paid in addition, are left out of the amount the room's cap is compared with.
 */
import type { Item } from './expense.js';
import type { Cap, Policy } from './policy-types.js';

/** Kinds of folio line a cap may be about, by the words naming them. */
const KINDS: [RegExp, string][] = [
  [/\b(?:parking|valet)\b/, 'parking'], [/\b(?:wi-?fi|internet)\b/, 'internet'], [/\b(?:laundry|dry cleaning)\b/, 'laundry'],
  [/\b(?:telephone|phone calls?)\b/, 'telephone'], [/\bresort fees?\b/, 'resort fee'],
];

/** The kind of line a lodging cap's own line is about: a kind named in its subject, before its amount. */
export function lineKind(policyLine: string): string | undefined {
  const subject = policyLine.toLowerCase().split(/[$€£¥]|\d/)[0].replace(/\b(?:including|includes|incl\.?|with|plus|excluding|and)\b.*$/, '');
  return KINDS.find(([re]) => re.test(subject))?.[1];
}

const kindRe = (kind: string) => KINDS.find(([, k]) => k === kind)?.[0];

/** The taxes paid in addition to the room's cap: the sentence or line saying so ("up to $200 plus tax"; not "the cap
 * is for the room rate plus room taxes", which says what the cap covers). */
export const TAXES_EXTRA = /\b(?:before|excluding|excl\.?|exclusive of|(?<!\brate )plus|not including) (?:room |hotel |lodging |occupancy )?tax(?:es)?\b|\b(?:room|lodging|hotel|occupancy) tax(?:es)?\b.*\b(?:actual|in addition to)\b|\b(?:gst|vat|sst|hst|service tax)\b[^.]*\b(?:in addition to|on top of)\b[^.]*\b(?:room|tariff|rate|cap|limit|hotel)/;

/** Whether the item's own words name the kind (a parking receipt, "Hotel parking 48.00"): the cap holds all of it. */
export function namesKind(item: Item, kind: string): boolean {
  const re = kindRe(kind);
  // An itemised item's text holds its lines: its own line (the label) says what it is.
  const own = item.parts && item.parts.length > 0 ? [item.label] : [item.label, item.text, item.evidence];
  return re !== undefined && re.test(own.filter(Boolean).join(' ').toLowerCase());
}

/** The folio's lines of the kind and their sum. */
export function linesOfKind(item: Item, kind: string): { cents: bigint; texts: string[] } | undefined {
  const re = kindRe(kind);
  const parts = (item.parts ?? []).filter((p) => p.kind === 'item' && re?.test(p.text.toLowerCase()));
  if (parts.length === 0) return undefined;
  return { cents: parts.reduce((s, p) => s + p.cents, 0n), texts: parts.map((p) => p.text) };
}

/** A folio's tourist tax as hotels print it ("Imposta di soggiorno", "Stadstaks", "Taxe de séjour", "Kurtaxe"). */
const TOURIST_TAX = /\b(?:city tax|tourist tax|imposta di soggiorno|tassa di soggiorno|taxe de s[ée]jour|stadstaks|toeristenbelasting|verblijfsbelasting|kurtaxe|city-tax|tasa tur[íi]stica|taxa tur[íi]stica)\b/;

/** What a room's cap is compared with: the amount less the lines held to a cap of their own and the taxes paid in addition. */
export function roomAmount(item: Item, amount: bigint, policy: Policy, caps: Cap[]): bigint {
  if (item.category !== 'lodging') return amount;
  if (!item.parts) {
    const taxes = policy.taxesExtra !== undefined ? describedTaxes(item) : undefined;
    return taxes !== undefined && taxes <= amount ? amount - taxes : amount;
  }
  const kinds = caps.filter((c) => c.kind !== undefined && c.category === 'lodging').map((c) => kindRe(c.kind!)).filter((re): re is RegExp => re !== undefined);
  let out = amount;
  for (const p of item.parts) {
    const t = p.text.toLowerCase();
    const tax = policy.taxesExtra !== undefined && (p.kind === 'tax' || /\btax(?:es)?\b/.test(t) || TOURIST_TAX.test(t));
    if (tax || (p.kind === 'item' && kinds.some((re) => re.test(t)))) out -= p.cents;
  }
  return out < 0n ? 0n : out;
}

const AMOUNT = String.raw`(?:[$€£]|usd|eur|gbp|chf|cad|aud)?\s?(\d{1,3}(?:[,.]\d{3})*[.,]\d{2}|\d+)`;
const NIGHTLY = String.raw`(\s?(?:\/|per |a |each )\s?(?:night|nt)\b)?`;
/** "Room 229.00/night + tax 34.92/night", "rate $189 plus taxes $24.10 per night": the room and its taxes. */
const DESCRIBED = new RegExp(String.raw`\b(?:room(?: rate| charge)?|rate|nightly rate)\s*:?\s*${AMOUNT}${NIGHTLY}\s*(?:\+|plus|and)\s*(?:room |occupancy |lodging |hotel )?tax(?:es)?\s*:?\s*${AMOUNT}${NIGHTLY}`, 'i');

const centsOf = (text: string): bigint => {
  const t = /[.,]\d{2}$/.test(text) ? text.replace(/[,.](?=\d{3}\b)/g, '').replace(',', '.') : `${text}.00`;
  const [whole, frac] = t.split('.');
  return BigInt(whole) * 100n + BigInt(frac);
};

/** "room 4,600.00 x 2 = 9,200.00 + GST 12% 1,104.00": the room's total over its nights, then the tax on it. */
const DESCRIBED_TOTAL = new RegExp(String.raw`\broom(?: rate| tariff| charge)?\s*:?\s*${AMOUNT}\s*(?:x|×)\s*\d{1,2}\s*=\s*${AMOUNT}\s*(?:\+|plus)\s*(?:gst|vat|sst|service tax|tax(?:es)?)(?:\s*@?\s*\d{1,2}(?:\.\d{1,2})?\s*%)?\s*:?\s*${AMOUNT}`, 'i');

/**
 * A lodging expense with no folio whose own words split it into the room and its taxes ("2 nights. Room 229.00/night
 * + tax 34.92/night"): the taxes, when the parts add up to the amount claimed (a night's parts times the nights, or
 * the parts as written). Parts that do not add up say nothing certain, and the whole amount stays the room's.
 */
export function describedTaxes(item: Item): bigint | undefined {
  const text = [item.text ?? item.evidence, item.label].filter(Boolean).join(' ');
  const total = DESCRIBED_TOTAL.exec(text);
  if (total) return centsOf(total[2]) + centsOf(total[3]) === item.cents ? centsOf(total[3]) : undefined;
  const said = DESCRIBED.exec(text);
  if (!said) return undefined;
  const room = centsOf(said[1]);
  const tax = centsOf(said[3]);
  const nights = item.nights ?? 1n;
  const roomTotal = said[2] ? room * nights : room;
  const taxTotal = said[4] ? tax * nights : tax;
  return roomTotal + taxTotal === item.cents ? taxTotal : undefined;
}
