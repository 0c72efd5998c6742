/**
 * Line pairing: by SKU or any item number either side carries, then by the PO line an invoice line cites, then by
 * the clearly closest description, and where the documents share no item number, by the one PO line of the same
 * quantity, unit and price (or the same money once a stated pack converts the units).
 */
import { abs, max, roundDiv, CENT, SCALE } from './decimal.js';
import type { DocLine } from './document.js';
import { normaliseDescription, normaliseSku } from './normalise.js';
import { amountOf, unitPriceOf, PRICE_PER_MILLE } from './line-values.js';
import { eachesPer } from './line-units.js';
import { contentIn, isMeasure } from './line-measures.js';

function skuKeys(l: DocLine): string[] {
  return [l.sku, ...(l.altSkus ?? [])].filter((s): s is string => !!s).map(normaliseSku).filter((s) => s.length >= 3);
}
/** "BMS-TP21-225" carries "TP21-225" after its vendor prefix; "[BLUM-71B3550] Blum hinge" names its SKU in brackets. */
function skuMatch(a: DocLine, b: DocLine): boolean {
  const ka = skuKeys(a);
  const kb = skuKeys(b);
  if (ka.some((x) => kb.includes(x))) return true;
  const raw = (l: DocLine) => [l.sku, ...(l.altSkus ?? [])].filter((s): s is string => !!s).map((s) => s.toUpperCase());
  return raw(a).some((x) => raw(b).some((y) => (x.length > y.length ? x.endsWith(`-${y}`) : y.endsWith(`-${x}`)) && Math.min(x.length, y.length) >= 5));
}
function words(l: DocLine): Set<string> {
  return new Set(normaliseDescription(l.description).split(' ').filter((w) => w.length >= 2));
}
function similarity(a: DocLine, b: DocLine): number {
  const wa = words(a);
  const wb = words(b);
  if (wa.size === 0 || wb.size === 0) return 0;
  let common = 0;
  for (const w of wa) if (wb.has(w)) common++;
  return common / Math.min(wa.size, wb.size);
}

export interface Extra {
  line: DocLine;
  duplicate?: DocLine;
}

/**
 * Item numbers from two numbering systems (the buyer's "MRO-WD40-12", the vendor's "0707112") say nothing about
 * each other: such lines may pair by description when the unit price confirms it.
 */
function samePrice(p: DocLine, v: DocLine): boolean {
  const [a, b] = [unitPriceOf(p), unitPriceOf(v)];
  return a !== undefined && b !== undefined && abs(a - b) <= max(CENT, roundDiv(abs(a) * PRICE_PER_MILLE, 1000n));
}
/**
 * The same price once the units both lines state convert it (46.20 a dozen "(12/DZ)" against 3.85 each; 115.20 a
 * dozen "(12 PR/DZ)" against 9.60 a pair): a line billed in the supplier's unit, partly shipped, has neither the PO
 * line's quantity nor its money, and pairs by its description and this price.
 */
function samePriceConverted(p: DocLine, v: DocLine): boolean {
  if (samePrice(p, v)) return true;
  const [a, b] = [unitPriceOf(p), unitPriceOf(v)];
  if (a === undefined || b === undefined || p.uom === undefined || v.uom === undefined || p.uom === v.uom) return false;
  // A container of a measured content against a line in that measure: its price per the measure.
  if (isMeasure(p.uom) !== isMeasure(v.uom)) {
    const m = isMeasure(p.uom) ? contentIn(v, p, p.uom) : contentIn(p, v, v.uom);
    if (m === undefined || 'conflict' in m) return false;
    const [x, y] = isMeasure(p.uom) ? [a, (b * SCALE) / m.factor] : [(a * SCALE) / m.factor, b];
    return abs(x - y) <= max(CENT, roundDiv(abs(x) * PRICE_PER_MILLE, 1000n));
  }
  const [fP, fV] = [eachesPer(p, v), eachesPer(v, p)];
  if (fP === undefined || fV === undefined || fP === fV) return false;
  // Prices per one of the units both count: a × fV against b × fP (both per fP·fV of them).
  const [x, y] = [a * fV, b * fP];
  return abs(x - y) <= max(CENT * fP, roundDiv(abs(x) * PRICE_PER_MILLE, 1000n));
}

