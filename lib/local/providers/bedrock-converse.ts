/**
 * The Converse operation of the Bedrock runtime fake (mounted by ./bedrock.ts on the same server): what the SDK's
 * ConverseCommand sends and what Bedrock answers, for the agent reading adapter (lambdas/agents/reasoning/, ADR 0023).
 *
 *   POST /model/{modelId}/converse   body {messages, system?, toolConfig?, inferenceConfig?, ...}; a model of
 *                                    CONVERSE_MODELS in one of its regions (else ValidationException 400)
 *   200 application/json             {output:{message:{role:'assistant',content:[{toolUse:{toolUseId,name,input}}]}},
 *                                    stopReason:'tool_use', usage:{inputTokens,outputTokens,totalTokens}, metrics:{latencyMs}}
 *
 * The "model" is deterministic: for a forced tool named `<engine family>_reading` it reads the documents between
 * <input> and </input> of the user turn (each a JSON array of its lines) with a small reader of its own for plain
 * documents (CSV exports with a header row, `Label: value` lines, expense JSON or lines with a currency amount, PO
 * and invoice lines such as `WID-10 Widget 10 x $2.50 = $25.00`), citing each item's line and quoting it: a faithful
 * reading of such documents. It is not the engines' reader, so what it reads is a second reading. A tool it does not
 * know, or documents it cannot read, get an empty object (which no reading schema accepts).
 *
 * Markers anywhere in the messages: `[fake:429]` ThrottlingException; `[fake:500]` InternalServerException;
 * `[fake:hang]` never answers (the caller's timeout); `[fake:malformed]` a 200 whose JSON is cut off;
 * `[fake:content-filter]` stopReason content_filtered with no tool use; `[fake:off-schema]` a tool input that breaks
 * the reading schema; and readings that are wrong on purpose:
 *   `[fake:wrong]`       grounded but wrong: the last item is left out (the last bank transaction, expense item,
 *                        invoice line, profile statement); every item left is on its line
 *   `[fake:ungrounded]`  a figure that is not in the document: the first item's amount plus 100 (a profile statement
 *                        gains a tax number the profile does not have)
 *   `[fake:disagree]`    a grounded reading that reads a fact another way: bank: the last bank transaction's direction
 *                        flipped; vendor risk: a denial read as an affirmation ("no operations in Iran" → "operations
 *                        in Iran"); expense: one more attendee than the claim says; PO match: no PO number on the invoice
 * The markers are left out of the values the fake reads (its quotes keep each line as written).
 */
import { randomUUID } from 'node:crypto';
import { inputFromPrompt, toolName } from '../../../lambdas/agents/reasoning/prompts.js';
import { linesOf } from '../../../lambdas/agents/reasoning/grounding.js';
import { parseCents, centsToNumber } from '../../../lambdas/agents/engines/text/amount.js';
import { isoDate, readDate } from '../../../lambdas/agents/engines/text/dates.js';

/** Models the fake answers Converse for, and the regions where each is offered in-region (on-demand). */
export const CONVERSE_MODELS: Record<string, string[]> = {
  'amazon.nova-pro-v1:0': ['us-east-1'],
  'amazon.nova-lite-v1:0': ['us-east-1'],
  'amazon.nova-micro-v1:0': ['us-east-1'],
};

export type ConverseMarker = '429' | '500' | 'hang' | 'malformed' | 'content-filter' | 'off-schema' | 'wrong' | 'ungrounded' | 'disagree';
const MARKERS: ConverseMarker[] = ['429', '500', 'hang', 'malformed', 'content-filter', 'off-schema', 'wrong', 'ungrounded', 'disagree'];

export type ConverseReply = { status: number; body: unknown; errorType?: string } | 'hang';

type Json = Record<string, any>;

function error(status: number, errorType: string, message: string): ConverseReply {
  return { status, errorType, body: { message } };
}

