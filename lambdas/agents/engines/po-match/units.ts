/**
 * Units of measure as printed on POs and invoices (CS, EA, BX …) and their UN/ECE Recommendation 20/21 codes
 * (H87, C62, XCS, XBX …), reduced to one code per unit, and pack sizes ("24/BX", "pack of 300", "12/cs").
 */

// English, the UN/ECE codes, and the words Spanish, Mexican and French ERPs print (SAP "CJ"/"UN"/"PAQ", SAP Business
// One "PZA"/"PAR", Odoo "Rouleau(x)"); accents are dropped before the lookup.
const SYNONYMS: Record<string, string[]> = {
  EA: ['EA', 'EACH', 'EACHES', 'H87', 'C62', 'PC', 'PCS', 'PCE', 'PIECE', 'PIECES', 'ST', 'STK', 'STUCK', 'PZ', 'NAR', 'EN',
    'UN', 'UND', 'UD', 'UDS', 'NR', 'NUM', 'PZZ', 'PEZZI', 'PEZZO', 'UNID', 'UNIDADE', 'UNIDADES', 'VNT', 'KS', 'KUS', 'ADET', 'DB', 'BUC', 'UNIDAD', 'UNIDADES', 'PZA', 'PZAS', 'PIEZA', 'PIEZAS', 'NOS', 'SZT', 'SZTUKA', 'SZTUK'],
  CS: ['CS', 'CA', 'CASE', 'CASES', 'XCS', 'CT', 'CTN', 'CARTON', 'CARTONS', 'XCT', 'KRT', 'KARTON', 'KARTONY'],
  BX: ['BX', 'BOX', 'BOXES', 'XBX', 'CJ', 'CAJA', 'CAJAS', 'CX', 'CXS', 'CAIXA', 'CAIXAS', 'SCATOLA', 'SCATOLE'],
  PK: ['PK', 'PACK', 'PACKS', 'PKG', 'XPK', 'PA', 'XPA', 'PAQ', 'PAQUETE', 'PAQUETES', 'PAQUET', 'PAQUETS', 'CF', 'CONF', 'CONFEZIONE', 'CONFEZIONI', 'OP', 'OPAK', 'OPAKOWANIE'],
  PR: ['PR', 'PAIR', 'PAIRS', 'PAR', 'PARES', 'PAIRE', 'PAIRES'],
  // The dozen by its name in the languages orders are written in (docena, dúzia, douzaine, dozzina, Dutzend, tuzin).
  DZ: ['DZ', 'DOZ', 'DOZEN', 'DOZENS', 'DZN', 'DOC', 'DOCENA', 'DOCENAS', 'DUZIA', 'DUZIAS', 'DZ.', 'DOUZAINE', 'DOUZAINES', 'DOZZINA', 'DOZZINE', 'DUTZEND', 'DTZ', 'TUZIN', 'TUZINY', 'TUCET'],
  BG: ['BG', 'BAG', 'BAGS', 'XBG', 'BOLSA', 'BOLSAS', 'SAC', 'SACS'],
  BDL: ['BDL', 'BE', 'BUNDLE', 'BUNDLES', 'BND', 'XBE', 'LIASSE', 'LIASSES', 'FARDO', 'FARDOS'],
  RL: ['RL', 'ROL', 'ROLL', 'ROLLS', 'ROLLEN', 'XRO', 'RO', 'ROLLO', 'ROLLOS', 'ROULEAU', 'ROULEAUX'],
  SET: ['SET', 'SETS', 'KIT', 'KITS', 'SE', 'JUEGO', 'JUEGOS', 'KPL', 'KOMPLET'],
  KG: ['KG', 'KGS', 'KGM', 'KILO', 'KILOS', 'KILOGRAMO', 'KILOGRAMOS', 'KILOGRAMME', 'KILOGRAMMES'],
  LB: ['LB', 'LBS', 'LBR'],
  TON: ['TON', 'TONS', 'TN', 'STN'],
  // The metric tonne (1000 kg): UN/ECE TNE, and "MT" as Indian GST invoices and steel, grain and alloy trades print it.
  TNE: ['TNE', 'MT', 'TONNE', 'TONNES', 'MTON', 'METRICTON', 'METRICTONS', 'METRICTONNE'],
  // The quintal (100 kg), as Indian mandi and steel invoices print it.
  QTL: ['QTL', 'QUINTAL', 'QUINTALS'],
  YD: ['YD', 'YDS', 'YRD'],
  // The US gallon (UN/ECE GLL); the imperial gallon (GLI) apart.
  GAL: ['GAL', 'GLL', 'GALLON', 'GALLONS', 'GALON', 'GALONES'],
  GLI: ['GLI', 'IMPGAL'],
  MLT: ['MLT', 'ML'],
  MTR: ['MTR', 'METRE', 'METRES', 'METER', 'METERS', 'METRO', 'METROS'],
  FT: ['FT', 'FOT', 'FOOT', 'FEET'],
  LTR: ['LTR', 'LT', 'L', 'LITRE', 'LITRES', 'LITER', 'LITERS', 'LITRO', 'LITROS'],
  DJ: ['DJ', 'GAR', 'GARRAFA', 'GARRAFAS', 'DEMIJOHN'],
  LOT: ['LOT', 'LOTS', 'LOTE', 'LOTES'],
  // Containers of a measured amount: the bucket or pail (UN/ECE XBJ; cubeta, balde, secchio, Eimer), the jerrican
  // (XJC; Kanister, tanica, bidon) and the drum (XDR; tambor, fusto, Fass).
  BJ: ['BJ', 'XBJ', 'BUCKET', 'BUCKETS', 'PAIL', 'PAILS', 'CUBETA', 'CUBETAS', 'BALDE', 'BALDES', 'SECCHIO', 'SECCHI', 'EIMER', 'WIADRO', 'WIADRA'],
  JC: ['JC', 'XJC', 'JERRICAN', 'JERRICANS', 'KANISTER', 'KANISTRY', 'TANICA', 'TANICHE', 'BIDON', 'BIDONS', 'GARRAFAO', 'GARRAFOES'],
  DR: ['DR', 'XDR', 'DRUM', 'DRUMS', 'TAMBOR', 'TAMBORES', 'FUSTO', 'FUSTI', 'FASS', 'BECZKA'],
  HUR: ['HUR', 'HR', 'HRS', 'HOUR', 'HOURS', 'HORA', 'HORAS', 'HEURE', 'HEURES'],
};
/**
 * Japanese counters as a unit column prints them (and the Hebrew unit word): 本 and 個 (pieces: bolts, ties, washers), 枚 (sheets), 箱 (boxes),
 * 袋 (bags), 巻 (rolls), 組/セット (sets), 足/双 (pairs), ケース/C/S (cases), ダース (dozens).
 */
