/**
 * The playground's browser program. It is one self-contained function: the page (./page.ts) inlines its source
 * (`playgroundClient.toString()`) and calls it with the surface's configuration, so it must not reference anything
 * outside its own body (no imports, no module-level helpers), and it runs in the browser, not in Lambda.
 *
 * What it does, from the documents the surface already publishes (nothing here names a product or an agent):
 * lists what can be bought, builds a form from the published input JSON Schema, asks the route for its price (the
 * 402 challenge), has a signer sign the EIP-3009 authorization the challenge asks for (an injected EIP-1193 wallet,
 * or on the embedded default one of the dev buyers, whose keys stay in the local process), pays, follows the job by
 * free polling and shows the result and the settlement receipt.
 */
export interface PlaygroundConfig {
  surface: 'generation' | 'agents';
  /** Path of the document that lists what can be bought (the generation catalog or the agents' services feed). */
  listPath: string;
  /** Path of the embedded default's dev wallet (absent on AWS: the page then offers the browser wallet only). */
  devWalletPath: string;
  /** Milliseconds between two polls of a job. */
  pollIntervalMs: number;
  /** The EIP-712 types of the authorization x402 `exact` asks for (lambdas/payments/usdc-abi.ts), less the domain's. */
  authorizationTypes: Record<string, { name: string; type: string }[]>;
  /**
   * Chain id → the EIP-712 domain name of that network's USDC (the network table, lambdas/shared/networks.ts), for a
   * requirement whose `extra` does not name it: the name differs by network ("USD Coin" on Base, "USDC" on Sepolia).
   */
  tokenNames: Record<string, string>;
}

