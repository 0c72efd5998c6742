/**
 * The network guard for buyer-given webhook URLs. A webhook is a request our service makes to an address a buyer
 * chose, so without a guard it is a way into our network (the VPC, the instance metadata endpoints, services on
 * loopback). This file decides, without any I/O of its own, which receiver addresses are refused and why, and checks
 * a URL's form and resolved addresses before anything is charged. The POST (post.ts) applies the same address rule
 * again to the address it actually connects to, because a name may resolve differently a moment later.
 *
 * The embedded default runs receivers on the developer's machine, so there (WEBHOOK_ALLOW_LOOPBACK=true) loopback is
 * allowed, over http or https; every other refused range stays refused everywhere.
 */
import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import { MAX_WEBHOOK_URL_LENGTH } from '../products/products.js';

export interface WebhookPolicy {
  /** the embedded default: loopback receivers (http or https) are allowed */
  allowLoopback: boolean;
}

export type RefusalReason = 'loopback' | 'private' | 'link-local' | 'metadata' | 'multicast' | 'reserved' | 'unspecified';

export type LookupAll = (hostname: string) => Promise<{ address: string; family: number }[]>;


/** Reads WEBHOOK_ALLOW_LOOPBACK ('true' → allowed); anything else (unset on AWS) → not allowed. */
export const WEBHOOK_LOOPBACK_ENV = 'WEBHOOK_ALLOW_LOOPBACK';

export function webhookPolicy(env: NodeJS.ProcessEnv = process.env): WebhookPolicy {
  return { allowLoopback: env[WEBHOOK_LOOPBACK_ENV] === 'true' };
}

interface Range {
  bits: number;
  base: bigint;
  prefix: number;
  reason: RefusalReason;
}

function range(cidr: string, reason: RefusalReason): Range {
  const [address, prefix] = cidr.split('/');
  const bits = isIP(address) === 4 ? 32 : 128;
  return { bits, base: bits === 32 ? v4Value(address) : v6Value(address), prefix: Number(prefix ?? bits), reason };
}

// Order matters: the first range that holds an address names the reason (metadata hosts before their link-local or
// unique-local range).
const V4_RANGES: Range[] = [
  range('0.0.0.0/8', 'unspecified'),
  range('127.0.0.0/8', 'loopback'),
  range('169.254.169.254/32', 'metadata'), // EC2 instance metadata
  range('169.254.170.2/32', 'metadata'), // ECS task metadata and credentials
  range('169.254.0.0/16', 'link-local'),
  range('10.0.0.0/8', 'private'),
  range('100.64.0.0/10', 'private'), // carrier-grade NAT
  range('172.16.0.0/12', 'private'),
  range('192.168.0.0/16', 'private'),
  range('192.0.0.0/24', 'reserved'), // IETF protocol assignments
  range('198.18.0.0/15', 'reserved'), // benchmarking
  range('224.0.0.0/4', 'multicast'),
  range('255.255.255.255/32', 'reserved'), // broadcast, inside 240/4 but named for clarity
  range('240.0.0.0/4', 'reserved'),
];

const V6_RANGES: Range[] = [
  range('::/128', 'unspecified'),
  range('::1/128', 'loopback'),
  range('fd00:ec2::254/128', 'metadata'), // EC2 instance metadata over IPv6
  range('fc00::/7', 'private'), // unique local
  range('fe80::/10', 'link-local'),
  range('fec0::/10', 'private'), // deprecated site-local, still routed inside some networks
  range('ff00::/8', 'multicast'),
];

/** IPv6 forms that carry an IPv4 address in their last 32 bits and reach it: judged as that IPv4 address. */
const V6_EMBEDDING_V4: Range[] = [
  range('::ffff:0:0/96', 'reserved'), // IPv4-mapped
  range('64:ff9b::/96', 'reserved'), // NAT64 well-known prefix
];

function v4Value(address: string): bigint {
  return address.split('.').reduce((value, octet) => (value << 8n) | BigInt(Number(octet)), 0n);
}

