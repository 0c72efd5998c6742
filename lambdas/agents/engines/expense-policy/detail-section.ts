/**
 * A printed report's detail section under its table ("Détail des postes", "Item details"): a dated line there
 * repeating a row's date and amount, and naming it by a word of its type or merchant ("21/10/2026  Déjeuner seul -
 * Pret A Manger Gare du Nord, ticket n° 0457-118, 21,40 TTC" under the row "21/10/2026  Repas - Déjeuner seul  Pret A
 * Manger  21,40"), is that row's detail, not the same expense claimed twice. A row repeated inside the table itself
 * stays a row (a duplicate the rules judge).
 */
import type { Entry } from './document.js';
import type { Line } from './lines.js';
import { reportColumns } from './columns.js';

const words = (text: string) => new Set((text.toLowerCase().match(/\p{L}{4,}/gu) ?? []));
const day = (e: Entry) => /^\S+/.exec(e.first.text)?.[0];

export function tableDetails(lines: Line[], kept: Entry[]): void {
  const columns = reportColumns(lines);
  if (!columns) return;
  // The table runs from its header row to the first blank line under it.
  const end = lines.findIndex((l, k) => k > columns.header + 1 && l.kind === 'blank');
  if (end < 0) return;
  const rows = kept.filter((e) => e.first.n - 1 > columns.header && e.first.n - 1 < end);
  for (let k = kept.length - 1; k >= 0; k--) {
    const e = kept[k];
    if (e.first.n - 1 <= end || e.receipt || !e.first.dated) continue;
    const own = words(e.first.text);
    const row = rows.find((r) => r.amount.cents === e.amount.cents && day(r) === day(e) && [...words(r.first.text)].some((w) => own.has(w)));
    if (!row) continue;
    row.detail ??= e.text;
    row.backed ??= e.first.text;
    kept.splice(k, 1);
  }
}
