/**
 * The model reads, the engine decides (ADR 0023, superseding ADR 0009's "the model only re-words"): for an agent's
 * paid run, through Bedrock `Converse` with one tool whose input schema is the family's typed reading (readings.ts)
 * and a tool choice that forces it. Steps:
 *  1. the deterministic engine has already read the input and decided (`rules`; unreadable input was a 400 before any
 *     of this); in a paid run over x402 the transfer has been sent too, and its block is awaited meanwhile
 *     (lambdas/agents/run.ts);
 *  2. Converse: system = what to read and how to cite it, user = the documents as data, each as its lines; one
 *     attempt, bounded by the configured timeout and by the run's deadline (settlement must still fit);
 *  3. the tool-use input is checked against the reading's schema;
 *  4. grounded in the documents (grounding.ts): each item's quote is on the line it cites, its amounts, dates,
 *     identifiers and figures are written there, stated totals add up; one ungrounded item and the reading is not used;
 *  5. the same engine decides on the reading (rendered in the structured form it accepts); input it cannot read is an
 *     unusable reading;
 *  6. the two results are compared (decisions.ts): the same decision answers the deterministic result; a different
 *     one answers the more conservative result, its note naming both readings' decisions and the facts that differ;
 *     the answer is checked against the agent's result schema.
 * Every model failure (timeout, throttling, 5xx, denied, unreadable body, no tool use, a reading off the schema,
 * ungrounded or unusable) answers the deterministic result, logged by reason, never with the buyer's values: a paid
 * run never fails because of the model. Never throws.
 */
import type { BedrockRuntimeClient, ConverseCommand, ConverseCommandOutput } from '@aws-sdk/client-bedrock-runtime';
import { logger } from '../../shared/logger.js';
import { lazyRetry } from '../../shared/lazy.js';
import type { AgentDefinition } from '../registry.js';
import type { Evidence } from '../engines/port.js';
import { AgentInputError } from '../engines/port.js';
import { reasoningConfig, type ReasoningConfig } from './config.js';
import { READINGS } from './readings.js';
import { ground, linesOf } from './grounding.js';
import { decide } from './decisions.js';
import { systemPrompt, toolName, userPrompt } from './prompts.js';

/** An input longer than this (characters of its JSON) is not sent: the engine answers alone. */
export const MAX_PROMPT_CHARS = 200_000;
/**
 * Left before the run's deadline for what must follow the model (the receipt, whose wait a paid run's model now shares
 * since it is asked once the transfer is sent, and the run's record); the model gets what remains, up to its timeout.
 */
export const SETTLEMENT_RESERVE_MS = 12_000;
const MIN_CALL_MS = 500;

export interface Reasoned {
  result: unknown;
  /** What produced the result, for the run's outputs and record: `<engine id>+bedrock:<model>`, or the engine id alone. */
  engine: string;
  /**
   * What the result's findings rest on: the rules' evidence (`options.evidence`) when the result is the rules', the
   * engine's evidence on the model's reading turned back into the buyer's lines when that answers, or none (no claim).
   */
  evidence?: Evidence[];
}

/** How a run asks: its deadline and id, and the evidence of the rules' result (what answers it when the rules do). */
export interface ReasonOptions {
  deadline?: number;
  runId?: string;
  evidence?: Evidence[];
}

export interface AgentReasoner {
  /** Whether this agent's paid runs are reasoned by the model. */
  covers(agent: AgentDefinition): boolean;
  /** The result to answer; `rules` is the deterministic engine's result for the same input. Never throws. */
  reason(agent: AgentDefinition, input: Record<string, unknown>, rules: unknown, options?: ReasonOptions): Promise<Reasoned>;
}

export function familyOf(agent: AgentDefinition): string {
  return agent.engine.id.split('/')[0];
}

export function reasonedEngineId(agent: AgentDefinition, model: string): string {
  return `${agent.engine.id}+bedrock:${model}`;
}

interface Bedrock {
  client: BedrockRuntimeClient;
  Converse: typeof ConverseCommand;
}

export class ConverseReasoner implements AgentReasoner {
  private readonly agents: Set<string>;

  constructor(
    private readonly config: ReasoningConfig,
    private readonly now: () => number = Date.now,
  ) {
    this.agents = new Set(config.agents);
  }

