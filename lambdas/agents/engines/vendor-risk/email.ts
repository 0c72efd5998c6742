/**
 * A pasted e-mail (.eml with headers, or an Outlook/Gmail forward) read as a practitioner reads it: the headers are
 * evidence about who sent it (From, Reply-To, Return-Path, Authentication-Results, Date), the body is what the
 * sender says. The buyer's own side (the top message's recipients, or an internal forward's domain) is told apart
 * from the vendor's, so the buyer's address never vouches for the vendor.
 */

export interface Address {
  name: string;
  address: string;
  domain: string;
}

export interface EmailFacts {
  /** The top message's headers, lower-case names, continuation lines unfolded. */
  headers: Map<string, string>;
  /** Offset in the text where the body starts (after the header block's blank line). */
  bodyStart: number;
  /** Domains of the buyer's side: the top message's To (or the sender's own domain on an internal forward). */
  buyerDomains: Set<string>;
  /** The vendor-side sender: the top From unless it is the buyer's, else the first quoted From that is not. */
  sender?: Address & { top: boolean; line: string };
  replyTo?: Address;
  returnPath?: Address;
  /** Authentication-Results verdicts as written ("pass", "fail", "softfail", "none"…), when present. */
  auth: { spf?: string; dkim?: string; dmarc?: string; line?: string };
  /** The top message's Date header, as written. */
  date?: string;
}

const HEADER_LINE = /^([A-Za-z][A-Za-z0-9-]{1,40}):[ \t]?(.*)$/;
const ANGLE = /^\s*"?([^"<>\n]*?)"?\s*<([^<>\s]+@[^<>\s]+)>/u;
const BARE = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/u;

export function parseAddress(value: string | undefined): Address | undefined {
  if (!value) return undefined;
  const angle = ANGLE.exec(value);
  const address = (angle ? angle[2] : BARE.exec(value)?.[0])?.toLowerCase();
  if (!address || !address.includes('@')) return undefined;
  return { name: (angle?.[1] ?? '').trim(), address, domain: address.slice(address.lastIndexOf('@') + 1) };
}

/** The header block at the very top, or undefined when the text does not start as an e-mail does. */
function headerBlock(text: string): { headers: Map<string, string>; end: number } | undefined {
  const headers = new Map<string, string>();
  let at = text.search(/\S/);
  if (at < 0) return undefined;
  let last: string | undefined;
  let count = 0;
  while (at < text.length) {
    const nl = text.indexOf('\n', at);
    const line = text.slice(at, nl < 0 ? text.length : nl);
    const next = nl < 0 ? text.length : nl + 1;
    if (line.trim() === '') {
      at = next;
      break;
    }
    if (/^[ \t]/.test(line) && last) {
      headers.set(last, `${headers.get(last)} ${line.trim()}`);
    } else {
      const m = HEADER_LINE.exec(line);
      if (!m) return undefined;
      last = m[1].toLowerCase();
      if (!headers.has(last)) headers.set(last, m[2].trim());
      count++;
    }
    at = next;
  }
  if (count < 2 || !headers.has('from') || !(headers.has('date') || headers.has('subject') || headers.has('received'))) return undefined;
  return { headers, end: at };
}

/** The registrable part of a domain, near enough for comparing senders: the last two labels, three for co.uk-style. */
export function baseDomain(domain: string): string {
  const parts = domain.toLowerCase().split('.');
  const take = parts.length >= 3 && /^(?:co|com|org|net|ac|gov|edu|ne|or)$/.test(parts[parts.length - 2]) ? 3 : 2;
  return parts.slice(-take).join('.');
}

const QUOTED_FROM = /^[>\s]*From:\s*(.+)$/gim;

