/**
 * An ANSI X12 810 invoice (or 850 purchase order: BEG03 its number, PO1 lines read as IT1, AMT*TT its total) rendered as JSON, in any of the usual shapes (segments keyed by id with loops, a list of
 * {"id": "IT1", "IT102": …} objects, or named elements such as "quantity_invoiced_02"), flattened into segments in
 * document order and read as a practitioner reads an 810: BIG04 the PO, N1 RI/RE/SE/SU the vendor, CUR02 the currency,
 * IT1 quantity/unit/price and item numbers (VP/VN vendor's, BP/IN buyer's), PID05 the description, SAC charges
 * and TDS01 in implied cents, TXI tax.
 */
import { AgentInputError } from '../port.js';
import { chargeKind, completeLine, type Doc, type RawLine } from './document.js';
import { parseDecimal, SCALE } from './decimal.js';
import { unitCode } from './units.js';
import { jsonPositions, pathKey, type Cite } from '../text/json-positions.js';

interface Segment {
  id: string;
  el: Map<number, string>;
  cite?: Cite;
}

const SEG_ID = /^[A-Z][A-Z0-9]{1,2}$/;

function elements(id: string, obj: Record<string, unknown>): Map<number, string> {
  const el = new Map<number, string>();
  for (const [k, v] of Object.entries(obj)) {
    if (v === null || typeof v === 'object') continue;
    const m = new RegExp(`^${id}(\\d{2})$`).exec(k) ?? /_(\d{2})$/.exec(k);
    if (m) el.set(Number(m[1]), String(v).trim());
  }
  return el;
}

type Where = (path: (string | number)[]) => Cite | undefined;

