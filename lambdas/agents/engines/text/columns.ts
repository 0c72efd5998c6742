/**
 * What each column of a bank or ledger table holds, from its header (in the languages of the banks and ledgers read:
 * English, German, French, Dutch, Italian, Spanish, Portuguese, Polish, Nordic, Turkish, Indonesian and Malay, Czech,
 * Hungarian, Romanian, Vietnamese)
 * or, for a table without one, from what its cells hold. Pure functions over cell text.
 */
import { parseMoney } from './amount.js';
import { SCRIPT_ACCOUNT, SCRIPT_NAMES } from './column-names-scripts.js';
import { expandCompactDate, readDate } from './dates.js';

export type Role = 'date' | 'valueDate' | 'description' | 'amount' | 'out' | 'in' | 'debit' | 'credit' | 'balance' | 'type' | 'reference' | 'status' | 'voided';

const list = (s: string) => s.split('|');
/** Exact header names (normalised: no accents, lower case, words only, a trailing currency dropped), best first. */
const NAMES: [Role, string[]][] = [
  ['balance', list('balance|running balance|running bal|ending balance|end balance|closing balance|saldo|solde|saldo na mutatie|kontostand|ledger balance|balance after|disponible|saldo contabile|saldo disponibile|saldo disponible|stan|saldo po operacji|bakiye|zustatek|egyenleg|sold|baki|so du|stanje|saldo atual|saldo final|kontosaldo|zostatok|likutis|atlikums|sold final|saldo contabilistico|saldo disponivel|baki|stan rachunku|konecny zostatok')],
  ['date', list('date|transaction date|trans date|txn date|posting date|posted date|post date|posted|booking date|entry date|effective date|buchungstag|buchungsdatum|belegdatum|datum|date operation|date de l operation|date comptable|cleared date|data|data contabile|data operazione|data registrazione|data movimento|fecha|fecha operacion|fecha contable|fecha registro|data lancamento|data ksiegowania|data operacji|bokforingsdag|bokforingsdatum|dato|paivamaara|paivays|bokfort|date completed|completed date|data do lancamento|data mov|tarih|islem tarihi|tanggal|tgl|tarikh|ngay|ngay giao dich|datum transakce|datum knjizenja|kuupaev|datums|data transakcji|kirjauspaiva|tapahtumapaiva|konyveles datuma|ngay gd|ngay giao dich|ngay hach toan|tanggal transaksi|tgl transaksi|datum zauctovani|datum zauctovania|datum izvrsenja|datum transakcije|data operacijos|operacijos data|tarikh transaksi|ngay')],
  ['valueDate', list('value date|valuta|valutadatum|wert|date de valeur|date valeur|rentedatum|rentedato|data valuta|fecha valor|f valor|data valor|data waluty|date started|started date|value dt|arvopaiva|ertek nap|erteknap|ngay hieu luc|valor tarihi|datum valute|datum valuty|datum valuty')],
  ['reference', list('reference|ref|ref no|reference no|reference number|check|check no|check number|cheque|cheque no|cheque number|chk|chk no|check or slip no|num|no|number|doc no|docnum|document no|document number|transaction id|id|kundenreferenz|kundenreferenz end to end|belegnr|beleg|n piece|piece|betalingskenmerk|n reg|n documento|no documento|numero documento|riferimento|referencia|numer|numer dokumentu|n doc|source|source no|belegfeld 1|txn no|transaction no|chq ref no|chq no|cheque ref no|ref chq no')],
  ['debit', list('debit|debits|debit amount|dr|soll|debet|dare|debe|wn|winien|strona wn|obroty wn|kwota wn|debito|debit bedrag|cargo|cargos|borc|debitos|obciazenia|terheles|tartozik|duguje|breme|debetas|debets|deebet|ma dati|debetas|debit amount|ghi no|phat sinh no|no tk')],
  ['credit', list('credit|credits|credit amount|cr|haben|avere|haber|ma|strona ma|obroty ma|kwota ma|credito|kredit|kreditt|credit bedrag|abono|abonos|alacak|creditos|uznania|jovairas|kovetel|potrazuje|dobro|kreditas|kredits|kreedit|ghi co|phat sinh co|co tk')],
  ['out', list('withdrawal|withdrawals|withdrawal amount|money out|paid out|payment|payments|spent|outflow|out|af|addebiti|uscite|salidas|rozchod|wydatki|uitgaven|ausgaben|ausgang|pagamenti|pagos|saidas|ut fra konto|ut|haevet|uttag|udbetaling|saida|pagamentos|vydaj|uitgaand|retiro|retiros|egreso|egresos|retirada|retiradas|saque|saques|prelievo|prelievi|auszahlung|auszahlungen|opname|opnamen|retrait|retraits|isplata|isplate|so tien rut|rut|rut tien|isplaceno|vyber|izdatki')],
  ['in', list('deposit|deposits|deposit amount|money in|paid in|receipt|receipts|received|inflow|in|bij|accrediti|entrate|entradas|ingresos|przychod|wplywy|inkomsten|einnahmen|eingang|incassi|cobros|inn pa konto|inn|indsat|insattning|indbetaling|entrada|recebimentos|prijem|inkomend|deposito|depositos|ingreso|lodgement|lodgements|lodgment|lodgments|versamento|versamenti|einzahlung|einzahlungen|storting|stortingen|depot|depots|uplata|uplate|so tien gui|gui|gui tien|prilivi|vklad|prejemki')],
  ['amount', list('amount|transaction amount|net amount|value|sum|betrag|bedrag|umsatz|montant|importe|amt|importo|kwota|belopp|belob|beloep|montante|importe eur|kwota operacji|maara|summa|valor|valor do lancamento|valor lancamento|valor movimento|tutar|islem tutari|jumlah|castka|osszeg|suma|amaun|so tien|znesek|iznos|beloeb|umsatz ohne soll haben kz|mutasi|objem|maara|suma transakcie|iznos transakcije|so tien giao dich|islem tutari|nominal')],
  ['type', list('type|transaction type|trnstype|document type|doc type|entry type|dr cr|cr dr|debit credit|credit debit|d c|af bij|s h|soll haben|soll haben kennzeichen|soll haben kz')],
  ['description', list('description|transaction description|comment|comments|narrative|details|detail|detalhes|detalhe|particulars|memo|memo description|payee|payee name|name|merchant|merchant name|counterparty|counter party|remarks|text|notes|contact|buchungstext|verwendungszweck|vorgang verwendungszweck|umsatzart|libelle|omschrijving|naam omschrijving|mededelingen|beguenstigter zahlungspflichtiger|begunstigter auftraggeber|auftraggeber zahlungsempfanger|empfanger zahlungspflichtiger|transaction details|detalles|detalles de transaccion|detalles de la transaccion|detalle de transaccion|description 1|description 2|partner id|descrizione|descrizione estesa|causale|concepto|descripcion|observaciones|beschreibung|opis|kontrahent|tytul|tytul operacji|descricao|historico|movimiento|tekst|beskrivning|forklaring|saaja maksaja|viesti|label|partner|libelle de l operation|mouvement|description1|description2|description3|account description|narration|transaction narration|transaction remarks|transaction particulars|n facture|no facture|facture|invoice|invoice no|invoice number|inv no|rechnungsnummer|rechnungsnr|factuurnummer|n fattura|numero fattura|n factura|numero factura|cliente fornecedor|favorecido|contato|nome do contato|contraparte|relatie|relatienaam|naam relatie|beneficiario|ordenante|lancamento|aciklama|keterangan|uraian|popis transakce|kozlemeny|detalii|descriere|noi dung|dien giai|selgitus|opis transakcji|etiqueta|etichetta|etykieta|rotulo|bezeichnung|partenaire|empresa|tercero|nombre del tercero|popis transakcie|popis|paskirtis|apraksts|mo ta|noi dung giao dich|zprava pro prijemce|zprava|ucel platby|aciklama|selite|viesti|saaja maksaja|opis placanja|namen|namjena|detaily')],
  // Whether the line happened at all: a failed, declined or reverted line moved no money.
  ['status', list('status|state|estado|stato|statut|zustand|transaction status|transaction state|situacao|durum|stav')],
  // A yes/no column saying the document was voided (a checkbook register's Voided): a voided cheque never paid.
  ['voided', list('voided|void|is voided|void status')],
];
// The names in other scripts rank after the Latin ones of their role.
for (const [role, names] of NAMES) names.push(...(SCRIPT_NAMES[role] ?? []));
/** Words that claim a header no exact name claimed, tried in this order. */
const WORDS: [Role, string[]][] = [
  ['balance', ['balance', 'saldo', 'solde', 'disponible', 'bakiye', 'egyenleg', 'zustatek']],
  ['debit', ['debit', 'debits', 'soll', 'debet']],
  ['credit', ['credit', 'credits', 'haben', 'kredit']],
  ['out', ['withdrawal', 'withdrawals', 'payments']],
  ['in', ['deposit', 'deposits', 'receipts']],
  ['valueDate', ['valuta', 'valor', 'valeur', 'wert', 'started']],
  ['date', ['date', 'datum', 'data', 'fecha', 'dato']],
  ['reference', ['reference', 'ref', 'check', 'cheque', 'kundenreferenz', 'riferimento', 'referencia']],
  ['amount', ['amount', 'betrag', 'bedrag', 'importe', 'importo', 'kwota', 'montant', 'belopp', 'tutar', 'jumlah', 'castka', 'osszeg']],
  ['description', ['description', 'memo', 'payee', 'narrative', 'details', 'particulars', 'omschrijving', 'verwendungszweck', 'descrizione', 'descripcion', 'concepto', 'opis', 'beschreibung', 'descricao', 'historico', 'aciklama', 'keterangan']],
];
const CURRENCY = /(?:^| )(?:eur|euro|euros|gbp|usd|aud|cad|nzd|chf|sek|nok|dkk|pln|jpy|inr|rs|zar|sgd|hkd|brl|r|mxn|ars|clp|cop|try|tl|idr|rp|czk|huf|ron|myr|rm|vnd|aed|utc|gmt|円|元|원|руб)$/;

