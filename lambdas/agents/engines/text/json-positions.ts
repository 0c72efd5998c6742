/**
 * Positions in a document's text (lines, columns, JSON paths), for the readers that cite what they read: po-match's
 * JSON, XML and EDI readers and the JSON rows of text/csv.ts.
 */
/**
 * Where a value was read: the 1-based line of the field's text (split on \r\n, \r or \n, as the buyer sees it) and,
 * on a long line (one-line JSON, XML), the column it starts at, so evidence can quote the document itself.
 */
export interface Cite {
  line: number;
  col?: number;
}

/** Offsets of a text to 1-based lines and 0-based columns (the text's line breaks unified to \n beforehand). */
export function lineIndex(text: string): (offset: number) => Cite {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, col: offset - starts[lo] };
  };
}

/** A JSON path (keys and array indexes) as a map key. */
export const pathKey = (path: (string | number)[]) => path.join('\u0000');

/**
 * Where each value of a JSON text sits: path → the position of its member's key (or of the value itself for an array
 * element). JSON.parse keeps no positions, so this walks the same text once; on text that does not parse it stops
 * where it is lost and what it found so far is still right.
 */
export function jsonPositions(text: string): Map<string, Cite> {
  const at = lineIndex(text);
  const out = new Map<string, Cite>();
  let i = 0;
  const ws = () => {
    while (i < text.length && /\s/.test(text[i])) i++;
  };
  const str = (): string => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    try {
      return JSON.parse(text.slice(start, i)) as string;
    } catch {
      return text.slice(start + 1, i - 1);
    }
  };
  const value = (path: (string | number)[], depth: number): void => {
    ws();
    if (depth > 60 || i >= text.length) return;
    const c = text[i];
    if (c === '{') {
      i++;
      for (;;) {
        ws();
        if (text[i] === '}') {
          i++;
          return;
        }
        if (text[i] !== '"') return;
        const keyAt = at(i);
        const k = str();
        out.set(pathKey([...path, k]), keyAt);
        ws();
        if (text[i] !== ':') return;
        i++;
        value([...path, k], depth + 1);
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') {
          i++;
          return;
        } else return;
      }
    } else if (c === '[') {
      i++;
      for (let n = 0; ; n++) {
        ws();
        if (text[i] === ']') {
          i++;
          return;
        }
        out.set(pathKey([...path, n]), at(i));
        value([...path, n], depth + 1);
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') {
          i++;
          return;
        } else return;
      }
    } else if (c === '"') str();
    else while (i < text.length && !/[\s,\]}]/.test(text[i])) i++;
  };
  value([], 0);
  return out;
}
