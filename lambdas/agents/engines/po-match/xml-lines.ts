/**
 * What the line-oriented e-invoice formats (Facturae, CFDI) leave to the reader: the item code a description opens
 * with when the line has no code field, a freight or packing line that is a charge rather than an item, and the one
 * order the lines name when the format has no header field for the buyer's PO.
 */
import type { ChargeKind } from './document.js';

/** "LIM-0412 Guantes nitrilo …": a leading word with digits and letters or a hyphen is the item code. */
export function itemCodeOf(description: string | undefined): string | undefined {
  const first = description?.trim().split(/\s+/)[0]?.replace(/[:,]$/, '');
  if (!first || !/^[A-Z0-9][A-Za-z0-9._/-]{2,}$/.test(first) || !/\d/.test(first) || !/[A-Za-z-]/.test(first)) return undefined;
  return /[a-z]{3}/.test(first) ? undefined : first;
}

/**
 * Freight as a line, in the words of English, Spanish, French, German, Italian, Scandinavian and Hebrew invoices
 * ("Portes y embalaje", "Gastos de envío", "Frais de port", "Fracht", "Spese di trasporto", "Frakt", "Fragt", משלוח);
 * shipping supplies (boxes, labels) are goods.
 */
const FREIGHT = /^(?:freight|shipping(?!\s+(?:box|boxes|carton|cartons|bag|bags|label|labels|tape|supplies|materials?|containers?)\b)|delivery\s+(?:charge|fee|cost)s?|carriage|postage|portes|transporte|env[ií]o|gastos\s+de\s+(?:env[ií]o|transporte)|fletes?|frais\s+de\s+(?:port|transport|livraison)|port\s+(?:et|&)\s+emballage|emballage\s+et\s+port|fracht(?:kosten)?|versandkosten|trasporto|spese\s+di\s+(?:trasporto|spedizione)|frakt(?:kostnad(?:er)?|avgift|\s+og\s+emballasje|\s+och\s+emballage)?|fragt(?:omkostninger)?|emballasje\s+og\s+frakt)\b|^(?:משלוח|הובלה|דמי\s+משלוח)(?![\p{L}])/iu;
const FEE = /^(?:(?:fuel|energy|environmental|handling|small[\s-]+order)\s+(?:surcharge|fee|charge)|recargo|surcharge|suplemento|gastos\s+de\s+gesti[oó]n)\b/i;

/** The charge kind of a line that bills freight or a fee by name (its code or its description opens with it). */
export function chargeLine(description: string | undefined, code?: string): ChargeKind | undefined {
  // A code word before the description ("PORTES Portes y embalaje", "FRT-01 Freight") is passed over.
  const coded = /^[A-Z0-9][A-Z0-9._/-]+\s+/.test(description ?? '') ? description!.replace(/^\S+\s+/, '') : undefined;
  // The freight item code of small-business books (QuickBooks "FRT", "FRGT", "FREIGHT-01") bills freight whatever
  // the carrier's words after it ("FRT  UPS Ground freight"), where those words say freight or shipping too.
  const codeWord = code ?? description?.trim().split(/\s+/)[0];
  if (codeWord && /^(?:frt|frgt|frght)(?:[-_]?\d{1,3})?$/i.test(codeWord) && /\b(?:freight|shipping|carriage|delivery)\b/i.test(`${code ?? ''} ${description ?? ''}`)) return 'freight';
  for (const text of [code, description, coded]) {
    const t = text?.trim() ?? '';
    if (FREIGHT.test(t)) return 'freight';
    if (FEE.test(t)) return 'other';
  }
  return undefined;
}

/** The one order every line that names one names; lines naming different orders leave it unstated. */
export function orderOfLines(refs: (string | undefined)[]): string | undefined {
  const named = new Set(refs.map((r) => r?.trim()).filter((r): r is string => !!r));
  return named.size === 1 ? [...named][0] : undefined;
}
