/**
 * A report's list of what is attached, stated once for the whole claim instead of a receipt cell per line:
 * "Anlagen: 4 Belege (2 DB-Tickets, 2 HVV-Tickets), 1 Hotelrechnung", "Attachments (1): receipts_Nov24.pdf — Premier
 * Inn folio, ScotRail e-tickets, APCOA receipt", "Załączniki: 2 bilety PKP Intercity (PDF), faktura hotelowa",
 * "Anexos: factura del hotel, billetes de tren". A reviewer ticks each expense off against the documents listed: an
 * expense has its receipt when a document listed is of its kind (the hotel's invoice or folio for the stay, the
 * tickets for the train) or names its merchant (ScotRail, APCOA). An expense no document answers for keeps what it
 * said of its own (nothing: no receipt), and a list saying a receipt is missing or to follow vouches for nothing.
 */
import type { Item } from './expense.js';
import { categoriesIn } from './words.js';

/** The label opening an attachments line, in the languages the tools print. */
const LEAD = /^\s*(?:attachments?|attached|enclosures?|receipts attached|anlagen?|beilagen?|belege|pièces? jointes?|justificatifs joints|anexos?|adjuntos?|allegati|bijlagen?|bilagor|bilag|załączniki|přílohy|ekler|lampiran|tệp đính kèm|添付(?:書類|ファイル)?|附件|첨부(?:파일|서류)?)\b[^:：]{0,20}[:：]\s*(.+)$/iu;
const WITHHELD = /\b(?:missing|to follow|not attached|lost|fehlt|folgt|nachgereicht|manquant|falta|em falta|mancante|brak|紛失|未添付)\b/iu;
/** Document kinds that name a category by the document itself ("folio", "Hotelrechnung", "e-tickets", "bilety"). */
const KIND: [RegExp, Item['category']][] = [
  [/\b(?:folio|hotel\w*|hotelrechnung|rg\.?)\b|hotelow\w*|\bdel hotel\b|d'hôtel|alberg\w*|宿泊|ホテル|酒店|호텔/iu, 'lodging'],
  [/\b(?:e-?tickets?|rail\w*|train|bahn\w*|db|pkp|bilety?|billetes? de tren|biglietti?|sncf|trenitalia|renfe|cp|comboio)\b|新幹線|乗車券|火车票|高铁/iu, 'rail'],
  [/\b(?:boarding pass\w*|flight|e-ticket receipt|itinerary|bilhete aéreo|billet d'avion)\b|航空券|机票/iu, 'airfare'],
  [/\b(?:parking|park\w*|aparcamiento|estacionamento|parcheggio|stationnement)\b|駐車/iu, 'parking'],
  [/\b(?:taxi|uber|cab|grab)\b|タクシー|出租车|택시/iu, 'ground'],
];
/** Words of a document list that name no particular document or merchant. */
const GENERIC = new Set(['receipt', 'receipts', 'pdf', 'jpg', 'png', 'scan', 'scans', 'copy', 'invoice', 'invoices', 'ticket', 'tickets', 'and', 'the', 'for', 'with', 'of',
  'und', 'der', 'die', 'das', 'mit', 'beleg', 'belege', 'rechnung', 'programm', 'seminarprogramm', 'des', 'du', 'de', 'la', 'le', 'et', 'y', 'e', 'del', 'do', 'da', 'na', 'i', 'oraz']);

/** The documents an attachments line lists (each part of it), or undefined when the claim has no such line. */
export function attachmentList(text: string): string[] | undefined {
  const lines = text.split(/\r\n|\r|\n/);
  for (let k = 0; k < lines.length; k++) {
    const m = LEAD.exec(lines[k]);
    if (!m) continue;
    // The list may wrap onto the next line when it breaks off after a comma or inside a bracket.
    let list = m[1];
    const open = (t: string) => (t.match(/\(/g) ?? []).length > (t.match(/\)/g) ?? []).length;
    for (let j = k + 1; j < lines.length && j <= k + 3 && (/,\s*$/.test(list) || open(list)); j++) list += ` ${lines[j].trim()}`;
    if (WITHHELD.test(list)) return undefined;
    return list.split(/[,;]|\s[—–-]\s|\(|\)|\s\+\s/).map((p) => p.trim()).filter((p) => p.length > 1);
  }
  return undefined;
}

/**
 * Marks each expense that says nothing of its receipt as having one when a document the list names is of its kind or
 * names its merchant. Returns how many it marked.
 */
export function vouchedByList(text: string, items: Item[]): number {
  const docs = attachmentList(text);
  if (!docs) return 0;
  const kinds = new Set(docs.flatMap((d) => KIND.filter(([re]) => re.test(d)).map(([, c]) => c)));
  // A merchant is named as written, a capital first ("Premier Inn", "ScotRail", "APCOA", "DB", "HVV"), and names no
  // kind of expense of its own ("Mittagessen" on a seminar's programme is no meal's receipt).
  const names = docs.flatMap((d) => (d.match(/[\p{L}][\p{L}\d&']+/gu) ?? []))
    .filter((w) => /^\p{Lu}/u.test(w) && (w.length >= 3 || w === w.toUpperCase()))
    .map((w) => w.toLowerCase())
    .filter((w) => !GENERIC.has(w) && categoriesIn(w).length === 0);
  let marked = 0;
  for (const item of items) {
    if (item.receipt !== undefined) continue;
    const own = `${item.merchant ?? ''} ${item.label} ${item.text ?? ''}`.toLowerCase();
    const named = names.some((w) => w.length >= 2 && new RegExp(`(?<![\\p{L}])${w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}])`, 'u').test(own));
    if ((item.category !== undefined && kinds.has(item.category)) || named) {
      item.receipt = true;
      marked++;
    }
  }
  return marked;
}