const CJK: Record<string, string> = {
  本: 'EA', 個: 'EA', 枚: 'EA', 台: 'EA', 点: 'EA', 件: 'EA', 箱: 'BX', 袋: 'BG', 巻: 'RL', 組: 'SET', セット: 'SET', 足: 'PR', 双: 'PR',
  ケース: 'CS', ダース: 'DZ', パック: 'PK', 缶: 'CAN', 式: 'SET',
  // Hebrew: יח' (יחידה, a unit: each), with the ASCII apostrophe or the geresh.
  "יח'": 'EA', 'יח׳': 'EA', יחידה: 'EA', יחידות: 'EA',
};
const CODE = new Map<string, string>();
for (const [code, names] of Object.entries(SYNONYMS)) for (const n of names) CODE.set(n, code);

/** "cs" / "XCS" / "Case" / "rollen" → "CS"; undefined when the word is not a unit this reader knows. */
export function unitCode(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const t = text.trim();
  if (CJK[t] !== undefined) return CJK[t];
  // "m" is the metre's symbol; a capital "M" after a price is per thousand (priceBasis), never a unit.
  if (t === 'm' || t === 'm.') return 'MTR';
  const k = t.normalize('NFD').replace(/\p{M}/gu, '').toUpperCase().replace(/[^A-Z0-9]/g, '');
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
  m = /\b(?:pack|case|box|carton|bag|bundle|roll)\s+of\s+(\d{1,5})\b/i.exec(t);
  if (m) return Number(m[1]);
  return undefined;
}

