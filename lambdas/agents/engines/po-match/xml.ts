/**
 * A compact XML reader for invoices (UBL 2.1, XRechnung, Peppol): elements, attributes, text, CDATA, the five
 * predefined entities and numeric references; comments, processing instructions and DOCTYPEs are skipped (no entity
 * expansion, so no billion-laughs). Namespace prefixes are dropped: UBL names are unique by local name. One linear
 * pass with indexOf; malformed nesting is the caller's error.
 */
import { AgentInputError } from '../port.js';
import { lineIndex, pathKey, type Cite } from '../text/json-positions.js';
import { parseDecimal } from './decimal.js';

export interface XmlNode {
  /** Where the element starts in the text (XML) or where its key is written (JSON), for evidence. */
  cite?: Cite;
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  text: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const decode = (s: string) =>
  s.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|amp|lt|gt|quot|apos);/gi, (_m, e: string) => {
    if (e[0] !== '#') return ENTITIES[e.toLowerCase()];
    const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });
const local = (n: string) => n.slice(n.indexOf(':') + 1);

export function parseXml(text: string): XmlNode | undefined {
  const root: XmlNode = { name: '#root', attrs: {}, children: [], text: '' };
  const stack: XmlNode[] = [root];
  const at = lineIndex(text);
  let i = 0;
  while (i < text.length) {
    const lt = text.indexOf('<', i);
    const top = stack[stack.length - 1];
    if (lt < 0) break;
    if (lt > i) top.text += decode(text.slice(i, lt));
    if (text.startsWith('<!--', lt)) {
      const end = text.indexOf('-->', lt + 4);
      if (end < 0) return undefined;
      i = end + 3;
    } else if (text.startsWith('<![CDATA[', lt)) {
      const end = text.indexOf(']]>', lt + 9);
      if (end < 0) return undefined;
      top.text += text.slice(lt + 9, end);
      i = end + 3;
    } else if (text[lt + 1] === '?' || text[lt + 1] === '!') {
      const end = text.indexOf('>', lt);
      if (end < 0) return undefined;
      i = end + 1;
    } else if (text[lt + 1] === '/') {
      const end = text.indexOf('>', lt);
      if (end < 0) return undefined;
      const name = local(text.slice(lt + 2, end).trim());
      if (stack.length < 2 || top.name !== name) return undefined;
      stack.pop();
      i = end + 1;
    } else {
      const end = findTagEnd(text, lt);
      if (end < 0) return undefined;
      const selfClosing = text[end - 1] === '/';
      const body = text.slice(lt + 1, selfClosing ? end - 1 : end);
      const m = /^([^\s/>]+)/.exec(body);
      if (!m) return undefined;
      const node: XmlNode = { name: local(m[1]), attrs: {}, children: [], text: '', cite: at(lt) };
      for (const a of body.slice(m[1].length).matchAll(/([^\s=]+)\s*=\s*("([^"]*)"|'([^']*)')/g)) {
        node.attrs[local(a[1])] = decode(a[3] ?? a[4] ?? '');
      }
      top.children.push(node);
      if (!selfClosing) {
        if (stack.length > 200) return undefined;
        stack.push(node);
      }
      i = end + 1;
    }
  }
  if (stack.length !== 1) return undefined;
  return root.children.length === 1 ? root.children[0] : undefined;
}

/** The ">" that closes a tag opened at `lt`, skipping quoted attribute values. */
function findTagEnd(text: string, lt: number): number {
  let quote = '';
  for (let j = lt + 1; j < text.length; j++) {
    const c = text[j];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return j;
  }
  return -1;
}

/** UBL in JSON (the OASIS alternative representation with "_" values, or XML converted with "#text"/"@_" keys)
 * read into the same nodes as XML. */
export function jsonToNodes(name: string, value: unknown, depth = 0, path: (string | number)[] = [], positions?: Map<string, Cite>): XmlNode[] {
  if (depth > 60) return [];
  if (Array.isArray(value)) return value.flatMap((v, i) => jsonToNodes(name, v, depth + 1, [...path, i], positions));
  const node: XmlNode = { name: local(name), attrs: {}, children: [], text: '', cite: positions?.get(pathKey(path)) };
  if (value === null || value === undefined) return [node];
  if (typeof value !== 'object') {
    node.text = String(value);
    return [node];
  }
  const obj = value as Record<string, unknown>;
  const leaf = '_' in obj || '#text' in obj;
  for (const [k, v] of Object.entries(obj)) {
    if (k === '_' || k === '#text') node.text = v === null || v === undefined ? '' : String(v);
    else if (k.startsWith('@_')) node.attrs[local(k.slice(2))] = String(v);
    else if (leaf && (typeof v !== 'object' || v === null)) node.attrs[k] = String(v);
    else if (k.startsWith('?') || /^_[A-Z]$/.test(k)) continue;
    else node.children.push(...jsonToNodes(k, v, depth + 1, [...path, k], positions));
  }
  return [node];
}

export function child(n: XmlNode | undefined, ...path: string[]): XmlNode | undefined {
  let cur = n;
  for (const p of path) cur = cur?.children.find((c) => c.name === p);
  return cur;
}
export function children(n: XmlNode | undefined, name: string): XmlNode[] {
  return n ? n.children.filter((c) => c.name === name) : [];
}
export function textOf(n: XmlNode | undefined, ...path: string[]): string | undefined {
  const t = child(n, ...path)?.text.trim();
  return t ? t : undefined;
}
/** Depth-first search for the first element named `name`. */
export function find(n: XmlNode, name: string, depth = 0): XmlNode | undefined {
  if (n.name === name) return n;
  if (depth > 40) return undefined;
  for (const c of n.children) {
    const hit = find(c, name, depth + 1);
    if (hit) return hit;
  }
  return undefined;
}

/** A node's text as a decimal (UBL's amounts, cXML's Money); an unreadable one is the buyer's error, named. */
export function decimalOf(n: XmlNode | undefined, what: string, field: string): bigint | undefined {
  const t = n?.text.trim();
  if (!t) return undefined;
  const v = parseDecimal(t);
  if (v === undefined) throw new AgentInputError(field, `${what} "${t.slice(0, 40)}" is not a number`);
  return v;
}