export function readEmail(text: string): EmailFacts | undefined {
  const block = headerBlock(text);
  if (!block) return undefined;
  const { headers, end } = block;
  const from = parseAddress(headers.get('from'));
  const to = (headers.get('to') ?? '').split(',').map(parseAddress).filter((a): a is Address => !!a);
  const buyerDomains = new Set<string>();
  const toDomains = to.map((a) => baseDomain(a.domain));
  if (from && toDomains.includes(baseDomain(from.domain))) buyerDomains.add(baseDomain(from.domain));
  else for (const d of toDomains) buyerDomains.add(d);
  let sender: EmailFacts['sender'];
  if (from && !buyerDomains.has(baseDomain(from.domain))) {
    sender = { ...from, top: true, line: `From: ${headers.get('from')}` };
  } else {
    QUOTED_FROM.lastIndex = 0;
    const body = text.slice(end);
    for (let m = QUOTED_FROM.exec(body); m; m = QUOTED_FROM.exec(body)) {
      const a = parseAddress(m[1]);
      if (a && !buyerDomains.has(baseDomain(a.domain))) {
        sender = { ...a, top: false, line: m[0].trim() };
        break;
      }
    }
  }
  const authText = headers.get('authentication-results') ?? '';
  const verdict = (key: string) => new RegExp(`(?<![\\p{L}])${key}\\s*=\\s*([a-z]+)`, 'iu').exec(authText)?.[1]?.toLowerCase();
  return {
    headers,
    bodyStart: end,
    buyerDomains,
    sender,
    replyTo: parseAddress(headers.get('reply-to')),
    returnPath: parseAddress(headers.get('return-path')),
    auth: authText ? { spf: verdict('spf'), dkim: verdict('dkim'), dmarc: verdict('dmarc'), line: `Authentication-Results: ${authText}`.slice(0, 200) } : {},
    date: headers.get('date'),
  };
}

/** Header lines that say who wrote the message and what about; the transport lines (Received, Message-ID…) are not prose. */
const KEPT = new Set(['from', 'reply-to', 'subject', 'date']);

/**
 * The text the prose detectors read: the kept header lines, then the body. The other header lines (and their
 * continuation lines) are blanked to spaces, not removed, so every offset of the prose is the profile's own and a
 * finding can cite its line.
 */
export function proseOf(text: string, email: EmailFacts): string {
  const head = text.slice(0, email.bodyStart);
  let keep = false;
  const blanked = head.replace(/[^\n]*/g, (line) => {
    const name = /^([A-Za-z][A-Za-z0-9-]{1,40}):/.exec(line)?.[1];
    if (name) keep = KEPT.has(name.toLowerCase());
    else if (!/^[ \t]/.test(line)) keep = true;
    return keep ? line : ' '.repeat(line.length);
  });
  return blanked + text.slice(email.bodyStart);
}

/**
 * Whether `domain` imitates `genuine`: the same name once hyphens are dropped and look-alike characters folded
 * (acme-supp1y.com for acmesupply.com, northgate-metals.com for northgatemetals.com), or the genuine name with a
 * word added (acmesupply-billing.com).
 */
/** Cyrillic and Greek letters drawn as Latin ones (аррlе.com with a Cyrillic а and р): a mixed-script domain reads as its twin. */
const LATIN_TWIN: Record<string, string> = { а: 'a', е: 'e', о: 'o', р: 'p', с: 'c', у: 'y', х: 'x', і: 'i', ј: 'j', ѕ: 's', ԁ: 'd', к: 'k', м: 'm', т: 't', н: 'h', в: 'b', ο: 'o', α: 'a', ν: 'v' };

export function looksAlike(domain: string, genuine: string, sameLooksOnly = false): boolean {
  const a = baseDomain(domain);
  const b = baseDomain(genuine);
  if (a === b) return false;
  const label = (d: string) => d.split('.')[0];
  const fold = (s: string) => s.replace(/[а-яёіјѕԁοαν]/gu, (c) => LATIN_TWIN[c] ?? c).replace(/-/g, '').replace(/rn/g, 'm').replace(/vv/g, 'w').replace(/[1il|]/g, 'l').replace(/0/g, 'o').replace(/5/g, 's');
  const la = fold(label(a));
  const lb = fold(label(b));
  return la === lb || (!sameLooksOnly && lb.length >= 5 && la.includes(lb));
}
