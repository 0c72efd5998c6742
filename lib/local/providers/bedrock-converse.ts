/**
 * The Converse operation of the Bedrock runtime fake (mounted by ./bedrock.ts on the same server): what the SDK's
 * ConverseCommand sends and what Bedrock answers, for the agent reasoning adapter (lambdas/agents/reasoning/).
 *
 *   POST /model/{modelId}/converse   body {messages, system?, toolConfig?, inferenceConfig?, ...}; a model of
 *                                    CONVERSE_MODELS in one of its regions (else ValidationException 400)
 *   200 application/json             {output:{message:{role:'assistant',content:[{toolUse:{toolUseId,name,input}}]}},
 *                                    stopReason:'tool_use', usage:{inputTokens,outputTokens,totalTokens}, metrics:{latencyMs}}
 *
 * The "model" is deterministic: for a forced tool named `<engine family>_result` it reads the input between
 * <input> and </input> of the user turn, runs that family's deterministic engine on it and rewrites the wording
 * (notes and details prefixed "Model reading: "), so a test can tell the model's text from the engine's while the
 * hard facts agree. A tool it does not know gets an empty object (which no agent schema accepts).
 *
 * Markers anywhere in the messages: `[fake:429]` ThrottlingException; `[fake:500]` InternalServerException;
 * `[fake:hang]` never answers; `[fake:malformed]` a 200 whose JSON is cut off; `[fake:content-filter]` stopReason
 * content_filtered with no tool use; `[fake:off-schema]` a tool input that breaks the result schema;
 * `[fake:disagree]` a well-formed result with wrong hard facts (counts, amounts, statuses, verdicts, flags).
 */
import { randomUUID } from 'node:crypto';
import { AGENTS } from '../../../lambdas/agents/registry.js';
import { inputFromPrompt, toolName } from '../../../lambdas/agents/reasoning/prompts.js';

/** Models the fake answers Converse for, and the regions where each is offered in-region (on-demand). */
export const CONVERSE_MODELS: Record<string, string[]> = {
  'amazon.nova-pro-v1:0': ['us-east-1'],
  'amazon.nova-lite-v1:0': ['us-east-1'],
  'amazon.nova-micro-v1:0': ['us-east-1'],
};

export type ConverseMarker = '429' | '500' | 'hang' | 'malformed' | 'content-filter' | 'off-schema' | 'disagree';
const MARKERS: ConverseMarker[] = ['429', '500', 'hang', 'malformed', 'content-filter', 'off-schema', 'disagree'];

export type ConverseReply = { status: number; body: unknown; errorType?: string } | 'hang';

const ENGINES = new Map(AGENTS.map((agent) => [toolName(agent.engine.id.split('/')[0]), agent.engine]));

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

/** What the fake model "decides": the family's engine on the input, reworded; or wrong on purpose. */
function toolInput(name: string, text: string, marker: ConverseMarker | undefined): Json {
  const engine = ENGINES.get(name);
  const input = inputFromPrompt(text);
  if (!engine || !input) return {};
  let result: Json;
  try {
    result = structuredClone((engine.analyse as (i: unknown) => Json)(input));
  } catch {
    return {}; // input the engine cannot read: the model has nothing sensible to say either
  }
  reword(result);
  if (marker === 'off-schema') return { ...result, note: 42, unexpected: true };
  if (marker === 'disagree') disagree(name, result);
  return result;
}

const MODEL = 'Model reading: ';

function reword(result: Json): void {
  if (typeof result.note === 'string') result.note = `${MODEL}${result.note}`;
  for (const list of ['exceptions', 'transactions']) {
    for (const item of Array.isArray(result[list]) ? result[list] : []) {
      if (typeof item.detail === 'string') item.detail = `${MODEL}${item.detail}`;
      if (typeof item.description === 'string') item.description = `${MODEL}${item.description}`;
    }
  }
  for (const list of ['violations', 'discrepancies']) if (Array.isArray(result[list])) result[list] = result[list].map((s: string) => `${MODEL}${s}`);
  if (Array.isArray(result.flags)) result.flags = result.flags.map((f: string) => f.replace(/: /, `: ${MODEL}`));
}

/** Wrong hard facts, still valid against the schema. */
function disagree(name: string, result: Json): void {
  switch (name) {
    case toolName('bank-rec'):
      result.matched += 1;
      result.net_unreconciled = Math.round((result.net_unreconciled + 100) * 100) / 100;
      result.reconciled = !result.reconciled;
      break;
    case toolName('vendor-risk'):
      result.grade = result.grade === 'LOW RISK' ? 'HIGH RISK' : 'LOW RISK';
      result.decision = result.decision === 'onboard' ? 'decline' : 'onboard';
      result.flags = result.flags.length ? [] : ['sanctioned jurisdiction: Model reading: Atlantis'];
      break;
    case toolName('po-match'):
      result.status = result.status === 'pass' ? 'hold' : 'pass';
      result.matched = result.status === 'pass';
      result.invoiceTotal += 1;
      break;
    case toolName('expense-policy'):
      result.verdict = result.verdict === 'approve' ? 'reject' : 'approve';
      result.reimbursable_amount += 10;
      break;
    case toolName('export-to-transactions'):
      result.count += 1;
      result.total_in += 1;
      break;
  }
}
