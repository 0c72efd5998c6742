/**
 * The columns of a printed report (Concur, Deltek, Navan printouts pasted as text): its column header row
 * ("Line Date  Expense Type  Description  Rate  Qty/%  Amount  Reimb Rcpt"), with the rule of dashes under it when
 * there is one, gives where each column sits. A row's claim is the figure under the Amount column, not a rate or
 * unit price printed left of it; its receipt is the cell under the Receipt column.
 */
import type { Line } from './lines.js';
import { columnWordAt, receiptAnswer } from './column-words.js';

/** A receipt cell saying the receipt is there, in the tools' languages ("Anexado", "Adjunto", "Allegato", "あり", "有"). */
const ATTACHED = /^(?:anexad[oa]|anexo|adjunt[oa]|allegat[oa]|joint|jointe|beigefügt|vorhanden|załączon[ya]|dołączon[ya]|bijgevoegd|bifogad|evet|var|ada|có|あり|有|添付済|첨부|있음)/iu;

export interface Span {
  at: number;
  end: number;
  /** Where it shows on a fixed-width print, wide letters (CJK) counting two: rows are aligned by it. */
  shownAt?: number;
  shownEnd?: number;
}

export interface ReportColumns {
  /** The 0-based index of the column header row. */
  header: number;
  amount?: Span;
  receipt?: Span;
  /** The column naming each row's kind of expense ("Category", "Kategorie", "Expense Type"). */
  category?: Span;
}

const RECEIPT = /\b(?:receipts?|rcpts?|belege?|justificatifs?|bewijsstuk(?:ken)?|giust(?:ificativ[oi])?|justificantes?|comprovantes?|kvitton?)(?![\p{L}])/iu;
const CATEGORY = /\b(?:category|expense type|kategorie|catégorie|categoría|categoria|categorie|kategori)\b/i;
const AMOUNT = /\b(?:amount|betrag|montant|importe|importo|bedrag|valor|belopp)\b(?:\s\([A-Za-z$€£]{1,4}\))?/i;

/** The report's column header row: no money, an Amount column and at least two other columns set apart by spaces. */
export function reportColumns(lines: Line[]): ReportColumns | undefined {
  for (let k = 0; k < lines.length; k++) {
    const l = lines[k];
    if (l.kind !== 'plain' || l.amts.length > 0 || !/\s{2,}/.test(l.raw)) continue;
    const amount = AMOUNT.exec(l.raw) ?? columnWordAt(l.raw, 'amount');
    if (!amount || l.raw.trim().split(/\s{2,}/).length < 3 || /:\s/.test(l.raw)) continue;
    const dashes = lines[k + 1] && /^[\s-]+$/.test(lines[k + 1].raw) && /-\s+-/.test(lines[k + 1].raw) ? lines[k + 1].raw : undefined;
    const span = (m: RegExpExecArray): Span => ruleUnder(dashes, m.index, m.index + m[0].length) ?? { at: m.index, end: m.index + m[0].length };
    const receipt = RECEIPT.exec(l.raw) ?? columnWordAt(l.raw, 'receipt');
    const category = CATEGORY.exec(l.raw) ?? columnWordAt(l.raw, 'category');
    const wide = (sp: Span): Span => ({ ...sp, shownAt: shown(l.raw, sp.at), shownEnd: shown(l.raw, sp.end) });
    return { header: k, amount: span(amount), receipt: receipt ? wide(span(receipt)) : undefined, category: category ? { at: category.index, end: category.index + category[0].length } : undefined };
  }
  return undefined;
}

/** The run of dashes under a header word: the column's full width. */
function ruleUnder(dashes: string | undefined, at: number, end: number): Span | undefined {
  if (!dashes) return undefined;
  const re = /-+/g;
  for (let m = re.exec(dashes); m !== null; m = re.exec(dashes)) {
    if (m.index < end && m.index + m[0].length > at) return { at: m.index, end: m.index + m[0].length };
  }
  return undefined;
}

