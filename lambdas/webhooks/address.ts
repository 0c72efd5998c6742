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
import { BlockList, isIP } from 'node:net';
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

/** One refused range: a BlockList holding it (and, for an IPv4 range, the IPv6 forms that reach it) and its name. */
interface Rule {
  list: BlockList;
  reason: RefusalReason;
}

/**
 * IPv6 prefixes whose addresses carry an IPv4 address and reach it: judged as that IPv4 address. `at` is where the
 * 32 bits sit: the last 32 (IPv4-mapped, RFC 4291; IPv4-translated, RFC 2765; NAT64's well-known prefix, RFC 6052)
 * or the 32 after the 16-bit prefix (6to4, RFC 3056, which a relay turns back into IPv4).
 */
const V4_EMBEDDINGS: { prefix: string; bits: number; at: 'tail' | 'after-prefix' }[] = [
  { prefix: '::ffff:', bits: 96, at: 'tail' },
  { prefix: '::ffff:0:', bits: 96, at: 'tail' },
  { prefix: '64:ff9b::', bits: 96, at: 'tail' },
  { prefix: '2002:', bits: 16, at: 'after-prefix' },
];

function v4Rule(cidr: string, reason: RefusalReason): Rule {
  const [address, prefix] = cidr.split('/');
  const length = Number(prefix);
  const list = new BlockList();
  list.addSubnet(address, length, 'ipv4');
  for (const embedding of V4_EMBEDDINGS) {
    const [a, b, c, d] = address.split('.').map(Number);
    const hex = (high: number, low: number) => ((high << 8) | low).toString(16);
    const v6 = embedding.at === 'tail' ? `${embedding.prefix}${address}` : `${embedding.prefix}${hex(a, b)}:${hex(c, d)}::`;
    list.addSubnet(v6, embedding.bits + length, 'ipv6');
  }
  return { list, reason };
}

function v6Rule(cidr: string, reason: RefusalReason): Rule {
  const [address, prefix] = cidr.split('/');
  const list = new BlockList();
  list.addSubnet(address, Number(prefix), 'ipv6');
  return { list, reason };
}

// Order matters: the first rule that holds an address names the reason (`::` and `::1` before the IPv4-compatible
// range that holds them, metadata hosts before their link-local or unique-local range).
const RULES: Rule[] = [
  v6Rule('::/128', 'unspecified'),
  v6Rule('::1/128', 'loopback'),
  // IPv4-compatible (::a.b.c.d), deprecated by RFC 4291 §2.5.5.1: no receiver has a reason to be written so, and a
  // stack that still honours it would reach the IPv4 address behind it, so it is refused whatever it embeds.
  v6Rule('::/96', 'reserved'),
  v4Rule('0.0.0.0/8', 'unspecified'),
  v4Rule('127.0.0.0/8', 'loopback'),
  v4Rule('169.254.169.254/32', 'metadata'), // EC2 instance metadata
  v4Rule('169.254.170.2/32', 'metadata'), // ECS task metadata and credentials
  v4Rule('169.254.0.0/16', 'link-local'),
  v4Rule('10.0.0.0/8', 'private'),
  v4Rule('100.64.0.0/10', 'private'), // carrier-grade NAT
  v4Rule('172.16.0.0/12', 'private'),
  v4Rule('192.168.0.0/16', 'private'),
  v4Rule('192.0.0.0/24', 'reserved'), // IETF protocol assignments
  v4Rule('198.18.0.0/15', 'reserved'), // benchmarking
  v4Rule('224.0.0.0/4', 'multicast'),
  v4Rule('255.255.255.255/32', 'reserved'), // broadcast, inside 240/4 but named for clarity
  v4Rule('240.0.0.0/4', 'reserved'),
  v6Rule('fd00:ec2::254/128', 'metadata'), // EC2 instance metadata over IPv6
  v6Rule('fc00::/7', 'private'), // unique local
  v6Rule('fe80::/10', 'link-local'),
  v6Rule('fec0::/10', 'private'), // deprecated site-local, still routed inside some networks
  v6Rule('ff00::/8', 'multicast'),
  // NAT64's local-use prefix (RFC 8215) translates into whatever IPv4 network its operator chose: inside one.
  v6Rule('64:ff9b:1::/48', 'private'),
];

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
  // Not an address at all: nothing to connect to that we can vouch for.
  if (family === 0) return 'reserved';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  return RULES.find((rule) => rule.list.check(bare, type))?.reason;
}

/** Why a receiver at this IP address (v4 or v6, including the IPv6 forms that embed an IPv4 address) is refused, or undefined when it is allowed. */
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
