/**
 * The names expense tools give their columns and their receipt answers, per language: adding a language is adding
 * its words here. A column whose header contains one of a field's words (whole words in scripts written with spaces;
 * anywhere in the header for Chinese, Japanese and Korean, which write none) holds that field: "Fecha de transacción"
 * is a date, "Monto (MXN)" an amount in pesos, "金額(円)" an amount, "領収書" the receipt.
 *
 * The order of the fields is the order they are tried in: an amount column first ("Importe del ticket" is an amount,
 * not a receipt), then the receipt, the date, the merchant, the category, the currency, the head count, the text.
 */
export type ColumnField = 'amount' | 'receipt' | 'date' | 'merchant' | 'category' | 'currency' | 'people' | 'description';

type Words = Partial<Record<ColumnField, string[]>>;

const LANGUAGES: Record<string, Words> = {
  en: {
    amount: ['amount'], receipt: ['receipt', 'receipts'], date: ['date'], merchant: ['merchant', 'vendor'], category: ['category'],
    currency: ['currency'], people: ['attendee', 'attendees'], description: ['description', 'memo', 'comment', 'comments', 'purpose'],
  },
  fr: {
    amount: ['montant'], receipt: ['justificatif', 'justificatifs', 'justif', 'ticket'], date: ['date'], merchant: ['commercant', 'fournisseur', 'marchand', 'etablissement'],
    category: ['categorie', 'nature'], currency: ['devise', 'monnaie'], people: ['invites', 'convives', 'participants'], description: ['commentaire', 'description', 'motif', 'libelle'],
  },
  es: {
    amount: ['importe', 'monto'], receipt: ['comprobante', 'justificante', 'ticket', 'factura'], date: ['fecha'], merchant: ['comercio', 'proveedor', 'establecimiento'],
    category: ['categoria', 'tipo de gasto'], currency: ['moneda', 'divisa'], people: ['asistentes', 'comensales'], description: ['descripcion', 'notas', 'comentario', 'comentarios', 'concepto', 'motivo'],
  },
  pt: {
    amount: ['valor', 'montante'], receipt: ['comprovante', 'comprovativo', 'recibo', 'fatura'], date: ['data'], merchant: ['estabelecimento', 'fornecedor', 'comerciante'],
    category: ['categoria', 'tipo de despesa'], currency: ['moeda'], people: ['participantes'], description: ['descricao', 'observacoes', 'obs', 'motivo'],
  },
  it: {
    amount: ['importo'], receipt: ['ricevuta', 'giustificativo', 'scontrino'], date: ['data'], merchant: ['esercente', 'fornitore'],
    category: ['categoria'], currency: ['valuta'], people: ['partecipanti'], description: ['descrizione', 'note', 'motivo'],
  },
  de: {
    amount: ['betrag'], receipt: ['beleg', 'belege', 'quittung'], date: ['datum'], merchant: ['handler', 'lieferant', 'geschaftspartner'],
    category: ['kategorie', 'spesenart', 'ausgabenart'], currency: ['wahrung'], people: ['teilnehmer'], description: ['beschreibung', 'zweck', 'bemerkung', 'notiz'],
  },
  nl: { amount: ['bedrag'], receipt: ['bon', 'bewijsstuk'], date: ['datum'], merchant: ['leverancier', 'winkel'], category: ['categorie'], currency: ['valuta'], description: ['omschrijving', 'opmerking'] },
  sv: { amount: ['belopp'], receipt: ['kvitto'], date: ['datum'], merchant: ['handlare'], category: ['kategori'], currency: ['valuta'], description: ['beskrivning', 'anteckning'] },
  da: { amount: ['belob'], receipt: ['kvittering', 'bilag'], date: ['dato'], merchant: ['forhandler'], category: ['kategori'], currency: ['valuta'], description: ['beskrivelse', 'note'] },
  pl: {
    amount: ['kwota', 'wartosc'], receipt: ['paragon', 'rachunek', 'faktura', 'dokument'], date: ['data'], merchant: ['kontrahent', 'sprzedawca'],
    category: ['kategoria', 'rodzaj'], currency: ['waluta'], description: ['opis', 'uwagi'],
  },
  cs: { amount: ['castka'], receipt: ['doklad', 'uctenka'], date: ['datum'], merchant: ['obchodnik', 'dodavatel'], category: ['kategorie'], currency: ['mena'], description: ['popis', 'poznamka'] },
  tr: { amount: ['tutar'], receipt: ['fis', 'fatura', 'belge'], date: ['tarih'], merchant: ['satici', 'firma'], category: ['kategori'], currency: ['para birimi', 'doviz'], description: ['aciklama', 'not'] },
  id: { amount: ['jumlah', 'nominal'], receipt: ['bukti', 'struk', 'kuitansi'], date: ['tanggal'], merchant: ['merchant', 'toko', 'vendor'], category: ['kategori'], currency: ['mata uang'], description: ['keterangan', 'deskripsi', 'catatan'] },
  vi: { amount: ['so tien'], receipt: ['hoa don', 'chung tu'], date: ['ngay'], merchant: ['nha cung cap'], category: ['loai chi phi', 'danh muc'], currency: ['tien te'], description: ['mo ta', 'ghi chu', 'noi dung'] },
  ja: { amount: ['金額'], receipt: ['領収書', 'レシート'], date: ['日付', '利用日'], merchant: ['支払先', '店舗'], category: ['科目', '費目', 'カテゴリ'], currency: ['通貨'], people: ['人数'], description: ['内容', '摘要', '備考', '用途'] },
  zh: { amount: ['金额', '金額'], receipt: ['发票', '收据', '發票', '收據'], date: ['日期'], merchant: ['商户', '商家', '供应商'], category: ['类别', '费用类型', '類別'], currency: ['币种', '幣別'], description: ['说明', '备注', '描述', '事由'] },
  ko: { amount: ['금액'], receipt: ['영수증', '증빙'], date: ['일자', '날짜', '사용일'], merchant: ['가맹점', '거래처'], category: ['항목', '분류', '계정'], currency: ['통화'], description: ['내용', '비고', '적요'] },
};

