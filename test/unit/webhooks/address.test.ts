/**
 * The webhook network guard, without a network: which receiver addresses are refused and named how (every refused
 * range at its edges; the IPv6 forms that embed an IPv4 address — IPv4-mapped, IPv4-translated, NAT64, 6to4 — judged as
 * that IPv4 address, and the deprecated IPv4-compatible form refused whatever it holds), loopback only on the embedded default, and
 * the URL check a buyer meets before anything is charged (scheme, credentials, length, resolution, any bad address).
 */
import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, refusedAddress, webhookPolicy, type LookupAll } from '../../../lambdas/webhooks/address.js';

const aws = { allowLoopback: false };
const embedded = { allowLoopback: true };

describe('webhookPolicy reads WEBHOOK_ALLOW_LOOPBACK', () => {
  it('allows loopback only for the exact value true', () => {
    expect(webhookPolicy({ WEBHOOK_ALLOW_LOOPBACK: 'true' })).toEqual({ allowLoopback: true });
    expect(webhookPolicy({})).toEqual({ allowLoopback: false });
    expect(webhookPolicy({ WEBHOOK_ALLOW_LOOPBACK: '1' })).toEqual({ allowLoopback: false });
    expect(webhookPolicy({ WEBHOOK_ALLOW_LOOPBACK: 'TRUE' })).toEqual({ allowLoopback: false });
  });
});

