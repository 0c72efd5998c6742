/**
 * Line pairing and line comparison. Quantities and prices are compared in one unit: the same unit code on both
 * sides as written; different units through a stated pack size (2 CS of 12 = 24 EA at the case price ÷ 12); an
 * unstated pack size that changes the comparison is a discrepancy that says so, never a guess.
 */
import { abs, formatDecimal, formatMoney, lineAmount, max, roundDiv, CENT, SCALE } from './decimal.js';
import type { DocLine } from './document.js';
import type { Terms } from './terms.js';
import { massFactor } from './units.js';
import { eachesPer } from './line-units.js';
import { contentIn, isMeasure, measuredQuantity } from './line-measures.js';
import { lineSource } from './findings.js';
import { amountOf, label, quote, unitPriceOf, PRICE_PER_MILLE, type LineFindings } from './line-values.js';
import { budgetLine, catchWeight, creditLine, priceArithmetic } from './line-kinds.js';

export { amountOf, label, unitPriceOf, type LineFindings } from './line-values.js';
export { pairLines, type Extra } from './line-pairing.js';

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
  let measured: ReturnType<typeof contentIn>;
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
      // Compared in the unit one side is counted in (litres, eaches), else in eaches.
      const side = fP === 1n ? p.uom : fV === 1n ? v.uom : undefined;
      const common = side === undefined || side === 'EA' ? 'each' : side;
      unitNote = ` (${formatDecimal(v.quantity)} ${v.uom ?? 'unit(s)'} × ${fV} = ${formatDecimal(qV)} ${common} against ${formatDecimal(p.quantity)} ${p.uom ?? 'unit(s)'} × ${fP} = ${formatDecimal(qP)} ${common})`;
    } else if ((mass = sameUnit ? undefined : massFactor(v.uom, p.uom))) {
      // Weights convert by law (1 LB = 0.45359237 KG); a billed weight rounded to its own whole unit is the ordered
      // weight when the money agrees (2205 LB for 1000 KG at the same extension).
      qV = roundDiv(v.quantity * mass.num, mass.den);
      prV = vPrice === undefined ? undefined : roundDiv(vPrice * mass.den, mass.num);
      unitNote = ` (${formatDecimal(v.quantity)} ${v.uom} = ${formatDecimal(qV)} ${p.uom})`;
      if (abs(qV - qP) <= roundDiv(SCALE * mass.num, 2n * mass.den) && abs(amountOf(p) - amountOf(v)) <= CENT) qV = qP;
    } else if (!sameUnit && isMeasure(p.uom) !== isMeasure(v.uom) && (measured = isMeasure(p.uom) ? contentIn(v, p, p.uom!) : contentIn(p, v, v.uom!))) {
      // A container of a measured content against a line in that measure (pails of 18.9 L against US gallons).
      const [c, m] = isMeasure(p.uom) ? [v, p] : [p, v];
      if ('conflict' in measured) {
        push('unit of measure', `${name}: the ${c === v ? 'invoice' : 'PO'} counts ${c.uom}, the ${c === v ? 'PO' : 'invoice'} ${m.uom}, but ${measured.conflict}: confirm what one ${c.uom} holds before paying${quote(v)}`);
        return;
      }
      const qC = measuredQuantity(c.quantity, measured, m.quantity);
      const prC = unitPriceOf(c) === undefined ? undefined : (unitPriceOf(c)! * SCALE) / measured.factor;
      if (c === v) [qV, prV] = [qC, prC];
      else [qP, prP] = [qC, prC];
      unitNote = ` (${formatDecimal(c.quantity)} ${c.uom} of ${measured.note} = ${formatDecimal(qC)} ${m.uom})`;
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