/** The 128-bit value of a valid IPv6 address (a dotted IPv4 tail allowed); the caller has checked it with isIP. */
function v6Value(address: string): bigint {
  let text = address;
  const dotted = /:(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = v4Value(dotted[1]);
    text = `${text.slice(0, dotted.index)}:${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array<string>(8 - headGroups.length - tailGroups.length).fill('0');
  return [...headGroups, ...zeros, ...tailGroups].reduce((value, group) => (value << 16n) | BigInt(parseInt(group, 16)), 0n);
}

function holds(r: Range, value: bigint): boolean {
  const shift = BigInt(r.bits - r.prefix);
  return value >> shift === r.base >> shift;
}

function reasonFor(value: bigint, ranges: Range[]): RefusalReason | undefined {
  return ranges.find((r) => holds(r, value))?.reason;
}

/** Strips the brackets of a URL host and a zone id (fe80::1%eth0), which say nothing about where the address is. */
function bareAddress(address: string): string {
  const unbracketed = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const zone = unbracketed.indexOf('%');
  return zone === -1 ? unbracketed : unbracketed.slice(0, zone);
}

/** The reason an address is in a refused range regardless of policy, or undefined for a public address. */
export function addressReason(address: string): RefusalReason | undefined {
  const bare = bareAddress(address);
  const family = isIP(bare);
  if (family === 4) return reasonFor(v4Value(bare), V4_RANGES);
  // Not an address at all: nothing to connect to that we can vouch for.
  if (family !== 6) return 'reserved';
  const value = v6Value(bare);
  if (V6_EMBEDDING_V4.some((r) => holds(r, value))) return reasonFor(value & 0xffffffffn, V4_RANGES);
  return reasonFor(value, V6_RANGES);
}

/** Why a receiver at this IP address (v4 or v6, including IPv4-mapped IPv6) is refused, or undefined when it is allowed. */
export function refusedAddress(address: string, policy: WebhookPolicy): string | undefined {
  const reason = addressReason(address);
  if (reason === 'loopback' && policy.allowLoopback) return undefined;
  return reason;
}

/** The buyer-facing sentence for a refused address. */
export function refusalMessage(reason: string, address: string): string {
  const article = /^[aeiou]/.test(reason) ? 'an' : 'a';
  return `Webhook URL resolves to ${article} ${reason} address (${bareAddress(address)})`;
}

/** `localhost` and its subdomains are loopback by definition (WHATWG URL, RFC 6761), whatever DNS says. */
function isLocalhostName(hostname: string): boolean {
  const name = hostname.replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/** The host of a URL when it is an IP literal (brackets stripped), else undefined. */
export function ipLiteral(url: URL): string | undefined {
  const bare = bareAddress(url.hostname);
  return isIP(bare) ? bare : undefined;
}

function isLoopbackHost(url: URL): boolean {
  const literal = ipLiteral(url);
  return literal ? addressReason(literal) === 'loopback' : isLocalhostName(url.hostname);
}

export type UrlCheck = { ok: true; url: URL } | { ok: false; msg: string };

/**
 * Everything about a webhook URL that needs no DNS: length, form, credentials, scheme, and the address of an IP
 * literal or `localhost`. post.ts runs this before each attempt; checkWebhookUrl adds the resolution.
 */
export function checkWebhookUrlForm(raw: string, policy: WebhookPolicy): UrlCheck {
  if (raw.length > MAX_WEBHOOK_URL_LENGTH) return { ok: false, msg: `Webhook URL is longer than ${MAX_WEBHOOK_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, msg: 'Webhook URL is not a valid URL' };
  }
  if (url.username || url.password) return { ok: false, msg: 'Webhook URL must not contain credentials' };
  const plainLoopback = url.protocol === 'http:' && policy.allowLoopback && isLoopbackHost(url);
  if (url.protocol !== 'https:' && !plainLoopback) return { ok: false, msg: 'Webhook URL must use https' };
  const literal = ipLiteral(url);
  if (literal) {
    const reason = refusedAddress(literal, policy);
    if (reason) return { ok: false, msg: refusalMessage(reason, literal) };
  } else if (isLocalhostName(url.hostname) && !policy.allowLoopback) {
    return { ok: false, msg: refusalMessage('loopback', url.hostname) };
  }
  return { ok: true, url };
}

export const defaultLookup: LookupAll = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

/** The first refusal among resolved addresses (any refused address refuses the URL), or undefined. */
export function refusedAmong(addresses: { address: string }[], policy: WebhookPolicy): string | undefined {
  for (const { address } of addresses) {
    const reason = refusedAddress(address, policy);
    if (reason) return refusalMessage(reason, address);
  }
  return undefined;
}

/** How long the paid POST waits for a webhook host's name to resolve: a resolver that hangs must not hold the buyer. */
export const CHECK_LOOKUP_TIMEOUT_MS = 3_000;

/** Checks a buyer-given webhook URL before anything is charged. */
export async function checkWebhookUrl(raw: string, policy: WebhookPolicy, lookup: LookupAll = defaultLookup, timeoutMs = CHECK_LOOKUP_TIMEOUT_MS): Promise<UrlCheck> {
  const form = checkWebhookUrlForm(raw, policy);
  if (!form.ok || ipLiteral(form.url) || isLocalhostName(form.url.hostname)) return form;
  let addresses: { address: string }[];
  let timer: NodeJS.Timeout | undefined;
  try {
    const timedOut = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('lookup timed out')), timeoutMs)));
    addresses = await Promise.race([lookup(form.url.hostname), timedOut]);
  } catch {
    addresses = [];
  } finally {
    clearTimeout(timer);
  }
  if (addresses.length === 0) return { ok: false, msg: 'Webhook URL host does not resolve' };
  const refusal = refusedAmong(addresses, policy);
  return refusal ? { ok: false, msg: refusal } : form;
}