function textOf(messages: Json[]): string {
  return messages.flatMap((m) => (Array.isArray(m?.content) ? m.content : [])).map((block: Json) => (typeof block?.text === 'string' ? block.text : '')).join('\n');
}

export function converseReply(modelId: string, region: string, body: Json): ConverseReply {
  const regions = CONVERSE_MODELS[modelId];
  if (!regions || !regions.includes(region)) return error(400, 'ValidationException', 'The provided model identifier is invalid.');
  const { messages, toolConfig } = body;
  if (!Array.isArray(messages) || messages.length === 0) return error(400, 'ValidationException', 'A conversation must start with a user message.');
  if (messages[0]?.role !== 'user') return error(400, 'ValidationException', 'A conversation must start with a user message. Try again with a conversation that starts with a user message.');
  const tools: Json[] = Array.isArray(toolConfig?.tools) ? toolConfig.tools : [];
  for (const tool of tools) {
    const spec = tool?.toolSpec;
    if (!spec || typeof spec.name !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(spec.name)) return error(400, 'ValidationException', 'The value at toolConfig.tools.toolSpec.name failed to satisfy constraint.');
    if (spec.inputSchema?.json?.type !== 'object') return error(400, 'ValidationException', `The input schema of tool ${spec.name} must be a JSON Schema of type object.`);
  }
  const forced = toolConfig?.toolChoice?.tool?.name as string | undefined;
  if (forced !== undefined && !tools.some((tool) => tool.toolSpec.name === forced)) return error(400, 'ValidationException', `The tool ${forced} named by toolChoice is not in toolConfig.tools.`);

  const text = textOf(messages);
  const marker = MARKERS.find((m) => text.includes(`[fake:${m}]`));
  if (marker === 'hang') return 'hang';
  if (marker === '429') return error(429, 'ThrottlingException', 'Too many requests, please wait before trying again.');
  if (marker === '500') return error(500, 'InternalServerException', 'The server encountered an internal error.');
  const started = performance.now();
  const usage = (output: string) => {
    const inputTokens = Math.ceil((text.length + JSON.stringify(body.system ?? '').length) / 4);
    const outputTokens = Math.ceil(output.length / 4);
    return { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
  };
  if (marker === 'content-filter') {
    const refusal = 'I cannot help with that request.';
    return { status: 200, body: { output: { message: { role: 'assistant', content: [{ text: refusal }] } }, stopReason: 'content_filtered', usage: usage(refusal), metrics: { latencyMs: 1 } } };
  }
  // A forced tool, else the only tool (as toolChoice any would); no tool: a plain text answer.
  const name = forced ?? (tools.length === 1 ? tools[0].toolSpec.name : undefined);
  if (!name) {
    const answer = 'The fake model answers tool calls only.';
    return { status: 200, body: { output: { message: { role: 'assistant', content: [{ text: answer }] } }, stopReason: 'end_turn', usage: usage(answer), metrics: { latencyMs: 1 } } };
  }
  const input = toolInput(name, text, marker);
  const answer = {
    output: { message: { role: 'assistant', content: [{ toolUse: { toolUseId: `tooluse_${randomUUID().replace(/-/g, '').slice(0, 22)}`, name, input } }] } },
    stopReason: 'tool_use',
    usage: usage(JSON.stringify(input)),
    metrics: { latencyMs: Math.max(1, Math.round(performance.now() - started)) },
  };
  const json = JSON.stringify(answer);
  if (marker === 'malformed') return { status: 200, body: json.slice(0, Math.floor(json.length / 2)) };
  return { status: 200, body: json };
}

/** What the fake model "reads": its own reading of plain documents, or one wrong on purpose. */
function toolInput(name: string, text: string, marker: ConverseMarker | undefined): Json {
  const read = READERS.get(name);
  const documents = inputFromPrompt(text);
  if (!read || !documents) return {};
  let reading: Json | undefined;
  try {
    reading = read.read(documents);
  } catch {
    reading = undefined;
  }
  if (!reading) return {}; // documents the fake cannot read: it has nothing sensible to say
  if (marker === 'off-schema') return { ...Object.fromEntries(Object.keys(reading).map((field) => [field, 'not a reading'])), sourceLine: 'one' };
  if (marker === 'wrong') read.wrong(reading);
  if (marker === 'ungrounded') read.ungrounded(reading);
  if (marker === 'disagree') read.disagree(reading);
  return reading;
}

interface Line {
  n: number;
  /** As written (the quote). */
  raw: string;
  /** Without the fake's markers (the values). */
  text: string;
}
const MARK = /\s*\[fake:[a-z0-9-]+\]\s*/g;
const linesIn = (document: string | undefined): Line[] =>
  linesOf(document ?? '')
    .map((raw, i) => ({ n: i + 1, raw, text: raw.replace(MARK, ' ').trim() }))
    .filter((line) => line.text !== '');
const source = (line: Line) => ({ sourceLine: line.n, quote: line.raw.trim() });
const money = (text: string | undefined): number | undefined => {
  const cents = text === undefined ? undefined : parseCents(text.replace(/\s/g, ''));
  return cents === undefined ? undefined : centsToNumber(cents);
};
const iso = (text: string | undefined) => {
  const day = text ? readDate(text, 'mdy') : undefined;
  return day === undefined ? undefined : isoDate(day);
};
const plus100 = (n: number) => Math.round((n + (n < 0 ? -100 : 100)) * 100) / 100;

/** RFC 4180-ish cells of one line (quotes, doubled quotes); enough for the fake's documents. */
function cells(line: string): string[] {
  const out: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') (cell += '"'), i++;
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') out.push(cell.trim()), (cell = '');
    else cell += c;
  }
  out.push(cell.trim());
  return out;
}

