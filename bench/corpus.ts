/**
 * The agents' corpus (test/corpus/README.md) read and judged: each case's documents become the agent's input, the
 * engine runs as the run route runs it (the family's zod schema, then the engine), and the result is held against the
 * practitioner's answer. `npm run bench:agents` prints the table (bench/agents-corpus.ts); the corpus test keeps the
 * list of cases still wrong honest (test/unit/agents/corpus.test.ts).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import * as z from '../lambdas/shared/zod.js';
import { AGENTS, type AgentFamily } from '../lambdas/agents/registry.js';
import { AgentInputError } from '../lambdas/shared/errors.js';

export const CORPUS_DIR = resolve(import.meta.dirname, '../test/corpus');
export const JUDGED_FAMILIES = ['vendor-risk', 'bank-rec', 'expense-policy', 'po-match'] as const satisfies readonly AgentFamily[];
export type JudgedFamily = (typeof JUDGED_FAMILIES)[number];

export interface CorpusCase {
  family: JudgedFamily;
  /** `<family>/<folder>`: how the known misses and the bench name it. */
  id: string;
  title: string;
  form: string;
  /** The set a case was written in, when not the first (e.g. `holdout-1`: written after the engines were changed). */
  set?: string;
  input: Record<string, string>;
  expected: Record<string, unknown>;
}

/** Every case of a family, in folder order; a folder that breaks the layout throws, naming it. */
export function loadCases(family: JudgedFamily): CorpusCase[] {
  const root = join(CORPUS_DIR, family);
  let folders: string[];
  try {
    folders = readdirSync(root).filter((name) => statSync(join(root, name)).isDirectory()).sort();
  } catch {
    return [];
  }
  const fields = inputFields(family);
  return folders.map((folder) => {
    const dir = join(root, folder);
    const id = `${family}/${folder}`;
    const meta = JSON.parse(readFileSync(join(dir, 'case.json'), 'utf8')) as Record<string, unknown>;
    for (const key of ['title', 'form', 'expected', 'working']) if (!(key in meta)) throw new Error(`${id}: case.json has no ${key}`);
    const input: Record<string, string> = {};
    for (const file of readdirSync(dir)) {
      if (file === 'case.json') continue;
      const field = file.slice(0, file.length - extname(file).length);
      if (!fields.includes(field)) throw new Error(`${id}: ${file} names no input field of ${family} (${fields.join(', ')})`);
      if (field in input) throw new Error(`${id}: two files for ${field}`);
      input[field] = readFileSync(join(dir, file), 'utf8');
    }
    const set = typeof meta.set === 'string' ? { set: meta.set } : {};
    return { family, id, title: String(meta.title), form: String(meta.form), ...set, input, expected: meta.expected as Record<string, unknown> };
  });
}

function agentOf(family: JudgedFamily) {
  const agent = AGENTS.find((a) => a.engine.id.startsWith(`${family}/`));
  if (!agent) throw new Error(`no agent of family ${family}`);
  return agent;
}

export function inputFields(family: JudgedFamily): string[] {
  const json = z.toJSONSchema(agentOf(family).inputSchema, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, unknown> };
  return Object.keys(json.properties ?? {});
}

export type Outcome = { kind: 'result'; result: Record<string, unknown> } | { kind: 'error'; status: 400 | 500; field?: string; message: string };

/** The case run as the run route runs it: the input schema (400), then the engine (AgentInputError: 400; else 500). */
export function runCase(c: CorpusCase): Outcome {
  const agent = agentOf(c.family);
  const parsed = z.safeParse(agent.inputSchema, c.input);
  if (!parsed.success) return { kind: 'error', status: 400, message: parsed.error.issues.map((i) => i.message).join('; ') };
  try {
    return { kind: 'result', result: (agent.engine.analyse as (input: unknown) => Record<string, unknown>)(parsed.data) };
  } catch (error) {
    if (error instanceof AgentInputError) return { kind: 'error', status: 400, field: error.field, message: error.message };
    return { kind: 'error', status: 500, message: (error as Error).message };
  }
}