/**
 * A unit printed with what it holds, as distributors write a U/M cell: "CS/12", "CS12", "BX-100", "12/CS", "PK 36".
 * Only a container unit (case, box, pack, bag, roll, bundle) holding more than one; "EA/1" or a count of eaches is none.
 */
export function unitWithPack(text: string | undefined): { uom: string; pack: number } | undefined {
  if (!text) return undefined;
  const t = text.trim();
  const m = /^([A-Za-z]{1,6})\s*[/-]?\s*(\d{1,5})$/.exec(t) ?? /^(\d{1,5})\s*\/\s*([A-Za-z]{1,6})$/.exec(t);
  if (!m) return undefined;
  const [word, n] = /^\d/.test(m[1]) ? [m[2], m[1]] : [m[1], m[2]];
  const uom = unitCode(word);
  if (uom === undefined || !CONTAINER_UNITS.has(uom) || Number(n) <= 1) return undefined;
  return { uom, pack: Number(n) };
}
const CONTAINER_UNITS = new Set(['CS', 'BX', 'PK', 'BG', 'RL', 'BDL']);

/** Containers a description names ("caja 100 uds", "rouleau de 50 m", "pack of 25"), in the languages above. */
const CONTAINER = String.raw`pack|case|box|carton|karton|bag|roll|reel|spool|caja|paquete|bolsa|rollo|bobina|paquet|sac|rouleau|bo[iî]te|lot|cx|caixa|pacote|pct|scatola|confezione|conf|op|opakowanie|cubeta|bucket|pail|balde|secchio|eimer|kanister|jerrican|tanica|bidon|drum|tambor|fusto`;
/** Units that are containers of a measured amount: a size their line's description states alone ("… 19 L") is theirs. */
const BULK_UNITS = new Set(['BJ', 'JC', 'DR']);
const CONTENT_UNIT = String.raw`lbs?|uds?|unidades|units?|un|und|pcs?|pieces?|pi[eè]ces?|pzas?|piezas|pz|pezzi|szt|ea|each|m|mts?|metros?|m[eè]tres?|meters?|ft|feet|kg|l`;
/** "caja 100 uds", "CX C/100 UN" (Portuguese "com"), "karton 12 rolek", "confezione da 50 pz". */
const CONTAINED = new RegExp(String.raw`\b(${CONTAINER})\.?\s+(?:(?:of|de|con|com|da|di|z|po)\s+|c\/\s*)?(\d{1,5})(?:\s*(${CONTENT_UNIT})\b)?`, 'gi');
/**
 * A piece that is a container of a measured amount, "kanister 5 l", "cubeta 19 L", "bidon de 20 L", "25 kg sack" on a
 * line counted in pieces: one piece holds that many litres or kilos (never eaches: "rola 100 m" on a roll counted as
 * a piece says how long the roll is, and the buyer may count rolls).
 */
const BULK = String.raw`kanister|canister|jerrican|jerrycan|bidon|bid[oó]n|garraf[aã]o|gal[oó]n|cubeta|cubo|balde|bucket|pail|secchio|tanica|eimer|drum|tambor|fusto|beczka|wiadro|sack|saco|sacco|worek`;
const BULK_CONTENT = new RegExp(String.raw`\b(${BULK})\s+(?:(?:of|de|da|di|z)\s+)?(\d{1,4}(?:[.,]\d{1,2})?)\s*(l|lt|ltr|litros?|litres?|liters?|kg)\b|\b(\d{1,4}(?:[.,]\d{1,2})?)\s*(l|lt|ltr|kg)\s+(${BULK})`, 'i');
/** The size before the container: "50 LB BAG", "25 kg bags" (what one bag of the line holds). */
const SIZED_CONTAINER = new RegExp(String.raw`\b(\d{1,5})\s*(${CONTENT_UNIT})\.?\s+(${CONTAINER})(?:es|s)?\b`, 'gi');