interface FakeReader {
  read(documents: Record<string, string>): Json | undefined;
  wrong(reading: Json): void;
  ungrounded(reading: Json): void;
  disagree(reading: Json): void;
}

/** A CSV export with a header row naming a date and an amount (or debit/credit) column. */
function readLedger(document: string | undefined, side: 'bank' | 'books'): Json | undefined {
  const lines = linesIn(document);
  const at = lines.findIndex((l) => cells(l.text).some((c) => /date/i.test(c)));
  if (at < 0) return undefined;
  const header = cells(lines[at].text).map((c) => c.toLowerCase());
  const col = (pattern: RegExp) => header.findIndex((h) => pattern.test(h));
  const [date, description, amount, debit, credit, ref] = [col(/date/), col(/desc|memo|payee|name/), col(/^amount/), col(/debit|withdraw/), col(/credit|deposit/), col(/ref|check|num/)];
  const reading: Json = { transactions: [] };
  for (const line of lines.slice(at + 1)) {
    const row = cells(line.text);
    const words = row.join(' ');
    const figure = (i: number) => (i < 0 ? undefined : money(row[i]));
    let value = amount >= 0 ? figure(amount) : undefined;
    if (value === undefined && (debit >= 0 || credit >= 0)) {
      const out = figure(debit) ?? 0;
      const into = figure(credit) ?? 0;
      value = side === 'bank' ? into - out : out - into;
    }
    if (/opening balance/i.test(words) || /closing balance/i.test(words)) {
      const balance = [...row].reverse().map((c) => money(c)).find((n) => n !== undefined);
      if (balance !== undefined) reading[/opening/i.test(words) ? 'openingBalance' : 'closingBalance'] = { amount: balance, ...source(line) };
      continue;
    }
    const day = iso(row[date]);
    if (!day || value === undefined) continue;
    const text = description >= 0 ? row[description] : '';
    const check = /\bch(?:ec)?k\s*#?\s*(\d+)/i.exec(text)?.[1];
    reading.transactions.push({ date: day, description: text, amount: Math.round(value * 100) / 100, reference: (ref >= 0 && row[ref]) || check || null, ...source(line) });
  }
  return reading.transactions.length ? reading : undefined;
}