/** The amount of a row printed under the Amount column (by where it sits on the line), when the row has several. */
export function amountUnder<A extends { at: number }>(l: Line, amts: A[], col: Span | undefined): A | undefined {
  if (!col || amts.length < 2) return undefined;
  const offset = l.raw.length - l.raw.trimStart().length;
  const width = (a: A) => /^\S+/.exec(l.raw.slice(offset + a.at))?.[0].length ?? 1;
  const overlap = (a: A) => Math.min(col.end, offset + a.at + width(a)) - Math.max(col.at, offset + a.at);
  const best = amts.reduce((b, a) => (overlap(a) > overlap(b) ? a : b));
  return overlap(best) > 0 ? best : undefined;
}

/** The cell of a row under the Receipt column ("Y", "No", "n/a"). */
export function cellAt(l: Line, col: Span | undefined): string | undefined {
  if (!col) return undefined;
  const re = /\S+/g;
  for (let m = re.exec(l.raw); m !== null; m = re.exec(l.raw)) {
    const [a, b] = [m.index, m.index + m[0].length];
    // A print may set a cell a few characters off its header ("Sì" under "Giust." shifted by a long description).
    if (col.shownAt !== undefined && col.shownEnd !== undefined) {
      if (shown(l.raw, a) >= col.shownEnd + 6 || shown(l.raw, b) <= col.shownAt - 6) continue;
    } else if (a >= col.end + 6 || b <= col.at - 6) continue;
    // "No aplica", "Non requis", "Não se aplica": none needed, not none attached.
    if (receiptAnswer(/^\S+(?: \S+){0,2}/.exec(l.raw.slice(a))![0].replace(/\s{2,}.*$/, '')) === 'n/a' && !/^[-－—]$/.test(m[0])) return 'n/a';
    if (/^(?:y|n|yes|no|n\/a|none|missing)$/i.test(m[0])) return m[0];
    // The same answers in the report's language ("Sì", "ja", "GEEN", "non"), or the receipt's file ("factuur.pdf").
    if (/^(?:s[iìí]|ja|oui|sim)$/i.test(m[0]) || /^[\p{L}\d_-]+\.(?:pdf|jpe?g|png|heic|tiff?)$/iu.test(m[0])) return 'yes';
    if (/^(?:geen|nee|nein|non|não|nao|nej|ingen|manquant|mancante|fehlt)$/i.test(m[0])) return 'no';
    // The answers of the other languages column-words.ts lists ("Anexado", "No aplica", "なし(IC)", "あり(紙・撮影)").
    const local = receiptAnswer(m[0]);
    if (local === 'no') return 'no';
    if (local === 'n/a' && m[0].trim().length > 0 && !/^[-－—]$/.test(m[0])) return 'n/a';
    if (ATTACHED.test(m[0])) return 'yes';
    // The document the cell names ("Grab e-receipt", "Hotel invoice", "Rechnung"): a receipt there.
    if (/^(?:e-?)?(?:receipts?|invoices?|tax-invoices?|bills?|factuur|fattura|facture|factura|rechnung|quittung|beleg|kvitto)$/i.test(m[0])) return 'yes';
    // Brazil's fiscal documents and proofs ("NFC-e", "Cupom fiscal", "Mapa/GPS" of a mileage, a toll tag's statement
    // "Sem Parar"): the document is there.
    if (/^(?:nf-?e|nfc-?e|nfs-?e|cupom|extrato|mapa(?:\/gps)?)$/i.test(m[0]) || /^(?:sem parar|conectcar|veloe)\b/i.test(l.raw.slice(a, a + 12))) return 'yes';
  }
  return undefined;
}

/** The words of a row starting under a column's header (up to a gap of two spaces): its Category cell. */
export function wordsAt(l: Line, col: Span | undefined): string | undefined {
  if (!col) return undefined;
  const m = /\S+(?: \S+)*/.exec(l.raw.slice(col.at));
  // The cell starts where the header does: a row whose words there began earlier is another column's.
  if (!m || m.index > col.end - col.at || (col.at > 0 && /\S/.test(l.raw[col.at - 1] ?? ''))) return undefined;
  return m[0];
}

/** The column a character index of a line shows at on a fixed-width print: wide letters (CJK, full-width forms) count two. */
export function shown(raw: string, index: number): number {
  let col = 0;
  for (const ch of raw.slice(0, index)) col += WIDE.test(ch) ? 2 : 1;
  return col;
}
const WIDE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff01-\uff60\uffe0-\uffe6]/u;
