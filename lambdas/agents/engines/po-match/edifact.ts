/**
 * A UN/EDIFACT INVOIC (D96A, EANCOM) converted to JSON: a list of segments, each `{"name"|"tag"|"id": "LIN",
 * "elements": [[component, …], …]}` or an array `["LIN", [..], ..]`, read in document order as a practitioner reads
 * the message: RFF+ON the order (in the header, else on every line), NAD+SU/SE the supplier, CUX the currency, LIN/PIA
 * the item numbers, IMD the description, QTY+47 the invoiced quantity, PRI+AAA the net price (else AAB gross), MOA+203
 * the line amount (a line allowance, ALC with MOA+204, is already inside it), and after UNS the summary: MOA+79 the
 * lines, MOA+124/176 the tax, MOA+77 (else 86, 9) the invoice amount, header ALC+C charges.
 */
import { AgentInputError } from '../port.js';
import { chargeKind, completeLine, type Doc, type RawLine } from './document.js';
import { parseDecimal } from './decimal.js';
import { unitCode } from './units.js';
import { jsonPositions, pathKey, type Cite } from '../text/json-positions.js';
import { taggedSegments } from './edifact-tagged.js';

export interface EdiSegment {
  tag: string;
  elements: string[][];
  cite?: Cite;
}

const TAG = /^[A-Z]{3}$/;

function asSegment(v: unknown): { tag: string; elements: string[][] } | undefined {
  const comp = (e: unknown): string[] => (Array.isArray(e) ? e.map((c) => (c === null || c === undefined ? '' : String(c))) : e === null || e === undefined ? [] : [String(e)]);
  if (Array.isArray(v) && typeof v[0] === 'string' && TAG.test(v[0])) return { tag: v[0], elements: v.slice(1).map(comp) };
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  const o = v as Record<string, unknown>;
  const tag = [o.name, o.tag, o.id, o.segment].find((t): t is string => typeof t === 'string' && TAG.test(t));
  const els = o.elements ?? o.data ?? o.components;
  return tag && Array.isArray(els) ? { tag, elements: els.map(comp) } : undefined;
}

/** The INVOIC's segments when the JSON holds a list of EDIFACT segments with line items; otherwise undefined. */
export function edifactSegments(root: unknown, text: string): EdiSegment[] | undefined {
  let found: { list: unknown[]; path: (string | number)[] } | undefined;
  const walk = (v: unknown, path: (string | number)[], depth: number) => {
    if (found || depth > 6 || typeof v !== 'object' || v === null) return;
    if (Array.isArray(v) && v.length > 2 && v.filter((x) => asSegment(x)).length >= v.length / 2) {
      found = { list: v, path };
      return;
    }
    for (const [k, x] of Object.entries(v)) walk(x, [...path, Array.isArray(v) ? Number(k) : k], depth + 1);
  };
  walk(root, [], 0);
  // No list of segments: a message keyed by segment tags is put back in document order.
  if (!found) return taggedSegments(root, text);
  const { list, path } = found;
  const positions = jsonPositions(text);
  const segs = list.flatMap((v, i): EdiSegment[] => {
    const s = asSegment(v);
    return s ? [{ ...s, cite: positions.get(pathKey([...path, i])) }] : [];
  });
  const tags = new Set(segs.map((s) => s.tag));
  const invoice = tags.has('LIN') && (tags.has('MOA') || tags.has('PRI')) && (tags.has('BGM') || tags.has('UNH'));
  return invoice ? segs : undefined;
}

function num(text: string | undefined, what: string, field: string): bigint | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const v = parseDecimal(text);
  if (v === undefined) throw new AgentInputError(field, `${what} "${text.slice(0, 40)}" is not a number`);
  return v;
}

/**
 * A line's QTY segments by their qualifier (6063), as the directory defines them: 47 the invoiced quantity (what the
 * line bills), else 46 delivered or 12 despatched; 21 the quantity ordered, 83 back-ordered; 59 the consumer units in
 * one traded unit (the pack). Other qualifiers (free goods, returns) say nothing the comparison reads.
 */
const BILLED_RANK = ['47', '46', '12'];
const billedBy = new WeakMap<RawLine, string>();
function readQuantity(line: RawLine, qualifier: string | undefined, value: bigint | undefined, uom: string | undefined, cite: Cite | undefined): void {
  if (value === undefined || qualifier === undefined) return;
  const rank = BILLED_RANK.indexOf(qualifier);
  if (rank >= 0) {
    if (qualifier !== '47') line.shipped ??= value;
    const before = billedBy.get(line);
    if (before !== undefined && BILLED_RANK.indexOf(before) <= rank) return;
    billedBy.set(line, qualifier);
    line.quantity = value;
    line.uom = uom ?? line.uom;
  } else if (qualifier === '21') line.ordered = value;
  else if (qualifier === '83') line.backOrdered = value;
  else if (qualifier === '59' && value > 0n && value % 1_000_000n === 0n) line.pack = Number(value / 1_000_000n);
  else return;
  if (cite) line.cites!.push(cite);
}

