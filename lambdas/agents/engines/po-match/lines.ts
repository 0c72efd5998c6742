/**
 * Line pairing and line comparison. Quantities and prices are compared in one unit: the same unit code on both
 * sides as written; different units through a stated pack size (2 CS of 12 = 24 EA at the case price ÷ 12); an
 * unstated pack size that changes the comparison is a discrepancy that says so, never a guess.
 */
import { abs, formatDecimal, formatMoney, lineAmount, max, roundDiv, CENT, SCALE } from './decimal.js';
import type { DocLine } from './document.js';
import { normaliseDescription, normaliseSku } from './normalise.js';
import type { Terms } from './terms.js';
import { FIXED_EACHES, massFactor, statedPack, unitCode } from './units.js';
import { lineSource } from './findings.js';
import { amountOf, label, quote, unitPriceOf, PRICE_PER_MILLE, type LineFindings } from './line-values.js';
import { budgetLine, catchWeight, creditLine, priceArithmetic } from './line-kinds.js';

export { amountOf, label, unitPriceOf, type LineFindings } from './line-values.js';

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
      .filter((p) => !used.has(p) && (p.sku === undefined || v.sku === undefined || !skuKeys(v).length || !skuKeys(p).length || samePrice(p, v)))
      .map((p) => ({ p, s: similarity(p, v) }))
      .sort((a, b) => b.s - a.s);
    const best = scored[0];
    // Descriptions wrapped with service periods and notes share fewer words: some shared words and the one PO line
    // at the same unit price are enough.
    const priced = scored.filter((x) => x.s >= 0.25 && samePrice(x.p, v));
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
    const candidates = foreign ? poLines.filter((p) => !used.has(p) && same(p, v)) : [];
    if (candidates.length === 1 && unpaired.filter((w) => same(candidates[0], w)).length === 1) {
      used.set(candidates[0], v);
      pairs.push([candidates[0], v]);
    } else extra.push({ line: v });
  }
  return { pairs, extra, unbilled: poLines.filter((p) => !used.has(p)) };
}

/**
 * What one unit of the line holds: a pack column or field (eaches), else what its description states for the unit it
 * is counted in ("caja 100 uds", "rouleau de 50 m", "(100本入)", "Liner 100/CS").
 */
function contentOf(l: DocLine): { size: bigint; unit: string } | undefined {
  if (l.pack !== undefined) return { size: BigInt(l.pack), unit: 'EA' };
  const stated = statedPack(l.description, l.uom);
  if (stated) return { size: BigInt(stated.size), unit: stated.unit };
  const n = l.uom === undefined ? undefined : packInDescription(l.description ?? '', l.uom);
  return n !== undefined ? { size: BigInt(n), unit: 'EA' } : undefined;
}

/**
 * Units of the line in the unit both lines are compared in: EA 1, DZ 12, else what one of its units holds (in eaches,
 * or in the unit the other line is counted in: rolls of 50 m against metres); a line counted in the unit the other
 * line's units hold is 1. Undefined when neither document states it.
 */
function eachesPer(l: DocLine, other: DocLine): bigint | undefined {
  if (l.uom !== undefined && FIXED_EACHES[l.uom] !== undefined) return FIXED_EACHES[l.uom];
  const c = contentOf(l);
  if (c && (c.unit === 'EA' || c.unit === other.uom)) return c.size;
  const o = contentOf(other);
  if (o && o.unit !== 'EA' && l.uom === o.unit) return 1n;
  return undefined;
}

/**
 * A pack the line's own description states for the unit it is counted in ("Liner 100/CS" counted in CS,
 * "1 BX = 250 EA", "(120 EA/CS)"): a size for another unit than the line's says nothing about this one.
 */
function packInDescription(d: string, uom: string): number | undefined {
  const forms = [/\b(\d{1,5})\s*(?:EA|each|pcs?|ct)?\s*\/\s*([A-Za-z]{2,7})\b/gi, /\b1\s*([A-Za-z]{2,7})\s*=\s*(\d{1,5})\s*(?:EA|each|pcs?)\b/gi];
  for (const [k, re] of forms.entries()) {
    for (const m of d.matchAll(re)) {
      const [n, unit] = k === 0 ? [m[1], m[2]] : [m[2], m[1]];
      if (unitCode(unit) === uom && uom !== 'EA' && Number(n) > 1) return Number(n);
    }
  }
  return undefined;
}

