/**
 * Where a finding was read, as the buyer can check it: the 1-based line of the pasted profile and the words on that
 * line, verbatim (the detectors read the normal form of the text; text.ts maps each of its characters back to the
 * buyer's own).
 */
import type { EvidenceSource } from '../port.js';
import { lineSpan, type MappedText } from './text.js';

const FIELD = 'vendorProfile';

export class Citer {
  /** Offsets in the buyer's text where each line starts (lines split on \r\n, \r or \n, as the evidence counts them). */
  private readonly starts: number[] = [0];

  constructor(
    private readonly raw: string,
    private readonly mapped: MappedText,
  ) {
    for (const m of raw.matchAll(/\r\n|\r|\n/g)) this.starts.push(m.index! + m[0].length);
  }

  /** The normal form the detectors read. */
  get text(): string {
    return this.mapped.text;
  }

  /** The 1-based line holding an offset of the buyer's text. */
  private lineAt(rawOffset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= rawOffset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  private rawLine(line: number): string {
    const from = this.starts[line - 1];
    const next = this.starts[line];
    return this.raw.slice(from, next === undefined ? this.raw.length : next).replace(/[\r\n]+$/, '');
  }

  /** Offset in the normal form where 1-based line `line` starts (both have the same lines). */
  offsetOfLine(line: number): number {
    const raw = this.starts[Math.max(0, Math.min(line, this.starts.length) - 1)];
    const at = this.mapped.rawAt.findIndex((r) => r >= raw);
    return at < 0 ? this.mapped.text.length : at;
  }

  /** The buyer's words at normal-form offsets [from, to), cut to the line where they start. */
  span(from: number, to: number): EvidenceSource {
    const rawFrom = this.mapped.rawAt[Math.max(0, Math.min(from, this.mapped.text.length))];
    const rawTo = this.mapped.rawAt[Math.max(from, Math.min(to, this.mapped.text.length))];
    const line = this.lineAt(rawFrom);
    const text = this.rawLine(line);
    const lineStart = this.starts[line - 1];
    const quote = text.slice(rawFrom - lineStart, Math.max(rawFrom, rawTo) - lineStart).trim();
    if (quote !== '') return { field: FIELD, line, quote };
    return text.trim() !== '' ? { field: FIELD, line, quote: text.trim().slice(0, 160) } : this.first();
  }

  /** The line (or, in a long line, the sentence) holding normal-form offset `at`: what the flag itself quotes. */
  at(at: number): EvidenceSource {
    const { from, to } = lineSpan(this.mapped.text, Math.max(0, Math.min(at, this.mapped.text.length)));
    return this.span(from, to);
  }

  /** The document's first non-blank line: what a finding of absence cites (the document as a whole). */
  first(): EvidenceSource {
    for (let line = 1; line <= this.starts.length; line++) {
      const text = this.rawLine(line).trim();
      if (text !== '') return { field: FIELD, line, quote: text.slice(0, 160) };
    }
    return { field: FIELD, line: 1, quote: this.raw.trim().slice(0, 160) };
  }
}
