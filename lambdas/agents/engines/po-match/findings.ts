/**
 * A discrepancy as the engine finds it: the sentence accounts payable reads, the kind of problem, the lines of the
 * two documents it rests on and the arithmetic that shows it. The evidence quotes the buyer's own text: each source
 * line is looked up in the field as it was sent (not as the readers normalised it), so every quote is verbatim.
 */
import type { Evidence, EvidenceSource } from '../port.js';
import type { Cite } from '../text/json-positions.js';
import type { DocLine } from './document.js';

export type Field = 'purchaseOrder' | 'invoice';

/** Where a finding was read: cited lines, else a value to look for in the field, else the field's first line. */
export interface Source {
  field: Field;
  cites?: Cite[];
  needle?: string;
}

export interface Finding {
  text: string;
  /** Short kind named in the evidence, e.g. `price`, `quantity over`, `freight`. */
  kind: string;
  sources: Source[];
  arithmetic?: string;
}

export const lineSource = (field: Field, l: DocLine): Source => ({ field, cites: l.cites, needle: l.sku ?? l.description });

const MAX_QUOTE = 160;

/** A verbatim piece of one line: from the column when the line is long (one-line JSON), else the trimmed line. */
function quoteOf(line: string, col?: number): string {
  const trimmed = line.trim();
  if (trimmed.length <= MAX_QUOTE) return trimmed;
  const from = col !== undefined && col < line.length ? line.slice(col) : trimmed;
  return from.slice(0, MAX_QUOTE).trim() || trimmed.slice(0, MAX_QUOTE);
}

function resolve(source: Source, lines: string[]): EvidenceSource[] {
  const out: EvidenceSource[] = [];
  for (const c of source.cites ?? []) {
    const text = lines[c.line - 1];
    if (text === undefined || text.trim() === '') continue;
    out.push({ field: source.field, line: c.line, quote: quoteOf(text, c.col) });
  }
  if (out.length > 0) return out;
  const needle = source.needle?.trim();
  if (needle) {
    const exact = lines.findIndex((l) => l.includes(needle));
    if (exact >= 0) return [{ field: source.field, line: exact + 1, quote: needle.length <= MAX_QUOTE ? needle : quoteOf(lines[exact]) }];
    const folded = lines.findIndex((l) => l.normalize('NFKC').toLowerCase().includes(needle.toLowerCase()));
    if (folded >= 0) return [{ field: source.field, line: folded + 1, quote: quoteOf(lines[folded]) }];
    // A sentence the document wraps over lines: the line holding its opening words.
    const words = needle.split(/\s+/);
    for (let n = Math.min(words.length - 1, 12); n >= 3; n--) {
      const head = words.slice(0, n).join(' ');
      const at = lines.findIndex((l) => l.replace(/\s+/g, ' ').includes(head));
      if (at >= 0) return [{ field: source.field, line: at + 1, quote: quoteOf(lines[at]) }];
    }
  }
  // Nothing more precise (a fact the document does not state): its first line, which names the document.
  const first = lines.findIndex((l) => l.trim() !== '');
  return first < 0 ? [] : [{ field: source.field, line: first + 1, quote: quoteOf(lines[first]) }];
}

/** The evidence of each finding, in the result's order, quoting the fields as the buyer sent them. */
export function evidenceOf(findings: Finding[], input: Record<Field, string>, list = 'discrepancies'): Evidence[] {
  const lines = {
    purchaseOrder: input.purchaseOrder.split(/\r\n|\r|\n/),
    invoice: input.invoice.split(/\r\n|\r|\n/),
  };
  return findings.map((f, i) => {
    const sources = f.sources.flatMap((s) => resolve(s, lines[s.field]));
    const unique = sources.filter((s, k) => sources.findIndex((t) => t.field === s.field && t.line === s.line) === k);
    return { finding: `${list}[${i}] ${f.kind}`, sources: unique, ...(f.arithmetic ? { arithmetic: f.arithmetic } : {}) };
  });
}