// A header that begins with '#' (mBank's `#Data operacji`, `#Kwota`) is named by what follows; `Check #` is a number.
// Letters of other scripts are kept (NFKC: full-width forms as their ordinary ones, kana with their voicing marks).
export const normaliseHeader = (h: string) =>
  h.replace(/^\s*#+\s*(?=[^\s#])/, '').normalize('NFKD').replace(/[\u0300-\u036f]/g, '').normalize('NFKC').toLowerCase().replace(/[øłđßæœı]/g, (c) => LETTERS[c]).replace(/#/g, ' no ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
/** Letters that carry no separable accent: written out as a reader would type them ("Beløb" as "belob", "Wpływy"). */
const LETTERS: Record<string, string> = { ø: 'o', ł: 'l', đ: 'd', ß: 'ss', æ: 'ae', œ: 'oe', ı: 'i' };

export interface Columns {
  one: Partial<Record<Role, number>>;
  /** Every column that holds description text, in order (descriptions are joined). */
  descriptions: number[];
  /** Every column that could be the signed amount (several currency columns: the filled one is chosen later). */
  amounts: number[];
}

/** Role → column. Each column serves one role; exact names beat words; a header that is only a currency is an amount. */
export function mapColumns(headers: string[]): Columns {
  const norm = headers.map((h) => {
    const n = normaliseHeader(h);
    const stripped = n.replace(CURRENCY, '').trim();
    return stripped === '' && n !== '' ? '=currency' : stripped;
  });
  const role: (Role | undefined)[] = norm.map((h) => NAMES.find(([, names]) => names.includes(h))?.[0]);
  const exact = role.map((r) => r !== undefined);
  norm.forEach((h, i) => {
    // Turkish Valör is the value date, though it reads "valor" (the amount in Spanish and Portuguese) once its accent goes.
    if (/\bvalör\b/i.test(headers[i].normalize('NFC'))) [role[i], exact[i]] = ['valueDate', true];
    if (role[i] || h === '' || /\b(?:account|cuenta|conto|konto|compte|rekening|rachunek|conta)\b/.test(h) || SCRIPT_ACCOUNT.test(h)) return;
    if (h === '=currency') role[i] = 'amount';
    // "Valor" is the amount in Portuguese and Spanish ("Valor (R$)", "Valor líquido") and the value date only beside
    // a date word ("Data valor", "Fecha de valor").
    else if (h.split(' ').includes('valor') && !/\b(?:data|fecha|f|date|dt)\b/.test(h)) role[i] = 'amount';
    else role[i] = WORDS.find(([, words]) => h.split(' ').some((w) => words.includes(w)))?.[0];
  });
  const one: Partial<Record<Role, number>> = {};
  const descriptions: number[] = [];
  const amounts: number[] = [];
  role.forEach((r, i) => {
    if (r === 'description') descriptions.push(i);
    else if (r === 'amount') amounts.push(i);
    else if (r === 'date' && one.date !== undefined) one.valueDate ??= i;
    else if (r === 'reference' && one.reference !== undefined) {
      // The better-ranked reference name wins ("Ref" over "No").
      const rank = (k: number) => NAMES[3][1].indexOf(norm[k]);
      if (rank(i) >= 0 && (rank(one.reference) < 0 || rank(i) < rank(one.reference))) one.reference = i;
    } else if (r) {
      // Two columns claiming one role: an exact name beats a word of one, and the better-ranked name wins ("Money In"
      // over a "Receipt" column that holds a receipt attachment, in a Monzo export).
      const k = one[r];
      const rank = (j: number) => (exact[j] ? NAMES.find(([x]) => x === r)![1].indexOf(norm[j]) : Infinity);
      if (k === undefined || rank(i) < rank(k)) one[r] = i;
    }
  });
  // A column named exactly as the amount beats one that only contains the word ("Amount" over "Orig amount").
  amounts.sort((a, b) => Number(!exact[a]) - Number(!exact[b]) || a - b);
  if (amounts.length > 0) one.amount = amounts[0];
  // A table whose only date is the value date dates its lines by it.
  if (one.date === undefined && one.valueDate !== undefined) [one.date, one.valueDate] = [one.valueDate, undefined];
  return { one, descriptions, amounts };
}

/** True when a row names a date column by one of its exact header names. */
export const namesDate = (cells: string[]) => cells.some((h) => NAMES[1][1].includes(normaliseHeader(h)) || NAMES[2][1].includes(normaliseHeader(h)));

/**
 * True when a row is a table's header: it names a date column and a money column (by exact name or a word of the
 * name, "Posted Transactions Date", "Date started (UTC)") and holds no value (a header names; a data row holds dates
 * and figures).
 */
export function isHeaderRow(cells: string[]): boolean {
  const c = mapColumns(cells).one;
  if (c.date === undefined || ![c.amount, c.out, c.in, c.debit, c.credit].some((i) => i !== undefined)) return false;
  return !cells.some((h) => isDate(h.trim()) || /^[-+(]?[$€£]?\d[\d.,' ]*\)?$/.test(h.trim()));
}

const MARKERS: [string, string][] = [['S', 'H'], ['AF', 'BIJ'], ['D', 'C'], ['DR', 'CR'], ['DEBIT', 'CREDIT'], ['RD', 'RC']];
/**
 * A column whose every filled cell is one of a pair of direction marks (S/H, Af/Bij, D/C, Dr/Cr, Debit/Credit):
 * the index and the pair ([debit-side mark, credit-side mark]); found by content, whatever its header.
 */
export function markerColumn(rows: string[][], skip: Set<number>): { col: number; pair: [string, string] } | undefined {
  const width = Math.max(0, ...rows.map((r) => r.length));
  for (let col = 0; col < width; col++) {
    if (skip.has(col)) continue;
    const values = rows.map((r) => (r[col] ?? '').trim().toUpperCase());
    const filled = values.filter((v) => v !== '');
    if (filled.length < Math.max(1, rows.length * 0.8)) continue;
    const pair = MARKERS.find(([d, c]) => filled.every((v) => v === d || v === c) && filled.includes(d) && filled.includes(c));
    if (pair) return { col, pair };
  }
  return undefined;
}

export const isDate = (t: string) => {
  const s = expandCompactDate(t);
  return readDate(s, 'mdy') !== undefined || readDate(s, 'dmy') !== undefined;
};
const isMoney = (t: string) => /\d[.,]\d{2}\b/.test(t) && (parseMoney(t, '.') !== undefined || parseMoney(t, ',') !== undefined);

/**
 * A table without a header: its columns identified by their content. The date column is the first whose cells are
 * dates; money columns hold figures with cents; when there are two, the one that is the running balance of the
 * other is proven by arithmetic (`balanceOf`). Returns synthetic header names for the interpreter, or undefined.
 */
export function guessHeaders(rows: string[][], balanceOf: (amounts: string[], balances: string[]) => boolean): string[] | undefined {
  if (rows.length === 0) return undefined;
  const width = Math.max(...rows.map((r) => r.length));
  const share = (col: number, test: (t: string) => boolean) =>
    rows.filter((r) => (r[col] ?? '').trim() !== '' && test(r[col].trim())).length / rows.length;
  const headers = new Array<string>(width).fill('');
  const cols = [...Array(width).keys()];
  // An account number can read as a compact date (20260315); a column of written dates beats one of bare numbers.
  const dated = cols.filter((c) => share(c, isDate) >= 0.8);
  const date = dated.find((c) => !rows.every((r) => /^\d{8}$/.test((r[c] ?? '').trim()))) ?? dated[0];
  if (date === undefined) return undefined;
  headers[date] = 'Date';
  const money = cols.filter((c) => c !== date && share(c, isMoney) >= 0.8);
  const cellsOf = (c: number) => rows.map((r) => (r[c] ?? '').trim());
  const split = splitColumns(rows, cols.filter((c) => c !== date && !money.includes(c)), money[0], cellsOf, balanceOf);
  if (split && money.length <= 1) {
    headers[split[0]] = split[2] ? 'Money out' : 'Debit';
    headers[split[1]] = split[2] ? 'Money in' : 'Credit';
    if (money.length === 1) headers[money[0]] = 'Balance';
  } else if (money.length === 0) return undefined;
  else if (money.length === 1) headers[money[0]] = 'Amount';
  else {
    const pair = money.flatMap((a) => money.filter((b) => b !== a).map((b) => [a, b] as const)).find(([a, b]) => balanceOf(cellsOf(a), cellsOf(b)));
    if (!pair) return undefined;
    headers[pair[0]] = 'Amount';
    headers[pair[1]] = 'Balance';
  }
  const rest = cols.filter((c) => headers[c] === '');
  // A column of short numbers that differ from row to row is a reference; one number on every row is the account's.
  const distinct = (c: number) => new Set(rows.map((r) => (r[c] ?? '').trim()).filter((t) => t !== '')).size > Math.min(1, rows.length - 1);
  // A check number may be zero-padded to the column's width ("0000005512"; all zeros where there is none).
  const ref = rest.find((c) => share(c, (t) => /^0*\d{1,8}$/.test(t)) > 0 && distinct(c) && rows.every((r) => /^(?:0*\d{1,8})?$/.test((r[c] ?? '').trim())));
  if (ref !== undefined) headers[ref] = 'Reference';
  const avg = (c: number) => rows.reduce((s, r) => s + (/[a-z]/i.test(r[c] ?? '') ? (r[c] ?? '').length : 0), 0);
  const text = rest.filter((c) => c !== ref && avg(c) > 0).sort((a, b) => avg(b) - avg(a))[0];
  if (text !== undefined) headers[text] = 'Description';
  return headers;
}

/**
 * Two sparse money columns of a headerless table that never both hold a figure on one row and between them fill most
 * rows: a money-out and a money-in column. With a running balance beside them, the balance proves which is which
 * ([out, in, true]); without one, the left is taken as the Debit column, as statements and ledgers print it.
 */
function splitColumns(
  rows: string[][], cols: number[], balance: number | undefined, cellsOf: (c: number) => string[],
  balanceOf: (amounts: string[], balances: string[]) => boolean,
): [number, number, boolean] | undefined {
  const sparse = cols.filter((c) => {
    const cells = cellsOf(c);
    return cells.some((t) => t !== '') && cells.every((t) => t === '' || isMoney(t));
  });
  for (let i = 0; i + 1 < sparse.length; i++) {
    const [a, b] = [cellsOf(sparse[i]), cellsOf(sparse[i + 1])];
    if (a.some((t, k) => t !== '' && b[k] !== '') || a.filter((t, k) => t !== '' || b[k] !== '').length < rows.length * 0.8) continue;
    if (balance === undefined) return [sparse[i], sparse[i + 1], false];
    const amounts = (out: string[], inn: string[]) => out.map((t, k) => (inn[k] !== '' ? inn[k] : t !== '' ? `-${t.replace(/^-/, '')}` : ''));
    if (balanceOf(amounts(a, b), cellsOf(balance))) return [sparse[i], sparse[i + 1], true];
    if (balanceOf(amounts(b, a), cellsOf(balance))) return [sparse[i + 1], sparse[i], true];
  }
  return undefined;
}
