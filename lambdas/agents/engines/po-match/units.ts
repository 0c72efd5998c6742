/**
 * Units of measure as printed on POs and invoices (CS, EA, BX …) and their UN/ECE Recommendation 20/21 codes
 * (H87, C62, XCS, XBX …), reduced to one code per unit, and pack sizes ("24/BX", "pack of 300", "12/cs").
 */

const SYNONYMS: Record<string, string[]> = {
  EA: ['EA', 'EACH', 'EACHES', 'H87', 'C62', 'PC', 'PCS', 'PCE', 'PIECE', 'PIECES', 'ST', 'STK', 'STUCK', 'PZ', 'NAR', 'EN'],
  CS: ['CS', 'CA', 'CASE', 'CASES', 'XCS', 'CT', 'CTN', 'CARTON', 'CARTONS', 'XCT'],
  BX: ['BX', 'BOX', 'BOXES', 'XBX'],
  PK: ['PK', 'PACK', 'PACKS', 'PKG', 'XPK', 'PA', 'XPA'],
  PR: ['PR', 'PAIR', 'PAIRS'],
  DZ: ['DZ', 'DOZ', 'DOZEN', 'DZN'],
  BG: ['BG', 'BAG', 'BAGS', 'XBG'],
  RL: ['RL', 'ROL', 'ROLL', 'ROLLS', 'ROLLEN', 'XRO', 'RO'],
  SET: ['SET', 'SETS', 'KIT', 'KITS', 'SE'],
  KG: ['KG', 'KGM'],
  LB: ['LB', 'LBS', 'LBR'],
  TON: ['TON', 'TONS', 'TN', 'STN'],
  YD: ['YD', 'YDS', 'YRD'],
  GAL: ['GAL', 'GLL'],
};
const CODE = new Map<string, string>();
for (const [code, names] of Object.entries(SYNONYMS)) for (const n of names) CODE.set(n, code);

/** "cs" / "XCS" / "Case" / "rollen" → "CS"; undefined when the word is not a unit this reader knows. */
export function unitCode(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const k = text.toUpperCase().replace(/[^A-Z0-9]/g, '');
  return CODE.get(k);
}

// "Units" / "Unit" (Odoo's default, generic ERP wording) names no particular unit: it is left unknown on purpose.

/** Units whose size is fixed: a dozen is 12 each. */
export const FIXED_EACHES: Record<string, bigint> = { EA: 1n, DZ: 12n };

/** "24/BX", "250/CS", "6/CS", "12" (a pack column), "pack of 300", "case of 500", "12/cs": eaches per unit. */
export function packSize(text: string | undefined): number | undefined {
  if (!text) return undefined;
  const t = text.trim();
  let m = /^(\d{1,5})\s*(?:\/\s*[A-Za-z]{1,6})?$/.exec(t);
  if (m) return Number(m[1]) > 0 ? Number(m[1]) : undefined;
  m = /\b(?:pack|case|box|carton|bag)\s+of\s+(\d{1,5})\b/i.exec(t);
  if (m) return Number(m[1]);
  return undefined;
}

/**
 * The quantity a price is written for, in whole units: a price-basis code or number ("E" each, "C" / "CPC" per 100,
 * "M" / "MPC" per 1000, "100", "per 1000", "hundred"), as fastener and wire distributors print a PER column.
 * Undefined when the text names no basis (a unit of measure is read by unitCode instead).
 */
export function priceBasis(text: string | undefined): number | undefined {
  if (!text) return undefined;
  const t = text.trim().toUpperCase().replace(/^(?:PER|\/)\s*/, '');
  if (/^(?:E|EA|EACH|1)$/.test(t)) return 1;
  if (/^(?:C|CPC|CT?H|HUNDRED|100)$/.test(t)) return 100;
  if (/^(?:M|MPC|MH|THOUSAND|1,?000)$/.test(t)) return 1000;
  return undefined;
}
