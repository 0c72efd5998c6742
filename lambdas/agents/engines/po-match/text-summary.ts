/**
 * Summary lines below a printed table, read by their label and never as items: subtotal/net, tax, freight, fees,
 * discounts (which lower the total however they are printed) and the total.
 */
import type { ChargeKind } from './document.js';
import { readNumber, type Decimal } from './number.js';
import { CURRENCY_CODES, isCurrencyWord } from './currencies.js';

export interface Summary {
  /** `netPart`: sales the tax does not apply to (VAT-exempt, zero-rated), printed beside the taxable net. */
  kind: 'net' | 'netPart' | ChargeKind | 'total';
  label: string;
  amount: bigint;
}

const SKIP_LABEL = /taxable|maatstaf|veron\s+peruste|pieces|cases:|eaches|analysis|paid|payment|deposit|acompte/i;
/**
 * A count, a weight or a page printed among the totals ("Total quantity 45.00", "Gross weight 12.50 kg", "Ilość
 * pozycji 4,00") is no money: never a total. German compounds carry the word inside ("Gesamtmenge", "Bruttogewicht").
 */
const COUNT_LABEL = /(?:^|[^\p{L}])(?:qty|quantity|quantities|quantit[ée]s?|qt[ée]|st[üu]ck(?:zahl)?|cantidad|ilo[śs][ćc]|number\s+of|no\.?\s+of\s+(?:items|lines|pieces)|line\s+count|item\s+count|weight|poids|peso|waga|page|seite)(?![\p{L}])|menge|anzahl|gewicht/iu;
/** Sales the tax does not apply to, printed beside the taxable net (a Philippine VAT invoice's three sales lines). */
const NET_PART = /\b(?:vat|tax)[-\s]*exempt\s+sales|exempt\s+sales|zero[-\s]*rated\s+sales/;
/**
 * The net before tax where the label also names the tax: "VATable Sales", "Net of VAT", "Amount exclusive of VAT",
 * "Total hors TVA", "Razem netto", "Summe netto".
 */
const NET_OF_TAX = /vatable|\b(?:eks|ekskl|exkl|ex)\.?\s*(?:mva|moms)\b|\b(?:uten|utan|uden)\s+(?:mva|moms)\b|before\s+vat|\bbez\s+(?:dph|vat|pdv|ddv)\b|\bkdv\s+hari[çc]|לפני\s+מע["״]מ|net\s+of\s+(?:vat|tax)|(?:vat|tax)[-\s]+exclusive|exclusive\s+of\s+(?:vat|tax)|\bex\.?\s+(?:vat|gst)|hors\s+(?:tva|taxes?)|\bnetto\b/;
/** A total that says it includes the tax: "Total incl. VAT", "Summe inkl. MwSt", "Total Sales (VAT Inclusive)". */
const TAX_INCLUDED = /\b(?:inc|incl|inkl|including|inclusive|inklusive|with)\b\.?\s*(?:of\s+)?(?:vat|tax|mwst|ust|gst|btw|iva|tva|mva|moms)|(?:vat|tax|mwst|gst)[-\s]+(?:incl|inclusive)\b/;
/** The gross: "Razem brutto", "Bruttobetrag", "Gross total", "Total TTC", "Do zapłaty", "Zu zahlen". */
const GROSS = /brutto|\bgross\b|\bttc\b|do\s+zap[łl]aty|zu\s+zahlen|\brazem\b|endbetrag|rechnungsbetrag/;
/**
 * The goods before tax in Spanish, French, Indian and Japanese prints: "Valor neto total", "Base imponible", "Total
 * antes del descuento", "Montant HT", "Total HT", "Basic value", 小計 (subtotal), 税抜金額 (amount before tax).
 */
const NET_WORDS = /valor neto|importe neto|base imponible|antes del descuento|antes de impuestos|montant ht|total ht|total hors taxes|basic value|basic amount|小\s*計|税抜/;
/** A bracketed registration or account number: a run of five digits or more inside brackets, no rate. */
const REGISTRATION = /^\((?=[^)%]*\d{5})[^)%]*\)$/;
/**
 * Canada's and India's sales taxes by name: the federal GST (TPS in French), the provincial PST/RST/QST (TVQ) and the
 * harmonised HST; CGST/SGST/IGST are read by the "gst" in them.
 */
