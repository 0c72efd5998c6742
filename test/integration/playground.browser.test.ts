/**
 * The playground in a real browser (Debian's Chromium driven by playwright-core) against the shared embedded service:
 * a person pays for each product with a dev buyer and sees it appear; a bad agent input shows the service's 400 and
 * asks for no signature; an injected EIP-1193 wallet backed by a local viem account switches chain, signs and pays.
 * Without Chromium the browser cases are skipped, and the run says so and how to enable them.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createPublicClient, http, parseAbi, parseEventLogs, type Hex } from 'viem';
import { fetchFrom, freshBuyer, runtime, transfersFrom } from '../support/buyer.js';
import { HAS_CHROMIUM, launchChromium, warnIfNoChromium } from '../support/chromium.js';

warnIfNoChromium('playground');
/** Where screenshots of each result go when asked for (PLAYGROUND_SCREENSHOTS=<dir>); none by default. */
const SHOTS = process.env.PLAYGROUND_SCREENSHOTS;

const transferAbi = parseAbi(['event Transfer(address indexed from, address indexed to, uint256 value)']);

/** The USDC Transfer a settlement transaction made, read from its receipt on the local chain. */
async function transferOf(transaction: Hex) {
  const info = runtime();
  const client = createPublicClient({ transport: http(info.rpcUrl, { retryCount: 0 }) });
  const receipt = await client.getTransactionReceipt({ hash: transaction });
  expect(receipt.status).toBe('success');
  const transfers = parseEventLogs({ abi: transferAbi, logs: receipt.logs, eventName: 'Transfer' }).filter(
    (entry) => entry.address.toLowerCase() === info.usdcAddress.toLowerCase(),
  );
  expect(transfers).toHaveLength(1);
  return transfers[0].args;
}