describe('refusedAddress: refused ranges, named', () => {
  const table: [string, string | undefined][] = [
    ['0.0.0.0', 'unspecified'],
    ['0.255.255.255', 'unspecified'],
    ['1.0.0.0', undefined],
    ['9.255.255.255', undefined],
    ['10.0.0.0', 'private'],
    ['10.255.255.255', 'private'],
    ['11.0.0.0', undefined],
    ['100.63.255.255', undefined],
    ['100.64.0.0', 'private'],
    ['100.127.255.255', 'private'],
    ['100.128.0.0', undefined],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.255', 'loopback'],
    ['126.255.255.255', undefined],
    ['128.0.0.0', undefined],
    ['169.253.255.255', undefined],
    ['169.254.0.0', 'link-local'],
    ['169.254.169.254', 'metadata'],
    ['169.254.170.2', 'metadata'],
    ['169.254.255.255', 'link-local'],
    ['169.255.0.0', undefined],
    ['172.15.255.255', undefined],
    ['172.16.0.0', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.0', undefined],
    ['192.0.0.0', 'reserved'],
    ['192.0.0.255', 'reserved'],
    ['192.0.1.0', undefined],
    ['192.167.255.255', undefined],
    ['192.168.0.0', 'private'],
    ['192.168.255.255', 'private'],
    ['192.169.0.0', undefined],
    ['198.17.255.255', undefined],
    ['198.18.0.0', 'reserved'],
    ['198.19.255.255', 'reserved'],
    ['198.20.0.0', undefined],
    ['223.255.255.255', undefined],
    ['224.0.0.0', 'multicast'],
    ['239.255.255.255', 'multicast'],
    ['240.0.0.0', 'reserved'],
    ['255.255.255.254', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fc00::', 'private'],
    ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'private'],
    ['fd00:ec2::254', 'metadata'],
    ['fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', undefined],
    ['fe80::', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'link-local'],
    ['ff00::', 'multicast'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.5', 'private'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:8.8.8.8', undefined],
    ['64:ff9b::10.0.0.1', 'private'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::8.8.8.8', undefined],
    ['0:0:0:0:0:ffff:7f00:1', 'loopback'],
    // IPv4-translated (RFC 2765)
    ['::ffff:0:127.0.0.1', 'loopback'],
    ['::ffff:0:a00:1', 'private'],
    ['::ffff:0:8.8.8.8', undefined],
    // NAT64's local-use prefix (RFC 8215): an operator's own network
    ['64:ff9b:1::a00:1', 'private'],
    ['64:ff9b:1::8.8.8.8', 'private'],
    // 6to4 (RFC 3056): the IPv4 address in the 32 bits after 2002::/16
    ['2002:7f00:1::', 'loopback'],
    ['2002:7f00:1::1', 'loopback'],
    ['2002:a00:5:1::1', 'private'],
    ['2002:c0a8:101::', 'private'],
    ['2002:a9fe:a9fe::1', 'metadata'],
    ['2002:a9fe:1::', 'link-local'],
    ['2002:808:808::1', undefined],
    ['2001::1', undefined],
    // IPv4-compatible (::a.b.c.d, deprecated by RFC 4291): refused whatever it holds, in every spelling
    ['::7f00:1', 'reserved'],
    ['::127.0.0.1', 'reserved'],
    ['0:0:0:0:0:0:7f00:1', 'reserved'],
    ['[::7f00:1]', 'reserved'],
    ['::a00:5', 'reserved'],
    ['::a9fe:a9fe', 'reserved'],
    ['::8.8.8.8', 'reserved'],
    ['::2', 'reserved'],
    ['[::1]', 'loopback'],
    ['8.8.8.8', undefined],
    ['1.1.1.1', undefined],
    ['2606:4700::1111', undefined],
    ['2001:4860:4860::8888', undefined],
  ];

  it.each(table)('%s → %s (on AWS)', (address, reason) => {
    expect(refusedAddress(address, aws)).toBe(reason);
  });

  it('refuses what is not an address at all', () => {
    expect(refusedAddress('not-an-ip', embedded)).toBe('reserved');
  });
});

describe('refusedAddress: loopback only on the embedded default', () => {
  it.each(['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1', '64:ff9b::127.0.0.1', '2002:7f00:1::'])('%s', (address) => {
    expect(refusedAddress(address, aws)).toBe('loopback');
    expect(refusedAddress(address, embedded)).toBeUndefined();
  });

  it.each([
    ['10.0.0.1', 'private'],
    ['169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['fe80::1', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['::7f00:1', 'reserved'],
    ['::127.0.0.1', 'reserved'],
  ])('%s stays refused (%s) under allowLoopback', (address, reason) => {
    expect(refusedAddress(address, embedded)).toBe(reason);
  });
});

/** A fake resolver: the names it knows, and the names it was asked. */
function fakeLookup(names: Record<string, string[]>): LookupAll & { asked: string[] } {
  const asked: string[] = [];
  const lookup = async (hostname: string) => {
    asked.push(hostname);
    const addresses = names[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(lookup, { asked });
}

describe('checkWebhookUrl: before anything is charged', () => {
  const lookup = fakeLookup({
    'hooks.example.com': ['93.184.216.34', '2606:2800:220:1::1'],
    'mixed.example.com': ['93.184.216.34', '10.0.0.1'],
    'internal.example.com': ['10.0.0.5'],
    'empty.example.com': [],
  });

  it('accepts https to a public host and returns the parsed URL, fragment kept', async () => {
    const result = await checkWebhookUrl('https://hooks.example.com/done?t=1#frag', aws, lookup);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.url.href).toBe('https://hooks.example.com/done?t=1#frag');
  });

  it('refuses http to a public host, on AWS and on the embedded default', async () => {
    for (const policy of [aws, embedded]) {
      expect(await checkWebhookUrl('http://hooks.example.com/done', policy, lookup)).toEqual({ ok: false, msg: 'Webhook URL must use https' });
    }
  });

  it('refuses other schemes', async () => {
    expect(await checkWebhookUrl('ftp://hooks.example.com/', aws, lookup)).toEqual({ ok: false, msg: 'Webhook URL must use https' });
    expect(await checkWebhookUrl('file:///etc/passwd', embedded, lookup)).toEqual({ ok: false, msg: 'Webhook URL must use https' });
  });

  it('allows http://127.0.0.1 only under allowLoopback', async () => {
    expect((await checkWebhookUrl('http://127.0.0.1:3000/hook', embedded, lookup)).ok).toBe(true);
    expect(await checkWebhookUrl('http://127.0.0.1:3000/hook', aws, lookup)).toEqual({ ok: false, msg: 'Webhook URL must use https' });
    expect(await checkWebhookUrl('https://127.0.0.1:3000/hook', aws, lookup)).toEqual({
      ok: false,
      msg: 'Webhook URL resolves to a loopback address (127.0.0.1)',
    });
  });

  it('allows http://[::1]:8080/x and http://localhost under allowLoopback, refuses localhost on AWS', async () => {
    expect((await checkWebhookUrl('http://[::1]:8080/x', embedded, lookup)).ok).toBe(true);
    expect((await checkWebhookUrl('http://localhost:8080/x', embedded, lookup)).ok).toBe(true);
    expect(await checkWebhookUrl('https://localhost/x', aws, lookup)).toEqual({ ok: false, msg: 'Webhook URL resolves to a loopback address (localhost)' });
    expect(await checkWebhookUrl('https://[::1]/x', aws, lookup)).toEqual({ ok: false, msg: 'Webhook URL resolves to a loopback address (::1)' });
  });

  it('refuses a name when any resolved address is refused', async () => {
    expect(await checkWebhookUrl('https://mixed.example.com/', aws, lookup)).toEqual({
      ok: false,
      msg: 'Webhook URL resolves to a private address (10.0.0.1)',
    });
    expect(await checkWebhookUrl('https://internal.example.com/', embedded, lookup)).toEqual({
      ok: false,
      msg: 'Webhook URL resolves to a private address (10.0.0.5)',
    });
  });

  it('refuses a name that does not resolve (an error or no addresses)', async () => {
    const refused = { ok: false, msg: 'Webhook URL host does not resolve' };
    expect(await checkWebhookUrl('https://nowhere.example.com/', aws, lookup)).toEqual(refused);
    expect(await checkWebhookUrl('https://empty.example.com/', aws, lookup)).toEqual(refused);
  });

  it('checks IP literals directly, without a lookup, in any spelling the URL parser accepts', async () => {
    const asked = lookup.asked.length;
    expect(await checkWebhookUrl('https://10.0.0.5/', aws, lookup)).toEqual({ ok: false, msg: 'Webhook URL resolves to a private address (10.0.0.5)' });
    expect(await checkWebhookUrl('https://0xa9.0xfe.0xa9.0xfe/', embedded, lookup)).toEqual({
      ok: false,
      msg: 'Webhook URL resolves to a metadata address (169.254.169.254)',
    });
    expect(await checkWebhookUrl('https://[::ffff:10.0.0.5]/', aws, lookup)).toEqual({
      ok: false,
      msg: 'Webhook URL resolves to a private address (::ffff:a00:5)',
    });
    expect((await checkWebhookUrl('https://8.8.8.8/hook', aws, lookup)).ok).toBe(true);
    expect(lookup.asked.length).toBe(asked);
  });

  it('refuses the IPv6 spellings of a loopback, private or metadata IPv4 address, as the URL parser writes them', async () => {
    const asked = lookup.asked.length;
    for (const [url, msg] of [
      ['https://[::7f00:1]/hook', 'Webhook URL resolves to a reserved address (::7f00:1)'],
      ['https://[::127.0.0.1]/hook', 'Webhook URL resolves to a reserved address (::7f00:1)'],
      ['https://[0:0:0:0:0:0:7f00:1]/hook', 'Webhook URL resolves to a reserved address (::7f00:1)'],
      ['https://[::ffff:0:10.0.0.5]/hook', 'Webhook URL resolves to a private address (::ffff:0:a00:5)'],
      ['https://[64:ff9b::169.254.169.254]/hook', 'Webhook URL resolves to a metadata address (64:ff9b::a9fe:a9fe)'],
      ['https://[2002:7f00:1::1]/hook', 'Webhook URL resolves to a loopback address (2002:7f00:1::1)'],
    ]) {
      expect(await checkWebhookUrl(url, aws, lookup), url).toEqual({ ok: false, msg });
    }
    // The deprecated IPv4-compatible form is refused on the embedded default too: loopback there is 127.0.0.1 or ::1.
    expect(await checkWebhookUrl('http://[::7f00:1]:8080/hook', embedded, lookup)).toEqual({ ok: false, msg: 'Webhook URL must use https' });
    expect(await checkWebhookUrl('https://[::7f00:1]:8080/hook', embedded, lookup)).toEqual({ ok: false, msg: 'Webhook URL resolves to a reserved address (::7f00:1)' });
    expect(lookup.asked.length).toBe(asked);
  });

  it('refuses a name that resolves to an IPv6 form of a refused IPv4 address', async () => {
    const rebinding = fakeLookup({ 'compat.example.com': ['::7f00:1'], 'sixto4.example.com': ['2002:a9fe:a9fe::1'] });
    expect(await checkWebhookUrl('https://compat.example.com/', aws, rebinding)).toEqual({ ok: false, msg: 'Webhook URL resolves to a reserved address (::7f00:1)' });
    expect(await checkWebhookUrl('https://sixto4.example.com/', embedded, rebinding)).toEqual({
      ok: false,
      msg: 'Webhook URL resolves to a metadata address (2002:a9fe:a9fe::1)',
    });
  });

  it('refuses 169.254.169.254 as metadata even under allowLoopback', async () => {
    expect(await checkWebhookUrl('http://169.254.169.254/latest/meta-data/', embedded, lookup)).toEqual({ ok: false, msg: 'Webhook URL must use https' });
    expect(await checkWebhookUrl('https://169.254.169.254/latest/meta-data/', embedded, lookup)).toEqual({
      ok: false,
      msg: 'Webhook URL resolves to a metadata address (169.254.169.254)',
    });
  });

  it('refuses credentials in the URL', async () => {
    const refused = { ok: false, msg: 'Webhook URL must not contain credentials' };
    expect(await checkWebhookUrl('https://user:pass@hooks.example.com/', aws, lookup)).toEqual(refused);
    expect(await checkWebhookUrl('https://user@hooks.example.com/', aws, lookup)).toEqual(refused);
  });

  it('refuses a URL longer than 2048 characters and accepts one of exactly 2048', async () => {
    const base = 'https://hooks.example.com/';
    const exact = base + 'a'.repeat(2048 - base.length);
    expect((await checkWebhookUrl(exact, aws, lookup)).ok).toBe(true);
    expect(await checkWebhookUrl(exact + 'a', aws, lookup)).toEqual({ ok: false, msg: 'Webhook URL is longer than 2048 characters' });
  });

  it('refuses what is not a URL', async () => {
    expect(await checkWebhookUrl('hooks.example.com/done', aws, lookup)).toEqual({ ok: false, msg: 'Webhook URL is not a valid URL' });
  });
});

describe('checkWebhookUrl: a resolver that hangs', () => {
  it('refuses the URL after the timeout instead of holding the paid request', async () => {
    const { checkWebhookUrl } = await import('../../../lambdas/webhooks/address.js');
    const hanging = () => new Promise<{ address: string; family: number }[]>(() => {});
    const started = Date.now();
    const result = await checkWebhookUrl('https://slow.example/hook', { allowLoopback: false }, hanging, 100);
    expect(result).toEqual({ ok: false, msg: 'Webhook URL host does not resolve' });
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