/** A VAT named by its rate band, as Zoho and Gulf invoices print it: "Standard Rate (5%)", "Standard rate 20%". */
const STANDARD_RATE = /\bstandard[-\s]+rate\s*\(?\s*\d{1,2}(?:[.,]\d+)?\s*%/;
const SALES_TAX_NAMES = /\b(?:tps|tvq|qst|pst|rst)\b/;
/** "Total Payment Due", "Payment Due": what is to be paid, not a payment received. */
const PAYMENT_DUE = /^(?:total\s+)?payment\s+due\b|^total\s+(?:amount\s+)?due\b/i;
/** "Amount paid" / "Total prepaid" are payments, not charges; "Freight (prepaid & added)" is freight billed. */
const FREIGHT_PREPAID = /(?:freight|shipping|carriage)\b[^]*\bprepaid\b/i;
/** "MERCHANDISE   733.90", "Order Total:  GBP  713.52", "BTW 21% over 1.321,30   277,47", "Subtotal ..... $1,117.75". */
export function readSummary(line: string, decimal: Decimal): Summary | undefined {
  // A currency written after the amount ("48,137.50 kr", "1,002.15 USD") is not part of the label.
  const clean = line.replace(/\.{3,}/g, '  ').replace(/\s+$/, '').replace(new RegExp(`(\\d)\\s*(?:kr|zł|${CURRENCY_CODES})\\.?$`, 'i'), '$1').replace(/(\d)\s*[€£¥円$]$/, '$1');
  const segs = clean.split(/\s{2,}/).map((s) => s.trim()).filter(Boolean);
  if (segs.length === 0) return undefined;
  const last = segs[segs.length - 1];
  // "Total TTC   1 134,24 €": thousands grouped with a space are one amount.
  const spaced = /(?:^|\s)([$€£¥]?\d{1,3}(?: \d{3})+[.,]\d{2})$/.exec(last);
  const lastToks = spaced ? [...last.slice(0, spaced.index).split(/\s+/).filter(Boolean), spaced[1]] : last.split(/\s+/);
  const amountText = lastToks[lastToks.length - 1];
  // Money is written with cents; "Page 1 of 1" or "NET 30" is not a summary line. Yen has no minor unit: "¥68,255".
  if (!/[.,]\d{2}\)?$/.test(amountText) && !/^[¥￥]\d{1,3}(?:,\d{3})*$|^\d{1,3}(?:,\d{3})*円$/.test(amountText)) return undefined;
  const amount = readNumber(amountText, decimal);
  if (amount === undefined) return undefined;
  // A registration number printed beside a tax ("TPS 5 %  (no 812345678 RT0001)  373,32 $") is the vendor's
  // identifier, never a label or an amount: the label is the words before it.
  const texts = [...segs.slice(0, -1), lastToks.slice(0, -1).join(' ')].filter((s) => s && !isCurrencyWord(s) && !REGISTRATION.test(s));
  // The label is the words before the amount; one step further left only past a rate ("SALES TAX  AUSTIN 8.25%").
  for (let i = texts.length - 1; i >= Math.max(0, texts.length - (/%/.test(texts[texts.length - 1] ?? '') ? 2 : 1)); i--) {
    const label = texts[i];
    const l = label.toLowerCase();
    if (SKIP_LABEL.test(l) && !PAYMENT_DUE.test(l) && !(FREIGHT_PREPAID.test(l) && !/payment|deposit|amount\s+paid|\bpaid\b/.test(l))) return undefined;
    if (COUNT_LABEL.test(l) && !/discount|rabatt|remise|descuento|sconto/.test(l)) return undefined;
    let kind: Summary['kind'] | undefined;
    if (NET_PART.test(l)) kind = 'netPart';
    else if (NET_OF_TAX.test(l)) kind = 'net';
    else if (TAX_INCLUDED.test(l)) kind = 'total';
    else if (/sub[-\s]?total|sous[-\s]total|subtotaal|untaxed|merchandise|sale amount|product total|net order|total net|net total|nettowert|imponibile|excl|ohne|before tax|before discount|\balv\s+0\s*%|veroton|ilman\s+alv|goods total|goods net|net goods|^goods(?: value)?$|^nett?(?: amount| value)?$|lines total|netto/.test(l) || NET_WORDS.test(l)) kind = 'net';
    else if (/tax|vat|btw|mwst|\balv\b|\bdph\b|\bkdv\b|\bpdv\b|\bddv\b|\b[áa]fa\b|\bpvm\b|\bpvn\b|φπα|ндс|ддс|\bmoms\b|\bmva\b|merverdiavgift|merv[äa]rdesskatt|מע["״]מ|\biva\b|gst|hst|\bust\b|\btva\b|impuesto|消費税/.test(l) || SALES_TAX_NAMES.test(l) || STANDARD_RATE.test(l)) kind = 'tax';
    else if (/freight|shipping|delivery|fuel|handling|carriage|postage|\bfrakt|\bfragt|משלוח|הובלה|\bflete|\bportes\b|env[ií]o|frais de port|送料|運賃/.test(l)) kind = 'freight';
    else if (/total|amount due|balance due|celkem|k\s+[úu]hrad[ěe]|toplam|[öo]sszesen|ukupno|skupaj|spolu|razem|suma|kokku|iš\s+viso|kopā|σύνολο|итого|合\s*计|합\s*계|te betalen|[åa]\s+betale|\bat\s+betale|att\s+betala|^i\s+alt\b|\bi\s+alt\s+(?:dkk|kr)|לתשלום|סה["״]כ|yhteensä|maksettava|totale|summe|gesamt|to pay|[àa] payer|合\s*計|御請求額|請求金額/.test(l) || GROSS.test(l)) kind = 'total';
    // A fee or surcharge printed among the totals ("DROP SHIP FEE 25.00", "Small order charge") is a charge, never an
    // item; so are India's "Packing & Forwarding @ 2%" and a round-off, which the PO's own charges and terms judge.
    else if (/\b(?:fee|surcharge|charge)\b|packing\s*(?:&|and)\s*forwarding|\bp\s*&\s*f\b|round(?:ing)?[\s-]*off|^rounding$/.test(l)) kind = 'other';
    // A discount or allowance lowers the total however it is printed ("Discount 10.00", "Less 5% (12.50)").
    else if (/discount|allowance|rebate|korting|sconto|rabatt|skonto|descuento|remise|値引/.test(l)) return { kind: 'other', label: label.replace(/[:\s]+$/, ''), amount: amount > 0n ? -amount : amount };
    if (kind) return { kind, label: label.replace(/[:\s]+$/, ''), amount };
  }
  return undefined;
}

/**
 * A table's column totals printed on one row under a VAT invoice's net, tax and gross columns ("Total   29,225.00
 * 1,461.25   30,686.25"): three amounts after a total's label where the first two add up to the third are the net, the
 * tax and the total; two to four amounts that do not are a total, the rightmost.
 */
export function readColumnTotals(line: string, decimal: Decimal): Summary[] | undefined {
  const segs = line.trim().split(/\s{2,}/);
  if (segs.length < 3 || segs.length > 5 || !/^(?:total|totals|grand total|totale?|gesamt|summe|montant total|razem|suma|celkem|spolu|toplam|totaal|totalt|yhteensä|összesen|σύνολο|المجموع|合\s*计|合\s*計|합계)(?![\p{L}])/iu.test(segs[0])) return undefined;
  const amounts = segs.slice(1).map((t) => (/[.,]\d{2}$/.test(t) ? readNumber(t, decimal) : undefined));
  if (amounts.some((a) => a === undefined)) return undefined;
  const label = segs[0].trim();
  const [net, tax, total] = amounts as bigint[];
  // Figures that do not add up as net, tax and total: the rightmost, under the table's last column, is what the
  // invoice asks, and the arithmetic check holds the difference.
  if (amounts.length !== 3 || net <= 0n || tax < 0n || net + tax !== total) return [{ kind: 'total', label, amount: amounts[amounts.length - 1] as bigint }];
  return [
    { kind: 'net', label, amount: net },
    { kind: 'tax', label: `${label} tax`, amount: tax },
    { kind: 'total', label, amount: total },
  ];
}

/**
 * Several totals printed on one line, each its label and amount ("Imponibile 2.668,00    IVA 22% 586,96    TOTALE
 * FATTURA EUR 3.254,96"): each read as its own summary line; undefined unless every piece is one.
 */
export function readSummaries(line: string, decimal: Decimal): Summary[] | undefined {
  const pieces = line.trim().split(/(?<=\d[.,]\d{2})\s{2,}(?=\p{L})/u);
  if (pieces.length < 2) return undefined;
  const read = pieces.map((p) => readSummary(p, decimal));
  return read.every((r): r is Summary => r !== undefined) ? read : undefined;
}