export interface Judgement {
  /** The decision (verdict, status, reconciled, the error) is the practitioner's. */
  decisionRight: boolean;
  /** Every amount the answer states is right to the cent (true when the case states none). */
  amountsRight: boolean;
  /**
   * A permissive answer (onboard, approve, pass, reconciled: true) where the practitioner's is not; or an expense
   * claim that would be paid more than the practitioner pays (reimbursable above the expected amount, any verdict):
   * both cost the buyer money.
   */
  wrongPermissive: boolean;
  /** What differs, one line each; empty when the case is right. */
  reasons: string[];
}

const cents = (value: unknown) => (typeof value === 'number' ? Math.round(value * 100) : undefined);
const PERMISSIVE: Record<JudgedFamily, (r: Record<string, unknown>) => boolean> = {
  'vendor-risk': (r) => r.decision === 'onboard',
  'bank-rec': (r) => r.reconciled === true,
  'expense-policy': (r) => r.verdict === 'approve',
  'po-match': (r) => r.status === 'pass',
};

export function judge(c: CorpusCase, outcome: Outcome): Judgement {
  const expected = c.expected;
  const reasons: string[] = [];
  if ('error' in expected) {
    const right = outcome.kind === 'error' && outcome.status === expected.error && (expected.field === undefined || outcome.field === expected.field);
    if (!right) reasons.push(`expected ${String(expected.error)} on ${String(expected.field)}, got ${describe(outcome)}`);
    const permissive = outcome.kind === 'result' && PERMISSIVE[c.family](outcome.result);
    return { decisionRight: right, amountsRight: true, wrongPermissive: permissive, reasons };
  }
  if (outcome.kind === 'error') {
    return { decisionRight: false, amountsRight: false, wrongPermissive: false, reasons: [`expected an answer, got ${describe(outcome)}`] };
  }
  const r = outcome.result;
  const decisionKeys = DECISION_KEYS[c.family].filter((key) => key in expected);
  for (const key of decisionKeys) if (r[key] !== expected[key]) reasons.push(`${key}: ${JSON.stringify(r[key])}, expected ${JSON.stringify(expected[key])}`);
  const decisionRight = reasons.length === 0;
  const amountReasons = amountDifferences(c.family, expected, r);
  reasons.push(...amountReasons);
  const overpaid = c.family === 'expense-policy' && (cents(r.reimbursable_amount) ?? 0) > (cents(expected.reimbursable_amount) ?? Infinity);
  const wrongPermissive = (PERMISSIVE[c.family](r) && !PERMISSIVE[c.family](expected)) || overpaid;
  return { decisionRight, amountsRight: amountReasons.length === 0, wrongPermissive, reasons };
}

/** The members that are the decision, per family (those the case states are compared exactly). */
const DECISION_KEYS: Record<JudgedFamily, string[]> = {
  'vendor-risk': ['decision', 'grade'],
  'bank-rec': ['reconciled', 'matched'],
  'expense-policy': ['verdict'],
  'po-match': ['status', 'matched'],
};

function amountDifferences(family: JudgedFamily, expected: Record<string, unknown>, r: Record<string, unknown>): string[] {
  const out: string[] = [];
  const same = (key: string) => {
    if (!(key in expected)) return;
    if (cents(r[key]) !== cents(expected[key])) out.push(`${key}: ${String(r[key])}, expected ${String(expected[key])}`);
  };
  if (family === 'expense-policy') same('reimbursable_amount');
  if (family === 'po-match') (same('invoiceTotal'), same('poTotal'));
  if (family === 'bank-rec') {
    same('net_unreconciled');
    if (Array.isArray(expected.exceptions)) {
      const key = (e: any) => `${e.type} ${cents(e.amount)}`;
      const want = (expected.exceptions as unknown[]).map(key).sort();
      const got = ((r.exceptions as unknown[]) ?? []).map(key).sort();
      if (want.join('|') !== got.join('|')) out.push(`exceptions: [${got.join(', ')}], expected [${want.join(', ')}]`);
    }
  }
  return out;
}

function describe(outcome: Outcome): string {
  return outcome.kind === 'error' ? `${outcome.status}${outcome.field ? ` on ${outcome.field}` : ''} (${outcome.message.slice(0, 120)})` : 'an answer';
}
