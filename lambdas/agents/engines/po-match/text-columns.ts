/**
 * The column vocabulary of printed tables and CSV reports: which header words name which column (Qty / Ordered /
 * Shipped / B/O / U/M / Pack / Price / Amount …, in English, German, Dutch, Italian), and the header row of a printed
 * table found by those words, its columns kept with their printed positions.
 */
import { isCurrencyWord } from './currencies.js';
import { MORE_COLUMN_WORDS } from './text-column-words.js';
import { LANGUAGE_COLUMN_WORDS } from './text-column-languages.js';

export type Role = 'line' | 'sku' | 'desc' | 'qty' | 'ordered' | 'shipped' | 'bo' | 'uom' | 'pack' | 'price' | 'per' | 'disc' | 'amount' | 'other';

const VOCAB_MAP = new Map<string, Role>();
const add = (role: Role, ...names: string[]) => names.forEach((n) => VOCAB_MAP.set(n, role));
const VOCAB = { get: (k: string) => VOCAB_MAP.get(k) };
add('line', 'ln', 'line', '#', 'pos', 'no', 'lin');
add('sku', 'item', 'item no', 'item #', 'item number', 'item code', 'part no', 'part number', 'part #', 'product code',
  'art.nr', 'artikel', 'artikelnr', 'product/service', 'material', 'codice', 'code', 'sku', 'item no/sku', 'model no',
  'model', 'model #', 'item id', 'catalog no', 'catalog #', 'cat no', 'vendor #', 'vendor item', 'item#', 'mfr part', 'article no',
  'supplier part', 'supplier part #', 'supplier part no', 'supplier item', 'vendor part', 'vendor part #');
add('desc', 'description', 'bezeichnung', 'omschrijving', 'descrizione', 'desc', 'product', 'article', 'omschr');
add('qty', 'qty', 'quantity', 'aantal', 'q.tà', 'qta', 'menge', 'po quantity', 'order qty', 'bestellmenge', 'anzahl',
  'qty billed', 'qty invoiced', 'quantità');
add('ordered', 'ordered', 'ord', 'qty ord', 'order', 'qty ordered', 'ord qty', 'qty/ord');
add('shipped', 'shipped', 'shp', 'ship', 'qty shp', 'qty ship', 'qty shipped', 'shipped qty', 'delivered', 'geliefert',
  'desp', 'qty desp', 'despatched', 'qty despatched', 'qty del', 'dispatched', 'qty disp');
add('bo', 'b/o', 'bo', 'backord', 'backorder', 'back order', 'qty b/o', 'backordered', 'back-ordered');
add('uom', 'u/m', 'um', 'uom', 'uofm', 'u of m', 'unit', 'units', 'me', 'eenh', 'u.m', 'unit of measure', 'eh');
add('pack', 'pack', 'pack size', 'pk');
// A price-basis column beside the price ("PER": E / C / M, or 100 / 1000): what quantity the price is for.
add('per', 'per', 'price per', 'per unit', 'pr/per', 'price basis');
add('other', 'size', 'disc %', 'disc', 'vat', 'tax', 'tax code', 'btw', 'mwst', 'taxes', 'type', 'return', 'need by',
  'received', 'invoiced', 'remaining', 'schedule lines', 'date req', 'req date', 'delivery date', 'due date', 'commodity', 'brand', 'account');
add('price', 'price', 'rate', 'unit price', 'unit cost', 'cost', 'prijs', 'preis', 'preis pro einheit', 'price per unit',
  'net price per unit', 'net price', 'prezzo', 'price each', 'each', 'einzelpreis', 'prezzo unitario');
add('amount', 'amount', 'extension', 'ext', 'extended', 'total', 'line total', 'nettowert', 'net value', 'net amount',
  'bedrag', 'totaal', 'importo', 'value', 'gesamtpreis', 'betrag', 'ext price', 'extended price', 'total price', 'ext amt',
  'extended amount', 'line amount', 'subtotal');
