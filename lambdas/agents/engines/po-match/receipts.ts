/**
 * A purchase order printed with its goods-received and returns table (Exact Online's "Réceptions et retours",
 * Comarch's "Przyjęcia zewnętrzne", SAP's GR history, a "Goods received" block): for each PO line, what was received,
 * refused or returned, and accepted. Accounts payable pays only what was accepted: an invoice line billing more than
 * the accepted quantity bills goods sent back, and needs a credit note (or a corrected invoice) before it is paid.
 * The table is found by its header (column labels in the languages orders are written in), its rows tied to PO lines
 * by the line number or the item number they print. An invoice in another unit is counted in the PO line's unit
 * through a stated pack, by law, or through a container's measured content (pails of 18.9 L against gallons); where
 * nothing converts it and goods were returned or are short, a hold says so.
 */
import { formatDecimal, formatMoney, lineAmount, roundDiv } from './decimal.js';
import { eachesPer } from './line-units.js';
import { massFactor } from './units.js';
import { contentIn, isMeasure, measuredQuantity } from './line-measures.js';
import type { DocLine } from './document.js';
import { lineSource, type Finding } from './findings.js';
import { label, unitPriceOf } from './line-values.js';
import { readNumber, detectDecimal } from './number.js';
import { normaliseSku } from './normalise.js';