export function readEdifact(segs: EdiSegment[], field: string): Doc {
  const doc: Doc = { lines: [], charges: [], unread: 0 };
  const lines: RawLine[] = [];
  const linePos: string[] = [];
  let current: RawLine | undefined;
  let summary = false;
  let netPrice = false;
  let pendingCharge: { label: string; allowance: boolean; cite?: Cite } | undefined;
  let taxSeen = false;
  let total: { value: bigint; rank: number; cite?: Cite; quote: string } | undefined;
  for (const s of segs) {
    const el = (i: number, c = 0) => s.elements[i]?.[c]?.trim() || undefined;
    const seg = `${s.tag}+${s.elements.map((e) => e.join(':')).join('+')}`.replace(/[+:]+$/, '');
    switch (s.tag) {
      case 'RFF':
        if (el(0) === 'ON') {
          if (current) {
            linePos.push(el(0, 1) ?? '');
            if (el(0, 2)) current.orderLineRef ??= el(0, 2);
          } else doc.poNumber ??= el(0, 1);
        }
        break;
      case 'NAD':
        if (['SU', 'SE', 'II'].includes(el(0) ?? '')) doc.vendor ??= el(3) ?? el(2) ?? el(1);
        break;
      case 'CUX':
        doc.currency ??= el(0, 1);
        break;
      case 'LIN':
        current = { orderLineRef: undefined, cites: s.cite ? [s.cite] : [], quote: seg };
        lines.push(current);
        netPrice = false;
        // The LIN's item number is the supplier's article where its type says so (SA, MF), else a further number (EN).
        if (el(2) && ['SA', 'MF'].includes(el(2, 1) ?? '')) current.sku = el(2);
        else if (el(2)) current.altSkus = [el(2)!];
        break;
      case 'PIA':
        if (current) {
          for (const e of s.elements.slice(1)) {
            const [id, type] = [e[0]?.trim(), e[1]?.trim()];
            if (!id) continue;
            if ((type === 'SA' || type === 'MF') && current.sku === undefined) current.sku = id;
            else (current.altSkus ??= []).push(id);
          }
        }
        break;
      case 'IMD':
        if (current) {
          const d = el(2, 3) ?? el(2, 4);
          if (d) current.description = current.description ? `${current.description} ${d}` : d;
          if (d && s.cite) current.cites!.push(s.cite);
        }
        break;
      case 'QTY':
        if (current) readQuantity(current, el(0), num(el(0, 1), `QTY ${el(0) ?? ''}`.trim(), field), unitCode(el(0, 2)), s.cite);
        break;
      case 'PRI':
        if (current && (el(0) === 'AAA' || (el(0) === 'AAB' && !netPrice))) {
          current.unitPrice = num(el(0, 1), 'PRI', field);
          const base = num(el(0, 4), 'PRI basis', field);
          if (base !== undefined && base > 0n && base !== 1_000_000n) current.priceBase = base;
          netPrice ||= el(0) === 'AAA';
          current.quote = `${current.quote}; ${seg}`;
        }
        break;
      case 'UNS':
        summary = true;
        current = undefined;
        break;
      case 'ALC':
        if (!current) pendingCharge = { label: `ALC ${el(0) === 'A' ? 'allowance' : 'charge'} ${el(4) ?? el(1) ?? ''}`.trim(), allowance: el(0) === 'A', cite: s.cite };
        break;
      case 'MOA': {
        const q = el(0);
        const v = num(el(0, 1), `MOA ${q}`, field);
        if (v === undefined) break;
        if (current) {
          if (q === '203') {
            current.amount = v;
            if (s.cite) current.cites!.push(s.cite);
            current.quote = `${current.quote}; ${seg}`;
          }
          break;
        }
        if (pendingCharge && ['8', '23', '204', '25'].includes(q ?? '')) {
          if (v !== 0n) doc.charges.push({ label: pendingCharge.label, amount: pendingCharge.allowance ? -v : v, kind: pendingCharge.allowance ? 'other' : chargeKind(pendingCharge.label), cite: s.cite });
          pendingCharge = undefined;
          break;
        }
        if (!summary) break;
        if (q === '79') doc.subtotal ??= v;
        else if ((q === '124' || q === '176') && !taxSeen) {
          taxSeen = true;
          if (v !== 0n) doc.charges.push({ label: `MOA ${q} tax`, amount: v, kind: 'tax', cite: s.cite });
        } else {
          const rank = ['77', '86', '9'].indexOf(q ?? '');
          if (rank >= 0 && (total === undefined || rank < total.rank)) total = { value: v, rank, cite: s.cite, quote: seg };
        }
        break;
      }
    }
  }
  // The order is named on the lines only: one order on every line is the invoice's order.
  const cited = new Set(linePos.filter(Boolean));
  if (doc.poNumber === undefined && cited.size === 1) doc.poNumber = [...cited][0];
  if (total) {
    doc.total = total.value;
    doc.totalCite = total.cite;
    doc.totalQuote = total.quote;
  }
  lines.forEach((l, k) => doc.lines.push(completeLine(l, k + 1, field)));
  return doc;
}
