/**
 * Header facts of a printed document wherever the form puts them: after a label on the same line ("Your PO #:
 * PO-1107", "P.O. NO.    1214"), or under a label in a header row ("CUSTOMER PO" above "1042", "Bestellnummer/Datum"
 * above "4500018734 / 03.02.2026", "Vendor" above the vendor's name).
 */
import { tokenize } from './text-columns.js';

/**
 * Labels that name the buyer's PO. A bare "Order No." is the vendor's sales order on an invoice, so only a PO's; so
 * is a bare Portuguese "Encomenda n.º" / "N.º da encomenda" (the invoice's "V/ Encomenda" is the buyer's).
 */
/**
 * Norwegian, Danish and Swedish labels: the buyer's own ("Innkjøpsordre", "Inköpsorder nr", "Indkøbsordre") and, on an
 * invoice, the buyer's order it bills ("Deres ordre", "Ert ordernr", "Er beställning", "Jeres ordre"); a bare
 * "Ordrenr." / "Ordernr" / "Bestillingsnr." is the document's own order, so the buyer's only on a PO (weak, like
 * "Order No."). Hebrew:
 * הזמנתכם (your order) on an invoice; מס' הזמנה / הזמנה מס' (order number) only on a PO.
 */
const NORDIC = String.raw`(?:deres|jeres|ert|er)\s+(?:ordre|order|bestilling|beställning)s?(?:\s*(?:nr\.?|nummer))?|innkj[øo]psordre(?:\s*nr\.?|nr\.?|nummer)?|ink[öo]psorder(?:\s*nr\.?|nr\.?|nummer)?|indk[øo]bsordre(?:\s*nr\.?|nr\.?|nummer)?|ordre(?:nr\.?|nummer)|ordernr\.?|bestillings?(?:nr\.?|nummer)|beställnings?(?:nr\.?|nummer)|הזמנתכם|(?:מס['׳]|מספר)\s+הזמנה|הזמנה\s+(?:מס['׳]|מספר)`;
const PO_LABEL = new RegExp(/(?:^|[\s(|])((?:(?:customer|cust\.?|your|uw|vs\.?|our|buyer'?s) ?)?(?:p\.\s?o\.?|po|purchase\s+order|bestellnummer|bestelnummer|bestelling|bestellung|ordine(?:\s+(?:a\s+fornitore|di\s+acquisto|d['’]acquisto|fornitore))?)(?:\s*\/\s*s\.\s?o\.?)?(?:\s*(?:no\.?|number|num|nr\.?|#|nummer|ref\.?|n\.))?(?:\s*\/\s*(?:date|datum))?|your\s+order|customer\s+order(?:\s*(?:no\.?|number|#))?|order(?:\s*(?:no\.?|number|#))?|n[o°]\.?\s*(?:de\s+)?pedido|pedido(?:\s+de\s+compra)?(?:\s*n[o°]\.?)?|orden\s+de\s+compra(?:\s*n[o°]\.?)?|bon\s+de\s+commande(?:\s*n[o°]\.?)?|votre\s+commande(?:\s*n[o°]\.?)?|n[o°]\.?\s*(?:de\s+)?commande|(?:nr\.?|numer)\s+zam[óo]wienia|(?:[čc][íi]slo|[čc]\.)\s+objedn[áa]vky|(?:va[šs]e|na[šs]e)\s+objedn[áa]vka(?:\s+[čc]\.)?|sipari[şs]\s+(?:no|numaras[ıi])|rendel[ée]ssz[áa]m|comanda\s+nr\.?|zam[óo]wienie\s+do\s+dostawcy(?:\s+nr\.?)?|zam[óo]wienie\s+klienta(?:\s+nr\.?)?|zam[óo]wienie(?:\s+zakupu)?(?:\s+nr\.?)?|(?:v\/|vossa|sua|seu|su|vuestro)\s*(?:encomenda|pedido)(?:\s*n\.?\s*o\.?)?|nota\s+de\s+encomenda(?:\s+a\s+fornecedor)?(?:\s*n\.?\s*o\.?)?|encomenda\s*n\.?\s*o\.?|n\.?\s*o\.?\s*(?:da\s+)?encomenda|(?:vostro|vs\.?|rif\.?)\s+ordine(?:\s*n\.?)?|folio|votre\s+r[ée]f(?:[ée]rence)?\.?|ご?注文番号|発注番号|注文\s*no\.?|inkooporder|aankooporder|bestelbon(?:\s*(?:nr\.?|nummer))?|ordernummer|(?:onze\s+)?orderreferentie|uw\s+(?:referentie|ordernummer|bestelling|bestelbon)|tilausnumero|ostotilaus(?:\s*nro)?|purchase\s+(?:no\.?|number|#)|voucher\s+no\.?|buyer'?s\s+order(?:\s*(?:no\.?|number|#))?|NORDIC_LABELS)\s*[:#]?\s*(?=\s|$)/.source.replace('NORDIC_LABELS', NORDIC), 'gi');
/**
 * An order number: letters and digits in groups joined by - / . _ # ("4500018734", "PO-PL-1129", "POLOC-2611-00214"),
 * with a digit somewhere; a date or an amount is none.
 */
const VALUE = /^#?[A-Za-z0-9]+(?:[-/._#][A-Za-z0-9]+)*$/;
/** A date under or after an order label is the order's date, never its number. */
const DATE = /^\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}$/;
const isValue = (t: string) => t.length <= 30 && (VALUE.test(t) || /^[A-Z]{1,4} \d[\w/.-]*$/.test(t)) && /\d/.test(t) && !DATE.test(t) && !/^\d{1,3}(?:,\d{3})*[.,]\d{2}$/.test(t);

/**
 * A word that is a PO number by its own prefix: "PO-0009213", "#PO4471", and one with a region or division segment
 * before the digits ("PO-UK-004817", "PO-DE-N-2231"); "POD-G-100N" (a gas strut's code) is none.
 */
const PO_WORD = /^#?PO(?:[-#]|(?=\d))(?:[A-Z]{1,4}-){0,2}\d[\w-]*$/i;

/** A title naming the document a purchase order, in the languages read. */
const TITLE_PO = /^\s*(?:purchase\s+order|orden\s+de\s+compra|pedido\s+de\s+compra|bon\s+de\s+commande|bestellung|ordine\s+(?:di\s+acquisto|fornitore)|注\s*文\s*書|発\s*注\s*書)\s*$/im;
const DOC_NUMBER = /(?:^|\s)(?:document\s*(?:no\.?|number|#)|doc\.?\s*(?:no\.?|#)|no\.?\s*de\s+documento|n[uú]mero\s+de\s+documento|n[o°]\.?\s*(?:du\s+)?document)\s*:?\s*(\S+)/i;

/**
 * An order number written as its series and number apart, as Iberian and Polish ERPs print them ("NE 2024/0317",
 * "ZD 45/2024", "PC 2024-0577"): a short capital series code, one space, then the number.
 */
function seriesValue(after: string): string | undefined {
  const m = /^([A-Z]{1,4}) (\d[\w/.-]*)(?:\s|$)/.exec(after);
  return m && isValue(m[2]) ? `${m[1]} ${m[2]}` : undefined;
}

function clean(v: string): string {
  return v.replace(/[.,;:)]+$/, '').replace(/^#/, '');
}

export function findPoNumber(lines: string[], invoice: boolean): string | undefined {
  const found: { value: string; strong: boolean }[] = [];
  lines.forEach((line, i) => {
    if (line.length > 400) return;
    for (const m of line.matchAll(PO_LABEL)) {
      const label = m[1];
      const strong = !/^(?:order\b|folio\b|encomenda\b|n\.?\s*o\.?\s*(?:da\s+)?encomenda|ordre(?:nr|nummer)|ordernr|bestillings?(?:nr|nummer)|beställnings?(?:nr|nummer)|מס['׳]\s|מספר\s|הזמנה\s)/i.test(label.trim());
      const labelEnd = m.index + m[0].indexOf(label) + label.length;
      // A reference is the reader's: "Uw referentie" on an invoice is the buyer's (its PO), on a PO the vendor's
      // quotation; "Onze orderreferentie" on a PO is its own number, on an invoice the vendor's sales order.
      if ((/^(?:uw\s+referentie|votre\s+r[ée]f)/i.test(label) && !invoice) || (/^(?:onze\s|voucher)/i.test(label) && invoice)) continue;
      // "PO Box 310" is an address.
      if (/^\s*box\b/i.test(line.slice(labelEnd))) continue;
      if (!strong && invoice) continue;
      const labelStart = m.index + m[0].indexOf(label);
      const after = line.slice(labelStart + label.length).replace(/^\s*[:#]?\s*/, '');
      // "Su orden de compra OC-000873." : a sentence's full stop is no part of the number.
      const sameLine = seriesValue(after) ?? (after.split(/\s+/)[0] ?? '').replace(/[.,;:)]+$/, '');
      // Same line: the first word after the label, unless two or more spaces lead to another column's label.
      const gap = /^\s*[:#]?(\s*)/.exec(line.slice(labelStart + label.length))?.[1].length ?? 0;
      if (sameLine && isValue(sameLine) && (gap < 12 || /:|#/.test(line.slice(labelStart + label.length, labelStart + label.length + 2)))) {
        found.push({ value: clean(sameLine), strong });
        continue;
      }
      // Below: the word under the label on the next non-empty line.
      for (let j = i + 1; j < Math.min(lines.length, i + 3); j++) {
        if (lines[j].trim() === '') continue;
        const under = tokenize(lines[j]).find((t) => t.end > labelStart - 2 && t.start < labelStart + label.length + 2);
        if (under && isValue(under.text)) found.push({ value: clean(under.text), strong });
        break;
      }
    }
  });
  const best = found.find((f) => f.strong) ?? found[0];
  if (best) return best.value;
  // A purchase order's own document number ("ORDEN DE COMPRA … No. de documento: 1873") is its PO number.
  if (!invoice && lines.some((l) => TITLE_PO.test(l))) {
    for (const line of lines) {
      const m = DOC_NUMBER.exec(line);
      const value = m?.[1];
      if (value && isValue(value)) return clean(value);
    }
  }
  // No label: one PO-numbered word the document repeats or states once ("Reference  PO-0009213").
  const words = new Set(lines.filter((l) => l.length <= 400).flatMap((l) => l.split(/[\s,;()]+/)).filter((w) => PO_WORD.test(w)).map((w) => clean(w).toUpperCase()));
  return words.size === 1 ? [...words][0] : undefined;
}

/** A line that is only the document's title and copy marks ("TAX INVOICE    ORIGINAL FOR RECIPIENT", "FACTURE"). */
const TITLE_ONLY = /^\s*(?:(?:tax\s+|commercial\s+|proforma\s+)?invoice|facture|factura|rechnung|fattura|factuur|請\s*求\s*書)(?:\s{2,}\(?(?:original|duplicate|triplicate)(?:\s+for\s+\w+)?\)?|\s{2,}copy)?\s*$/i;

const VENDOR_WORDS = String.raw`vendor|supplier|lieferant|fornitore|leverancier|sold by|from|proveedor|fournisseur|fornecedor|emitente|dostawca|sprzedawca|dodavatel|tedarik[çc]i|toimittaja|leverand[øo]r|leverant[öo]r|kreditor|ספק`;
const VENDOR_LABEL = new RegExp(String.raw`^(${VENDOR_WORDS})(?![\p{L}\p{N}])\s*:?`, 'iu');
/** The buyer's labels, printed beside the vendor's ("Sprzedawca      Nabywca", "Fornecedor   Cliente"): never its name. */
const BUYER_LABEL = /^(?:nabywca|odbiorca|cliente|client|destinat[áa]rio|comprador|acquirente|committente|cessionario|acheteur|afnemer|klant|k[äa]ufer|kunde|buyer|customer|bill\s+to|odběratel|al[ıi]c[ıi])\b\s*:?$/i;

/**
 * The vendor: a "Vendor:" / "Supplier:" label (a vendor number after it sends the reading to the name below), the
 * "Vendor" column of a header row, an e-mail's From name; on an invoice, the letterhead's first words.
 */
const VENDOR_ANYWHERE = new RegExp(VENDOR_WORDS, 'i');
export function findVendor(lines: string[], invoice: boolean): string | undefined {
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].length > 400 || !VENDOR_ANYWHERE.test(lines[i])) continue;
    const toks = tokenize(lines[i]);
    // A label opens the line or a column ("Vendor", "Supplier:"), never a phrase ("Our vendor number").
    const at = toks.findIndex((t, k) => VENDOR_LABEL.test(t.text) && (k === 0 || t.start - toks[k - 1].end >= 2) && !/^(?:no\b|number|#|id\b|code|account|acct|acc\b|part|item|sku|article|ref)/i.test(toks[k + 1]?.text ?? ''));
    if (at < 0) continue;
    const t = toks[at];
    if (/^from:?$/i.test(t.text)) {
      if (at !== 0 || !invoice) continue;
      const name = /^From:\s*"?([^"<]+?)"?\s*</i.exec(lines[i].trim())?.[1];
      if (name && /\s/.test(name.trim())) return name.trim();
      continue;
    }
    // "Dostawca / Supplier:  …": the label in a second language after a slash is the same label.
    // "Supplier (Bill from)": a remark in brackets after the label is part of it.
    const segs = lines[i].slice(t.end).replace(/^\s*\([^)]{1,30}\)/, '').replace(/^\s*\/\s*[A-Za-z][A-Za-z ]{1,20}:/, '').replace(/^\s*:?\s*/, '').split(/\s{2,}/);
    // "Proveedor: P00415  SEGURIDAD INDUSTRIAL DEL NORTE", "Vendor: V-CA-0042  Prairie Lubricants Ltd.": the
    // vendor's number first (letter segments before its digits), its name after the gap.
    const rest = /^(?:[A-Z]{1,4}-){0,2}[A-Z]{0,3}-?\d{3,}(?:[/.-]\d{1,4})?$/i.test(segs[0] ?? '') && /[A-Za-z]{3}/.test(segs[1] ?? '') ? segs[1] : segs[0];
    // "Supplier:      Deliver To:": the next thing on the line is another column's label; the name is below.
    const another = /:$/.test(rest ?? '') || BUYER_LABEL.test(rest ?? '') || /^(?:ship|deliver|bill|sold|invoice|remit)\s+to\b|^(?:delivery|shipping|billing|invoice|remit)\s+address\b|^(?:voucher|invoice|order|po|document)\s+(?:no\.?|number|#)$|^dated?$/i.test(rest ?? '');
    // "Medisupply Scientific Ireland Ltd · Unit 12 …": the address after a separator is no part of the name.
    // "Vestland Tauverk AS, Damsgårdsveien 131, 5162 Laksevåg": a street address after a comma is no part of it either.
    if (rest && !another && /[A-Za-z]{3}/.test(rest) && !/^(?:#|no\b|number|name)/i.test(rest)) return withoutAddress(rest.split(/\s+[·•|]\s+/)[0].trim());
    for (let j = i + 1; j < Math.min(lines.length, i + 3); j++) {
      if (lines[j].trim() === '') continue;
      const seg = segmentAt(lines[j], t.start);
      if (seg && /[A-Za-z]{3}/.test(seg) && !/^(?:#|vendor|v-?\d)/i.test(seg)) return seg;
      break;
    }
  }
  if (invoice) {
    const filled = lines.filter((l) => l.trim() !== '');
    // A title line alone ("TAX INVOICE   ORIGINAL FOR RECIPIENT") may stand above the letterhead.
    const first = TITLE_ONLY.test(filled[0] ?? '') ? filled[1] : filled[0];
    const seg = first !== undefined && first.length < 200 ? first.trim().split(/\s{2,}/)[0] : undefined;
    // A letterhead is a name: words, no label or number sign ("PO Number: …" is not one).
    if (seg && /\p{L}{3}\S* \S/u.test(seg) && !/[:#@]|\d{3}/.test(seg) && !/invoice|factuur|fattura|rechnung|^[",]/i.test(seg)) return seg;
  }
  return undefined;
}

/**
 * A name with its address after a comma ("…AS, Damsgårdsveien 131, 5162 Laksevåg") or a dash ("… S.r.l. - Via …
 * 21"): the name, before the address.
 */
function withoutAddress(name: string): string {
  // "INOX EMILIA S.r.l. - Via dell'Artigianato 21, 41043 Formigine": a dash before the street address as well.
  const dash = /\s[-–—]\s/.exec(name);
  if (dash && /\d/.test(name.slice(dash.index)) && /\p{L}{2}/u.test(name.slice(0, dash.index))) return withoutAddress(name.slice(0, dash.index));
  const comma = name.indexOf(', ');
  return comma > 0 && /\d/.test(name.slice(comma)) && /\p{L}{2}/u.test(name.slice(0, comma)) ? name.slice(0, comma) : name;
}

/** The run of words (single-spaced) that covers column `col` of `line`. */
function segmentAt(line: string, col: number): string | undefined {
  const segs = [...line.matchAll(/\S+(?: \S+)*/g)];
  // A name printed indented a little under its label ("Supplier" above "  Silicon Valley …") is still under it.
  const hit = segs.find((m) => m.index <= col + 1 && m.index + m[0].length > col) ?? segs.find((m) => m.index > col && m.index <= col + 4);
  return hit?.[0].trim();
}

const NAMES: Record<string, string> = {
  'pounds sterling': 'GBP',
  'pound sterling': 'GBP', sterling: 'GBP', 'british pound': 'GBP', euro: 'EUR', euros: 'EUR', 'us dollar': 'USD',
  'us dollars': 'USD', 'canadian dollar': 'CAD', 'canadian dollars': 'CAD', '€': 'EUR', '£': 'GBP', 'us$': 'USD', '₹': 'INR', '円': 'JPY', '₪': 'ILS',
};
// "Euro pallet" names a standard size and "PL-EUR-HT" is an item code, not money: a code is a word of its own (not
// inside a hyphenated code), the euro by name beside an amount or as "euros".
const CODES = /(?<![-\w/])(USD|EUR|GBP|CAD|AUD|JPY|CHF|NZD|SEK|NOK|DKK|PLN|MXN|INR|CNY|SGD|HKD|ZAR|BRL|ILS)(?![-\w/])|€|£|₹|₪|円|\b(canadian dollars?|us dollars?|pounds? sterling|euros)\b|(?<=\d\s?)euro\b|\beuro(?=\s?\d|\s+only\b)/gi;
/** Without a currency header, the one currency the text names (codes, € / £, "Canadian dollars"); `$` names none. */
export function currencyIn(text: string): string | undefined {
  const found = new Set([...text.matchAll(CODES)].map((m) => currencyCode(m[0])));
  // ¥ is the yen in a Japanese document (kana on the page); elsewhere it may be the yuan, and names neither.
  if (/[¥￥]\s?\d/.test(text) && /[\u3040-\u30ff]/.test(text)) found.add('JPY');
  return found.size === 1 ? [...found][0] : undefined;
}

/** "Pound Sterling" → GBP, "usd" → USD; anything else as written (compared case-insensitively). */
export function currencyCode(text: string): string {
  const t = text.trim().toLowerCase();
  if (NAMES[t]) return NAMES[t];
  const m = /^([a-z]{3})\b/.exec(t);
  return m ? m[1].toUpperCase() : text.trim();
}