type Col = 'line' | 'sku' | 'received' | 'returned' | 'accepted' | 'other';
const LABELS: [Col, RegExp][] = [
  ['line', /^(?:ligne|l[íi]nea|linea|lp|ln|line|line\s+no|riga|regel|pos|poz|lin|it|item|po\s+line|n[°o]\s*ligne)\.?$/i],
  ['sku', /^(?:kod\s+towaru|kod|produkt|product|article|artikel|art|code|clave|codice|c[óo]d(?:igo)?|item\s+(?:no|code|number|#)|sku|part(?:\s+(?:no|number|#))?|r[ée]f(?:[ée]rence)?)\.?$/i],
  // "Refusé/retourné", "Returned", "Zwrócono", "Devuelto", "Reso", "Geretourneerd", "Retourniert".
  ['returned', /^(?:refus[ée]s?|retourn[ée]s?|refus[ée]\/retourn[ée]|retour(?:n[ée])?|devuelt[oa]s?|rechazad[oa]s?|devolvid[oa]s?|zwr[óo]cono|zwrot|odrzucono|res[oi]|restituit[oi]|rifiutat[oi]|geretourneerd|teruggestuurd|geweigerd|retour|retourniert|zur[üu]ck|abgelehnt|returned|rejected|refused|qty\s+returned|qty\s+rejected|vr[áa]ceno|iade)$/i],
  ['accepted', /^(?:accept[ée]e?s?|aceptad[oa]s?|aceit[oe]s?|accettat[oi]|geaccepteerd|akzeptiert|angenommen|accepted|qty\s+accepted|net\s+received|zaakceptowano|p[řr]ijato)$/i],
  ['received', /^(?:re[çc]ue?s?|recibid[oa]s?|recebid[oa]s?|przyj[ęe]to|otrzymano|dostarczono|ricevut[oi]|ontvangen|erhalten|eingegangen|geliefert|received|qty\s+received|qty\s+rec(?:'?d)?|delivered|livr[ée]e?s?|entregue|dodan[oa]|teslim\s+al[ıi]nan)$/i],
];
/** The header's own mark: a column of received goods, or of returns. */
const HEADER = /(?:re[çc]u|recibid|recebid|przyj[ęe]to|otrzymano|ricevut|ontvangen|erhalten|eingegangen|received|delivered|refus|retour|devuelt|devolvid|zwr[óo]c|reso\b|returned|rejected)/i;

export interface Receipt {
  lineRef?: string;
  sku?: string;
  received?: bigint;
  returned?: bigint;
  accepted: bigint;
  /** 1-based line of the row, and its text, for the evidence. */
  line: number;
  quote: string;
}

interface Seg {
  col: Col;
  start: number;
  end: number;
}

export function readReceipts(text: string): Receipt[] {
  const lines = text.split(/\r\n|\r|\n/);
  const decimal = detectDecimal(text);
  const out: Receipt[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.length > 300 || !HEADER.test(line)) continue;
    const segs: Seg[] = [...line.matchAll(/\S+(?: \S+)*/g)].map((m) => ({ col: LABELS.find(([, re]) => re.test(m[0].trim()))?.[0] ?? 'other', start: m.index, end: m.index + m[0].length }));
    // A PO status report's own line table with a received column ("Ln  Item  Description … Qty Received"): beside
    // the line number, the item column holds the item number.
    const lineCols = segs.filter((s) => s.col === 'line');
    if (lineCols.length > 1 && !segs.some((s) => s.col === 'sku')) for (const s of lineCols.slice(1)) if (/^item/i.test(line.slice(s.start, s.end))) s.col = 'sku';
    const has = (c: Col) => segs.some((s) => s.col === c);
    if (!(has('received') || has('accepted')) || !(has('line') || has('sku'))) continue;
    for (let j = i + 1; j < lines.length && lines[j].trim() !== ''; j++) {
      const row = readRow(lines[j], segs, decimal);
      if (row) out.push({ ...row, line: j + 1, quote: lines[j].trim().replace(/\s{2,}/g, '  ') });
    }
  }
  return out;
}

function readRow(line: string, segs: Seg[], decimal: ReturnType<typeof detectDecimal>): Omit<Receipt, 'line' | 'quote'> | undefined {
  const cells = new Map<Col, string>();
  for (const m of line.matchAll(/\S+/g)) {
    const [start, end] = [m.index, m.index + m[0].length];
    // The column the word sits under: overlapping its label, else the nearest label (numbers are set right).
    let best: Seg | undefined;
    let score = -Infinity;
    for (const s of segs) {
      const overlap = Math.min(end, s.end) - Math.max(start, s.start);
      const sc = overlap > 0 ? overlap : -Math.min(Math.abs(start - s.end), Math.abs(s.start - end));
      if (sc > score) [best, score] = [s, sc];
    }
    if (best && best.col !== 'other' && !cells.has(best.col)) cells.set(best.col, m[0]);
  }
  const num = (c: Col) => {
    const t = cells.get(c);
    return t === undefined || !/^\d[\d.,]*$/.test(t) ? undefined : readNumber(t, decimal);
  };
  const [received, returned, accepted] = [num('received'), num('returned'), num('accepted')];
  const taken = accepted ?? (received !== undefined && returned !== undefined ? received - returned : received);
  const lineRef = cells.get('line');
  if (taken === undefined || (lineRef === undefined && cells.get('sku') === undefined)) return undefined;
  // JD Edwards numbers its lines "1.000".
  return { lineRef: lineRef && /^\d{1,6}(?:\.0+)?$/.test(lineRef) ? String(Number(lineRef)) : undefined, sku: cells.get('sku'), received, returned, accepted: taken };
}

/** The receipts of one PO line: by the item number, else by the line number the row prints. */
function receiptsOf(p: DocLine, receipts: Receipt[]): Receipt[] {
  const bySku = p.sku === undefined ? [] : receipts.filter((r) => r.sku !== undefined && normaliseSku(r.sku) === normaliseSku(p.sku!));
  if (bySku.length > 0) return bySku;
  const ref = Number(p.orderLineRef ?? p.index);
  // A row naming an item number is tied by it, unless the PO line prints none (then its line number is all there is).
  return receipts.filter((r) => (r.sku === undefined || p.sku === undefined) && r.lineRef !== undefined && (Number(r.lineRef) === ref || Number(r.lineRef) === p.index));
}

export function checkReceipts(poText: string, pairs: [DocLine, DocLine][], problems: Finding[], notes: string[]): void {
  const receipts = readReceipts(poText);
  if (receipts.length === 0) return;
  for (const [p, v] of pairs) {
    const mine = receiptsOf(p, receipts);
    if (mine.length === 0 || v.quantity <= 0n) continue;
    const accepted = mine.reduce((a, r) => a + r.accepted, 0n);
    const returned = mine.reduce((a, r) => a + (r.returned ?? 0n), 0n);
    const sources = [lineSource('invoice', v), ...mine.map((r) => ({ field: 'purchaseOrder' as const, cites: [{ line: r.line }] }))];
    // The receipts count in the PO line's unit: the invoice's quantity in it, through a stated pack or a law.
    let billed = v.quantity;
    let measured: ReturnType<typeof contentIn>;
    if (p.uom !== undefined && v.uom !== undefined && p.uom !== v.uom) {
      const [fP, fV] = [eachesPer(p, v), eachesPer(v, p)];
      const law = massFactor(v.uom, p.uom);
      if (fP !== undefined && fV !== undefined) billed = (v.quantity * fV) / fP;
      else if (law) billed = roundDiv(v.quantity * law.num, law.den);
      else if (isMeasure(p.uom) && !isMeasure(v.uom) && (measured = contentIn(v, p, p.uom)) && !('conflict' in measured)) billed = measuredQuantity(v.quantity, measured, accepted);
      else if (returned > 0n || accepted < p.quantity) {
        // Goods were sent back or are short, and the invoice counts another unit: what it bills cannot be held
        // against what was accepted.
        problems.push({ kind: 'not received', sources, text: `line ${label(v)}: the PO's receipts accept ${formatDecimal(accepted)} ${p.uom}${returned > 0n ? ` (${formatDecimal(returned)} refused or returned)` : ''}, but the invoice bills ${formatDecimal(v.quantity)} ${v.uom} and no stated conversion says how many ${p.uom} that is: confirm with receiving before paying` });
        continue;
      } else {
        notes.push(`Receipts of PO line ${label(p)} not compared with the invoice: it bills in ${v.uom}, the receipts count ${p.uom}, all of it accepted.`);
        continue;
      }
    }
    if (billed > accepted) {
      const over = billed - accepted;
      const price = billed !== v.quantity ? unitPriceOf(p) : unitPriceOf(v) ?? unitPriceOf(p);
      const money = price === undefined ? '' : `; ${formatDecimal(over)} × ${formatMoney(price)} = ${formatMoney(lineAmount(over, price))} billed for goods not accepted`;
      problems.push({
        kind: 'not received',
        text:
          `line ${label(v)}: the invoice bills ${formatDecimal(billed)}${billed !== v.quantity ? ` ${p.uom} (${formatDecimal(v.quantity)} ${v.uom})` : ''} but the PO's receipts accept ${formatDecimal(accepted)}` +
          (returned > 0n ? ` (${formatDecimal(returned)} refused or returned), none of them credited on the invoice` : '') +
          `${money}: ask for a credit note or a corrected invoice ('${mine.map((r) => r.quote).join("'; '")}')`,
        sources,
        arithmetic: price === undefined ? undefined : `${formatDecimal(billed)} − ${formatDecimal(accepted)} = ${formatDecimal(over)}; ${formatDecimal(over)} × ${formatMoney(price)} = ${formatMoney(lineAmount(over, price))}`,
      });
    } else if (returned > 0n) notes.push(`PO line ${label(p)}: ${formatDecimal(returned)} returned; the invoice bills ${formatDecimal(billed)} of the ${formatDecimal(accepted)} accepted.`);
  }
}