const BANK_REC: FakeReader = {
  read: (d) => {
    const bankStatement = readLedger(d.bankStatement, 'bank');
    const bookEntries = readLedger(d.bookEntries, 'books');
    return bankStatement && bookEntries ? { bankStatement, bookEntries } : undefined;
  },
  wrong: (r) => void r.bankStatement.transactions.pop(),
  ungrounded: (r) => void (r.bankStatement.transactions[0].amount = plus100(r.bankStatement.transactions[0].amount)),
  disagree: (r) => {
    const last = r.bankStatement.transactions.at(-1);
    last.amount = -last.amount;
  },
};

const VENDOR_RISK: FakeReader = {
  read: (d) => {
    const statements = linesIn(d.vendorProfile).map((line) => {
      const m = /^([^:]{1,40}):\s*(.+)$/.exec(line.text);
      return { label: m ? m[1].trim() : 'Statement', value: m ? m[2].trim() : line.text, ...source(line) };
    });
    return statements.length ? { vendorProfile: { statements } } : undefined;
  },
  wrong: (r) => void r.vendorProfile.statements.pop(),
  ungrounded: (r) => void (r.vendorProfile.statements[0].value += ' (tax id 98-7654321)'),
  disagree: (r) => {
    for (const s of r.vendorProfile.statements) s.value = s.value.replace(/\b(?:no|not|never)\s+/gi, '');
  },
};

const CATEGORIES: [RegExp, string][] = [
  [/meal|dinner|lunch|breakfast|restaurant|food/i, 'meals'],
  [/hotel|lodging/i, 'lodging'],
  [/flight|airfare/i, 'airfare'],
  [/taxi|cab|uber|lyft|rideshare/i, 'ground'],
  [/wine|beer|alcohol/i, 'alcohol'],
];
const category = (text: string) => CATEGORIES.find(([p]) => p.test(text))?.[1] ?? 'other';
const lineWith = (lines: Line[], value: unknown) => lines.find((l) => l.text.includes(String(value))) ?? lines[0];
const truthy = (v: unknown) => (typeof v === 'boolean' ? v : typeof v === 'string' ? !/^(no|none|n\/a|missing|)$/i.test(v.trim()) : undefined);