function collect(value: unknown, key: string, out: Segment[], depth: number, path: (string | number)[], where: Where): void {
  if (depth > 30 || out.length > 20_000) return;
  if (Array.isArray(value)) {
    value.forEach((v, i) => collect(v, key, out, depth + 1, [...path, i], where));
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const obj = value as Record<string, unknown>;
  const id = typeof obj.id === 'string' && SEG_ID.test(obj.id) ? obj.id : /(?:^|_)([A-Z][A-Z0-9]{1,2})$/.exec(key)?.[1];
  if (id !== undefined) {
    const el = elements(id, obj);
    // The segment's first element written, else where the segment opens.
    const first = Object.keys(obj).find((k) => typeof obj[k] !== 'object' || obj[k] === null);
    if (el.size > 0) out.push({ id, el, cite: (first !== undefined ? where([...path, first]) : undefined) ?? where(path) });
  }
  for (const [k, v] of Object.entries(obj)) if (v !== null && typeof v === 'object') collect(v, k, out, depth + 1, [...path, k], where);
}

export function x12Segments(root: unknown, text = ''): Segment[] | undefined {
  const segs: Segment[] = [];
  let positions: Map<string, Cite> | undefined;
  const where: Where = (path) => (positions ??= jsonPositions(text)).get(pathKey(path));
  collect(root, '', segs, 0, [], where);
  // An 810 invoice (IT1 lines under BIG, totalled by TDS) or an 850 purchase order (PO1 lines under BEG).
  const invoice = segs.some((s) => s.id === 'IT1') && segs.some((s) => s.id === 'BIG' || s.id === 'TDS');
  const order = segs.some((s) => s.id === 'PO1') && segs.some((s) => s.id === 'BEG');
  return invoice || order ? segs : undefined;
}

const VENDOR_PARTS = new Set(['VP', 'VN', 'VC', 'SK', 'MG', 'VA']);
const BUYER_PARTS = new Set(['BP', 'IN', 'PI', 'CB', 'PD']);

function decimal(text: string | undefined, what: string, field: string): bigint | undefined {
  if (text === undefined || text === '') return undefined;
  const v = parseDecimal(text);
  if (v === undefined) throw new AgentInputError(field, `${what} "${text.slice(0, 40)}" is not a number`);
  return v;
}
/** X12 "N2" amounts carry two implied decimals: "85732" is 857.32. */
function implied(text: string | undefined, what: string, field: string): bigint | undefined {
  if (text === undefined || text === '') return undefined;
  if (!/^-?\d{1,15}$/.test(text)) return decimal(text, what, field);
  return (BigInt(text) * SCALE) / 100n;
}

export function readX12(segs: Segment[], field: string): Doc {
  const doc: Doc = { lines: [], charges: [], unread: 0 };
  let current: RawLine | undefined;
  const lines: RawLine[] = [];
  for (const s of segs) {
    const e = (n: number) => s.el.get(n);
    switch (s.id) {
      case 'BIG':
        doc.poNumber ??= e(4);
        break;
      case 'BEG':
        // An 850's own number, BEG03, is the PO number the invoice's BIG04 quotes.
        doc.poNumber ??= e(3);
        break;
      case 'CUR':
        doc.currency ??= e(2);
        break;
      case 'N1':
        if (['RI', 'RE', 'SE', 'SU', 'VN', 'SF'].includes(e(1) ?? '') && e(2)) doc.vendor ??= e(2);
        break;
      case 'IT1':
      case 'PO1': {
        current = {
          quantity: decimal(e(2), `${s.id}02`, field),
          uom: unitCode(e(3)),
          unitPrice: decimal(e(4), `${s.id}04`, field),
          orderLineRef: e(1),
          cites: s.cite ? [s.cite] : undefined,
        };
        // IT105 / PO105, the basis of the unit price: HP per hundred, TP per thousand (PE, per each, is the default).
        const basis = { HP: 100n, TP: 1000n }[e(5) ?? ''];
        if (basis !== undefined) current.priceBase = basis * 1_000_000n;
        const alt: string[] = [];
        for (let q = 6; q <= 24; q += 2) {
          const qual = e(q);
          const id = e(q + 1);
          if (!qual || !id) continue;
          if (VENDOR_PARTS.has(qual) && current.sku === undefined) current.sku = id;
          else alt.push(id);
          if (BUYER_PARTS.has(qual) || !VENDOR_PARTS.has(qual)) continue;
        }
        if (current.sku === undefined && alt.length > 0) current.sku = alt.shift();
        if (alt.length > 0) current.altSkus = alt;
        current.quote = `${s.id} ${[...s.el.entries()].map(([k, v]) => `${String(k).padStart(2, '0')}=${v}`).join(' ')}`;
        lines.push(current);
        break;
      }
      case 'PID':
        if (current && e(5)) {
          if (s.cite) current.cites = [...(current.cites ?? []), s.cite];
          current.description = current.description ? `${current.description} ${e(5)}` : e(5);
          current.quote = `${current.quote} PID05 '${e(5)}'`;
        }
        break;
      case 'SAC': {
        const amt = implied(e(5), 'SAC05', field);
        if (amt === undefined || amt === 0n) break;
        const label = `SAC ${e(2) ?? ''} ${e(15) ?? ''}`.replace(/\s+/g, ' ').trim();
        const kind = e(2) === 'D240' ? 'freight' : chargeKind(label);
        doc.charges.push({ label, amount: e(1) === 'A' ? -amt : amt, kind: e(1) === 'A' ? 'other' : kind, cite: s.cite });
        break;
      }
      case 'TXI': {
        const amt = decimal(e(2), 'TXI02', field);
        if (amt !== undefined && amt !== 0n) doc.charges.push({ label: `TXI ${e(1) ?? ''} tax`.trim(), amount: amt, kind: 'tax', cite: s.cite });
        break;
      }
      case 'AMT':
        // An 850's AMT*TT is the order's total as the buyer states it (a plain decimal, not implied cents).
        if (e(1) === 'TT' && doc.total === undefined) {
          doc.total = decimal(e(2), 'AMT02', field);
          doc.totalQuote = `AMT TT ${e(2)}`;
          doc.totalCite = s.cite;
        }
        break;
      case 'TDS':
        doc.total = implied(e(1), 'TDS01', field);
        doc.totalQuote = `TDS01 ${e(1)}`;
        doc.totalCite = s.cite;
        break;
    }
  }
  lines.forEach((l, k) => doc.lines.push(completeLine(l, k + 1, field)));
  return doc;
}
