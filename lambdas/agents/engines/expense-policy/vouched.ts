/**
 * What a report in another language says of its receipts as a whole or per entry, where its lines say nothing of
 * their own: "Justificatifs : 8 / 8 joints" (Expensya), "Belege: 5/5", "Comprobantes 7 de 7" vouch for every entry
 * when the count is the count of entries; a detail block numbered as its entry ("[3] Aparcamiento · … · ticket
 * adjunto", "[4] … Justificante: FACTURA SIMPLIFICADA Nº …") vouches for that entry. A receipt said to be missing,
 * lost or to follow vouches for nothing. The block's head count ("Asistentes (4):") is its entry's.
 */
import type { Item } from './expense.js';

/** The receipt words of the languages whose policies are read (languages.ts). */
const RECEIPTS = 'receipts?|justificatifs?|pi[eè]ces? justificatives?|belege?|quittungen|comprobantes?|justificantes?|recibos?|tickets?|facturas?|ricevute|giustificativi|scontrini|comprovantes?|faturas?|bewijsstukken|rachunki|paragony|領収書';
const ATTACHED = 'attached|enclosed|joints?|jointes?|attachés?|adjuntos?|adjuntas?|anexados?|anexadas?|allegat[io]|beigefügt|bijgevoegd|załączone|添付';
const COUNTED = new RegExp(`(?:${RECEIPTS})\\s*:?\\s*(\\d{1,3})\\s*(?:\\/|of|sur|de|von|di|van|z)\\s*(\\d{1,3})\\b(?:\\s*(?:${ATTACHED}|matched))?`, 'iu');
// "Nº T2-004518" (NFKC: "No T2-…") is a number's mark, no denial.
const DENIED = /\bno\b(?![.:]?\s*[\p{Lu}\d-]*\d)|\b(?:not|missing|manquants?|manquent|perdu|lost|falta|faltan|extraviad[oa]|mancant[ei]|fehlt|fehlen|ausstehend|à suivre|to follow|pendiente)\b|紛失|なし/iu;
const PER_ENTRY = new RegExp(`(?:${RECEIPTS})[^\\n]{0,40}?\\b(?:${ATTACHED})\\b|\\b(?:justificante|justificatif|receipt|beleg|ricevuta|comprovante)\\s*:\\s*(?:factura|facture|invoice|rechnung|fattura|nota fiscal|ticket|recibo)`, 'iu');

/** Marks the entries a report's own statement vouches for; an entry that says anything of its receipt keeps it. */
export function vouchedInReport(items: Item[], text: string): void {
  for (const line of text.split(/\r?\n/)) {
    const m = COUNTED.exec(line);
    if (m && m[1] === m[2] && Number(m[1]) >= items.length && !DENIED.test(line)) {
      for (const item of items) item.receipt ??= true;
      return;
    }
  }
  // "[3] Aparcamiento · … · ticket adjunto": a detail block under its entry's number, up to the next one.
  const blocks = text.split(/\r?\n(?=\s*\[\d{1,3}\]\s)/);
  for (const block of blocks) {
    const n = /^\s*\[(\d{1,3})\]\s/.exec(block);
    const item = n ? items.find((i) => i.index === Number(n[1])) : undefined;
    // "Asistentes (4):", "Attendees (3)", "Convives (5)": the block's head count.
    const people = /\b(?:attendees|asistentes|convives|invités|teilnehmer|partecipanti|participantes|deelnemers)\s*\((\d{1,3})\)/iu.exec(block);
    if (item && people && item.people === undefined) item.people = BigInt(people[1]);
    if (item && item.receipt === undefined && PER_ENTRY.test(block) && !DENIED.test(block.replace(/\bno requiere\b|\bnot required\b/gi, ''))) item.receipt = true;
  }
}
