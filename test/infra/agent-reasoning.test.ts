/**
 * CDK assertions for model reasoning of agents (`-c agentReasoning=<slugs>`, ADR 0009): the AGENT_REASONING*
 * variables and bedrock:InvokeModel on exactly the configured model's ARN, on the agent run functions only, and
 * nothing of it by default; bad context names its key. The last case reads the grant as the embedded runtime
 * enforces it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/paycall-stack.js';
import { readCdkJsonContext } from '../../lib/config.js';
import { synthesizeForLocal } from '../../lib/local/asl.js';
import { evaluate } from '../../lib/local/iam/policy.js';
import { ROUTE_FUNCTIONS } from '../../lib/function-map.js';
import { RENDER_FUNCTIONS } from '../../lambdas/workflow/render-functions.js';
import { actionsOf, type Resources } from '../support/template.js';
import { synthGeneration } from '../support/synth.js';

// The functions that sell agent runs: x402 (`run`) and workspace credit (`credit`, the agent studio's MCP).
const RUN_FUNCTIONS = ROUTE_FUNCTIONS.filter((f) => f.role === 'run' || f.role === 'credit').map((f) => f.id);
let cdkContext: Record<string, unknown>;

const synth = (context: Record<string, unknown> = {}) => synthGeneration(cdkContext, context);
type Synth = ReturnType<typeof synth>;
const functionsOf = (s: Synth) => Object.entries(s.stack.functionEntries).map(([logicalId, entry]) => ({ logicalId, id: entry.id }));
const bedrockGrants = (s: Synth, logicalId: string) => actionsOf(s.resources, logicalId).filter((g) => g.action.startsWith('bedrock:'));
const varsOf = (s: Synth, logicalId: string): Record<string, unknown> => s.resources[logicalId].Properties.Environment?.Variables ?? {};

function arnText(resource: unknown): string {
  if (typeof resource === 'string') return resource;
  const join = (resource as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join'];
  if (join) return join[1].map((part) => (typeof part === 'string' ? part : `\${${(part as { Ref: string }).Ref}}`)).join(join[0]);
  return JSON.stringify(resource);
}

beforeAll(async () => {
  cdkContext = await readCdkJsonContext(PROJECT_ROOT);
});

describe('agent reasoning configured (agentReasoning=vendor-risk, bank-rec)', () => {
  let s: Synth;
  beforeAll(() => {
    s = synth({ agentReasoning: 'vendor-risk-read-q0jjq,bank-rec-discrepancy-finder-bw0tt' });
  });

  it('the run functions, and only they, get the agents, the model and its region', () => {
    // The run routes, the A2A send (per agent and root share one function) and the MCP tools, which run agents the
    // same way (docs/protocols.md, A2A and MCP).
    expect(RUN_FUNCTIONS).toEqual(['RunAgent', 'RunVendorRisk', 'RunBankRec', 'RunExpensePolicy', 'RunPoMatch', 'AgentsA2aSend', 'AgentsMcp']);
    for (const { logicalId, id } of functionsOf(s)) {
      const vars = varsOf(s, logicalId);
      if (RUN_FUNCTIONS.includes(id)) {
        expect(vars, id).toMatchObject({ AGENT_REASONING: 'vendor-risk-read-q0jjq,bank-rec-discrepancy-finder-bw0tt', AGENT_REASONING_MODEL: 'amazon.nova-pro-v1:0', AGENT_REASONING_REGION: 'us-east-1' });
        expect(vars.BEDROCK_RUNTIME_ENDPOINT, id).toBeUndefined(); // Bedrock's own endpoint on AWS
      } else {
        expect(Object.keys(vars).filter((k) => k.startsWith('AGENT_REASONING')), id).toEqual([]);
      }
    }
  });

  it('bedrock:InvokeModel (which authorizes Converse) on exactly the model’s foundation-model ARN, on the run functions only', () => {
    for (const { logicalId, id } of functionsOf(s)) {
      const grants = bedrockGrants(s, logicalId).map((g) => ({ action: g.action, resource: arnText(g.resource) }));
      if (RUN_FUNCTIONS.includes(id)) expect(grants, id).toEqual([{ action: 'bedrock:InvokeModel', resource: 'arn:${AWS::Partition}:bedrock:us-east-1::foundation-model/amazon.nova-pro-v1:0' }]);
      // Bedrock's image render function keeps its own model's grant (ADR 0016), never the reasoning model's.
      else if (id === 'RenderBedrockStability') expect(grants.map((g) => g.resource), id).toEqual([expect.stringContaining('foundation-model/stability.')]);
      else expect(grants, id).toEqual([]);
    }
    expect(JSON.stringify(s.template.toJSON())).not.toMatch(/"bedrock:\*"|foundation-model\/\*/);
  });

  it('another model and region from context: the grant and the variables follow', () => {
    const other = synth({ agentReasoning: 'po-match-gate-mkgu0', agentReasoningModel: 'amazon.nova-lite-v1:0', agentReasoningRegion: 'us-west-2' });
    const run = functionsOf(other).find((f) => f.id === 'RunPoMatch')!.logicalId;
    expect(bedrockGrants(other, run).map((g) => arnText(g.resource))).toEqual(['arn:${AWS::Partition}:bedrock:us-west-2::foundation-model/amazon.nova-lite-v1:0']);
    expect(varsOf(other, run)).toMatchObject({ AGENT_REASONING: 'po-match-gate-mkgu0', AGENT_REASONING_MODEL: 'amazon.nova-lite-v1:0', AGENT_REASONING_REGION: 'us-west-2' });
  });

  it('bad context names its key: an unknown or free agent, an inference profile, a bad region', () => {
    expect(() => synth({ agentReasoning: 'no-such-agent' })).toThrow(/context key "agentReasoning".*no-such-agent/);
    expect(() => synth({ agentReasoning: 'export-to-transactions-x7f3a' })).toThrow(/agentReasoning/);
    expect(() => synth({ agentReasoning: 'po-match-gate-mkgu0', agentReasoningModel: 'arn:aws:bedrock:us-east-1:1:inference-profile/x' })).toThrow(/agentReasoningModel/);
    expect(() => synth({ agentReasoning: 'po-match-gate-mkgu0', agentReasoningRegion: 'mars' })).toThrow(/agentReasoningRegion/);
  });
});