  /**
   * The Bedrock client, built on the first reasoned run: its SDK is imported then, not with the function, so a cold
   * start that reasons about nothing (a 402, a dry run, an agent without reasoning) does not load it. The client's own
   * HTTP/2 handler (the Lambda runtime's SDK brings it; importing an HTTP/1.1 one put ~14 KiB in every run function),
   * given the request timeout; each call is cut off at its budget anyway. One attempt: a retry would spend the run's
   * time, and the engine's answer is always there instead. A failed import is not kept: the next run tries again
   * (this one answers the engine's result).
   */
  private readonly connect = lazyRetry(async (): Promise<Bedrock> => {
    const sdk = await import('@aws-sdk/client-bedrock-runtime');
    return {
      client: new sdk.BedrockRuntimeClient({
        region: this.config.region,
        endpoint: this.config.endpoint,
        maxAttempts: 1,
        requestHandler: { requestTimeout: this.config.timeoutMs },
      }),
      Converse: sdk.ConverseCommand,
    };
  });

  covers(agent: AgentDefinition): boolean {
    return this.agents.has(agent.slug) && READINGS[familyOf(agent)] !== undefined;
  }

  async reason(agent: AgentDefinition, input: Record<string, unknown>, rules: unknown, options: ReasonOptions = {}): Promise<Reasoned> {
    const { model } = this.config;
    const keys = { agent: agent.slug, model, ...(options.runId ? { runId: options.runId } : {}) };
    const log = {
      warn: (message: string, details: Record<string, unknown>) => logger.warn(message, { ...keys, ...details }),
      info: (message: string, details: Record<string, unknown>) => logger.info(message, { ...keys, ...details }),
    };
    const fallback = (reason: string, details: Record<string, unknown> = {}): Reasoned => {
      log.warn('agent reasoning not used; the rules engine answers', { reason, ...details });
      return { result: rules, engine: agent.engine.id, ...(options.evidence ? { evidence: options.evidence } : {}) };
    };
    try {
      const family = familyOf(agent);
      const reading = READINGS[family];
      if (!reading) return fallback('no reading for this agent');
      const prompt = userPrompt(input, reading.fields);
      if (prompt.length > MAX_PROMPT_CHARS) return fallback('input too large for the model', { chars: prompt.length });
      const left = options.deadline === undefined ? Infinity : options.deadline - this.now() - SETTLEMENT_RESERVE_MS;
      const budget = Math.min(this.config.timeoutMs, left);
      if (budget < MIN_CALL_MS) return fallback('no time left before settlement', { budgetMs: Math.round(budget) });

      const name = toolName(family);
      const started = this.now();
      let response: ConverseCommandOutput;
      try {
        const { client, Converse } = await this.connect();
        response = await client.send(
          new Converse({
            modelId: model,
            system: [{ text: systemPrompt(agent.name, family) }],
            messages: [{ role: 'user', content: [{ text: prompt }] }],
            toolConfig: {
              tools: [{ toolSpec: { name, description: `Record your reading of the documents for the ${agent.name} agent.`, inputSchema: { json: reading.shape.json as never } } }],
              toolChoice: { tool: { name } },
            },
            inferenceConfig: { maxTokens: 8192, temperature: 0 },
          }),
          { abortSignal: AbortSignal.timeout(budget) },
        );
      } catch (error) {
        const e = error as Error & { $metadata?: { httpStatusCode?: number; requestId?: string } };
        // The error's name and status only: Bedrock's messages carry no input, but nothing of the buyer's is logged.
        return fallback('the model call failed', { error: e.name, status: e.$metadata?.httpStatusCode, requestId: e.$metadata?.requestId, ms: this.now() - started });
      }
      const requestId = response.$metadata.requestId;
      const use = response.output?.message?.content?.find((block) => block.toolUse?.name === name)?.toolUse;
      if (!use) return fallback('the model did not call the reading tool', { stopReason: response.stopReason, requestId });
      const parsed = reading.shape.zod.safeParse(use.input);
      if (!parsed.success) {
        return fallback('the model reading does not match the schema', { requestId, issues: parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.code}`).slice(0, 20) });
      }
      const grounding = ground(input, reading.claims(parsed.data), reading.sums(parsed.data));
      // The check and the item's path only (`invoice.lines[2].amount`), never the values.
      if (!grounding.grounded) return fallback('the model reading is not grounded in the documents', { requestId, check: grounding.check, at: grounding.at });

      let modelResult: unknown;
      let modelEvidence: Evidence[] | undefined;
      const rendered = reading.render(parsed.data, input);
      try {
        ({ result: modelResult, evidence: modelEvidence } = (agent.engine.explain as (i: unknown) => { result: unknown; evidence?: Evidence[] })(rendered));
      } catch (error) {
        if (error instanceof AgentInputError) return fallback('the engine could not use the model reading', { requestId, field: error.field });
        return fallback('the engine failed on the model reading', { requestId, error: (error as Error).name });
      }
      const decided = decide(family, rules as Record<string, unknown>, modelResult as Record<string, unknown>);
      const checked = agent.resultSchema.safeParse(decided.result);
      if (!checked.success) return fallback('the decided result does not match the schema', { requestId });
      if (!decided.agreed) log.warn('the model reading and the deterministic reading disagree; the conservative answer is given', { requestId, answered: decided.answered });
      log.info('agent reasoned', { requestId, ms: this.now() - started, inputTokens: response.usage?.inputTokens, outputTokens: response.usage?.outputTokens, agreed: decided.agreed, answered: decided.answered });
      return { result: checked.data, engine: reasonedEngineId(agent, model), ...evidenceOf(decided, options.evidence, () => citedFromInput(reading, parsed.data, modelEvidence, input)) };
    } catch (error) {
      return fallback('reasoning failed', { error: (error as Error).name });
    }
  }
}

/**
 * The evidence beside the answer (`outputs.evidence`): the rules' own (computed once, with their result, by the run)
 * when their result answers, agreed or with a note added; when the model's reading answers, the engine's evidence on
 * that reading with each cited line turned back into the buyer's line it was read from, or none (no claim) where the
 * rendering has no lines to turn back (JSON).
 */
function evidenceOf(decided: { answered: 'rules' | 'model' }, rules: Evidence[] | undefined, model: () => Evidence[] | undefined): { evidence?: Evidence[] } {
  let evidence: Evidence[] | undefined;
  try {
    evidence = decided.answered === 'rules' ? rules : model();
  } catch {
    evidence = undefined;
  }
  return evidence ? { evidence } : {};
}

/**
 * The model reading's evidence with the rendering's lines turned back into the buyer's; undefined if any cannot be.
 * A finding the engine rests on a rendered document's first line (what the document as a whole lacks: no PO number)
 * cites the buyer's document by its first line, as the rules cite it.
 */
function citedFromInput(reading: (typeof READINGS)[string], data: unknown, evidence: Evidence[] | undefined, input: Record<string, unknown>): Evidence[] | undefined {
  if (!evidence || !reading.sourceOf) return undefined;
  const cited: Evidence[] = [];
  for (const finding of evidence) {
    const sources = [];
    for (const source of finding.sources) {
      if (!reading.fields.includes(source.field)) {
        sources.push(source); // a field the model does not read (the policy) went to the engine as the buyer wrote it
        continue;
      }
      const item = source.line === undefined ? undefined : (reading.sourceOf(data, source.field, source.line) ?? (source.line === 1 ? firstLine(input[source.field]) : undefined));
      if (!item) return undefined;
      sources.push({ field: source.field, line: item.sourceLine, quote: item.quote });
    }
    cited.push({ ...finding, sources });
  }
  return cited;
}

/** A document's first line with text on it, as a source. */
function firstLine(text: unknown): { sourceLine: number; quote: string } | undefined {
  if (typeof text !== 'string') return undefined;
  const lines = linesOf(text);
  const i = lines.findIndex((line) => line.trim());
  return i < 0 ? undefined : { sourceLine: i + 1, quote: lines[i].trim() };
}

/** Model reading (ADR 0009, 0023) when the stack configured it for some agent; read and checked once per caller. */
export function configuredReasoner(): ConverseReasoner | undefined {
  const config = reasoningConfig();
  return config ? new ConverseReasoner(config) : undefined;
}