describe.skipIf(!HAS_CHROMIUM)('the playground in a real browser', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function open(surfaceUrl: string, item: string): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } }); // a narrow (phone) screen
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${surfaceUrl}/playground?item=${encodeURIComponent(item)}`);
    await page.waitForSelector('body[data-ready=true]');
    expect(errors).toEqual([]);
    expect(await page.inputValue('#offer')).toBe(item);
    return page;
  }

  async function receiptOf(page: Page): Promise<{ payer: string; transaction: Hex }> {
    await page.waitForSelector('#receipt:not([hidden])');
    return {
      payer: (await page.getAttribute('[data-payer]', 'data-payer'))!,
      transaction: (await page.getAttribute('[data-transaction]', 'data-transaction')) as Hex,
    };
  }

  async function shot(page: Page, name: string): Promise<void> {
    if (!SHOTS) return;
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  }

  it('pays for an image with a dev buyer and shows it, with the settlement receipt', async () => {
    const info = runtime();
    const page = await open(info.baseUrl, 'agent_image');
    // The form is the product's published input schema: a prompt, an aspect-ratio and a format choice.
    expect(await page.locator('label[for="field-prompt"]').textContent()).toContain('prompt');
    await page.fill('#field-prompt', 'a lighthouse at dusk, wide');
    await page.selectOption('#field-aspectRatio', '16:9');
    await page.selectOption('#field-outputFormat', 'jpeg');
    const devBuyer = info.buyers[0].address;
    expect(await page.isChecked(`input[name=payer][value="${devBuyer}"]`)).toBe(true);
    await page.click('#pay');

    const image = page.locator('#result img.image');
    await image.waitFor({ timeout: 90_000 });
    const size = await image.evaluate(async (img: HTMLImageElement) => {
      await img.decode();
      return { width: img.naturalWidth, height: img.naturalHeight, src: img.src };
    });
    expect(size.width / size.height).toBeCloseTo(16 / 9, 1);
    expect(size.src).toMatch(/\.jpe?g$/);
    expect(await page.textContent('#status')).toContain('completed');

    const receipt = await receiptOf(page);
    expect(receipt.payer.toLowerCase()).toBe(devBuyer.toLowerCase());
    const transfer = await transferOf(receipt.transaction);
    expect(transfer.from.toLowerCase()).toBe(devBuyer.toLowerCase());
    expect(transfer.to.toLowerCase()).toBe(info.payTo.toLowerCase());
    expect(transfer.value).toBe(150_000n);
    await shot(page, 'agent_image');
    await page.close();
  });

  it('pays for a song and shows the player, the cover art and the title', async () => {
    const info = runtime();
    const page = await open(info.baseUrl, 'create_music');
    await page.fill('#field-prompt', 'calm lo-fi piano for a rainy morning');
    await page.fill('#field-style', 'lo-fi');
    await page.click('#pay');
    const audio = page.locator('#result audio');
    await audio.waitFor({ timeout: 120_000 });
    const duration = await audio.evaluate(
      (element: HTMLAudioElement) =>
        new Promise<number>((resolve, reject) => {
          if (element.readyState >= 1) return resolve(element.duration);
          element.addEventListener('loadedmetadata', () => resolve(element.duration), { once: true });
          element.addEventListener('error', () => reject(new Error('the audio did not load')), { once: true });
        }),
    );
    expect(duration).toBeGreaterThan(1);
    const coverLoaded = await page.locator('#result img.cover').evaluate(async (img: HTMLImageElement) => (await img.decode(), img.naturalWidth > 0));
    expect(coverLoaded).toBe(true);
    expect((await page.textContent('#result figcaption'))!.trim().length).toBeGreaterThan(0);
    const receipt = await receiptOf(page);
    expect((await transferOf(receipt.transaction)).value).toBe(500_000n);
    await shot(page, 'create_music');
    await page.close();
  });

  it('pays for a clip and shows the video player', async () => {
    const info = runtime();
    const page = await open(info.baseUrl, 'agent_video');
    await page.fill('#field-prompt', 'waves rolling onto a beach, gulls calling');
    await page.selectOption('#field-aspectRatio', '9:16');
    await page.click('#pay');
    const video = page.locator('#result video');
    await video.waitFor({ timeout: 150_000 });
    const shape = await video.evaluate(
      (element: HTMLVideoElement) =>
        new Promise<{ width: number; height: number }>((resolve, reject) => {
          const done = () => resolve({ width: element.videoWidth, height: element.videoHeight });
          if (element.readyState >= 1) return done();
          element.addEventListener('loadedmetadata', done, { once: true });
          element.addEventListener('error', () => reject(new Error('the video did not load')), { once: true });
        }),
    );
    expect(shape.height).toBeGreaterThan(shape.width); // 9:16 was asked for
    const receipt = await receiptOf(page);
    expect((await transferOf(receipt.transaction)).value).toBe(4_990_000n);
    await shot(page, 'agent_video');
    await page.close();
  });

  it("shows an agent's 400 next to the bad field and asks for no signature", async () => {
    const info = runtime();
    const page = await open(info.agentsUrl as string, 'bank-rec-discrepancy-finder-bw0tt');
    const signing: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/_local/dev-wallet/sign') || request.headers()['payment-signature']) signing.push(request.url());
    });
    await page.fill('#field-bankStatement', 'Date,Description,Amount\n2026-10-01,Deposit,100.00\n');
    // bookEntries is required and left empty.
    await page.click('#pay');
    await page.waitForSelector('#refusal:not([hidden])');
    expect(await page.textContent('#refusal')).toMatch(/refused \(400\).*bookEntries.*Nothing was charged/);
    expect(await page.textContent('#field-bookEntries-error')).toBe('Field required');
    expect(await page.getAttribute('#field-bookEntries', 'aria-invalid')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('field-bookEntries');
    expect(await page.isHidden('#receipt')).toBe(true);
    expect(signing).toEqual([]);
    await shot(page, 'agent-400');
    await page.close();
  });

  it('pays an agent run from an injected EIP-1193 wallet: account, chain switch, typed-data signature', async () => {
    const info = runtime();
    const buyer = await freshBuyer(1_000_000n);
    const account = privateKeyToAccount(buyer.privateKey);
    const calls: string[] = [];
    let chainId = '0x1'; // the wallet starts on another chain: the page must ask to switch to Base
    const page = await browser.newPage({ viewport: { width: 1024, height: 900 } });
    await page.exposeFunction('__testWallet', async (method: string, params: unknown[]) => {
      calls.push(method);
      if (method === 'eth_requestAccounts' || method === 'eth_accounts') return [account.address];
      if (method === 'eth_chainId') return chainId;
      if (method === 'wallet_switchEthereumChain') return void (chainId = (params[0] as { chainId: string }).chainId);
      if (method === 'eth_signTypedData_v4') {
        const [from, json] = params as [string, string];
        if (from.toLowerCase() !== account.address.toLowerCase()) throw new Error('not this wallet');
        const { types, domain, primaryType, message } = JSON.parse(json);
        const { EIP712Domain: _domain, ...rest } = types;
        if (Number(domain.chainId) !== parseInt(chainId, 16)) throw new Error('typed data for another chain than the wallet is on');
        return account.signTypedData({ domain, types: rest, primaryType, message });
      }
      throw new Error(`unsupported method ${method}`);
    });
    await page.addInitScript(() => {
      (window as any).ethereum = { request: ({ method, params }: { method: string; params?: unknown[] }) => (window as any).__testWallet(method, params ?? []) };
    });
    await page.goto(`${info.agentsUrl}/playground?item=vendor-risk-read-q0jjq`);
    await page.waitForSelector('body[data-ready=true]');
    await page.click('#fill-example');
    await page.check('input[name=payer][value=wallet]');
    await page.click('#pay');
    await page.waitForSelector('#result:not([hidden])', { timeout: 60_000 });

    expect(calls).toEqual(['eth_requestAccounts', 'eth_chainId', 'wallet_switchEthereumChain', 'eth_signTypedData_v4']);
    expect(chainId).toBe('0x2105');
    // The agent's own example, whose result the services feed publishes (computed by the engine, not written down).
    const services = await (await fetchFrom('127.0.0.1')(`${info.agentsUrl}/api/services`)).json();
    const example = services.services.find((s: { slug: string }) => s.slug === 'vendor-risk-read-q0jjq').examples[0].result;
    expect(await page.textContent('.badge[data-key=grade]')).toBe(`grade: ${example.grade}`);
    expect(await page.textContent('.badge[data-key=decision]')).toBe(`decision: ${example.decision}`);
    expect(await page.locator('[data-key=flags] li').count()).toBe(example.flags.length);

    const receipt = await receiptOf(page);
    expect(receipt.payer.toLowerCase()).toBe(account.address.toLowerCase());
    expect(await transfersFrom(account.address)).toEqual([{ to: info.payTo, value: 80_000n }]);
    await shot(page, 'agent-wallet');
    await page.close();
  });

  /** A page whose injected wallet signs with `privateKey` (or declines when it is null). */
  async function pageWithWallet(privateKey: Hex | null): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1024, height: 900 } });
    const account = privateKey ? privateKeyToAccount(privateKey) : null;
    await page.exposeFunction('__testWallet', async (method: string, params: unknown[]) => {
      if (method === 'eth_requestAccounts') return [account?.address ?? '0x000000000000000000000000000000000000dEaD'];
      if (method === 'eth_chainId') return '0x2105';
      if (method === 'eth_signTypedData_v4') {
        if (!account) return { declined: true };
        const { types, domain, primaryType, message } = JSON.parse((params as string[])[1]);
        const { EIP712Domain: _domain, ...rest } = types;
        return account.signTypedData({ domain, types: rest, primaryType, message });
      }
      throw new Error(`unsupported method ${method}`);
    });
    // A wallet's refusal is an EIP-1193 error with code 4001 (exposed functions cannot throw one, so it is made here).
    await page.addInitScript(() => {
      (window as any).ethereum = {
        request: async ({ method, params }: { method: string; params?: unknown[] }) => {
          const answer = await (window as any).__testWallet(method, params ?? []);
          if (answer && answer.declined) throw Object.assign(new Error('User rejected the request.'), { code: 4001 });
          return answer;
        },
      };
    });
    return page;
  }

  async function refusalAfterPaying(page: Page, url: string, item: string, prepare: (page: Page) => Promise<void>): Promise<string> {
    await page.goto(`${url}/playground?item=${item}`);
    await page.waitForSelector('body[data-ready=true]');
    await prepare(page);
    await page.check('input[name=payer][value=wallet]');
    await page.click('#pay');
    await page.waitForSelector('#refusal:not([hidden])', { timeout: 60_000 });
    return (await page.textContent('#refusal'))!;
  }

  it("shows a refused payment's reason, a declined signature, a 429's wait and a failed render in words", async () => {
    const info = runtime();
    const fillImage = (page: Page) => page.fill('#field-prompt', 'a quiet harbour');

    // A wallet with no USDC: the service refuses the payment (real server, real chain) and nothing moves.
    const broke = await pageWithWallet(generatePrivateKey());
    expect(await refusalAfterPaying(broke, info.baseUrl, 'agent_image', fillImage)).toMatch(/^Payment refused: .*(balance|fund).*Nothing was charged\.$/i);
    await broke.close();

    // The wallet's owner declines to sign.
    const declining = await pageWithWallet(null);
    expect(await refusalAfterPaying(declining, info.baseUrl, 'agent_image', fillImage)).toBe('The signature was declined: nothing was paid.');
    await declining.close();

    // What the page says for a 429 and for a failed render with its refund: the service's answers, served here by
    // the browser's request interception (neither can be provoked on demand without disturbing other tests).
    const limited = await pageWithWallet(null);
    await limited.route('**/agent/image', (route) =>
      route.fulfill({ status: 429, headers: { 'content-type': 'application/json', 'retry-after': '17' }, body: JSON.stringify({ detail: 'Rate limit exceeded', code: 'rate_limited' }) }),
    );
    expect(await refusalAfterPaying(limited, info.baseUrl, 'agent_image', fillImage)).toBe('Too many requests: try again in 17 s. Rate limit exceeded');
    await limited.close();

    const buyer = await freshBuyer(1_000_000n);
    const failing = await pageWithWallet(buyer.privateKey);
    await failing.route('**/agent/image/*', (route) =>
      route.fulfill({
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jobId: 'x', status: 'failed', imageUrl: null, pollUrl: null, error: 'The render failed: content filtered', refund: { status: 'refunded', transaction: '0xabc' } }),
      }),
    );
    await failing.goto(`${info.baseUrl}/playground?item=agent_image`);
    await failing.waitForSelector('body[data-ready=true]');
    await fillImage(failing);
    await failing.check('input[name=payer][value=wallet]');
    await failing.click('#pay');
    await failing.waitForSelector('#result:not([hidden])', { timeout: 60_000 });
    expect(await failing.textContent('#result .failed')).toBe('The render failed: content filtered');
    expect(await failing.textContent('#result .refund')).toBe('Refund: refunded (transaction 0xabc).');
    await failing.close();
  });
});

describe('the playground over plain HTTP', () => {
  const f = fetchFrom('127.0.0.61');

  it('is an HTML page on each surface, its script and style pinned by the Content-Security-Policy', async () => {
    const info = runtime();
    for (const url of [info.baseUrl, info.agentsUrl as string]) {
      const response = await f(`${url}/playground`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const csp = response.headers.get('content-security-policy')!;
      expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
      expect(csp).not.toContain('unsafe-inline');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(await response.text()).toContain('<form id="form" novalidate>');
    }
  });

  it('answers a paid POST that a browser sends with Accept: text/html and no payment with the 402', async () => {
    const info = runtime();
    const response = await f(`${info.baseUrl}/agent/image`, {
      method: 'POST',
      headers: { accept: 'text/html,application/xhtml+xml', 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'a cat' }),
    });
    expect(response.status).toBe(402);
    expect(response.headers.get('payment-required')).toBeTruthy();
    expect((await response.json()).accepts[0].amount).toBe('150000');
  });

  it("lists the dev buyers to the service's own pages only, and signs for no other origin", async () => {
    const info = runtime();
    const listed = await (await f(`${info.baseUrl}/_local/dev-wallet`)).json();
    expect(listed.accounts).toEqual(info.buyers.map((b: { address: string }) => b.address));
    const typedData = { domain: { name: 'USD Coin', version: '2', chainId: 8453, verifyingContract: info.usdcAddress }, types: { Mail: [{ name: 'x', type: 'uint256' }] }, primaryType: 'Mail', message: { x: '1' } };
    const sign = (headers: Record<string, string>) =>
      f(`${info.baseUrl}/_local/dev-wallet/sign`, { method: 'POST', headers, body: JSON.stringify({ address: info.buyers[0].address, typedData }) });
    expect((await sign({ 'content-type': 'application/json', origin: 'https://evil.example' })).status).toBe(403);
    expect((await sign({ 'content-type': 'text/plain' })).status).toBe(415);
    const signed = await sign({ 'content-type': 'application/json' });
    expect(signed.status).toBe(200);
    const { signature } = await signed.json();
    const account = privateKeyToAccount(info.buyers[0].privateKey as Hex);
    expect(signature).toBe(await account.signTypedData({ ...typedData, types: typedData.types } as never));
  });
});
