/**
 * Model-backed reasoning for agents (ADR 0009): which agents use it and with which Bedrock model. The stack sets
 * these variables on the agent run functions only when the `agentReasoning` context names agents (lib/config.ts);
 * without AGENT_REASONING every agent runs its deterministic engine alone.
 */
export const REASONING_ENV = {
  /** Comma-separated agent slugs whose paid runs are reasoned by the model. */
  agents: 'AGENT_REASONING',
  /** A Bedrock foundation model id that supports Converse with a forced tool, e.g. amazon.nova-pro-v1:0. */
  model: 'AGENT_REASONING_MODEL',
  /** The region the model is invoked in (the grant's foundation-model ARN names it). */
  region: 'AGENT_REASONING_REGION',
  /** One Converse call gives up after this (ms); the run then answers with the engine's result. */
  timeoutMs: 'AGENT_REASONING_TIMEOUT_MS',
  /** The local runtime's Bedrock fake (unset on AWS: the SDK uses the regional endpoint). */
  endpoint: 'BEDROCK_RUNTIME_ENDPOINT',
} as const;

export const DEFAULT_REASONING_MODEL = 'amazon.nova-pro-v1:0';
export const DEFAULT_REASONING_REGION = 'us-east-1';
export const DEFAULT_REASONING_TIMEOUT_MS = 10_000;
/** A foundation model id (provider.name:version); inference profiles (`us.…`, ARNs) need another grant shape. */
export const FOUNDATION_MODEL_ID = /^[a-z0-9-]+\.[a-z0-9.-]+(:\d+)?$/;

export interface ReasoningConfig {
  agents: string[];
  model: string;
  region: string;
  timeoutMs: number;
  endpoint?: string;
}

/** The configuration from the environment; undefined when no agent is reasoned. Throws naming a bad variable. */
export function reasoningConfig(env: NodeJS.ProcessEnv = process.env): ReasoningConfig | undefined {
  const agents = (env[REASONING_ENV.agents] ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  if (agents.length === 0) return undefined;
  const model = env[REASONING_ENV.model] || DEFAULT_REASONING_MODEL;
  const region = env[REASONING_ENV.region] || DEFAULT_REASONING_REGION;
  const timeoutMs = env[REASONING_ENV.timeoutMs] ? Number(env[REASONING_ENV.timeoutMs]) : DEFAULT_REASONING_TIMEOUT_MS;
  const endpoint = env[REASONING_ENV.endpoint] || undefined;
  const problems = [
    !FOUNDATION_MODEL_ID.test(model) && `${REASONING_ENV.model}: '${model}' is not a Bedrock foundation model id`,
    !/^[a-z]{2}(-[a-z]+)+-\d$/.test(region) && `${REASONING_ENV.region}: '${region}' is not an AWS region`,
    !(Number.isInteger(timeoutMs) && timeoutMs >= 100 && timeoutMs <= 25_000) && `${REASONING_ENV.timeoutMs}: must be 100..25000`,
    endpoint && !/^https?:\/\//.test(endpoint) && `${REASONING_ENV.endpoint}: must be an http(s) URL`,
  ].filter(Boolean);
  if (problems.length) throw new Error(`Invalid agent reasoning configuration: ${problems.join('; ')}`);
  return { agents, model, region, timeoutMs, endpoint };
}
