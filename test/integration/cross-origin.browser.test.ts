/**
 * A browser buyer on another site pays (docs/testing.md): a page served from `http://buyer.example` (Chromium maps
 * the name to 127.0.0.2, a loopback server of this file) runs the x402 flow with fetch against the embedded service
 * on 127.0.0.1 — the unpaid POST's 402, the challenge read from PAYMENT-REQUIRED, the paid POST with
 * PAYMENT-SIGNATURE, the receipt read from PAYMENT-RESPONSE. Each of those steps needs the APIs' CORS answer
 * (lib/cors.ts): without it the browser blocks the preflight and the page reads nothing. The signature is made in
 * this process by the official x402 client for a fresh buyer, as a wallet extension would make it for the page.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import { fetchFrom, freshBuyer, runtime, transfersFrom } from '../support/buyer.js';
import { HAS_CHROMIUM, launchChromium, warnIfNoChromium } from '../support/chromium.js';
import { signedHeader } from '../support/sign.js';

warnIfNoChromium('cross-origin');

const SITE_HOST = 'buyer.example';
const SITE_ADDRESS = '127.0.0.2';
const AGENT = 'vendor-risk-read-q0jjq';

/** What the page's flow saw: every status and the headers a page on another origin can only read if exposed. */
interface Seen {
  challengeStatus: number;
  challenge: string | null;
  status: number;
  paymentResponse: string | null;
  location: string | null;
  body: any;
}

/** The x402 flow as a page's own script runs it (evaluated in the page, so every fetch is cross-origin). */
async function payFromPage(page: Page, url: string, body: unknown, idempotencyKey: string): Promise<Seen> {
  return page.evaluate(
    async ({ url, body, idempotencyKey }) => {
      const json = JSON.stringify(body);
      const first = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: json });
      const challenge = first.headers.get('PAYMENT-REQUIRED');
      const seen = { challengeStatus: first.status, challenge, status: 0, paymentResponse: null as string | null, location: null as string | null, body: null };
      if (first.status !== 402 || !challenge) return seen;
      const signature: string = await (window as any).__sign(challenge);
      const paid = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'PAYMENT-SIGNATURE': signature, 'X-Idempotency-Key': idempotencyKey },
        body: json,
      });
      return { ...seen, status: paid.status, paymentResponse: paid.headers.get('PAYMENT-RESPONSE'), location: paid.headers.get('Location'), body: await paid.json() };
    },
    { url, body, idempotencyKey },
  );
}

describe.skipIf(!HAS_CHROMIUM)('a browser buyer on another origin', () => {
  let browser: Browser;
  let site: Server;
  let siteUrl: string;

  beforeAll(async () => {
    // The buyer's site: one empty page; its script is what payFromPage evaluates in it.
    site = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>A buyer elsewhere</title><p>buyer');
    });
    await new Promise<void>((resolve) => site.listen(0, SITE_ADDRESS, resolve));
    siteUrl = `http://${SITE_HOST}:${(site.address() as AddressInfo).port}`;
    browser = await launchChromium([`--host-resolver-rules=MAP ${SITE_HOST} ${SITE_ADDRESS}`]);
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => site?.close(resolve));
  });

  /** A page of the buyer's site whose wallet signs the challenge it is handed for `privateKey`. */
  async function buyerPage(privateKey: `0x${string}`): Promise<Page> {
    const page = await browser.newPage();
    await page.exposeFunction('__sign', async (challenge: string) => {
      const decoded = decodePaymentRequiredHeader(challenge);
      return signedHeader(privateKey, { ...decoded, accepts: decoded.accepts.filter((option) => option.scheme === 'exact') });
    });
    await page.goto(`${siteUrl}/`);
    expect(new URL(page.url()).origin).toBe(siteUrl);
    return page;
  }

  it('pays an agent run on the agent studio: 200, the result, and the receipt read from PAYMENT-RESPONSE', async () => {
    const info = runtime();
    expect(new URL(info.agentsUrl).origin).not.toBe(siteUrl);
    const services = await (await fetchFrom('127.0.0.190')(`${info.agentsUrl}/api/services`)).json();
    const example = services.services.find((service: { slug: string }) => service.slug === AGENT).examples[0];
    const buyer = await freshBuyer(1_000_000n);
    const page = await buyerPage(buyer.privateKey);

    const seen = await payFromPage(page, `${info.agentsUrl}/api/agents/${AGENT}/run`, { input: example.input }, `cross-origin-run-${buyer.address}`);
    expect(seen.challengeStatus).toBe(402);
    expect(decodePaymentRequiredHeader(seen.challenge!).accepts.length).toBeGreaterThan(0);
    expect(seen.status).toBe(200);
    expect(seen.body.result).toEqual(example.result);
    const receipt = decodePaymentResponseHeader(seen.paymentResponse!);
    expect(receipt.success).toBe(true);
    expect(receipt.payer?.toLowerCase()).toBe(buyer.address.toLowerCase());
    expect(await transfersFrom(buyer.address)).toEqual([{ to: info.payTo, value: 80_000n }]);
    await page.close();
  });

  it('pays for an image on the generation surface: 202, its Location and the receipt readable', async () => {
    const info = runtime();
    const buyer = await freshBuyer(1_000_000n);
    const page = await buyerPage(buyer.privateKey);

    const seen = await payFromPage(page, `${info.baseUrl}/agent/image`, { prompt: 'a harbour seen from another site' }, `cross-origin-image-${buyer.address}`);
    expect(seen.challengeStatus).toBe(402);
    expect(seen.status).toBe(202);
    expect(seen.location).toBe(seen.body.pollUrl);
    expect(decodePaymentResponseHeader(seen.paymentResponse!).payer?.toLowerCase()).toBe(buyer.address.toLowerCase());
    expect(await transfersFrom(buyer.address)).toEqual([{ to: info.payTo, value: 150_000n }]);
    await page.close();
  });

  it('is still held to the policy (a header it does not allow is blocked), and the MCP endpoint still refuses the site: a readable 403', async () => {
    const info = runtime();
    const page = await browser.newPage();
    await page.goto(`${siteUrl}/`);
    const outcome = await page.evaluate(async ({ base }) => {
      const blocked = await fetch(`${base}/agent/image`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Not-Allowed': '1' }, body: '{}' }).then(
        (response) => `answered ${response.status}`,
        (error: Error) => error.name,
      );
      const mcp = await fetch(`${base}/api/mcp`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2025-06-18' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      return { blocked, mcpStatus: mcp.status, mcpBody: await mcp.json() };
    }, { base: info.baseUrl });
    expect(outcome.blocked).toBe('TypeError');
    // The DNS-rebinding guard of the MCP transport (lambdas/protocols/mcp/origin.ts): CORS lets the page read it.
    expect(outcome.mcpStatus).toBe(403);
    expect(JSON.stringify(outcome.mcpBody)).toContain('Origin not allowed');
    await page.close();
  });
});