/** SKU (or a carried item number) first; then the PO line the invoice line cites; then the clearly closest description. */
export function pairLines(poLines: DocLine[], invoiceLines: DocLine[]) {
  const used = new Map<DocLine, DocLine>();
  const pairs: [DocLine, DocLine][] = [];
  const extra: Extra[] = [];
  const pending: DocLine[] = [];
  for (const v of invoiceLines) {
    const hits = poLines.filter((p) => skuMatch(p, v));
    const free = hits.find((p) => !used.has(p));
    if (free) {
      used.set(free, v);
      pairs.push([free, v]);
    } else if (hits.length > 0) extra.push({ line: v, duplicate: used.get(hits[0]) });
    else pending.push(v);
  }
  const rest: DocLine[] = [];
  for (const v of pending) {
    const p = v.orderLineRef === undefined ? undefined : poLines.find((x) => x.orderLineRef !== undefined && Number(x.orderLineRef) === Number(v.orderLineRef) && (x.sku === undefined || v.sku === undefined || similarity(x, v) >= 0.5));
    if (p && !used.has(p)) {
      used.set(p, v);
      pairs.push([p, v]);
    } else if (p) extra.push({ line: v, duplicate: used.get(p) });
    else rest.push(v);
  }
  const unpaired: DocLine[] = [];
  for (const v of rest) {
    const scored = poLines
      .filter((p) => !used.has(p) && (p.sku === undefined || v.sku === undefined || !skuKeys(v).length || !skuKeys(p).length || samePriceConverted(p, v)))
      .map((p) => ({ p, s: similarity(p, v) }))
      .sort((a, b) => b.s - a.s);
    const best = scored[0];
    // Descriptions wrapped with service periods and notes share fewer words: some shared words and the one PO line
    // at the same unit price are enough.
    const priced = scored.filter((x) => x.s >= 0.25 && samePriceConverted(x.p, v));
    if (best && best.s >= 0.5 && (scored.length === 1 || scored[1].s < best.s)) {
      used.set(best.p, v);
      pairs.push([best.p, v]);
    } else if (priced.length === 1) {
      used.set(priced[0].p, v);
      pairs.push([priced[0].p, v]);
    } else unpaired.push(v);
  }
  // The two documents number their items differently (no invoice item number is on the PO) and abbreviate
  // differently: a line then pairs with the one PO line of the same quantity, unit and unit price, as a clerk would.
  const foreign = invoiceLines.every((v) => !poLines.some((p) => skuMatch(p, v)));
  for (const v of unpaired) {
    const same = (p: DocLine, w: DocLine) => p.quantity === w.quantity && (p.uom === w.uom || p.uom === undefined || w.uom === undefined) && samePrice(p, w) && unitPriceOf(p) !== undefined;
    // Or the same money in another unit a stated pack converts (50 CX "C/100 UN" at 29,00 against 5.000 UN at 0,29).
    const converted = (p: DocLine, w: DocLine) => {
      const [fP, fW] = [eachesPer(p, w), eachesPer(w, p)];
      return p.uom !== w.uom && fP !== undefined && fW !== undefined && p.quantity * fP === w.quantity * fW && abs(amountOf(p) - amountOf(w)) <= CENT;
    };
    let candidates = foreign ? poLines.filter((p) => !used.has(p) && same(p, v)) : [];
    if (foreign && candidates.length === 0) {
      const alike = poLines.filter((p) => !used.has(p) && converted(p, v));
      if (alike.length === 1 && unpaired.filter((w) => converted(alike[0], w)).length === 1) candidates = alike;
    }
    if (candidates.length === 1 && unpaired.filter((w) => same(candidates[0], w) || converted(candidates[0], w)).length === 1) {
      used.set(candidates[0], v);
      pairs.push([candidates[0], v]);
    } else extra.push({ line: v });
  }
  return { pairs, extra, unbilled: poLines.filter((p) => !used.has(p)) };
}