/**
 * What one unit of a line holds, as its own description states it for the unit the line is counted in: "caja 100
 * uds" or "pack of 25" on a line in boxes or packs (25 each), "rouleau de 50 m" on a line in rolls (50 metres), a
 * Japanese "(100本入)" / "200個入り" (pieces in whatever unit the line counts). A size stated for another unit than the
 * line's says nothing about this one.
 */
export function statedPack(description: string | undefined, uom: string | undefined): { size: number; unit: string } | undefined {
  if (!description || uom === undefined) return undefined;
  if (uom === 'EA') {
    const b = BULK_CONTENT.exec(description);
    const size = b ? Number((b[2] ?? b[4]).replace(',', '.')) : 0;
    return b && Number.isInteger(size) && size > 1 ? { size, unit: unitCode(b[3] ?? b[5])! } : undefined;
  }
  const jp = /(\d{1,5})\s*(本|個|枚|粒|巻|袋)?入り?/.exec(description);
  if (jp && Number(jp[1]) > 1) return { size: Number(jp[1]), unit: unitCode(jp[2] ?? '個') ?? 'EA' };
  for (const m of description.matchAll(CONTAINED)) {
    if (unitCode(m[1]) !== uom || Number(m[2]) <= 1) continue;
    // "rollo 50 mts": what a roll or reel holds in "mt" is metres, never tonnes.
    const content = m[3] === undefined ? 'EA' : /^mts?$/i.test(m[3]) ? 'MTR' : unitCode(m[3]) ?? 'EA';
    if (content === uom) continue;
    return { size: Number(m[2]), unit: content };
  }
  // "IMPERMEABILIZANTE ACRILICO … 19 L" on a line counted in cubetas: the one measured size the description states.
  if (BULK_UNITS.has(uom)) {
    const sizes = [...description.matchAll(/(?<![\d.,])(\d{1,4})\s*(l|lt|ltr|litros?|litres?|liters?|kg)\b/gi)];
    if (sizes.length === 1 && Number(sizes[0][1]) > 1) return { size: Number(sizes[0][1]), unit: unitCode(sizes[0][2])! };
  }
  for (const m of description.matchAll(SIZED_CONTAINER)) {
    const content = unitCode(m[2]) ?? 'EA';
    if (unitCode(m[3]) !== uom || Number(m[1]) <= 1 || content === uom) continue;
    return { size: Number(m[1]), unit: content };
  }
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

/**
 * Masses by law, in hundred-millionths of a kilogram: the international pound is exactly 0.45359237 kg, the metric
 * tonne 1000 kg, the quintal 100 kg.
 */
const MASS: Record<string, bigint> = { KG: 100_000_000n, LB: 45_359_237n, TNE: 100_000_000_000n, QTL: 10_000_000_000n };
/**
 * Volumes by law, in billionths of a litre: the US gallon is exactly 3.785411784 L, the imperial gallon 4.54609 L,
 * the millilitre a thousandth of a litre.
 */
const VOLUME: Record<string, bigint> = { LTR: 1_000_000_000n, GAL: 3_785_411_784n, GLI: 4_546_090_000n, MLT: 1_000_000n };
/**
 * How a quantity in one mass (or volume) unit converts to another (× num ÷ den); undefined unless both are masses or
 * both volumes.
 */
export function massFactor(from: string | undefined, to: string | undefined): { num: bigint; den: bigint } | undefined {
  if (from === undefined || to === undefined || from === to) return undefined;
  for (const table of [MASS, VOLUME]) if (table[from] !== undefined && table[to] !== undefined) return { num: table[from], den: table[to] };
  return undefined;
}
