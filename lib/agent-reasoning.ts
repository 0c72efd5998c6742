/**
 * Model reasoning for agents in the stack (ADR 0009; the model reads, the engine decides: ADR 0023), from CDK context:
 *   agentReasoning        agent slugs, comma-separated (or a list): the priced published agents whose paid runs the
 *                         model reasons; unset or empty: none, and nothing below is added
 *   agentReasoningModel   a Bedrock foundation model id with Converse tool use (default amazon.nova-pro-v1:0)
 *   agentReasoningRegion  where it is invoked (default us-east-1, where Nova is offered in-region)
 * What it adds, to the agent run functions only (route role `run`): the AGENT_REASONING* variables and
 * bedrock:InvokeModel (which authorizes Converse) on exactly that model's foundation-model ARN.
 */
import * as iam from 'aws-cdk-lib/aws-iam';
import type { Stack } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { z } from 'zod';
import { AGENTS } from '../lambdas/agents/registry.js';
import { DEFAULT_REASONING_MODEL, DEFAULT_REASONING_REGION, FOUNDATION_MODEL_ID, REASONING_ENV } from '../lambdas/agents/reasoning/config.js';
import { READINGS } from '../lambdas/agents/reasoning/readings.js';
import { StackConfigError } from './config.js';

export const REASONING_CONTEXT_KEYS = ['agentReasoning', 'agentReasoningModel', 'agentReasoningRegion'] as const;

/** Agents a model may read for: published, priced (a free run must not buy model calls), of a family with a reading. */
export function reasonableAgents(): string[] {
  return AGENTS.filter((a) => a.deployment !== null && a.price > 0n && READINGS[a.engine.id.split('/')[0]]).map((a) => a.slug);
}

const schema = z.object({
  agentReasoning: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((v) => (Array.isArray(v) ? v : (v ?? '').split(',')).map((s) => s.trim()).filter(Boolean))
    .superRefine((slugs, ctx) => {
      const allowed = reasonableAgents();
      for (const slug of slugs) if (!allowed.includes(slug)) ctx.addIssue({ code: 'custom', message: `names '${slug}', which is not one of ${allowed.join(', ')}` });
    }),
  agentReasoningModel: z.string().regex(FOUNDATION_MODEL_ID, 'must be a Bedrock foundation model id like amazon.nova-pro-v1:0').default(DEFAULT_REASONING_MODEL),
  agentReasoningRegion: z.string().regex(/^[a-z]{2}(-[a-z]+)+-\d$/, 'must be an AWS region like us-east-1').default(DEFAULT_REASONING_REGION),
});

export interface AgentReasoningConfig {
  agents: string[];
  model: string;
  region: string;
}

/** From the construct tree's context; undefined when no agent is reasoned. Errors name the context key. */
export function loadReasoningConfig(scope: Construct): AgentReasoningConfig | undefined {
  const raw: Record<string, unknown> = {};
  for (const key of REASONING_CONTEXT_KEYS) {
    const value = scope.node.tryGetContext(key);
    if (value !== undefined && value !== null && value !== '') raw[key] = value;
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `context key "${String(i.path[0] ?? '(root)')}" ${i.message}`);
    throw new StackConfigError(`Invalid stack configuration: ${problems.join('; ')}`);
  }
  const { agentReasoning: agents, agentReasoningModel: model, agentReasoningRegion: region } = parsed.data;
  return agents.length ? { agents, model, region } : undefined;
}

export function reasoningEnvironment(config: AgentReasoningConfig): Record<string, string> {
  return { [REASONING_ENV.agents]: config.agents.join(','), [REASONING_ENV.model]: config.model, [REASONING_ENV.region]: config.region };
}

export function reasoningStatement(stack: Stack, config: AgentReasoningConfig): iam.PolicyStatement {
  return new iam.PolicyStatement({
    actions: ['bedrock:InvokeModel'],
    resources: [stack.formatArn({ service: 'bedrock', region: config.region, account: '', resource: 'foundation-model', resourceName: config.model })],
  });
}