export function playgroundClient(cfg: PlaygroundConfig): void {
  type Json = any;
  interface Offer {
    id: string;
    name: string;
    description: string;
    kind: 'product' | 'agent';
    category: string;
    free: boolean;
    priceLabel: string;
    endpoint: string;
    schema: Json;
    example: Json | null;
  }
  interface Signer {
    address: string;
    label: string;
    chainId(): Promise<number>;
    switchChain(chainId: number): Promise<void>;
    signTypedData(typedData: Json): Promise<string>;
  }
  interface Refusal {
    message: string;
    fields?: Record<string, string>;
  }

  const FINAL = ['completed', 'failed'];
  const KNOWN_NETWORKS: Record<string, number> = { base: 8453, 'base-sepolia': 84532 };
  const EXPLORERS: Record<number, string> = { 8453: 'https://basescan.org/tx/', 84532: 'https://sepolia.basescan.org/tx/' };
  const CHAIN_PARAMS: Record<number, Json> = {
    8453: { chainId: '0x2105', chainName: 'Base', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: ['https://mainnet.base.org'], blockExplorerUrls: ['https://basescan.org'] },
    84532: { chainId: '0x14a34', chainName: 'Base Sepolia', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: ['https://sepolia.base.org'], blockExplorerUrls: ['https://sepolia.basescan.org'] },
  };
  const onLoopback = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/.test(location.hostname);

  // ---- small DOM helpers -------------------------------------------------------------------------------------
  const byId = (id: string) => document.getElementById(id) as HTMLElement;
  function el(tag: string, attrs: Record<string, string | boolean | undefined> = {}, ...children: (Node | string | null | undefined)[]): HTMLElement {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs)) {
      if (value === undefined || value === false) continue;
      if (key === 'text') node.textContent = String(value);
      else node.setAttribute(key, value === true ? '' : value);
    }
    for (const child of children) if (child !== null && child !== undefined) node.append(child);
    return node;
  }
  const clear = (node: HTMLElement) => node.replaceChildren();
  const slug = (name: string) => name.replace(/[^A-Za-z0-9_-]/g, '_');

  /** Same-origin path of a URL a document published (the page talks to the surface that served it). */
  function samePath(url: string): string {
    const parsed = new URL(url, location.href);
    return parsed.pathname + parsed.search;
  }

  function decodeBase64Json(value: string): Json {
    const binary = atob(value);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return JSON.parse(new TextDecoder().decode(bytes));
  }

  function encodeBase64Json(value: unknown): string {
    const bytes = new TextEncoder().encode(JSON.stringify(value));
    let binary = '';
    for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
    return btoa(binary);
  }

  /** Base units (a decimal string) as a USDC amount, exact (BigInt), without trailing zeros past the cents. */
  function usdc(baseUnits: string, decimals: number): string {
    const units = BigInt(baseUnits);
    const scale = 10n ** BigInt(decimals);
    const whole = units / scale;
    let fraction = (units % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
    if (fraction.length < 2) fraction = fraction.padEnd(2, '0');
    return `${whole}.${fraction}`;
  }

  async function getJson(path: string): Promise<Json> {
    const response = await fetch(path, { headers: { accept: 'application/json' } });
    if (!response.ok) throw new Error(`${path} answered ${response.status}`);
    return response.json();
  }

  // ---- what can be bought -----------------------------------------------------------------------------------
  async function loadOffers(): Promise<Offer[]> {
    const list = await getJson(cfg.listPath);
    if (cfg.surface === 'generation') {
      const items: Json[] = (list.itemListElement ?? []).map((entry: Json) => entry.item);
      return Promise.all(
        items.map(async (item): Promise<Offer> => {
          const product = (await getJson(samePath(item['@id']))).product;
          return {
            id: product.id,
            name: product.title,
            description: product.description,
            kind: 'product',
            category: product.category,
            free: false,
            priceLabel: `$${product.price_usdc}`,
            endpoint: samePath(product.fulfillment.endpoint),
            schema: product.input_schema,
            example: null,
          };
        }),
      );
    }
    return (list.services ?? []).map(
      (service: Json): Offer => ({
        id: service.slug,
        name: service.name,
        description: service.description,
        kind: 'agent',
        category: 'agent',
        free: service.free === true,
        priceLabel: service.free ? 'free' : `$${Number(service.priceUsdc).toFixed(2)}`,
        endpoint: samePath(service.runUrl),
        schema: service.inputSchema,
        example: service.examples?.[0]?.input ?? null,
      }),
    );
  }

  // ---- the form, from the input schema ----------------------------------------------------------------------
  interface Field {
    name: string;
    kind: 'text' | 'textarea' | 'number' | 'integer' | 'boolean' | 'enum' | 'json';
    required: boolean;
    control: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
    error: HTMLElement;
  }
  let fields: Field[] = [];

  function kindOf(prop: Json): Field['kind'] {
    if (Array.isArray(prop.enum)) return 'enum';
    const type = Array.isArray(prop.type) ? prop.type.find((t: string) => t !== 'null') : prop.type;
    if (type === 'boolean') return 'boolean';
    if (type === 'integer') return 'integer';
    if (type === 'number') return 'number';
    if (type === 'string') return prop.maxLength !== undefined && prop.maxLength <= 500 ? 'text' : 'textarea';
    return 'json';
  }

  function buildForm(offer: Offer): void {
    const container = byId('fields');
    clear(container);
    fields = [];
    const properties: Record<string, Json> = offer.schema?.properties ?? {};
    const required: string[] = offer.schema?.required ?? [];
    for (const [name, prop] of Object.entries(properties)) {
      const id = `field-${slug(name)}`;
      const kind = kindOf(prop);
      const isRequired = required.includes(name);
      const hintId = `${id}-hint`;
      const errorId = `${id}-error`;
      const described = [prop.description ? hintId : '', errorId].filter(Boolean).join(' ');
      let control: Field['control'];
      if (kind === 'enum' || kind === 'boolean') {
        const values: string[] = kind === 'boolean' ? ['true', 'false'] : prop.enum.map(String);
        const select = el('select', { id, name, 'aria-describedby': described }) as HTMLSelectElement;
        if (!isRequired) select.append(el('option', { value: '', text: prop.default !== undefined ? `default (${prop.default})` : 'not set' }));
        for (const value of values) select.append(el('option', { value, text: value }));
        control = select;
      } else if (kind === 'textarea' || kind === 'json') {
        control = el('textarea', { id, name, rows: kind === 'json' ? '4' : '6', 'aria-describedby': described, spellcheck: 'false' }) as HTMLTextAreaElement;
      } else {
        const input = el('input', { id, name, type: kind === 'text' ? 'text' : 'number', 'aria-describedby': described }) as HTMLInputElement;
        if (kind === 'integer') input.step = '1';
        if (kind === 'number') input.step = 'any';
        if (prop.minimum !== undefined) input.min = String(prop.minimum);
        if (prop.maximum !== undefined && prop.maximum < Number.MAX_SAFE_INTEGER) input.max = String(prop.maximum);
        control = input;
      }
      if (isRequired) control.setAttribute('aria-required', 'true');
      const label = el('label', { for: id }, name, isRequired ? el('span', { class: 'req', text: ' (required)' }) : null);
      const hint = prop.description ? el('p', { class: 'hint', id: hintId, text: prop.description }) : null;
      const error = el('p', { class: 'field-error', id: errorId, 'aria-live': 'polite' });
      container.append(el('div', { class: 'field' }, label, hint, control, error));
      fields.push({ name, kind, required: isRequired, control, error });
    }
    const example = byId('fill-example') as HTMLButtonElement;
    example.hidden = offer.example === null;
  }

  function fillExample(offer: Offer): void {
    if (!offer.example) return;
    for (const field of fields) {
      const value = offer.example[field.name];
      if (value === undefined) continue;
      field.control.value = field.kind === 'json' ? JSON.stringify(value, null, 2) : String(value);
    }
  }

  /** The request body from the form: empty optional fields are left out; the server validates the rest. */
  function collect(): Json | null {
    const body: Json = {};
    let ok = true;
    for (const field of fields) {
      field.error.textContent = '';
      const raw = field.control.value;
      if (raw === '') continue;
      if (field.kind === 'boolean') body[field.name] = raw === 'true';
      else if (field.kind === 'number' || field.kind === 'integer') body[field.name] = Number(raw);
      else if (field.kind === 'json') {
        try {
          body[field.name] = JSON.parse(raw);
        } catch {
          field.error.textContent = 'Not valid JSON.';
          ok = false;
        }
      } else body[field.name] = raw;
    }
    return ok ? body : null;
  }

  // ---- signers ---------------------------------------------------------------------------------------------
  let devAccounts: string[] = [];

  async function loadDevAccounts(): Promise<void> {
    try {
      const response = await fetch(cfg.devWalletPath, { headers: { accept: 'application/json' } });
      if (response.ok) devAccounts = (await response.json()).accounts ?? [];
    } catch {
      devAccounts = [];
    }
  }

  const short = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`;

  function devSigner(address: string): Signer {
    let chain = 0;
    return {
      address,
      label: `dev buyer ${short(address)}`,
      chainId: async () => chain,
      switchChain: async (chainId) => void (chain = chainId),
      async signTypedData(typedData) {
        const response = await fetch(`${cfg.devWalletPath}/sign`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ address, typedData }),
        });
        const answer = await response.json().catch(() => ({}));
        if (!response.ok) throw new Error(answer.message ?? `the dev wallet answered ${response.status}`);
        return answer.signature;
      },
    };
  }

  async function walletSigner(): Promise<Signer> {
    const ethereum = (window as Json).ethereum;
    if (!ethereum?.request) throw new Error('No browser wallet was found (an EIP-1193 provider such as a wallet extension).');
    const accounts: string[] = await ethereum.request({ method: 'eth_requestAccounts' });
    if (!accounts?.length) throw new Error('The wallet shared no account.');
    const address = accounts[0];
    return {
      address,
      label: `wallet ${short(address)}`,
      chainId: async () => parseInt(await ethereum.request({ method: 'eth_chainId' }), 16),
      async switchChain(chainId) {
        const hex = `0x${chainId.toString(16)}`;
        try {
          await ethereum.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: hex }] });
        } catch (error: Json) {
          if (error?.code !== 4902 || !CHAIN_PARAMS[chainId]) throw error;
          await ethereum.request({ method: 'wallet_addEthereumChain', params: [CHAIN_PARAMS[chainId]] });
        }
      },
      signTypedData: (typedData) => ethereum.request({ method: 'eth_signTypedData_v4', params: [address, JSON.stringify(typedData)] }),
    };
  }

  async function chosenSigner(): Promise<Signer> {
    const choice = (document.querySelector('input[name="payer"]:checked') as HTMLInputElement | null)?.value ?? 'wallet';
    return choice === 'wallet' ? walletSigner() : devSigner(choice);
  }

  function renderPayers(): void {
    const container = byId('payers');
    clear(container);
    const hasWallet = Boolean((window as Json).ethereum?.request);
    const options: { value: string; text: string; title?: string; disabled?: boolean }[] = devAccounts.map((address) => ({
      value: address,
      text: `Dev buyer ${short(address)} (embedded default, test USDC)`,
      title: address,
    }));
    options.push({ value: 'wallet', text: hasWallet ? 'Browser wallet' : 'Browser wallet (none found in this browser)', disabled: !hasWallet });
    const firstEnabled = options.find((option) => !option.disabled);
    options.forEach((option, index) => {
      const id = `payer-${index}`;
      const radio = el('input', { type: 'radio', name: 'payer', id, value: option.value, disabled: option.disabled, checked: option === firstEnabled });
      container.append(el('div', { class: 'payer' }, radio, el('label', { for: id, text: option.text, title: option.title })));
    });
  }

  // ---- paying ----------------------------------------------------------------------------------------------
  function chainIdOf(network: string): number {
    const caip = /^eip155:(\d+)$/.exec(network);
    if (caip) return Number(caip[1]);
    if (KNOWN_NETWORKS[network]) return KNOWN_NETWORKS[network];
    throw new Error(`This page cannot pay on network ${network}.`);
  }

  function challengeOf(response: Response, body: Json): Json {
    const header = response.headers.get('payment-required');
    if (header) return decodeBase64Json(header);
    return body;
  }

  function pickRequirement(challenge: Json): Json {
    const accepts: Json[] = challenge.accepts ?? [];
    const exact = accepts.find((entry) => entry.scheme === 'exact' && /^eip155:\d+$/.test(entry.network)) ?? accepts.find((entry) => entry.scheme === 'exact');
    if (!exact) throw new Error('The service offers no payment this page can make (x402 scheme "exact").');
    return exact;
  }

  function randomNonce(): string {
    const bytes = crypto.getRandomValues(new Uint8Array(32));
    return `0x${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
  }

  /** The x402 v2 PAYMENT-SIGNATURE header: an EIP-3009 TransferWithAuthorization signed by the chosen signer. */
  async function pay(challenge: Json, requirement: Json, signer: Signer): Promise<string> {
    const chainId = chainIdOf(requirement.network);
    if ((await signer.chainId()) !== chainId) await signer.switchChain(chainId);
    const now = Math.floor(Date.now() / 1000);
    const authorization = {
      from: signer.address,
      to: requirement.payTo,
      value: String(requirement.amount ?? requirement.maxAmountRequired),
      validAfter: String(now - 600),
      validBefore: String(now + Number(requirement.maxTimeoutSeconds ?? 300)),
      nonce: randomNonce(),
    };
    const typedData = {
      // eth_signTypedData_v4 wants the domain's own type spelled out too.
      types: {
        EIP712Domain: [
          { name: 'name', type: 'string' },
          { name: 'version', type: 'string' },
          { name: 'chainId', type: 'uint256' },
          { name: 'verifyingContract', type: 'address' },
        ],
        ...cfg.authorizationTypes,
      },
      primaryType: 'TransferWithAuthorization',
      domain: { name: requirement.extra?.name ?? cfg.tokenNames[String(chainId)], version: requirement.extra?.version ?? '2', chainId, verifyingContract: requirement.asset },
      message: authorization,
    };
    if (!typedData.domain.name) throw new Error(`The service names no token domain this page knows on network ${requirement.network}.`);
    const signature = await signer.signTypedData(typedData);
    return encodeBase64Json({ x402Version: 2, resource: challenge.resource, accepted: requirement, payload: { signature, authorization } });
  }

  /** Every refusal in words: 400/422 with their fields, 402 with its reason, 429 with its wait, anything else. */
  function refusalOf(status: number, body: Json, response: Response): Refusal {
    if (status === 402) {
      const challenge = challengeOf(response, body);
      return { message: `Payment refused: ${challenge.error ?? 'the service asks for a payment'}. Nothing was charged.` };
    }
    if (status === 429) {
      const wait = response.headers.get('retry-after');
      return { message: `Too many requests: try again${wait ? ` in ${wait} s` : ' shortly'}. ${body?.detail ?? ''}`.trim() };
    }
    const issues: Json[] = Array.isArray(body?.detail) ? body.detail : Array.isArray(body?.issues) ? body.issues : [];
    if ((status === 400 || status === 422) && issues.length) {
      const fieldErrors: Record<string, string> = {};
      for (const issue of issues) {
        const loc: (string | number)[] = issue.loc ?? [];
        const name = String(loc[0] === 'body' ? (loc[1] === 'input' && cfg.surface === 'agents' ? loc[2] : loc[1]) : (loc[1] ?? ''));
        fieldErrors[name] = fieldErrors[name] ? `${fieldErrors[name]}; ${issue.msg}` : String(issue.msg);
      }
      const summary = typeof body.detail === 'string' ? body.detail : issues.map((issue) => `${(issue.loc ?? []).join('.')}: ${issue.msg}`).join('; ');
      return { message: `The request was refused (${status}): ${summary}. Nothing was charged.`, fields: fieldErrors };
    }
    const detail = typeof body?.detail === 'string' ? body.detail : typeof body?.message === 'string' ? body.message : typeof body?.error === 'string' ? body.error : '';
    return { message: `The service answered ${status}${detail ? `: ${detail}` : ''}.` };
  }

  // ---- showing progress, receipts and results ------------------------------------------------------------
  function setStatus(text: string): void {
    byId('status').textContent = text;
  }

  function showRefusal(refusal: Refusal): void {
    const box = byId('refusal');
    box.textContent = refusal.message;
    box.hidden = false;
    for (const field of fields) {
      const message = refusal.fields?.[field.name];
      if (message) {
        field.error.textContent = message;
        field.control.setAttribute('aria-invalid', 'true');
      }
    }
    const firstInvalid = fields.find((field) => refusal.fields?.[field.name]);
    firstInvalid?.control.focus();
    setStatus('');
  }

  function showReceipt(response: Response, requirement: Json | null): void {
    const header = response.headers.get('payment-response');
    if (!header) return;
    const receipt = decodeBase64Json(header);
    const box = byId('receipt');
    clear(box);
    const chainId = (() => {
      try {
        return chainIdOf(receipt.network ?? requirement?.network ?? '');
      } catch {
        return 0;
      }
    })();
    const explorer = !onLoopback && EXPLORERS[chainId];
    const tx = receipt.transaction as string;
    const txNode = explorer ? el('a', { href: `${explorer}${tx}`, target: '_blank', rel: 'noopener', text: tx }) : el('code', { text: tx });
    const amount = requirement ? `${usdc(String(requirement.amount ?? requirement.maxAmountRequired), Number(requirement.extra?.decimals ?? 6))} USDC` : 'the price';
    box.append(
      el('h3', { text: 'Receipt' }),
      el(
        'dl',
        {},
        el('dt', { text: 'Paid' }),
        el('dd', { text: amount }),
        el('dt', { text: 'Payer' }),
        el('dd', {}, el('code', { 'data-payer': receipt.payer, text: receipt.payer })),
        el('dt', { text: 'Settlement transaction' }),
        el('dd', { 'data-transaction': tx }, txNode, onLoopback ? ' (local chain)' : ''),
        el('dt', { text: 'Network' }),
        el('dd', { text: String(receipt.network ?? requirement?.network ?? '') }),
      ),
    );
    box.hidden = false;
  }

  function statusOfJob(job: Json): string {
    if (typeof job.status === 'string') return job.status;
    if (job.model_version === 'pending') return 'processing';
    if (job.model_version === 'failed') return 'failed';
    return 'completed';
  }

  function showMedia(job: Json, offer: Offer): void {
    const box = byId('result');
    clear(box);
    const status = statusOfJob(job);
    box.append(el('h3', { text: status === 'completed' ? 'Result' : 'The render failed' }));
    if (status === 'failed') {
      box.append(el('p', { class: 'failed', role: 'alert', text: String(job.error ?? 'The render failed.') }));
    } else if (job.videoUrl) {
      box.append(el('video', { controls: true, src: job.videoUrl, preload: 'metadata', 'aria-label': `${offer.name} result` }));
      box.append(el('p', {}, el('a', { href: job.videoUrl, text: 'Download the clip' })));
    } else if (job.audio_url) {
      box.append(
        el('figure', {}, el('img', { src: job.image_url, alt: `Cover art of ${job.title}`, class: 'cover' }), el('figcaption', { text: String(job.title) })),
        el('audio', { controls: true, src: job.audio_url, preload: 'metadata', 'aria-label': `${job.title}` }),
        el('p', { class: 'hint', text: `${Number(job.duration).toFixed(1)} s · ${job.model_version}` }),
      );
    } else if (job.imageUrl) {
      box.append(el('img', { src: job.imageUrl, alt: `${offer.name} result`, class: 'image' }));
      box.append(el('p', {}, el('a', { href: job.imageUrl, text: 'Open the image' })));
    }
    const refund = job.refund;
    if (refund) {
      box.append(el('p', { class: 'refund', text: `Refund: ${refund.status}${refund.transaction ? ` (transaction ${refund.transaction})` : ''}.` }));
    }
    box.hidden = false;
  }

  async function followJob(offer: Offer, accepted: Json): Promise<void> {
    let job = accepted;
    const pollUrl: string | null = accepted.pollUrl ?? null;
    const started = Date.now();
    while (pollUrl && !FINAL.includes(statusOfJob(job))) {
      setStatus(`Job ${statusOfJob(job)} · ${Math.round((Date.now() - started) / 1000)} s (polling is free)`);
      await new Promise((resolve) => setTimeout(resolve, cfg.pollIntervalMs));
      const response = await fetch(samePath(pollUrl), { headers: { accept: 'application/json' } });
      if (response.status === 429 || response.status >= 500) continue;
      const body = await response.json().catch(() => ({}));
      if (!response.ok) return showRefusal(refusalOf(response.status, body, response));
      job = body;
    }
    setStatus(`Job ${statusOfJob(job)}.`);
    showMedia(job, offer);
  }

  function grid(rows: Json[]): HTMLElement {
    const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
    const table = el('table', {});
    table.append(el('thead', {}, el('tr', {}, ...columns.map((column) => el('th', { scope: 'col', text: column })))));
    const body = el('tbody', {});
    for (const row of rows) body.append(el('tr', {}, ...columns.map((column) => el('td', {}, valueNode(row[column], column)))));
    table.append(body);
    return table;
  }

  function valueNode(value: Json, key: string): Node {
    if (value === null || value === undefined) return document.createTextNode('—');
    if (Array.isArray(value)) {
      if (value.length === 0) return document.createTextNode('none');
      if (value.every((item) => item && typeof item === 'object' && !Array.isArray(item))) return grid(value);
      return el('ul', {}, ...value.map((item) => el('li', {}, valueNode(item, key))));
    }
    if (typeof value === 'object') {
      const list = el('dl', {});
      for (const [k, v] of Object.entries(value)) list.append(el('dt', { text: k }), el('dd', {}, valueNode(v, k)));
      return list;
    }
    if (typeof value === 'boolean') return document.createTextNode(value ? 'yes' : 'no');
    return document.createTextNode(String(value));
  }

  /** An agent's structured result: its headline values (grade, decision, verdict, status, reconciled) first. */
  function showAgentResult(run: Json): void {
    const box = byId('result');
    clear(box);
    const result = run.result ?? {};
    box.append(el('h3', { text: 'Result' }));
    const headline = el('p', { class: 'headline' });
    for (const key of ['grade', 'decision', 'verdict', 'status', 'reconciled', 'matched']) {
      if (!(key in result) || typeof result[key] === 'object') continue;
      const value = result[key];
      const tone = /high|decline|reject|false|fail/i.test(String(value)) ? 'bad' : /medium|hold|flag|partial/i.test(String(value)) ? 'warn' : 'good';
      headline.append(el('span', { class: `badge ${tone}`, 'data-key': key, text: `${key}: ${typeof value === 'boolean' ? (value ? 'yes' : 'no') : value}` }));
    }
    if (headline.childNodes.length) box.append(headline);
    if (typeof result.note === 'string') box.append(el('p', { class: 'note', text: result.note }));
    // Scalars and short lists in one definition list; each list of records as its own full-width table.
    const rest = el('dl', { class: 'details' });
    const tables: HTMLElement[] = [];
    for (const [key, value] of Object.entries(result)) {
      if (key === 'note') continue;
      const records = Array.isArray(value) && value.length > 0 && value.every((item) => item && typeof item === 'object' && !Array.isArray(item));
      if (records) tables.push(el('div', { class: 'records', 'data-key': key }, el('h4', { text: `${key} (${value.length})` }), grid(value)));
      else rest.append(el('dt', { text: key }), el('dd', { 'data-key': key }, valueNode(value, key)));
    }
    box.append(rest, ...tables);
    box.append(el('p', { class: 'hint', text: `Run ${run.runId} · ${run.status}${run.settled ? ' · settled' : ''}` }));
    box.hidden = false;
  }

  // ---- the run ---------------------------------------------------------------------------------------------
  async function post(path: string, body: Json, headers: Record<string, string> = {}): Promise<{ response: Response; body: Json }> {
    const response = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json', ...headers }, body: JSON.stringify(body) });
    const text = await response.text();
    let parsed: Json = {};
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      parsed = { message: text.slice(0, 200) };
    }
    return { response, body: parsed };
  }

  async function run(offer: Offer): Promise<void> {
    for (const id of ['refusal', 'receipt', 'result']) {
      clear(byId(id));
      byId(id).hidden = true;
    }
    for (const field of fields) field.control.removeAttribute('aria-invalid');
    const input = collect();
    if (!input) return showRefusal({ message: 'Fix the marked fields first.' });
    const body = offer.kind === 'agent' ? { input } : input;
    if (offer.kind === 'agent' && !offer.free) {
      // A dry run reads and validates the input in full and charges nothing: bad input never asks for a signature.
      setStatus('Checking the input (free dry run)…');
      const dry = await post(offer.endpoint, { ...body, dryRun: true });
      if (!dry.response.ok) return showRefusal(refusalOf(dry.response.status, dry.body, dry.response));
    }
    setStatus('Asking for the price…');
    let answer = await post(offer.endpoint, body);
    let requirement: Json | null = null;
    if (answer.response.status === 402) {
      const challenge = challengeOf(answer.response, answer.body);
      requirement = pickRequirement(challenge);
      const price = usdc(String(requirement.amount ?? requirement.maxAmountRequired), Number(requirement.extra?.decimals ?? 6));
      const signer = await chosenSigner();
      setStatus(`Price ${price} USDC to ${short(requirement.payTo)}: waiting for the signature of ${signer.label}…`);
      const payment = await pay(challenge, requirement, signer);
      setStatus('Paying and starting…');
      answer = await post(offer.endpoint, body, { 'PAYMENT-SIGNATURE': payment });
    }
    showReceipt(answer.response, requirement);
    if (!answer.response.ok) return showRefusal(refusalOf(answer.response.status, answer.body, answer.response));
    if (offer.kind === 'agent') {
      setStatus(`Run ${answer.body.status ?? 'done'}.`);
      return showAgentResult(answer.body);
    }
    await followJob(offer, answer.body);
  }

  // ---- wiring ------------------------------------------------------------------------------------------------
  async function start(): Promise<void> {
    const picker = byId('offer') as HTMLSelectElement;
    const form = byId('form') as HTMLFormElement;
    const button = byId('pay') as HTMLButtonElement;
    let offers: Offer[] = [];
    try {
      [offers] = await Promise.all([loadOffers(), loadDevAccounts()]);
    } catch (error) {
      setStatus(`Could not read the catalog: ${(error as Error).message}`);
      return;
    }
    for (const offer of offers) picker.append(el('option', { value: offer.id, text: `${offer.name} — ${offer.priceLabel}` }));
    const current = () => offers.find((offer) => offer.id === picker.value) ?? offers[0];
    const select = () => {
      const offer = current();
      byId('offer-description').textContent = offer.description;
      button.textContent = offer.free ? 'Run (free)' : `Pay ${offer.priceLabel} and run`;
      buildForm(offer);
      for (const id of ['refusal', 'receipt', 'result']) byId(id).hidden = true;
      setStatus('');
    };
    const wanted = new URLSearchParams(location.search).get('item');
    if (wanted && offers.some((offer) => offer.id === wanted)) picker.value = wanted;
    picker.addEventListener('change', select);
    byId('fill-example').addEventListener('click', () => fillExample(current()));
    renderPayers();
    select();
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      if (button.disabled) return;
      button.disabled = true;
      form.setAttribute('aria-busy', 'true');
      run(current())
        .catch((error: Json) => {
          const declined = error?.code === 4001;
          showRefusal({ message: declined ? 'The signature was declined: nothing was paid.' : `Stopped: ${error?.message ?? String(error)}` });
        })
        .finally(() => {
          button.disabled = false;
          form.removeAttribute('aria-busy');
        });
    });
    document.body.setAttribute('data-ready', 'true');
  }

  void start();
}
