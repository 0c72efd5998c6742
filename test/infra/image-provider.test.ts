/**
 * CDK assertions for agent_image rendered by bedrock-stability (`-c imageProvider=bedrock-stability`): the model and
 * region on Bedrock's render function (and the song vendors', which make a song's cover with the image provider), the
 * bedrock:InvokeModel grant on exactly the configured model's ARN and nowhere else, no API key, and nothing of it
 * when the local synthesiser renders. The last case reads the grant the way the embedded runtime enforces it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/paycall-stack.js';
import { readCdkJsonContext } from '../../lib/config.js';
import { synthesizeForLocal } from '../../lib/local/asl.js';
import { evaluate } from '../../lib/local/iam/policy.js';
import { providerEnvName, PROVIDER_SECRETS } from '../../lambdas/render/providers.js';
import { actionsOf, ofType, type Resources } from '../support/template.js';
import { synthGeneration } from '../support/synth.js';

let cdkContext: Record<string, unknown>;

const synth = (context: Record<string, unknown> = {}) => synthGeneration(cdkContext, context);

type Synth = ReturnType<typeof synth>;
const functionsOf = (s: Synth) => Object.entries(s.stack.functionEntries).map(([logicalId, entry]) => ({ logicalId, id: entry.id }));
const fnOf = (s: Synth, id: string) => functionsOf(s).find((f) => f.id === id)!.logicalId;
const bedrockGrants = (s: Synth, logicalId: string) => actionsOf(s.resources, logicalId).filter((g) => g.action.startsWith('bedrock:'));

/** A resource of the template as text, pseudo parameters named (`${AWS::Partition}`). */
function arnText(resource: unknown): string {
  if (typeof resource === 'string') return resource;
  const join = (resource as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join'];
  if (join) return join[1].map((part) => (typeof part === 'string' ? part : `\${${(part as { Ref: string }).Ref}}`)).join(join[0]);
  return JSON.stringify(resource);
}

beforeAll(async () => {
  cdkContext = await readCdkJsonContext(PROJECT_ROOT);
});

describe('agent_image by bedrock-stability', () => {
  let s: Synth;
  beforeAll(() => {
    s = synth({ imageProvider: 'bedrock-stability' });
  });

  // Bedrock's render function, and the song vendors', whose cover the image provider draws (lambdas/workflow/cover-image.ts).
  const USERS = ['RenderBedrockStability', 'RenderGoogleLyria', 'RenderMinimaxMusic'];

  it("gives Bedrock's render function (and the song vendors', for covers) the region and the model id; no other function has them", () => {
    for (const { logicalId, id } of functionsOf(s)) {
      const vars = s.resources[logicalId].Properties.Environment?.Variables ?? {};
      if (USERS.includes(id)) {
        expect(vars[providerEnvName('agent_image')], id).toBe('bedrock-stability');
        expect(vars.BEDROCK_REGION, id).toBe('us-west-2');
        expect(vars.BEDROCK_IMAGE_MODEL_ID, id).toBe('stability.stable-image-core-v1:1');
        // Bedrock's own endpoint on AWS (the embedded default points the SDK at its fake).
        expect(vars.BEDROCK_RUNTIME_ENDPOINT, id).toBeUndefined();
      } else {
        expect(vars.BEDROCK_IMAGE_MODEL_ID, id).toBeUndefined();
        expect(vars.BEDROCK_REGION, id).toBeUndefined();
      }
    }
  });

  it('grants bedrock:InvokeModel on exactly the configured model’s ARN, to those functions only', () => {
    const modelArn = 'arn:${AWS::Partition}:bedrock:us-west-2::foundation-model/stability.stable-image-core-v1:1';
    for (const { logicalId, id } of functionsOf(s)) {
      const grants = bedrockGrants(s, logicalId);
      if (USERS.includes(id)) {
        expect(grants.map((g) => ({ action: g.action, resource: arnText(g.resource) })), id).toEqual([{ action: 'bedrock:InvokeModel', resource: modelArn }]);
      } else {
        expect(grants, id).toEqual([]);
      }
    }
    // Nowhere a wildcard action or model.
    const text = JSON.stringify(s.template.toJSON());
    expect(text).not.toMatch(/"bedrock:\*"|foundation-model\/\*/);
  });

  it("needs no API key: Bedrock's render function reads and names no provider secret", () => {
    const vars = s.resources[fnOf(s, 'RenderBedrockStability')].Properties.Environment.Variables;
    for (const { env } of Object.values(PROVIDER_SECRETS)) expect(vars[env]).toBeUndefined();
    expect(ofType(s.resources, 'AWS::SecretsManager::Secret').filter(([id]) => /ApiKey/.test(id))).toEqual([]);
  });

  it('another model and region from context: the grant and the variables follow, nothing else', () => {
    const other = synth({ imageProvider: 'bedrock-stability', bedrockImageModel: 'stability.sd3-5-large-v1:0', bedrockRegion: 'us-east-1' });
    const fn = fnOf(other, 'RenderBedrockStability');
    expect(bedrockGrants(other, fn).map((g) => arnText(g.resource))).toEqual(['arn:${AWS::Partition}:bedrock:us-east-1::foundation-model/stability.sd3-5-large-v1:0']);
    expect(other.resources[fn].Properties.Environment.Variables).toMatchObject({ BEDROCK_REGION: 'us-east-1', BEDROCK_IMAGE_MODEL_ID: 'stability.sd3-5-large-v1:0' });
    expect(() => synth({ imageProvider: 'bedrock-stability', bedrockImageModel: 'amazon.nova-canvas-v1:0' })).toThrow(/bedrockImageModel/);
  });
});

describe('agent_image by the local synthesiser (default)', () => {
  it("keeps Bedrock's grant and variables on its own render function only (for jobs sold with it), none on the song vendors'", () => {
    const s = synth();
    for (const { logicalId, id } of functionsOf(s)) {
      const vars = s.resources[logicalId].Properties.Environment?.Variables ?? {};
      const own = id === 'RenderBedrockStability';
      expect(bedrockGrants(s, logicalId).length > 0, id).toBe(own);
      expect(vars.BEDROCK_IMAGE_MODEL_ID !== undefined, id).toBe(own);
      expect(vars.BEDROCK_REGION !== undefined, id).toBe(own);
    }
  });
});

describe('the grant as the embedded runtime enforces it', () => {
  let cacheDir: string;
  beforeAll(async () => {
    cacheDir = await mkdtemp(path.join(os.tmpdir(), 'paycall-bedrock-synth-'));
  });
  afterAll(() => rm(cacheDir, { recursive: true, force: true }));

  it('Bedrock’s render function (and a song vendor’s, for the cover) may invoke the configured model only; Store asset none', async () => {
    const defs = await synthesizeForLocal({ cacheDir, context: { imageProvider: 'bedrock-stability' } });
    const invoke = (fn: string, model: string, region = 'us-west-2') =>
      evaluate(defs.policies[fn], { action: 'bedrock:InvokeModel', resource: `arn:aws:bedrock:${region}::foundation-model/${model}` }).decision;
    expect(invoke('RenderBedrockStability', 'stability.stable-image-core-v1:1')).toBe('allow');
    expect(invoke('RenderMinimaxMusic', 'stability.stable-image-core-v1:1')).toBe('allow');
    expect(invoke('RenderLocal', 'stability.stable-image-core-v1:1')).not.toBe('allow');
    expect(invoke('RenderBedrockStability', 'stability.stable-image-ultra-v1:1')).not.toBe('allow');
    expect(invoke('RenderBedrockStability', 'stability.stable-image-core-v1:1', 'us-east-1')).not.toBe('allow');
    expect(invoke('StoreAsset', 'stability.stable-image-core-v1:1')).not.toBe('allow');
  }, 120_000);
});