// A PO status report's line cost (Infor SyteLine, Epicor, Macola: "Unit Cost   Ext. Cost"), and its receipt
// columns beside the ordered quantity: what was received is read by the receipts check, never as the quantity.
add('amount', 'ext cost', 'extended cost', 'ext. cost', 'total cost', 'line cost');
add('sku', 'part', 'part num', 'vendor part num', 'inventory id', 'inventory cd', 'inventory');
// Acumatica prints "Line  Inventory ID  Line Description".
add('desc', 'line description');
add('other', 'qty received', 'qty rcvd', 'qty rec', "qty rec'd", 'received qty', 'rcvd qty', 'qty returned', 'qty rejected',
  'qty accepted', 'qty open', 'open qty', 'qty vouchered');

add('desc', 'memo', 'item description', 'memo/description');
add('price', 'sales price', 'purchase price', 'preis/me', 'preis/einheit', 'price/unit', 'price/uom', 'prijs/eenheid', 'price/um');
// SAP's German print: "Preis/ME (EUR)   Wert (EUR)".
add('amount', 'wert', 'positionswert');
// British invoices print the line's value as "Net" (its VAT code in a column of its own).
add('amount', 'net', 'nett', 'net value', 'goods value');
// Spanish and Mexican prints (SAP "Pos. Material Descripción Cantidad UM Precio neto Importe neto", SAP Business One
// "# Número de artículo Descripción Cantidad UM Precio unitario Total (ML)").
add('sku', 'número de artículo', 'numero de articulo', 'código', 'codigo', 'artículo', 'articulo', 'referencia', 'ref');
add('desc', 'descripción', 'descripcion', 'concepto', 'denominación');
add('qty', 'cantidad', 'cant');
add('uom', 'ud', 'unidad', 'unid');
add('price', 'precio', 'precio neto', 'precio unitario', 'precio unit', 'p. unitario', 'valor unitario');
add('amount', 'importe', 'importe neto', 'total (ml)', 'subtotal (ml)', 'valor neto');
add('other', 'fecha de entrega', 'iva', '% iva', 'dto', 'dto.', '% dto');
// French prints (Odoo "Description Taxes Date prévue Qté Prix unitaire Montant", a facture's "Réf. Désignation Qté
// Unité P.U. HT Montant HT TVA").
add('sku', 'réf', 'référence', 'reference', 'code article');
add('desc', 'désignation', 'designation', 'libellé');
add('qty', 'qté', 'quantité', 'qte', 'quantite');
add('uom', 'unité', 'unite');
add('price', 'prix unitaire', 'p.u. ht', 'pu ht', 'p.u', 'prix unitaire ht', 'prix', 'prix ht');
add('amount', 'montant', 'montant ht', 'total ht');
add('other', 'date prévue', 'tva', 'remise', 'taux tva');
// Polish prints (Precoro, Comarch, enova: "Lp. Nazwa towaru Ilość J.m. Cena netto Wartość netto") and the French
// column names a Swiss or Belgian print adds ("Lig", "N° art.", "Un.", "Prix unit.", "Prix net").
add('line', 'lp', 'lig', 'ligne');
add('sku', 'kod', 'indeks', 'n° art', 'no art', 'n° article', 'no article');
add('desc', 'pozycja', 'nazwa', 'nazwa towaru', 'nazwa towaru/usługi', 'towar', 'opis', 'towar/usługa');
add('qty', 'ilość', 'ilosc');
add('uom', 'jm', 'j.m', 'jedn', 'un');
add('price', 'cena', 'cena netto', 'cena jedn', 'cena jedn. netto', 'cena jednostkowa', 'prix unit', 'prix net', 'p.u. net');
add('amount', 'wartość netto', 'wartosc netto', 'wartość', 'wartosc');
add('other', 'wartość brutto', 'wartosc brutto', 'stawka vat', 'stawka', 'vat %', 'pkwiu');
// Indian GST invoices: the HSN/SAC code column, a serial number, amounts "in Rs." or "(INR)".
add('line', 'sl', 'sl.', 's.no', 'sr', 'sr.', 'sr. no');
add('desc', 'description of goods', 'particulars', 'articles', 'nature of goods');
add('price', 'rate (inr)', 'rate (rs.)');
add('amount', 'value (inr)', 'amount (rs.)', 'amount (inr)', 'value (rs.)');
add('other', 'hsn', 'hsn/sac', 'hsn code', 'gst %', 'gst rate');
// Japanese 注文書 / 請求書: 品番 (item number), 品名・規格 (name and specification), 数量, 単位, 単価, 金額, 税率, the
// delivery date and delivery-note number columns of a month-end invoice.
add('line', 'no.', 'no');
add('sku', '品番', '商品コード', '品目コード', '型番');
add('desc', '品名・規格', '品名', '商品名', '摘要', '品名/規格');
add('qty', '数量');
add('uom', '単位');
add('price', '単価');
add('amount', '金額');
add('other', '税率', '月日', '納品書no', '納品書no.', '納期', '備考');