/** A script written without spaces between words: its words are found anywhere in a header. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

const FIELD_ORDER: ColumnField[] = ['amount', 'receipt', 'date', 'merchant', 'category', 'currency', 'people', 'description'];

/** A header as compared: lower case, accents dropped ("Catégorie" → "categorie"), runs of other characters one space. */
export function headerWords(header: string): string {
  // Accents of Latin letters only: a Korean syllable or a kana's voicing mark is part of the letter.
  return header.normalize('NFD').replace(/(?<=\p{Script=Latin})\p{M}+/gu, '').normalize('NFC').replace(/ß/g, 'ss').replace(/ł/g, 'l').replace(/ı/g, 'i').toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

const BY_FIELD = new Map<ColumnField, { spaced: RegExp; unspaced: string[] }>(FIELD_ORDER.map((f) => {
  const words = Object.values(LANGUAGES).flatMap((l) => l[f] ?? []).map(headerWords);
  const spaced = words.filter((w) => !UNSPACED.test(w)).sort((a, b) => b.length - a.length);
  return [f, { spaced: new RegExp(`(?:^| )(?:${spaced.join('|')})(?= |$)`), unspaced: words.filter((w) => UNSPACED.test(w)) }];
}));

/** The field a column's header names by one of its words, in any language listed; undefined when none. */
export function columnWordField(header: string): ColumnField | undefined {
  const words = headerWords(header);
  return FIELD_ORDER.find((f) => {
    const { spaced, unspaced } = BY_FIELD.get(f)!;
    return spaced.test(words) || unspaced.some((w) => words.includes(w));
  });
}

/**
 * A receipt cell's answer in the languages listed: "no" (none attached: "No", "Non", "Nie", "無", "なし", "없음"),
 * "n/a" (none needed: "No aplica", "Non requis", "Não se aplica", "不要", "－"), or undefined (anything else, a file,
 * "Sí", "Oui", "Anexado", "CFDI", "有": a receipt there).
 */
export function receiptAnswer(cell: string): 'no' | 'n/a' | undefined {
  const c = headerWords(cell);
  if (c === '' || NOT_NEEDED.test(c)) return c === '' && /-|－|—/.test(cell) ? 'n/a' : c === '' ? 'no' : 'n/a';
  return NONE.test(c) ? 'no' : undefined;
}

const NOT_NEEDED = /^(?:n a|na|no aplica|non requis|non applicable|nao (?:se )?aplica|nao aplicavel|non richiesto|non necessario|nicht erforderlich|nicht zutreffend|nie dotyczy|niet nodig|ej tillampligt|gerekmez|tidak perlu|khong can|不要|不需要|불필요|해당 없음|해당없음)$/u;
const NONE = /^(?:no|n|non|nao|nie|brak|nein|geen|nee|nej|ingen|yok|tidak ada|tidak|khong|kein beleg|fehlt|manquant|mancante|falta|sin ticket|sin comprobante|sem comprovante|無|无|なし|없음|미첨부)(?: |$)/u;

/** The date and amount column words of the languages that write the day before the month ("Fecha", "Datum", "Kwota"). */
const DAY_FIRST = new RegExp(`(?:^| )(?:${['fr', 'es', 'pt', 'it', 'de', 'nl', 'sv', 'da', 'pl', 'cs', 'tr', 'id', 'vi']
  .flatMap((l) => [...(LANGUAGES[l].date ?? []), ...(LANGUAGES[l].amount ?? [])]).map(headerWords).filter((w) => w !== 'date').join('|')})(?= |$)`);

/**
 * Whether a claim's column header rows (a line of three or more cells and no digit) are written in a language whose
 * numeric dates put the day first ("Fecha;Importe;Comercio", "Data  Tipo de despesa  Valor (R$)"): its dates are then
 * read day first even when none of them shows it (03/09/2024 is the 3rd of September in Monterrey).
 */
export function headersDayFirst(text: string): boolean {
  return text.slice(0, 8000).split(/\r\n|\r|\n/).slice(0, 60).some((line) => {
    const cells = line.split(/[;,\t|]|\s{2,}/).filter((c) => c.trim() !== '');
    return cells.length >= 3 && !/\d/.test(line) && cells.some((c) => DAY_FIRST.test(headerWords(c)));
  });
}

/**
 * Where a printed report's header line names a field by one of its words (index and length in the line as printed),
 * for the columns reader: "Ticket" over a Captio report's receipt cells, "領収書" over a Navan page's.
 */
export function columnWordAt(line: string, field: ColumnField): RegExpExecArray | null {
  // Accents dropped one for one (precomposed letters), so a match's place is its place in the line.
  const folded = line.normalize('NFC').replace(/\p{Script=Latin}/gu, (ch) => ch.normalize('NFD').replace(/\p{M}/gu, '').replace(/ł/g, 'l').replace(/ı/g, 'i').toLowerCase().slice(0, 1) || ch);
  const words = Object.values(LANGUAGES).flatMap((l) => l[field] ?? []).map(headerWords).sort((a, b) => b.length - a.length);
  const alternatives = words.map((w) => (UNSPACED.test(w) ? w : `(?<![\\p{L}])${w.replace(/ /g, '\\s')}(?![\\p{L}])`));
  return new RegExp(alternatives.join('|'), 'u').exec(folded);
}