describe('agent reasoning not configured (default)', () => {
  it("no reasoning variable and no Bedrock grant anywhere but the image render function's own model", () => {
    for (const context of [{}, { agentReasoning: '' }]) {
      const s = synth(context);
      for (const { logicalId, id } of functionsOf(s)) {
        const models = bedrockGrants(s, logicalId).map((g) => arnText(g.resource));
        expect(models, id).toEqual(id === 'RenderBedrockStability' ? [expect.stringContaining('foundation-model/stability.')] : []);
        expect(Object.keys(varsOf(s, logicalId)).filter((k) => k.startsWith('AGENT_REASONING')), id).toEqual([]);
      }
    }
  });
});

describe('the grant as the embedded runtime enforces it', () => {
  let cacheDir: string;
  beforeAll(async () => {
    cacheDir = await mkdtemp(path.join(os.tmpdir(), 'paycall-reasoning-synth-'));
  });
  afterAll(() => rm(cacheDir, { recursive: true, force: true }));

  it('a run function may invoke the configured model in its region only; no other function may', async () => {
    const defs = await synthesizeForLocal({ cacheDir, context: { agentReasoning: 'vendor-risk-read-q0jjq' } });
    const invoke = (fn: string, model = 'amazon.nova-pro-v1:0', region = 'us-east-1') =>
      evaluate(defs.policies[fn], { action: 'bedrock:InvokeModel', resource: `arn:aws:bedrock:${region}::foundation-model/${model}` }).decision;
    expect(invoke('RunVendorRisk')).toBe('allow');
    expect(invoke('RunAgent')).toBe('allow');
    expect(invoke('RunVendorRisk', 'amazon.nova-lite-v1:0')).not.toBe('allow');
    expect(invoke('RunVendorRisk', 'amazon.nova-pro-v1:0', 'us-west-2')).not.toBe('allow');
    for (const render of RENDER_FUNCTIONS) expect(invoke(render.id), render.id).not.toBe('allow');
    expect(defs.environments.RunVendorRisk).toMatchObject({ AGENT_REASONING: 'vendor-risk-read-q0jjq', AGENT_REASONING_MODEL: 'amazon.nova-pro-v1:0' });
  }, 120_000);
});
