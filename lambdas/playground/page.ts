/**
 * The playground page of a surface: one static HTML document with its style and its program inline (the program is
 * ./client.ts, inlined from its own source), so one GET serves it and a Content-Security-Policy can pin both by hash.
 * It reads the documents the surface already publishes; nothing here names a product or an agent.
 */
import { createHash } from 'node:crypto';
import type { Surface } from '../surfaces/surface.js';
import { routePath } from '../surfaces/routes.js';
import { playgroundClient, type PlaygroundConfig } from './client.js';
import { transferWithAuthorizationTypes } from '../payments/usdc-abi.js';
import { NETWORKS } from '../shared/networks.js';

/** Where the embedded default's gateway answers for its dev buyers (lib/local/dev-wallet.ts); nothing on AWS. */
export const DEV_WALLET_PATH = '/_local/dev-wallet';

const STYLE = `
:root { color-scheme: light; --ink: #1a1a1a; --muted: #4a4a4a; --line: #c8c8c8; --accent: #0b57d0; --bad: #a50e0e; --warn: #7a4a00; --good: #0d652d; }
* { box-sizing: border-box; }
body { font: 16px/1.5 system-ui, sans-serif; color: var(--ink); background: #fff; margin: 0 auto; padding: 1rem; max-width: 52rem; }
h1 { font-size: 1.6rem; margin: 0.5rem 0; }
label { display: block; font-weight: 600; margin-top: 0.75rem; }
.req, .hint { color: var(--muted); font-weight: 400; }
.hint { margin: 0.1rem 0 0.3rem; font-size: 0.9rem; }
input[type=text], input[type=number], select, textarea { width: 100%; font: inherit; padding: 0.45rem; border: 1px solid #767676; border-radius: 4px; background: #fff; color: var(--ink); }
textarea { font-family: ui-monospace, monospace; font-size: 0.9rem; }
fieldset { border: 1px solid var(--line); border-radius: 6px; margin: 1rem 0; padding: 0.5rem 1rem 1rem; }
legend { font-weight: 700; padding: 0 0.3rem; }
.payer { display: flex; gap: 0.5rem; align-items: baseline; margin: 0.3rem 0; }
.payer label { display: inline; font-weight: 400; margin: 0; word-break: break-all; }
button { font: inherit; padding: 0.55rem 1rem; border-radius: 4px; border: 1px solid var(--accent); cursor: pointer; }
button[type=submit] { background: var(--accent); color: #fff; font-weight: 600; }
button[type=button] { background: #fff; color: var(--accent); margin-top: 0.75rem; }
button:disabled { opacity: 0.6; cursor: progress; }
:focus-visible { outline: 3px solid #e37400; outline-offset: 2px; }
.field-error, #refusal, .failed { color: var(--bad); font-weight: 600; }
[aria-invalid=true] { border-color: var(--bad); border-width: 2px; }
#refusal { border: 2px solid var(--bad); border-radius: 6px; padding: 0.5rem 0.75rem; }
#status { min-height: 1.5rem; color: var(--muted); }
section { border-top: 1px solid var(--line); margin-top: 1rem; }
dl { display: grid; grid-template-columns: minmax(8rem, max-content) 1fr; gap: 0.2rem 1rem; }
dt { font-weight: 600; }
dd { margin: 0; overflow-wrap: anywhere; }
table { border-collapse: collapse; width: 100%; display: block; overflow-x: auto; }
th, td { border: 1px solid var(--line); padding: 0.3rem 0.5rem; text-align: left; vertical-align: top; }
th { white-space: nowrap; }
h4 { margin: 1rem 0 0.3rem; }
img.image, img.cover, video { max-width: 100%; height: auto; display: block; }
img.cover { max-width: 16rem; }
audio { width: 100%; }
.badge { display: inline-block; margin: 0 0.5rem 0.3rem 0; padding: 0.15rem 0.6rem; border-radius: 1rem; border: 2px solid; font-weight: 700; }
.badge.bad { color: var(--bad); } .badge.warn { color: var(--warn); } .badge.good { color: var(--good); }
.refund { font-weight: 600; }
code { overflow-wrap: anywhere; }
`;

export interface PlaygroundPage {
  html: string;
  /** The page's Content-Security-Policy (its one script and one style pinned by hash). */
  contentSecurityPolicy: string;
}

/** The page of one surface; pure (a function of the surface only), so it is built once per function instance. */
export function playgroundPage(surface: Surface): PlaygroundPage {
  const config: PlaygroundConfig = {
    surface: surface.id,
    listPath: surface.id === 'generation' ? routePath('Catalog') : routePath('AgentsServices'),
    devWalletPath: DEV_WALLET_PATH,
    pollIntervalMs: 1500,
    authorizationTypes: transferWithAuthorizationTypes as unknown as PlaygroundConfig['authorizationTypes'],
    tokenNames: Object.fromEntries(Object.values(NETWORKS).map((network) => [String(network.chainId), network.tokenName])),
  };
  const source = playgroundClient.toString();
  if (/<\/script/i.test(source)) throw new Error('the playground program must not contain a closing script tag');
  // `__name` is what a keep-names build (tsx, in development) wraps functions with; the minified Lambda bundle has none.
  const script = `var __name = function (target) { return target; };\n(${source})(${JSON.stringify(config)});`;
  const what = surface.id === 'generation' ? 'product' : 'agent';
  const title = `Playground — ${surface.identity.name}`;
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${title}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>${title}</h1>
<p>Pick ${what === 'product' ? 'a product' : 'an agent'}, fill in its input and pay per call in USDC on Base over x402: no account, no API key.
Following a job is free. The form comes from the ${what}'s published input schema.</p>
</header>
<main>
<form id="form" novalidate>
<label for="offer">${what === 'product' ? 'Product' : 'Agent'}</label>
<select id="offer" name="offer"></select>
<p id="offer-description" class="hint"></p>
<fieldset>
<legend>Input</legend>
<div id="fields"></div>
<button type="button" id="fill-example" hidden>Fill in the example</button>
</fieldset>
<fieldset>
<legend>Pay with</legend>
<div id="payers"></div>
<p class="hint">A browser wallet signs one EIP-3009 authorization for the exact price; no key leaves it.</p>
</fieldset>
<button type="submit" id="pay">Pay and run</button>
</form>
<p id="status" role="status" aria-live="polite"></p>
<div id="refusal" role="alert" hidden></div>
<section id="receipt" aria-label="Receipt" hidden></section>
<section id="result" aria-label="Result" aria-live="polite" hidden></section>
</main>
<script>${script}</script>
</body>
</html>
`;
  const hash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
  const contentSecurityPolicy = [
    "default-src 'none'",
    `script-src ${hash(script)}`,
    `style-src ${hash(STYLE)}`,
    "connect-src 'self'",
    // Results are served by the asset CDN (another origin on AWS).
    'img-src * data: blob:',
    'media-src *',
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return { html, contentSecurityPolicy };
}
