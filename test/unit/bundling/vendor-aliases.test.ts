/**
 * The stubs a buyer-path function bundles in place of a vendor module (lib/bundling/aliases.ts), which only the
 * bundles see (the tests and the embedded runtime import the real packages): each is checked the way it deploys: a
 * module that makes the call through it is bundled with the aliases (as CDK bundles it), run in a fresh Node process,
 * and its output read; the bundle without the aliases is built too, to show what they save. The background functions
 * (tasks, render functions, the sweeper) take no alias: they bundle their vendor SDKs whole.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleAliasArgs, bundleAliases, bundlePathOf, functionBuildOptions } from '../../../lib/bundling/aliases.js';
import { functionBundles } from '../../../lib/bundling/goals.js';
import { PROJECT_ROOT } from '../../../lib/local/runtime.js';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'vendor-aliases-'));
  // The bundles keep @aws-sdk/* external, as on Lambda; the project's copy stands in for the runtime's.
  symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Bundles `source` with a buyer-path function's aliases and without any; runs the aliased one in a fresh process
 * (`env` its environment) and returns its stdout.
 */
async function bundleAndRun(name: string, source: string, env: Record<string, string> = {}): Promise<{ out: string; kib: number; withoutKib: number }> {
  const entry = join(dir, `${name}.ts`);
  writeFileSync(entry, source);
  const outfile = join(dir, `${name}.mjs`);
  await build(functionBuildOptions(entry, outfile, bundleAliases(PROJECT_ROOT, 'buyer')));
  await build(functionBuildOptions(entry, join(dir, `${name}-plain.mjs`), {}));
  const { stdout: out } = await promisify(execFile)(process.execPath, [outfile], { encoding: 'utf8', env: { PATH: process.env.PATH, ...env }, timeout: 30_000 });
  return { out: out.trim(), kib: statSync(outfile).size / 1024, withoutKib: statSync(join(dir, `${name}-plain.mjs`)).size / 1024 };
}

describe('which functions take the aliases', () => {
  it('the buyer-path functions (routes, the sign-in authorizer) take the stubs; the tasks, render functions and sweeper none', () => {
    expect([bundlePathOf('route'), bundlePathOf('authorizer'), bundlePathOf('task'), bundlePathOf('sweeper')]).toEqual(['buyer', 'buyer', 'background', 'background']);
    expect(Object.keys(bundleAliases(PROJECT_ROOT, 'buyer')).sort()).toEqual(['@noble/curves/ed25519', '@x402/core/http', 'tweetnacl']);
    expect(bundleAliases(PROJECT_ROOT, 'background')).toEqual({});
    expect(bundleAliasArgs(PROJECT_ROOT, 'background')).toEqual({});
    expect(bundleAliasArgs(PROJECT_ROOT, 'buyer')['--alias']).toContain(`tweetnacl=${join(PROJECT_ROOT, 'lib', 'bundling', 'tweetnacl.mjs')}`);
    const paths = Object.fromEntries(functionBundles().map((f) => [f.id, f.path]));
    expect(paths).toMatchObject({ CreateMusic: 'buyer', GetSong: 'buyer', RunAgent: 'buyer', SignInAuthorizer: 'buyer' });
    expect(paths).toMatchObject({ RenderGoogleVeo: 'background', RenderGoogleLyria: 'background', StoreAsset: 'background', RefundPayment: 'background', JobSweeper: 'background' });
  });
});

