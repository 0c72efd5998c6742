/**
 * An EDIFACT INVOIC translated to JSON with element tags as keys (the shape EDI translators such as Bots, Smooks or
 * the EDI.Net/EdiFabric mappers write): segments keyed by their tag (`"NAD": [{"3035": "SU", "C080": {"3036": …}}]`),
 * segment groups as objects or lists of segments (`"LIN_group": [{"LIN": …, "QTY": …}]`, `"MOA_totals"`), a segment
 * nested inside another (`NAD` carrying its `RFF`) following it. Element and component ids name their position in the
 * D.96A directory, so they are put back in the places the positional reader (edifact.ts) reads: an absent element
 * (a NAD without C058) must not shift the party name into another element's place.
 */
import { jsonPositions, pathKey, type Cite } from '../text/json-positions.js';
import type { EdiSegment } from './edifact.js';

/** Element order of the segments the reader uses (D.96A); others keep the order written. */
const SEGMENT: Record<string, string[]> = {
  BGM: ['C002', '1004', '1225', '4343'],
  DTM: ['C507'],
  RFF: ['C506'],
  NAD: ['3035', 'C082', 'C058', 'C080', 'C059', '3164', '3229', '3251', '3207'],
  CUX: ['C504', 'C504', '5402', '6341'],
  LIN: ['1082', '1229', 'C212', 'C829', '1222', '7083'],
  PIA: ['4347', 'C212', 'C212', 'C212', 'C212', 'C212'],
  IMD: ['7077', 'C272', 'C273', '7383', '3453'],
  QTY: ['C186'],
  PRI: ['C509', '5213'],
  MOA: ['C516'],
  ALC: ['5463', 'C552', '4471', '1227', 'C214'],
  TAX: ['5283', 'C241', 'C533', '5286', 'C243', '5305', '3446'],
  UNS: ['0081'],
};
/** Component order of the composites the reader uses. */
const COMPOSITE: Record<string, string[]> = {
  C506: ['1153', '1154', '1156', '4000', '1060'],
  C082: ['3039', '1131', '3055'],
  C080: ['3036', '3036', '3036', '3036', '3036', '3045'],
  C504: ['6347', '6345', '6343', '6348'],
  C212: ['7140', '7143', '1131', '3055'],
  C273: ['7009', '1131', '3055', '7008', '7008', '3453'],
  C186: ['6063', '6060', '6411'],
  C509: ['5125', '5118', '5375', '5387', '5284', '6411'],
  C516: ['5025', '5004', '6345', '6343', '4405'],
  C552: ['1230', '5189'],
  C214: ['7161', '1131', '3055', '7160', '7160'],
};

/**
 * The same segments written with named fields (`"QTY": [{"qualifier": "47", "quantity": "15", "unit": "PCE"}]`), as
 * translators that name D.96A's data elements in words write them: each name put at its element and component.
 */
const NAMED: Record<string, Record<string, [number, number]>> = {
  RFF: { qualifier: [0, 0], value: [0, 1], reference: [0, 1], number: [0, 1], id: [0, 1], line: [0, 2], linenumber: [0, 2], lineid: [0, 2] },
  NAD: { qualifier: [0, 0], party: [0, 0], function: [0, 0], id: [1, 0], gln: [1, 0], name: [3, 0], street: [4, 0], city: [5, 0], postcode: [7, 0], country: [8, 0] },
  CUX: { qualifier: [0, 0], currency: [0, 1], type: [0, 2] },
  LIN: { linenumber: [0, 0], line: [0, 0], action: [1, 0], itemnumber: [2, 0], item: [2, 0], itemnumbertype: [2, 1], itemtype: [2, 1] },
  PIA: { qualifier: [0, 0], function: [0, 0], itemnumber: [1, 0], item: [1, 0], itemnumbertype: [1, 1], itemtype: [1, 1], type: [1, 1] },
  IMD: { type: [0, 0], format: [0, 0], description: [2, 3], text: [2, 3] },
  QTY: { qualifier: [0, 0], quantity: [0, 1], value: [0, 1], unit: [0, 2], uom: [0, 2] },
  PRI: { qualifier: [0, 0], price: [0, 1], value: [0, 1], type: [0, 2], basis: [0, 4], unitpricebasis: [0, 4], unit: [0, 5], uom: [0, 5] },
  MOA: { qualifier: [0, 0], amount: [0, 1], value: [0, 1], currency: [0, 2] },
  ALC: { qualifier: [0, 0], indicator: [0, 0], code: [4, 0], description: [4, 3] },
};
const nameKey = (k: string) => k.toLowerCase().replace(/[^a-z]/g, '');

