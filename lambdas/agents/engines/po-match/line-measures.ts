/**
 * A container's measured content against a line counted in a measure: a pail "PAIL 18.9 L" or "(5 US gal)" against
 * a PO in US gallons, a "25 kg sack" against one in pounds. Content stated in the other line's own unit is a stated
 * pack (5 US gal a pail). Content stated in another unit of the same kind converts by law (1 US gal = 3.785411784 L)
 * and is only as exact as it is printed: "18.9 L" is anything from 18.85 to 18.95 L (4.980 to 5.006 US gal), and
 * never looser than the half-percent a price may differ. Within that, the content the two prices agree on (71.00 a
 * pail against 14.20 a gallon: 5 gal) is the pail's; outside it, the law's figure (4.993 gal) is compared and the
 * price difference shows. Two contents printed for one container that do not agree are no conversion at all.
 */
import { formatDecimal, roundDiv, SCALE } from './decimal.js';
import type { DocLine } from './document.js';
import { massFactor } from './units.js';
import { unitPriceOf } from './line-values.js';

/** A figure of a measure in a row's text: "18.9 L", "(5 US gal)", "25 kg", "500 ml". */
const FIGURE = /(=\s*)?(?<![\d.,])(\d{1,4}(?:[.,]\d{1,3})?)\s*(us\s+gal(?:lons?)?|imp(?:erial)?\.?\s+gal(?:lons?)?|gal(?:lons?|s)?|l|lt|ltr|litres?|liters?|ml|kgs?|lbs?)\b/gi;

function measureCode(word: string): string | undefined {
  const w = word.toLowerCase().replace(/\s+/g, ' ');
  if (/^imp/.test(w)) return 'GLI';
  if (/gal/.test(w)) return 'GAL';
  if (/^ml$/.test(w)) return 'MLT';
  if (/^(?:l|lt|ltr|litres?|liters?)$/.test(w)) return 'LTR';
  if (/^kgs?$/.test(w)) return 'KG';
  if (/^lbs?$/.test(w)) return 'LB';
  return undefined;
}

interface Figure {
  value: bigint;
  unit: string;
  /** Half the last printed digit, in millionths of the unit. */
  half: bigint;
}

/** The measured figures a container line prints for one of its units (a figure after "=" is the line's total). */
function figures(l: DocLine): Figure[] {
  const out: Figure[] = [];
  for (const text of [l.quote ?? '', l.description ?? '']) {
    for (const m of text.matchAll(FIGURE)) {
      if (m[1]) continue;
      const unit = measureCode(m[3]);
      if (!unit) continue;
      const [whole, frac = ''] = m[2].split(/[.,]/);
      const value = BigInt(whole) * SCALE + BigInt(frac.padEnd(6, '0'));
      const half = (SCALE * 5n) / 10n ** BigInt(frac.length + 1);
      if (value <= 0n || out.some((f) => f.value === value && f.unit === unit)) continue;
      out.push({ value, unit, half });
    }
  }
  // A figure that is the line's quantity times another is the line's total in that measure ("= 200 US gal").
  return out.filter((f) => !out.some((g) => g !== f && g.unit === f.unit && (g.value * l.quantity) / SCALE === f.value));
}

export type Measured =
  | { factor: bigint; lo: bigint; hi: bigint; note: string }
  | { conflict: string };

/**
 * How many of `measure` one unit of the container line `c` holds, as its text states it; `other` is the line counted
 * in the measure (its price picks the content within the printed rounding). Undefined when the text states none.
 */
export function contentIn(c: DocLine, other: DocLine, measure: string): Measured | undefined {
  const all = figures(c);
  const direct = all.filter((f) => f.unit === measure);
  const lawful = all.filter((f) => f.unit !== measure && massFactor(f.unit, measure) !== undefined);
  if (direct.length > 1 || lawful.length > 1 || (direct.length === 0 && lawful.length === 0)) return undefined;
  const [cPrice, mPrice] = [unitPriceOf(c), unitPriceOf(other)];
  let range: { lo: bigint; hi: bigint; at: bigint; text: string } | undefined;
  if (lawful.length === 1) {
    const f = lawful[0];
    const law = massFactor(f.unit, measure)!;
    const conv = (v: bigint) => roundDiv(v * law.num, law.den);
    // Never looser than the half-percent a price may differ by.
    const half = f.half < roundDiv(f.value * 5n, 1000n) ? f.half : roundDiv(f.value * 5n, 1000n);
    range = { lo: conv(f.value - half), hi: conv(f.value + half), at: conv(f.value), text: `${formatDecimal(f.value)} ${f.unit} = ${formatDecimal(conv(f.value))} ${measure} by law` };
  }
  if (direct.length === 1) {
    const d = direct[0].value;
    if (range && (d < range.lo || d > range.hi)) {
      return { conflict: `its content is printed as ${formatDecimal(d)} ${measure} and as ${range.text}, which do not agree` };
    }
    return { factor: d, lo: d, hi: d, note: `${formatDecimal(d)} ${measure} each, as the invoice states${range ? ` (${range.text})` : ''}` };
  }
  const r = range!;
  const implied = cPrice !== undefined && mPrice !== undefined && mPrice > 0n ? (cPrice * SCALE) / mPrice : undefined;
  if (implied !== undefined && implied >= r.lo && implied <= r.hi) {
    return { factor: implied, lo: r.lo, hi: r.hi, note: `${r.text}; ${formatDecimal(implied)} ${measure}, the content the prices agree on, is within the printed figure's rounding` };
  }
  return { factor: r.at, lo: r.lo, hi: r.hi, note: r.text };
}

/** The quantity in the measure `q` containers make, and whether `target` is that within the printed rounding. */
export function measuredQuantity(q: bigint, m: { factor: bigint; lo: bigint; hi: bigint }, target: bigint): bigint {
  const [lo, hi] = [(q * m.lo) / SCALE, (q * m.hi) / SCALE];
  return target >= lo && target <= hi ? target : (q * m.factor) / SCALE;
}

const MEASURES = new Set(['LTR', 'GAL', 'GLI', 'MLT', 'KG', 'LB', 'TNE', 'QTL']);
/** A unit that is a measure (a volume or a mass), not a count or a container. */
export const isMeasure = (uom: string | undefined) => uom !== undefined && MEASURES.has(uom);