describe('@x402/extensions offer-receipt without @x402/core/http', () => {
  it('a bundled function signs an offer and a receipt the package verifies; the client helpers fail loudly; the bundle is ~50 KiB smaller', async () => {
    const { out, kib, withoutKib } = await bundleAndRun(
      'offer-receipt',
      `import { signedOffers, withReceipt } from '${join(PROJECT_ROOT, 'lambdas/payments/offer-receipt.ts')}';
       import { privateKeyToAccount } from 'viem/accounts';
       const account = privateKeyToAccount('0x${'5'.repeat(64)}');
       const challenge = { x402Version: 2, error: '', resource: { url: 'https://api.test/agent/image' }, extensions: {},
         accepts: [{ scheme: 'exact', network: 'eip155:8453', amount: '150000', asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
           payTo: '0x2222222222222222222222222222222222222222', maxTimeoutSeconds: 300 }] };
       const offers = await signedOffers(challenge, async () => account);
       const settled = await withReceipt({ success: true, payer: '0x3333333333333333333333333333333333333333', transaction: '0x' + 'ab'.repeat(32), network: 'eip155:8453' },
         'https://api.test/agent/image', 'eip155:8453', async () => account);
       const http = await import('@x402/core/http');
       const decoded = [];
       for (const name of ['decodePaymentResponseHeader', 'decodePaymentRequiredHeader']) { try { http[name]('e30='); decoded.push('decoded'); } catch (e) { decoded.push(e.message); } }
       console.log(JSON.stringify({ offers, receipt: settled.extensions['offer-receipt'], signer: account.address, decoded }));`,
    );
    const { offers, receipt, signer, decoded } = JSON.parse(out);
    const { verifyOfferSignatureEIP712, verifyReceiptSignatureEIP712 } = await import('@x402/extensions/offer-receipt');
    expect((await verifyOfferSignatureEIP712(offers.info.offers[0])).signer).toBe(signer);
    const verified = await verifyReceiptSignatureEIP712(receipt.info.receipt);
    expect(verified.signer).toBe(signer);
    expect(verified.payload).toMatchObject({ resourceUrl: 'https://api.test/agent/image', transaction: `0x${'ab'.repeat(32)}` });
    expect(decoded).toHaveLength(2);
    for (const message of decoded) expect(message).toMatch(/^@x402\/core\/http is not bundled/);
    expect(withoutKib - kib).toBeGreaterThan(40);
  }, 60_000);
});

describe('@x402/extensions sign-in-with-x without @noble/curves/ed25519 and tweetnacl', () => {
  it("a Solana signature the real package accepts is refused through the stubs (fails closed); each stub's call throws; the bundle is ~50 KiB smaller", async () => {
    // A genuine Solana (ed25519) signature, made and checked with the real packages.
    const nacl = (await import('tweetnacl')).default;
    const { verifySolanaSignature } = await import('@x402/extensions/sign-in-with-x');
    const keys = nacl.sign.keyPair.fromSeed(new Uint8Array(32).fill(7));
    const message = 'api.test wants you to sign in with your Solana account';
    const signature = nacl.sign.detached(new TextEncoder().encode(message), keys.secretKey);
    expect(verifySolanaSignature(message, signature, keys.publicKey)).toBe(true);

    const { out, kib, withoutKib } = await bundleAndRun(
      'siwx-solana',
      `import { verifySolanaSignature } from '@x402/extensions/sign-in-with-x';
       import { ed25519 } from '@noble/curves/ed25519';
       import nacl from 'tweetnacl';
       const hex = (name) => Uint8Array.from(Buffer.from(process.env[name], 'hex'));
       const tried = { verified: verifySolanaSignature(process.env.MESSAGE, hex('SIGNATURE'), hex('PUBLIC_KEY')) };
       try { ed25519.ExtendedPoint.fromHex(hex('PUBLIC_KEY')); tried.ed25519 = 'read'; } catch (e) { tried.ed25519 = e.message; }
       try { tried.tweetnacl = nacl.sign.detached.verify(new Uint8Array(1), hex('SIGNATURE'), hex('PUBLIC_KEY')); } catch (e) { tried.tweetnacl = e.message; }
       console.log(JSON.stringify(tried));`,
      { MESSAGE: message, SIGNATURE: Buffer.from(signature).toString('hex'), PUBLIC_KEY: Buffer.from(keys.publicKey).toString('hex') },
    );
    const tried = JSON.parse(out);
    expect(tried.verified).toBe(false);
    expect(tried.ed25519).toMatch(/^ed25519 is not bundled/);
    expect(tried.tweetnacl).toMatch(/^tweetnacl is not bundled/);
    expect(withoutKib - kib).toBeGreaterThan(40);
  }, 60_000);
});