function namedElements(tag: string, o: Obj): string[][] | undefined {
  const names = NAMED[tag];
  if (!names) return undefined;
  const out: string[][] = [];
  let hits = 0;
  for (const [k, v] of Object.entries(o)) {
    const at = names[nameKey(k)];
    if (!at || isObj(v) || Array.isArray(v)) continue;
    hits++;
    const [e, c] = at;
    out[e] ??= [];
    out[e][c] ??= text(v);
  }
  if (hits === 0) return undefined;
  return Array.from({ length: out.length }, (_, i) => Array.from({ length: out[i]?.length ?? 0 }, (_, j) => out[i]?.[j] ?? ''));
}

const TAG_KEY = /^([A-Z]{3})(?:_[A-Za-z0-9_]*)?$/;
const ELEMENT_KEY = /^(?:[CS]\d{3}|\d{4})$/;
type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown) => (v === null || v === undefined || typeof v === 'object' ? '' : String(v));

/** Values placed by their ids into a layout (each id takes its first free place); ids not in it follow in order. */
function place(layout: string[] | undefined, entries: [string, unknown][]): unknown[] {
  const out: unknown[] = [];
  const taken = new Set<number>();
  let tail = layout?.length ?? 0;
  for (const [k, v] of entries) {
    for (const one of Array.isArray(v) ? v : [v]) {
      let i = layout ? layout.findIndex((id, j) => id === k && !taken.has(j)) : -1;
      if (i < 0) i = tail++;
      taken.add(i);
      out[i] = one;
    }
  }
  return out;
}

function segmentOf(tag: string, o: Obj, path: (string | number)[], positions: Map<string, Cite>, out: EdiSegment[]): void {
  const byId = Object.keys(o).some((k) => ELEMENT_KEY.test(k));
  const named = byId ? undefined : namedElements(tag, o);
  const elements = named ?? place(SEGMENT[tag], Object.entries(o).filter(([k]) => ELEMENT_KEY.test(k))).map((e, i) => {
    if (!isObj(e)) return [text(e)];
    const key = SEGMENT[tag]?.[i];
    return place(key ? COMPOSITE[key] : undefined, Object.entries(e)).map(text);
  });
  out.push({ tag, elements: elements.map((e) => e ?? []), cite: positions.get(pathKey(path)) });
  // A segment nested in another (NAD's RFF, TAX's MOA) follows it, as in the message.
  for (const [k, v] of Object.entries(o)) if (TAG_KEY.test(k)) walk(k, v, [...path, k], positions, out);
}

function walk(key: string, v: unknown, path: (string | number)[], positions: Map<string, Cite>, out: EdiSegment[]): void {
  if (Array.isArray(v)) {
    v.forEach((x, i) => walk(key, x, [...path, i], positions, out));
    return;
  }
  const tag = TAG_KEY.exec(key)?.[1];
  // A segment of one simple element written as its value ("UNS": "S").
  if (tag && (typeof v === 'string' || typeof v === 'number')) {
    out.push({ tag, elements: [[String(v)]], cite: positions.get(pathKey(path)) });
    return;
  }
  if (!isObj(v)) return;
  const keys = Object.keys(v);
  // A group: every key a segment tag (LIN_group's {LIN, PIA, IMD, QTY, …}).
  if (keys.length > 0 && keys.every((k) => TAG_KEY.test(k))) {
    for (const k of keys) walk(k, v[k], [...path, k], positions, out);
  } else if (tag) segmentOf(tag, v, path, positions, out);
}

/** The segments in document order when the JSON is an INVOIC keyed by segment tags; otherwise undefined. */
export function taggedSegments(root: unknown, source: string): EdiSegment[] | undefined {
  let top: Obj | undefined;
  let base: string[] = [];
  if (isObj(root) && Object.keys(root).some((k) => /^(?:UNH|BGM)$/.test(k))) top = root;
  else if (isObj(root)) {
    const inner = Object.entries(root).find(([, v]) => isObj(v) && Object.keys(v).some((k) => /^(?:UNH|BGM)$/.test(k)));
    if (inner) [base, top] = [[inner[0]], inner[1] as Obj];
  }
  if (!top) return undefined;
  const positions = jsonPositions(source);
  const out: EdiSegment[] = [];
  // Segments keyed by tag, and groups under a name of their own ("lines": [{"LIN": …, "QTY": …}]).
  for (const [k, v] of Object.entries(top)) walk(k, v, [...base, k], positions, out);
  return out.some((s) => s.tag === 'LIN') ? out : undefined;
}