const EXPENSE_POLICY: FakeReader = {
  read: (d) => {
    const lines = linesIn(d.expense);
    if (!lines.length) return undefined;
    const whole = lines.map((l) => l.text).join('\n');
    if (/^[[{]/.test(whole)) {
      const json = JSON.parse(whole) as Json;
      const list: Json[] = Array.isArray(json) ? json : (json.items ?? json.expenses ?? [json]);
      const items = list.map((item) => {
        const amount = Number(item.amount ?? item.total ?? item.cost);
        return {
          description: String(item.description ?? item.memo ?? ''),
          category: String(item.category ?? item.type ?? category(String(item.description ?? ''))),
          amount,
          currency: item.currency ?? null,
          receipt: truthy(item.receipt) ?? null,
          attendees: typeof item.attendees === 'number' ? item.attendees : null,
          nights: item.nights ?? null,
          ...source(lineWith(lines, amount)),
        };
      });
      const total = !Array.isArray(json) && Array.isArray(json.items ?? json.expenses) && typeof json.total === 'number' ? { amount: json.total, ...source(lineWith(lines, json.total)) } : null;
      return { expense: { items, total } };
    }
    const items: Json[] = [];
    let total: Json | null = null;
    for (const line of lines) {
      const m = /(?:\$|USD\s*|€|£)\s*([\d,]+(?:\.\d{2})?)/.exec(line.text);
      if (!m) continue;
      const amount = money(m[1])!;
      if (/^\s*total\b/i.test(line.text)) {
        total = { amount, ...source(line) };
        continue;
      }
      const people = /(\d+)\s+(?:people|guests|attendees|persons)/i.exec(line.text);
      const receipt = /no receipt|without receipt|receipt missing/i.test(line.text) ? false : /receipt/i.test(line.text) ? true : null;
      items.push({ description: line.text, category: category(line.text), amount, receipt, attendees: people ? Number(people[1]) : null, ...source(line) });
    }
    return items.length ? { expense: { items, total } } : undefined;
  },
  wrong: (r) => void r.expense.items.pop(),
  ungrounded: (r) => void (r.expense.items[0].amount = plus100(r.expense.items[0].amount)),
  disagree: (r) => void (r.expense.items[0].attendees = (r.expense.items[0].attendees ?? 1) + 1),
};

const ITEM = /^(?:([A-Z0-9]+(?:-[A-Z0-9]+)*\d[A-Z0-9-]*|[A-Z0-9-]*\d[A-Z0-9]*-[A-Z0-9-]+)\s+)?(.+?)\s+(\d+(?:\.\d+)?)\s*(?:x|×|@)\s*\$?([\d,]+(?:\.\d+)?)(?:\s*(?:each)?\s*=\s*\$?([\d,]+(?:\.\d{2})?))?\s*$/i;

function readPoDocument(document: string | undefined): Json | undefined {
  const lines = linesIn(document);
  const doc: Json = { poNumber: null, vendor: null, currency: null, lines: [], charges: [], subtotal: null, total: null };
  for (const line of lines) {
    const t = line.text;
    let m: RegExpExecArray | null;
    if ((m = /^P\.?O\.?\s*(?:Number|No\.?|#)?\s*:\s*(\S+)$/i.exec(t))) doc.poNumber = { value: m[1], ...source(line) };
    else if ((m = /^(?:Vendor|Supplier)\s*:\s*(.+)$/i.exec(t))) doc.vendor = { value: m[1].trim(), ...source(line) };
    else if ((m = /^Currency\s*:\s*([A-Z]{3})\b/i.exec(t))) doc.currency = m[1].toUpperCase();
    else if ((m = /^Sub-?total\b\D*([\d,]+\.\d{2})\s*$/i.exec(t))) doc.subtotal = { amount: money(m[1]), ...source(line) };
    else if ((m = /^(?:Invoice |Order )?Total\b\D*([\d,]+\.\d{2})\s*$/i.exec(t))) doc.total = { amount: money(m[1]), ...source(line) };
    else if ((m = /^(Tax|Sales tax|VAT|Freight|Shipping|Delivery)\b\D*([\d,]+\.\d{2})\s*$/i.exec(t))) doc.charges.push({ kind: /tax|vat/i.test(m[1]) ? 'tax' : 'freight', amount: money(m[2]), ...source(line) });
    else if ((m = ITEM.exec(t))) {
      doc.lines.push({ sku: m[1] ?? null, description: m[2].trim(), quantity: Number(m[3]), unitPrice: money(m[4]), amount: m[5] ? money(m[5]) : null, ...source(line) });
    }
  }
  return doc.lines.length ? doc : undefined;
}

const PO_MATCH: FakeReader = {
  read: (d) => {
    const purchaseOrder = readPoDocument(d.purchaseOrder);
    const invoice = readPoDocument(d.invoice);
    return purchaseOrder && invoice ? { purchaseOrder, invoice } : undefined;
  },
  wrong: (r) => void r.invoice.lines.pop(),
  ungrounded: (r) => {
    const line = r.invoice.lines[0];
    if (line.amount !== null) line.amount = plus100(line.amount);
    else line.unitPrice = plus100(line.unitPrice);
  },
  disagree: (r) => void (r.invoice.poNumber = null),
};

const READERS = new Map<string, FakeReader>([
  [toolName('bank-rec'), BANK_REC],
  [toolName('vendor-risk'), VENDOR_RISK],
  [toolName('expense-policy'), EXPENSE_POLICY],
  [toolName('po-match'), PO_MATCH],
]);
