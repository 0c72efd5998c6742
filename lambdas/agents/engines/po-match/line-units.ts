/**
 * What one unit of a line holds and how many of the unit both lines are compared in it makes: a pack column, a size
 * the description states for the line's unit, a dozen, a container of a measured amount counted in pieces.
 */
import type { DocLine } from './document.js';
import { FIXED_EACHES, statedPack, unitCode } from './units.js';

/**
 * What one unit of the line holds: a pack column or field (eaches), else what its description states for the unit it
 * is counted in ("caja 100 uds", "rouleau de 50 m", "(100本入)", "Liner 100/CS").
 */
function contentOf(l: DocLine): { size: bigint; unit: string } | undefined {
  if (l.pack !== undefined) return { size: BigInt(l.pack), unit: 'EA' };
  const stated = statedPack(l.description, l.uom);
  if (stated) return { size: BigInt(stated.size), unit: stated.unit };
  const n = l.uom === undefined ? undefined : packInDescription(l.description ?? '', l.uom);
  return n !== undefined ? { size: BigInt(n.size), unit: n.unit } : undefined;
}

/**
 * Units of the line in the unit both lines are compared in: EA 1, DZ 12, else what one of its units holds (in eaches,
 * or in the unit the other line is counted in: rolls of 50 m against metres); a line counted in the unit the other
 * line's units hold is 1. Undefined when neither document states it.
 */
export function eachesPer(l: DocLine, other: DocLine): bigint | undefined {
  const c = contentOf(l);
  // A piece that holds a measured amount ("kanister 5 l" counted in pieces) against a line in that measure (litres).
  if (l.uom === 'EA' && c && c.unit !== 'EA' && c.unit === other.uom) return c.size;
  if (l.uom !== undefined && FIXED_EACHES[l.uom] !== undefined) return FIXED_EACHES[l.uom];
  if (c && (c.unit === 'EA' || c.unit === other.uom)) return c.size;
  const o = contentOf(other);
  if (o && o.unit !== 'EA' && l.uom === o.unit) return 1n;
  return undefined;
}

/**
 * A pack the line's own description states for the unit it is counted in ("Liner 100/CS" counted in CS,
 * "1 BX = 250 EA", "(120 EA/CS)", gloves "(12 PR/DZ)": a dozen of pairs): a size for another unit than the line's
 * says nothing about this one. What the unit holds is eaches, or pairs where the description says pairs.
 */
function packInDescription(d: string, uom: string): { size: number; unit: string } | undefined {
  const forms = [/\b(\d{1,5})\s*(EA|each|pcs?|ct|PR|pairs?)?\s*\/\s*([A-Za-z]{2,7})\b/gi, /\b1\s*([A-Za-z]{2,7})\s*=\s*(\d{1,5})\s*(EA|each|pcs?|PR|pairs?)\b/gi];
  for (const [k, re] of forms.entries()) {
    for (const m of d.matchAll(re)) {
      const [n, content, unit] = k === 0 ? [m[1], m[2], m[3]] : [m[2], m[3], m[1]];
      const held = content !== undefined && /^(?:pr|pairs?)$/i.test(content) ? 'PR' : 'EA';
      if (unitCode(unit) === uom && uom !== 'EA' && uom !== held && Number(n) > 1) return { size: Number(n), unit: held };
    }
  }
  return undefined;
}
