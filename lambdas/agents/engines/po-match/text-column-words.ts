/**
 * Column names of printed tables in further languages, kept apart from the core vocabulary (text-columns.ts) so each
 * stays readable: Norwegian, Danish and Swedish ERP prints (Visma.net, Tripletex, IFS, Business Central: "Linje
 * Varenr. Beskrivelse Antall Enh. Pris Rab.% Beløp", "Rad Artikel Benämning Antal Enhet À-pris Belopp") and Hebrew
 * prints (Priority, SAP Business One Israel: "שורה מק"ט תיאור כמות יח' מחיר סה"כ"), and the South African "Excl VAT"
 * line value. Phrases are looked up as the header reader normalises each word (a word's trailing dot dropped: "Lev.
 * antal" is "lev antal"). Hebrew is looked up with its punctuation as typed on a keyboard: gershayim ״ as ", geresh ׳ as '.
 */
import type { Role } from './text-columns.js';

export const MORE_COLUMN_WORDS: [Role, string[]][] = [
  // Norwegian and Danish.
  ['line', ['linje', 'lin.nr', 'linjenr', 'pos.']],
  ['sku', ['varenr', 'varenummer', 'artikkelnr', 'art.nr.', 'artikkel', 'produktnr', 'varekode', 'vare nr']],
  ['desc', ['beskrivelse', 'tekst', 'varetekst', 'varenavn', 'betegnelse', 'produkt']],
  ['qty', ['antall', 'antal', 'mengde', 'fakturert antall', 'lev antall', 'lev. antall']],
  ['ordered', ['bestilt', 'bestilt antall', 'beställt', 'beställt antal', 'best antal', 'best. antal']],
  ['shipped', ['levert', 'levert antall', 'lev antal', 'lev. antal', 'levererat', 'levererat antal', 'leveret', 'mottatt', 'mottaget']],
  ['bo', ['restordre', 'restorder', 'rest']],
  ['uom', ['enh', 'enhet', 'enhed']],
  ['price', ['pris', 'enhetspris', 'enhedspris', 'stk.pris', 'stykkpris', 'á-pris', 'à-pris', 'a-pris', 'apris', 'styckpris', 'pris/enh', 'nettopris', 'pris eks mva']],
  ['amount', ['beløp', 'beløb', 'belopp', 'sum', 'summa', 'nettobeløp', 'netto beløp', 'radbelopp', 'totalt', 'beløp eks mva', 'belopp exkl moms', 'beløb ekskl moms']],
  ['disc', ['rab.%', 'rab%', 'rab', 'rabatt%', 'rabat', 'rabat %', 'rab %']],
  ['other', ['mva', 'mva %', 'mva-kode', 'moms', 'moms %', 'momskod', 'lev.dato', 'leveransdatum', 'leveringsdato', 'konto']],
  // Swedish.
  ['line', ['rad', 'radnr']],
  ['sku', ['artikel', 'artikelnummer', 'art.nr', 'art nr', 'artnr']],
  ['desc', ['benämning', 'beskrivning', 'artikelbenämning', 'text']],
  ['uom', ['enh.', 'st/enh']],
  // Hebrew.
  ['line', ['שורה', "מס'", 'מס']],
  ['sku', ['מק"ט', 'קוד פריט', 'פריט', 'מקט']],
  ['desc', ['תיאור', 'תאור', 'תיאור פריט', 'שם פריט']],
  ['qty', ['כמות']],
  ['uom', ["יח'", 'יחידה', "יח' מידה"]],
  ['price', ['מחיר', "מחיר יח'", 'מחיר ליחידה', 'מחיר יחידה']],
  ['amount', ['סה"כ', 'סכום', 'סה"כ שורה']],
  ['other', ['מע"מ', 'הנחה']],
  // South African and British prints: the line's value before VAT.
  ['amount', ['excl vat', 'excl. vat', 'value excl vat']],
];