// Finnish prints (Basware, Visma, Lemonsoft: "Rivi Nimike Kuvaus Määrä Yks. á-hinta ALV % Yhteensä").
add('line', 'rivi');
add('sku', 'nimike', 'tuotenumero', 'tuotekoodi');
add('desc', 'kuvaus', 'kuvaus / description', 'tuote');
add('qty', 'määrä');
add('uom', 'yks', 'yksikkö');
add('price', 'á-hinta', 'a-hinta', 'à-hinta', 'yksikköhinta', 'hinta');
add('amount', 'yhteensä', 'rivisumma');
add('other', 'alv %', 'alv', 'alv-%');
// Dutch and Flemish prints (Odoo "Omschrijving Belastingen Datum gevraagd Aantal Eenheidsprijs Korting % Bedrag", a
// factuur's "Art.nr. Omschrijving Aantal Eenh. Prijs/eenh. Korting Netto bedrag BTW").
add('price', 'eenheidsprijs', 'prijs/eenh', 'prijs per eenheid', 'stukprijs');
add('amount', 'netto bedrag', 'nettobedrag', 'totaal excl. btw');
add('other', 'belastingen', 'datum gevraagd', 'btw %', 'btw-tarief', 'leverdatum');
// Australian and New Zealand prints (MYOB, Xero): the line's amount before GST is the amount; the GST and the amount
// including it are other columns.
add('amount', 'amount ex gst', 'amount ex. gst', 'amount excl gst', 'amount excl. gst', 'ex gst', 'amount ex vat', 'amount excl vat', 'amount excl. vat');
add('other', 'gst', 'amount inc gst', 'amount inc. gst', 'amount incl gst', 'amount incl. gst', 'inc gst', 'amount inc vat', 'amount incl vat', 'amount incl. vat', 'gross amount');
// A VAT invoice's line before tax: "Taxable Amt", "Taxable Value" (a bare "Taxable" is a Y/N flag, no amount).
add('amount', 'taxable amt', 'taxable amt.', 'taxable amount', 'taxable value', 'net amt', 'amount excl. tax', 'amount excl tax');
// A line discount in percent: the row's amount is quantity × price less that share (checked by the arithmetic).
// "Desc.%" beside a price (Portuguese desconto, Spanish descuento): with its percent sign never a description.
add('disc', 'desc.%', 'desc%', 'desc %', 'desc. %');
add('disc', 'disc %', 'disc%', 'korting%', 'disc', 'discount', 'discount %', 'korting', 'korting %', 'rabatt', 'rabatt %', 'remise', 'remise %',
  'dto', 'dto.', '% dto', 'sconto', 'sconto %', 'ale', 'ale %', 'alennus', 'alennus %');
for (const [role, names] of [...MORE_COLUMN_WORDS, ...LANGUAGE_COLUMN_WORDS]) add(role, ...names);

