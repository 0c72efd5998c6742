/**
 * Column names of printed order and invoice tables in the further languages orders are written in: Portuguese
 * (TOTVS Protheus, PHC, Primavera, a DANFE's "CÓD. DESCRIÇÃO DO PRODUTO QUANT. V. UNITÁRIO V. TOTAL"), the rest of the
 * Polish, Italian, Spanish, French, Dutch and German vocabulary, the other EU languages (Czech, Slovak, Slovenian,
 * Croatian, Romanian, Hungarian, Greek, Bulgarian, Lithuanian, Latvian, Estonian), Turkish, Chinese, Korean, Thai,
 * Vietnamese and Indonesian. Phrases are written as the header reader normalises them: lower case, each word's
 * trailing dot or colon dropped ("Vlr. Unitário" is "vlr unitário", "Qtd." is "qtd"). Columns a match does not read
 * (tax codes, VAT amounts, the line with its VAT, delivery dates) are `other`.
 */
import type { Role } from './text-columns.js';

export const LANGUAGE_COLUMN_WORDS: [Role, string[]][] = [
  // Portuguese (Brazil, Portugal).
  ['line', ['it', 'nº', 'n.º', 'seq']],
  ['sku', ['cód', 'cod', 'código do produto', 'cód produto', 'artigo', 'referência', 'ref']],
  ['desc', ['produto', 'descrição', 'descricao', 'descrição do produto', 'descrição do produto/serviço', 'designação', 'produto/serviço', 'discriminação']],
  ['qty', ['qtd', 'qtde', 'quant', 'quantidade', 'qde']],
  ['uom', ['un', 'unid', 'und', 'unidade']],
  ['price', ['vlr unitário', 'vlr unit', 'v unitário', 'v unit', 'valor unitário', 'valor unit', 'preço', 'preço unit', 'preço unitário', 'pr unit', 'preço unitário s/ iva']],
  ['amount', ['vlr total', 'v total', 'valor total', 'valor', 'total líquido', 'valor líquido', 'montante', 'subtotal']],
  ['disc', ['desconto']],
  ['other', ['ncm/sh', 'ncm', 'cst', 'cfop', 'bc icms', 'v icms', 'alíq icms', 'alíq.icms', 'alíq ipi', 'v ipi', 'icms', 'ipi', 'entrega', 'prazo']],
  // Polish (Comarch, Symfonia, Fakturownia, wFirma, enova).
  ['sku', ['kod towaru', 'symbol', 'indeks towaru']],
  ['desc', ['nazwa towaru lub usługi', 'nazwa towaru / usługi', 'nazwa towaru/usługi', 'nazwa artykułu', 'towar']],
  ['uom', ['jm', 'j.m', 'jedn. miary', 'jedn miary']],
  ['price', ['cena netto po rab', 'cena po rabacie', 'cena kat', 'cena jedn netto', 'cena brutto']],
  ['disc', ['rabat', 'rabat %', 'upust']],
  ['other', ['kwota vat', 'wartość brutto', 'stawka vat', 'vat']],
  // Odoo's Polish purchase order: "Produkt  Ilość  JM  Otrzymano  Zafakt.  Cena jedn.  Podatki  Kwota netto" (its
  // received and billed columns are no quantity: the received one is read as the receipts).
  ['amount', ['kwota netto', 'kwota']],
  ['other', ['otrzymano', 'zafakt', 'zafakturowano', 'podatki', 'przyjęto']],
  // Italian (TeamSystem, Passepartout, Zucchetti, Danea).
  ['sku', ['cod articolo', 'codice articolo', 'art']],
  ['desc', ['descrizione articolo', 'articolo', 'descrizione beni/servizi']],
  ['qty', ['quantita', 'q.ta', 'qtà', 'q.tà']],
  ['uom', ['u.m', 'um', 'unità di misura']],
  ['price', ['prezzo unit', 'prezzo netto', 'pr unit', 'prezzo un']],
  ['amount', ['importo netto', 'totale riga', 'valore', 'imponibile']],
  ['other', ['aliquota iva', 'iva %', 'cod iva', 'consegna', 'data consegna']],
  // Spanish (A3ERP, Holded, Sage, Aspel).
  ['line', ['línea', 'linea', 'lín', 'part', 'partida']],
  // A Mexican CFDI's printed representation: the SAT product key and the tax object are no item columns.
  ['uom', ['clave unidad', 'clave de unidad']],
  ['other', ['clave prodserv', 'clave prod/serv', 'clave sat', 'objeto imp', 'objeto de impuesto']],
  ['desc', ['artículo / descripción', 'descripción del artículo']],
  ['uom', ['ud', 'uds', 'unidad de medida', 'u. medida', 'u medida']],
  ['price', ['precio/ud', 'precio ud', 'precio unidad', 'p unit', 'pvp', 'valor unit']],
  ['amount', ['importe total', 'total línea', 'total linea']],
  // French (Sage, Sellsy, Cegid, EBP).
  ['price', ['pu', 'p.u', 'pu net', 'pu ht net', 'prix unit ht', 'prix u ht']],
  ['amount', ['montant net', 'montant ht net', 'total ligne', 'mt ht']],
  ['other', ['code tva', 'tva %']],
  // Dutch (Exact Online, Billit, AFAS).
  ['sku', ['artikelcode', 'artikelnummer', 'artikel nr', 'art nr']],
  ['desc', ['artikelomschrijving']],
  ['qty', ['aantal besteld', 'hoeveelheid', 'besteld']],
  ['uom', ['eenheid', 'eenh']],
  ['price', ['prijs per stuk', 'eenheidsprijs excl btw', 'prijs excl btw']],
  ['amount', ['totaal excl btw', 'bedrag excl btw', 'subtotaal', 'regeltotaal']],
  // German (DATEV, sevDesk, lexoffice, SAP's German print).
  ['line', ['pos', 'position']],
  ['sku', ['artikel-nr', 'art.-nr', 'artikelnummer', 'materialnr']],
  ['desc', ['beschreibung', 'leistung', 'artikelbezeichnung']],
  ['uom', ['einheit', 'me']],
  ['price', ['e-preis', 'ep', 'stückpreis', 'einzelpreis netto']],
  ['amount', ['g-preis', 'gp', 'gesamt', 'summe netto', 'nettobetrag']],
  ['other', ['ust', 'ust %', 'mwst %']],
  // Czech and Slovak.
  ['sku', ['kód', 'katalogové číslo']],
  ['desc', ['název', 'nazov', 'název položky', 'popis', 'položka']],
  ['qty', ['množství', 'mnozstvi', 'množstvo', 'počet']],
  ['uom', ['mj', 'm.j', 'jednotka']],
  ['price', ['cena/mj', 'cena za mj', 'jedn cena', 'jednotková cena', 'cena bez dph']],
  ['amount', ['celkem', 'celkem bez dph', 'základ', 'spolu', 'cena celkem']],
  ['other', ['dph', 'dph %', 'sazba dph']],
  // Slovenian and Croatian.
  ['desc', ['naziv', 'opis artikla']],
  ['qty', ['količina', 'kolicina', 'kol']],
  ['uom', ['em', 'j.m', 'enota', 'jed mj']],
  ['price', ['cijena', 'jed cijena', 'cena/enoto']],
  ['amount', ['iznos', 'vrijednost', 'znesek', 'vrednost']],
  ['other', ['pdv', 'ddv']],
  // Romanian and Hungarian.
  ['desc', ['denumire', 'denumirea produselor', 'megnevezés', 'termék']],
  ['qty', ['cantitate', 'cant', 'mennyiség']],
  ['uom', ['u.m', 'me', 'mennyiségi egység']],
  ['price', ['preț unitar', 'pret unitar', 'egységár', 'nettó egységár']],
  ['amount', ['valoare', 'nettó érték', 'nettó összeg', 'érték']],
  ['other', ['tva', 'áfa', 'áfa %', 'cota tva']],
  // Greek and Bulgarian.
  ['desc', ['περιγραφή', 'είδος', 'наименование', 'описание']],
  ['qty', ['ποσότητα', 'ποσ', 'количество', 'к-во']],
  ['uom', ['μ.μ', 'μμ', 'мярка', 'м.ед']],
  ['price', ['τιμή', 'τιμή μονάδας', 'τιμή μον', 'ед цена', 'единична цена', 'цена']],
  ['amount', ['αξία', 'καθαρή αξία', 'стойност', 'сума']],
  ['other', ['φπα', 'ф.п.а', 'ддс']],
  // Lithuanian, Latvian and Estonian.
  ['desc', ['pavadinimas', 'nosaukums', 'nimetus', 'kirjeldus']],
  ['qty', ['kiekis', 'daudzums', 'kogus']],
  ['uom', ['mato vnt', 'mērv', 'ühik']],
  ['price', ['kaina', 'cena', 'hind', 'ühiku hind']],
  ['amount', ['suma', 'summa', 'kokku']],
  ['other', ['pvm', 'pvn', 'km']],
  // Turkish.
  ['sku', ['stok kodu', 'ürün kodu']],
  ['desc', ['açıklama', 'ürün', 'mal/hizmet', 'ürün adı', 'malzeme']],
  ['qty', ['miktar']],
  ['uom', ['birim']],
  ['price', ['birim fiyat', 'birim fiyatı', 'fiyat']],
  ['amount', ['tutar', 'toplam', 'mal hizmet tutarı']],
  ['other', ['kdv', 'kdv %', 'kdv oranı', 'iskonto']],
  // Chinese (simplified and traditional).
  ['line', ['序号', '序號', '行号']],
  ['sku', ['物料编码', '物料编号', '料号', '料號', '商品编码', '货号', '品号']],
  ['desc', ['品名', '名称', '名稱', '商品名称', '物料名称', '规格型号', '货物或应税劳务名称', '描述', '说明']],
  ['qty', ['数量', '數量']],
  ['uom', ['单位', '單位']],
  ['price', ['单价', '單價', '含税单价', '不含税单价']],
  ['amount', ['金额', '金額', '不含税金额', '小计']],
  ['other', ['税率', '税额', '稅額', '交货日期', '备注']],
  // Korean.
  ['line', ['순번', '번호']],
  ['sku', ['품번', '품목코드', '코드']],
  ['desc', ['품명', '품목', '규격', '품명 및 규격', '내역']],
  ['qty', ['수량']],
  ['uom', ['단위']],
  ['price', ['단가']],
  ['amount', ['공급가액', '금액']],
  ['other', ['세액', '부가세', '비고', '납기']],
  // Thai.
  ['line', ['ลำดับ']],
  ['sku', ['รหัสสินค้า', 'รหัส']],
  ['desc', ['รายการ', 'รายละเอียด', 'ชื่อสินค้า']],
  ['qty', ['จำนวน']],
  ['uom', ['หน่วย']],
  ['price', ['ราคาต่อหน่วย', 'ราคา/หน่วย']],
  ['amount', ['จำนวนเงิน', 'ราคารวม']],
  ['other', ['ภาษีมูลค่าเพิ่ม', 'ส่วนลด']],
  // Vietnamese.
  ['line', ['stt']],
  ['sku', ['mã hàng', 'mã sp']],
  ['desc', ['tên hàng', 'tên hàng hóa', 'tên hàng hóa, dịch vụ', 'diễn giải']],
  ['qty', ['số lượng']],
  ['uom', ['đvt', 'đơn vị tính', 'đơn vị']],
  ['price', ['đơn giá']],
  ['amount', ['thành tiền']],
  ['other', ['thuế suất', 'tiền thuế', 'thuế gtgt']],
  // Indonesian and Malay.
  ['sku', ['kode barang', 'kode']],
  ['desc', ['nama barang', 'deskripsi', 'keterangan', 'uraian']],
  ['qty', ['kuantitas', 'jumlah barang', 'qty', 'kuantiti']],
  ['uom', ['satuan', 'unit']],
  ['price', ['harga satuan', 'harga', 'harga seunit']],
  ['amount', ['jumlah', 'total harga', 'jumlah harga', 'amaun']],
  ['other', ['ppn', 'diskon']],
];