export function compareLine(p: DocLine, v: DocLine, terms: Terms, out: LineFindings): void {
  const name = `line ${label(v)}`;
  const sources = [lineSource('invoice', v), lineSource('purchaseOrder', p)];
  const push = (kind: string, text: string, arithmetic?: string) => out.problems.push({ kind, text, sources, arithmetic });
  if (v.quantity < 0n && p.quantity > 0n) {
    creditLine(p, v, push);
    return;
  }
  if (p.amountOnly && !v.amountOnly) {
    budgetLine(p, v, push);
    return;
  }
  // A distributor's row that shipped nothing and bills nothing (Ship 0, B/O 24, Ext 0.00) leaves the PO line open:
  // the same as a line not yet billed, judged by the PO's partial-shipment terms.
  if (v.quantity === 0n && p.quantity > 0n && amountOf(v) === 0n) {
    out.partial.push(`${label(v)} 0 of ${formatDecimal(p.quantity)}`);
    return;
  }
  if (p.quantity <= 0n || v.quantity <= 0n) {
    push('quantity', `${name}: quantity ${formatDecimal(p.quantity <= 0n ? p.quantity : v.quantity)} is not positive`);
    return;
  }
  const pPrice = unitPriceOf(p);
  const vPrice = unitPriceOf(v);
  // One unit for both: the same code, or a conversion through a stated pack size.
  let qP = p.quantity;
  let qV = v.quantity;
  let prP = pPrice;
  let prV = vPrice;
  let unitNote = '';
  const sameUnit = p.uom === v.uom || p.uom === undefined || v.uom === undefined;
  let mass: ReturnType<typeof massFactor>;
  let fP = eachesPer(p, v);
  let fV = eachesPer(v, p);
  // One side names no unit, the other a pack ("2 CS of 12" against "24"): the reading under which the prices agree.
  if ((p.uom === undefined) !== (v.uom === undefined) && pPrice !== undefined && vPrice !== undefined) {
    const known = p.uom === undefined ? fV : fP;
    if (known !== undefined && known > 1n) {
      const [pe, ve] = p.uom === undefined ? [pPrice, vPrice / known] : [pPrice / known, vPrice];
      const agree = (a: bigint, b: bigint) => abs(a - b) <= max(CENT, roundDiv(abs(a) * PRICE_PER_MILLE, 1000n));
      if (agree(pe, ve) && !agree(pPrice, vPrice)) [fP, fV] = p.uom === undefined ? [1n, known] : [known, 1n];
      else [fP, fV] = [undefined, undefined];
    }
  }
  if (!sameUnit || (p.uom === undefined) !== (v.uom === undefined)) {
    if (fP !== undefined && fV !== undefined && (fP !== 1n || fV !== 1n) && p.uom !== v.uom) {
      [qP, qV] = [p.quantity * fP, v.quantity * fV];
      prP = pPrice === undefined ? undefined : pPrice / fP;
      prV = vPrice === undefined ? undefined : vPrice / fV;
      unitNote = ` (${formatDecimal(v.quantity)} ${v.uom ?? 'unit(s)'} × ${fV} = ${formatDecimal(qV)} each against ${formatDecimal(p.quantity)} ${p.uom ?? 'unit(s)'} × ${fP} = ${formatDecimal(qP)} each)`;
    } else if ((mass = sameUnit ? undefined : massFactor(v.uom, p.uom))) {
      // Weights convert by law (1 LB = 0.45359237 KG); a billed weight rounded to its own whole unit is the ordered
      // weight when the money agrees (2205 LB for 1000 KG at the same extension).
      qV = roundDiv(v.quantity * mass.num, mass.den);
      prV = vPrice === undefined ? undefined : roundDiv(vPrice * mass.den, mass.num);
      unitNote = ` (${formatDecimal(v.quantity)} ${v.uom} = ${formatDecimal(qV)} ${p.uom})`;
      if (abs(qV - qP) <= roundDiv(SCALE * mass.num, 2n * mass.den) && abs(amountOf(p) - amountOf(v)) <= CENT) qV = qP;
    } else if (!sameUnit) {
      push('unit of measure',
        `${name}: the PO orders ${formatDecimal(p.quantity)} ${p.uom} at ${formatMoney(p.unitPrice ?? 0n)}, the invoice bills ` +
          `${formatDecimal(v.quantity)} ${v.uom} at ${formatMoney(v.unitPrice ?? 0n)}; the pack size that converts ${v.uom} to ${p.uom} is not stated, so quantity and price cannot be compared${quote(v)}`,
      );
      return;
    }
  }
  // Quantities and prices that differ in inverse proportion with no unit stated: a unit-of-measure difference.
  if (qP !== qV && prP !== undefined && prV !== undefined && prP !== prV && abs(amountOf(p) - amountOf(v)) <= CENT && unitNote === '') {
    push('pack size',
      `${name}: PO ${formatDecimal(p.quantity)}${p.uom ? ` ${p.uom}` : ''} at ${formatMoney(prP)} = ${formatMoney(amountOf(p))}; invoice ` +
        `${formatDecimal(v.quantity)}${v.uom ? ` ${v.uom}` : ''} at ${formatMoney(prV)} = ${formatMoney(amountOf(v))}: the same money, but ` +
        `${formatDecimal(v.quantity)} equals ${formatDecimal(p.quantity)} only if one PO unit holds ${formatDecimal((qV * SCALE) / qP)}; no pack size is stated, confirm it with receiving or the vendor${quote(v)}`,
      `${formatDecimal(v.quantity)} × ${formatMoney(prV)} = ${formatMoney(amountOf(v))} invoiced against ${formatDecimal(p.quantity)} × ${formatMoney(prP)} = ${formatMoney(amountOf(p))} ordered`,
    );
    return;
  }
  const weighed = catchWeight(p, v, prP, push, out);
  if (weighed) {
    // The weight billed is the actual one; its value above the PO line's estimate is what the PO agreed to pay.
  } else if (qV > qP) {
    const overQty = qV - qP;
    const over = prP === undefined ? 0n : lineAmount(overQty, prP);
    const t = terms.quantityTolerance;
    const applies = t !== undefined && (t.lines === undefined || t.lines.includes(Number(p.orderLineRef ?? p.index)));
    // The most the PO's delivery tolerance accepts: its quantity plus the stated share (thousandths of a percent).
    const most = applies ? qP + (qP * t.over) / 100_000n : qP;
    const share = `${formatDecimal((overQty * 100n * SCALE) / qP)}%`;
    if (applies && qV <= most) {
      out.accepted += over;
      (out.overDelivered ??= []).push(`${label(v)} ${formatDecimal(qV)} against ${formatDecimal(qP)} ordered, ${share} over (at most ${formatDecimal(most)}: '${t.quote}')`);
    } else {
      push('quantity over',
        `${name}: invoice quantity ${formatDecimal(qV)} exceeds the PO quantity ${formatDecimal(qP)}${unitNote}; ` +
          `${formatDecimal(overQty)} × ${formatMoney(prP ?? 0n)} = ${formatMoney(over)} over the PO${applies ? `, ${share} over, beyond the PO's delivery tolerance (at most ${formatDecimal(most)}: '${t.quote}')` : ''}${quote(v)}`,
        `${formatDecimal(qV)} invoiced − ${formatDecimal(qP)} ordered = ${formatDecimal(overQty)}; ${formatDecimal(overQty)} × ${formatMoney(prP ?? 0n)} = ${formatMoney(over)} over`,
      );
    }
  } else if (qV < qP) out.partial.push(`${label(v)} ${formatDecimal(qV)} of ${formatDecimal(qP)}`);
  if (v.backOrdered !== undefined && v.backOrdered > 0n && qV >= qP) out.partial.push(`${label(v)} ${formatDecimal(v.backOrdered)} back-ordered`);
  if (prP === undefined || prV === undefined) return;
  const billed = lineAmount(qV, prV);
  const atPo = lineAmount(qV, prP);
  const diff = billed - atPo;
  if (terms.tolerance) {
    const value = lineAmount(qV, prP);
    const pct = roundDiv(value * terms.tolerance.percent, 100_000n);
    const t = terms.tolerance;
    const tolerance = t.amount === undefined ? pct : t.lesser ? (pct < t.amount ? pct : t.amount) : max(pct, t.amount);
    if (t.onTotal && diff > 0n) {
      // A tolerance on the order's total: this line's variance is judged with the others' (engine.ts).
      out.accepted += diff;
      (out.variances ??= []).push({
        diff,
        finding: { kind: 'price', sources, text: `${name}: invoice unit price ${formatMoney(prV)} against the PO's ${formatMoney(prP)}${unitNote}: ${formatDecimal(qV)} × ${formatMoney(prV)} = ${formatMoney(billed)} against ${formatDecimal(qV)} × ${formatMoney(prP)} = ${formatMoney(atPo)}, ${formatMoney(diff)} over${quote(v)}`, arithmetic: priceArithmetic(qV, prV, prP, billed, atPo, '') },
      });
    } else if (t.onTotal || abs(diff) <= tolerance) {
      if (diff > 0n) out.accepted += diff;
      if (diff !== 0n) (out.tolerated ??= []).push(`${label(v)} ${formatMoney(prV)} against ${formatMoney(prP)}, ${formatMoney(abs(diff))} ${diff > 0n ? 'over' : 'under'} (tolerance ${formatMoney(tolerance)})`);
    } else {
      // The finding rests on the PO's own sentence stating the tolerance as well as on the two lines.
      out.problems.push({ kind: 'price', sources: [...sources, { field: 'purchaseOrder', needle: t.quote.replace(/…$/, '') }], text:
        `${name}: invoice unit price ${formatMoney(prV)} against the PO's ${formatMoney(prP)}${unitNote}: ${formatDecimal(qV)} × ` +
          `${formatMoney(prV)} = ${formatMoney(billed)} against ${formatDecimal(qV)} × ${formatMoney(prP)} = ${formatMoney(atPo)}, ` +
          `${formatMoney(abs(diff))} ${diff > 0n ? 'over' : 'under'}, outside the PO's tolerance ${formatMoney(tolerance)} ` +
          (t.amount === undefined ? `(${formatDecimal(t.percent * 1000n)}% = ${formatMoney(pct)}: '${t.quote}')${quote(v)}` : `(${t.lesser ? 'lesser' : 'greater'} of ${formatDecimal(t.percent * 1000n)}% = ${formatMoney(pct)} and ${formatMoney(t.amount)}: '${t.quote}')${quote(v)}`),
        arithmetic: priceArithmetic(qV, prV, prP, billed, atPo, ''),
      });
    }
    return;
  }
  // Default: the unit price within max($0.01, 0.5 % of the PO unit price), both ways, compared per the price unit
  // the documents write ("58,20 / 100 ST" is compared as 58.20, not as 0.582 each).
  const base = p.priceBase ?? v.priceBase ?? SCALE;
  const [wV, wP] = [(prV * base) / SCALE, (prP * base) / SCALE];
  const per = base === SCALE ? '' : ` per ${formatDecimal(base)}`;
  const tolerance = max(CENT, roundDiv(abs(wP) * PRICE_PER_MILLE, 1000n));
  if (abs(wV - wP) > tolerance) {
    push('price',
      `${name}: invoice unit price ${formatMoney(wV)}${per} differs from the PO unit price ${formatMoney(wP)}${per} by ` +
        `${formatMoney(abs(wV - wP))} (tolerance ${formatMoney(tolerance)})${unitNote}${evidence(qV, wV, wP, billed, atPo, per)}${quote(v)}`,
      priceArithmetic(qV, wV, wP, billed, atPo, per),
    );
  }
}

/** "; 120 × 12.90 = 1548.00 against 120 × 12.40 = 1488.00, 60.00 over" — only where a line total shows it. */
function evidence(q: bigint, prV: bigint, prP: bigint, billed: bigint, atPo: bigint, per: string): string {
  if (billed === atPo) return '';
  const d = billed - atPo;
  const by = per ? ` ${per.replace(' per ', '/ ')}` : '';
  return `; ${formatDecimal(q)} × ${formatMoney(prV)}${by} = ${formatMoney(billed)} against ${formatDecimal(q)} × ${formatMoney(prP)}${by} = ${formatMoney(atPo)}, ${formatMoney(abs(d))} ${d > 0n ? 'over' : 'under'}`;
}