/** The role of one header cell ("Sales Price" → price), for tabular formats with cells already split. */
export function columnRole(header: string): Role {
  const words = header.trim().split(/\s+/).map(norm).join(' ');
  return VOCAB.get(words) ?? VOCAB.get(words.replace(/[^a-z0-9/#. ]/g, '').trim()) ?? 'other';
}

export interface Tok {
  text: string;
  start: number;
  end: number;
}
export interface Column {
  role: Role;
  start: number;
  end: number;
  label: string;
}

/**
 * A line's words with the columns they are printed in. `display` counts columns as a monospaced print shows them:
 * Chinese, Japanese and Korean characters take two cells, so a Japanese table's values sit under their headers only
 * when counted so. Without it, positions are the string's own indexes (for labels found by a regex on the line).
 */
export function tokenize(line: string, display = false): Tok[] {
  const out: Tok[] = [];
  const re = /\S+/g;
  if (!display || !WIDE.test(line)) {
    for (let m = re.exec(line); m; m = re.exec(line)) out.push({ text: m[0], start: m.index, end: m.index + m[0].length });
    return out;
  }
  const cells: number[] = [];
  let col = 0;
  for (let i = 0; i < line.length; i++) {
    cells.push(col);
    const code = line.codePointAt(i)!;
    col += WIDE.test(String.fromCodePoint(code)) ? 2 : 1;
    if (code > 0xffff) {
      cells.push(col);
      i++;
    }
  }
  cells.push(col);
  for (let m = re.exec(line); m; m = re.exec(line)) out.push({ text: m[0], start: cells[m.index], end: cells[m.index + m[0].length] });
  return out;
}
/** East Asian wide characters (CJK ideographs, kana, hangul, full-width forms and CJK punctuation). */
const WIDE = /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{20000}-\u{3fffd}]/u;

export const norm = (w: string) => w.toLowerCase().replace(/\u05f4/g, '"').replace(/\u05f3/g, "'").replace(/[.:]+$/, '').replace(/^\(|\)$/g, '');

const NET_COLUMN = /^(?:taxable|net)\b|\bex(?:cl)?\.?\s+(?:gst|vat|tax)\b/i;

/**
 * A label printed in two languages, "מק"ט / Part", "כמות/Qty", "Antall / Qty": the column both halves name (one half
 * may be a word not in the vocabulary); halves naming different columns are no one label.
 */
function bilingual(phrase: string): Role | undefined {
  if (!phrase.includes('/')) return undefined;
  const parts = phrase.split(/\s*\/\s*/).filter(Boolean);
  if (parts.length !== 2) return undefined;
  const roles = parts.map((p) => VOCAB.get(p));
  // A half not in the vocabulary is one word ("Part"), never a run of other columns' labels ("QTY UNIT PACK/SIZE").
  if (parts.some((p, k) => roles[k] === undefined && /\s/.test(p))) return undefined;
  const known = roles.filter((r): r is Role => r !== undefined);
  return known.length > 0 && known[0] !== 'other' && known.every((r) => r === known[0]) ? known[0] : undefined;
}

/** Known column labels of a line, longest phrase first; undefined when the line is not a table header. */
export function headerColumns(line: string, above?: string): Column[] | undefined {
  // A header row is short and names at least two columns by known words: a cheap test before any tokenizing.
  if (line.length > 300) return undefined;
  let hits = 0;
  for (const w of line.toLowerCase().split(/\s+/)) if (VOCAB_MAP.has(w.replace(/[.:,]+$/, ''))) hits++;
  if (hits < 2) return undefined;
  let toks = tokenize(line, true);
  if (toks.length < 3 || toks.length > 24) return undefined;
  // Prose that happens to use two column words ("Invoice each shipment against this order") is no header: a header's
  // words are mostly labels, and labels do not end in commas.
  // "Price, EUR" / "Amount, EUR": a label and the currency it is in are one column, not prose.
  if (hits * 4 < toks.length || toks.some((t, k) => /[a-z],$/i.test(t.text) && !isCurrencyWord(toks[k + 1]?.text.replace(/[()]/g, '') ?? ''))) return undefined;
  // Two-line headers ("QTY" above "ORD"): a word stacked above another joins it.
  if (above !== undefined) {
    const up = above.length > 300 ? [] : tokenize(above, true);
    if (up.length > 0 && up.every((t) => VOCAB.get(norm(t.text)) !== undefined)) {
      toks = toks.map((t) => {
        const u = up.find((x) => x.start < t.end && t.start < x.end);
        return u ? { ...t, text: `${u.text} ${t.text}` } : t;
      });
    }
  }
  const cols: Column[] = [];
  let unknown = 0;
  for (let i = 0; i < toks.length; ) {
    let taken = 0;
    for (let k = Math.min(4, toks.length - i); k >= 1; k--) {
      const slice = toks.slice(i, i + k);
      if (slice.some((t, j) => j > 0 && t.start - slice[j - 1].end !== 1)) continue;
      const phrase = slice.map((t) => norm(t.text).replace(/,$/, '')).join(' ');
      const role = VOCAB.get(phrase) ?? bilingual(phrase);
      if (role !== undefined) {
        cols.push({ role, start: slice[0].start, end: slice[k - 1].end, label: slice.map((t) => t.text).join(' ') });
        taken = k;
        break;
      }
    }
    if (taken === 0) {
      const prev = cols[cols.length - 1];
      // "Prezzo EUR", "Item #": an unknown word right after a label belongs to it.
      if (prev && toks[i].start - prev.end === 1) prev.end = toks[i].end;
      else {
        unknown++;
        cols.push({ role: 'other', start: toks[i].start, end: toks[i].end, label: toks[i].text });
      }
      taken = 1;
    }
    i += taken;
  }
  // "Descrição … Preço  Desc.  IVA  Valor": a short "Desc." right of a price, beside a description column, is the
  // discount (Portuguese "desconto", Spanish "descuento"), never a second description.
  const priceAt = cols.find((c) => c.role === 'price')?.start;
  for (const c of cols) {
    if (c.role === 'desc' && priceAt !== undefined && c.start > priceAt && /^desc\.?\s*%?$/i.test(c.label) && cols.some((d) => d !== c && d.role === 'desc')) c.role = 'disc';
  }
  // "Product  Description": beside a description column, a product (or article) column holds the item code.
  const descs = cols.filter((c) => c.role === 'desc');
  // "Article  Désignation", "Artikel  Bezeichnung" likewise.
  const codeLike = (c: Column) => /^(?:product|article|artikel|produto|producto|prodotto|artigo|articolo|art[íi]culo)$/i.test(c.label.replace(/[.:]$/, ''));
  if (descs.length > 1 && descs.some((c) => !codeLike(c))) for (const c of descs) if (codeLike(c)) c.role = 'sku';
  // "Item  …  SKU": beside a column of item numbers and with no description column, the item column names the goods.
  const skus = cols.filter((c) => c.role === 'sku');
  if (!cols.some((c) => c.role === 'desc') && skus.length > 1) {
    const named = skus.find((c) => /^(?:item|items|product|article|artikel)$/i.test(c.label.replace(/[.:]$/, '')));
    if (named) named.role = 'desc';
  }
  // "Taxable Amt  VAT 5%  Total AED": beside the line's amount before tax, a total column is the line with its tax,
  // never the amount the quantity and price extend to.
  const amounts = cols.filter((c) => c.role === 'amount');
  if (amounts.length > 1 && amounts.some((c) => NET_COLUMN.test(c.label))) for (const c of amounts) if (!NET_COLUMN.test(c.label)) c.role = 'other';
  const roles = new Set(cols.map((c) => c.role));
  const hasQty = roles.has('qty') || roles.has('ordered') || roles.has('shipped');
  // An amount-based order (a blanket or service PO: Description, Total, Received, Invoiced) has no quantity column.
  const amountBased = !hasQty && roles.has('amount') && roles.has('desc') && cols.length >= 4;
  if ((!hasQty && !amountBased) || !(roles.has('price') || roles.has('amount')) || cols.length < 3 || unknown * 3 > cols.length) return undefined;
  return cols;
}

