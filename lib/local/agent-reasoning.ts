/**
 * Model reasoning of agents on the embedded default (ADR 0009; the model reads, the engine decides: ADR 0023): `AGENT_REASONING` (agent slugs), and optionally
 * `AGENT_REASONING_MODEL` / `AGENT_REASONING_REGION`, become the stack's context (so the run functions get the
 * template's variables and grant, enforced locally), and the Bedrock fake answers Converse on loopback: the one the
 * image provider already runs, else one started here. BEDROCK_RUNTIME_ENDPOINT points the run functions at it.
 */
import { REASONING_ENV } from '../../lambdas/agents/reasoning/config.js';
import type { ProviderFake } from './providers/index.js';

/**
 * How long the Bedrock fake started here takes to answer a Converse request (a model's time; 0 by default): the bench
 * sets it to measure a reasoning run under block times. Not applied to a fake the image provider already runs.
 */
export const LOCAL_MODEL_MS = 'LOCAL_MODEL_MS';

/** The stack context of the reasoning variables set in `env`. */
export function reasoningContext(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const context: Record<string, string> = {};
  if (env[REASONING_ENV.agents]) context.agentReasoning = env[REASONING_ENV.agents]!;
  if (env[REASONING_ENV.model]) context.agentReasoningModel = env[REASONING_ENV.model]!;
  if (env[REASONING_ENV.region]) context.agentReasoningRegion = env[REASONING_ENV.region]!;
  return context;
}

/** Starts the Bedrock fake for Converse when reasoning is on and no provider started one; its endpoint variables. */
export async function startLocalReasoning(
  providersEnv: Record<string, string>,
  options: { stateDir: string; log: (line: string) => void },
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ env: Record<string, string>; stop(): Promise<void> }> {
  const agents = env[REASONING_ENV.agents];
  if (!agents) return { env: {}, stop: async () => {} };
  if (providersEnv[REASONING_ENV.endpoint]) {
    options.log(`[local] agent reasoning (${agents}): Converse on the Bedrock fake at ${providersEnv[REASONING_ENV.endpoint]}`);
    return { env: {}, stop: async () => {} };
  }
  const { startBedrockFake } = await import('./providers/bedrock.js');
  const converseMs = Number(env[LOCAL_MODEL_MS] ?? 0);
  if (!Number.isInteger(converseMs) || converseMs < 0) throw new Error(`${LOCAL_MODEL_MS}: '${env[LOCAL_MODEL_MS]}' is not a whole number of ms`);
  const fake: ProviderFake = await startBedrockFake({ stateDir: options.stateDir, apiKey: 'unused', log: options.log, converseMs });
  options.log(`[local] agent reasoning (${agents}): the Bedrock runtime SDK talks to a wire-level fake (${Object.values(fake.env).join(', ')})`);
  return { env: fake.env, stop: () => fake.stop() };
}
