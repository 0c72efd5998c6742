/**
 * CDK assertions for agent_video rendered by google-veo or fal-veo (`-c videoProvider=…`): each adapter's settings and
 * API key (by secret name only) on its own render function alone (ADR 0016), its ffmpeg for the 1:1 crop, its writes
 * under the job, and each product's own Wait interval and check limit.
 */
import { Stack } from 'aws-cdk-lib';
import type { CfnStateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT, type PaycallStackProps } from '../../lib/paycall-stack.js';
import { readCdkJsonContext } from '../../lib/config.js';
import { PRODUCT_IDS, type ProductId } from '../../lambdas/products/catalog.js';
import { PROVIDER_SECRETS, providerEnvName } from '../../lambdas/render/providers.js';
import { actionsOf, ofType, type Resources } from '../support/template.js';
import { jobRecordKey, videoKey } from '../../lambdas/render/video-shared.js';
import { LOCAL_ASSETS_BUCKET, synthesizeForLocal } from '../../lib/local/asl.js';
import { evaluate } from '../../lib/local/iam/policy.js';
import { synthGeneration } from '../support/synth.js';

let cdkContext: Record<string, unknown>;

const synth = (context: Record<string, unknown> = {}, props: PaycallStackProps = {}) => synthGeneration(cdkContext, context, props);

function fnOf(s: ReturnType<typeof synth>, id: string): string {
  const found = Object.entries(s.stack.functionEntries).find(([, entry]) => entry.id === id);
  if (!found) throw new Error(`no function ${id}`);
  return found[0];
}

/** The product's Wait seconds and the check limit of its Choice. */
function checksOf(s: ReturnType<typeof synth>, product: ProductId): { seconds: number; limit: number } {
  const logicalId = Stack.of(s.stack).getLogicalId(s.stack.stateMachines[product].node.defaultChild as CfnStateMachine);
  const definition = s.resources[logicalId].Properties.DefinitionString;
  const text = typeof definition === 'string' ? definition : (definition['Fn::Join'][1] as unknown[]).map((p) => (typeof p === 'string' ? p : '<token>')).join('');
  const states = JSON.parse(text).States;
  const limit = states['Render finished?'].Choices.find((c: { NumericGreaterThan?: number }) => c.NumericGreaterThan !== undefined).NumericGreaterThan;
  return { seconds: states['Wait for render'].Seconds, limit };
}

beforeAll(async () => {
  cdkContext = await readCdkJsonContext(PROJECT_ROOT);
});

describe('agent_video by google-veo', () => {
  let s: ReturnType<typeof synth>;
  beforeAll(() => {
    s = synth({ videoProvider: 'google-veo' });
  });

  it("gives the Veo model and the Gemini key (by secret name only) to google-veo's render function; none to the others but Lyria's key", () => {
    const vars = s.resources[fnOf(s, 'RenderGoogleVeo')].Properties.Environment.Variables;
    expect(vars[providerEnvName('agent_video')]).toBe('google-veo');
    expect(vars.VEO_MODEL).toBe('veo-3.1-fast-generate-preview');
    expect(vars[PROVIDER_SECRETS.gemini.env]).toBe('paycall/gemini-api-key');
    // The Gemini endpoint is the SDK's default on AWS (the embedded default points it at its fake).
    expect(vars.GEMINI_API_BASE_URL).toBeUndefined();
    expect(vars.FAL_VIDEO_MODEL).toBeUndefined();
    expect(vars[PROVIDER_SECRETS.fal.env]).toBeUndefined();
    for (const id of ['RenderLocal', 'RenderFalVeo', 'RenderGoogleLyria', 'StoreAsset', 'MarkCompleted', 'MarkFailed']) {
      const other = s.resources[fnOf(s, id)].Properties.Environment.Variables;
      expect(other.VEO_MODEL, id).toBeUndefined();
      // Lyria uses the same Gemini API key.
      if (id !== 'RenderGoogleLyria') expect(other[PROVIDER_SECRETS.gemini.env], id).toBeUndefined();
    }
  });

  it('grants GetSecretValue on the Gemini key secret to the two Gemini render functions only, and puts no key value in the template', () => {
    for (const [logicalId, entry] of Object.entries(s.stack.functionEntries)) {
      const reads = actionsOf(s.resources, logicalId).filter((g) => g.action === 'secretsmanager:GetSecretValue' && JSON.stringify(g.resource).includes('secret:paycall/gemini-api-key'));
      expect(reads.length > 0, entry.id).toBe(entry.id === 'RenderGoogleVeo' || entry.id === 'RenderGoogleLyria');
    }
    // Imported by name: no secret resource, no dynamic reference resolving the value into the template at deploy.
    expect(ofType(s.resources, 'AWS::SecretsManager::Secret')).toEqual([]);
    const text = JSON.stringify(s.template.toJSON());
    expect(text).not.toContain('{{resolve:secretsmanager');
    expect(text).not.toMatch(/SecretString|local-fake-gemini-key/);
  });

  it('ships the Veo render function ffmpeg for the 1:1 crop, with the time a download and a crop take', () => {
    const props = s.resources[fnOf(s, 'RenderGoogleVeo')].Properties;
    expect(props.Architectures).toEqual(['x86_64']);
    expect(props.Environment.Variables.FFMPEG_PATH).toBe('/var/task/bin/ffmpeg');
    expect(props.Timeout).toBeGreaterThanOrEqual(180);
  });

  it('polls the video render every 10 s (the provider’s interval) while music and images keep the global 5 s', () => {
    expect(checksOf(s, 'agent_video')).toEqual({ seconds: 10, limit: 120 });
    expect(checksOf(s, 'create_music')).toEqual({ seconds: 5, limit: 120 });
    expect(checksOf(s, 'agent_image')).toEqual({ seconds: 5, limit: 120 });
  });
});

describe('agent_video by fal-veo', () => {
  let s: ReturnType<typeof synth>;
  beforeAll(() => {
    s = synth({ videoProvider: 'fal-veo' });
  });

  it("gives the fal model and the fal key (by secret name only) to fal-veo's render function alone", () => {
    const vars = s.resources[fnOf(s, 'RenderFalVeo')].Properties.Environment.Variables;
    expect(vars[providerEnvName('agent_video')]).toBe('fal-veo');
    expect(vars.FAL_VIDEO_MODEL).toBe('fal-ai/veo3.1/fast');
    expect(vars[PROVIDER_SECRETS.fal.env]).toBe('paycall/fal-key');
    // fal's queue host is the SDK's default on AWS (the embedded default points it at its fake); no Gemini settings.
    expect(vars.FAL_QUEUE_BASE_URL).toBeUndefined();
    expect(vars.VEO_MODEL).toBeUndefined();
    expect(vars[PROVIDER_SECRETS.gemini.env]).toBeUndefined();
    for (const id of ['RenderLocal', 'RenderGoogleVeo', 'StoreAsset', 'MarkCompleted', 'MarkFailed', 'RefundPayment']) {
      const other = s.resources[fnOf(s, id)].Properties.Environment.Variables;
      expect(other.FAL_VIDEO_MODEL, id).toBeUndefined();
      expect(other[PROVIDER_SECRETS.fal.env], id).toBeUndefined();
    }
  });

  it('grants GetSecretValue on the fal key secret to its render function and the cancel route only (a fal job is canceled in its queue), and puts no key value in the template', () => {
    for (const [logicalId, entry] of Object.entries(s.stack.functionEntries)) {
      const reads = actionsOf(s.resources, logicalId).filter((g) => g.action === 'secretsmanager:GetSecretValue' && JSON.stringify(g.resource).includes('secret:paycall/fal-key'));
      expect(reads.length > 0, entry.id).toBe(entry.id === 'RenderFalVeo' || entry.id === 'CancelJob');
    }
    // The cancel route reads fal's request records, never writes or deletes an object.
    const cancelS3 = actionsOf(s.resources, fnOf(s, 'CancelJob')).filter((g) => g.action.startsWith('s3:')).map((g) => g.action);
    expect([...new Set(cancelS3)].sort()).toEqual(['s3:GetObject', 's3:ListBucket']);
    expect(s.resources[fnOf(s, 'CancelJob')].Properties.Environment.Variables[PROVIDER_SECRETS.fal.env]).toBe('paycall/fal-key');
    expect(ofType(s.resources, 'AWS::SecretsManager::Secret')).toEqual([]);
    const text = JSON.stringify(s.template.toJSON());
    expect(text).not.toContain('{{resolve:secretsmanager');
    expect(text).not.toMatch(/SecretString|local-fake-fal-key/);
  });

  it('ships the fal render function ffmpeg too, and polls every 10 s', () => {
    expect(s.resources[fnOf(s, 'RenderFalVeo')].Properties.Architectures).toEqual(['x86_64']);
    expect(checksOf(s, 'agent_video')).toEqual({ seconds: 10, limit: 120 });
    expect(checksOf(s, 'create_music')).toEqual({ seconds: 5, limit: 120 });
  });

  it('takes the fal model and the key secret name from context, and rejects a model that is not a fal Veo id', () => {
    const custom = synth({ videoProvider: 'fal-veo', falVideoModel: 'fal-ai/veo3.1', falKeySecretName: 'prod/fal' });
    const vars = custom.resources[fnOf(custom, 'RenderFalVeo')].Properties.Environment.Variables;
    expect(vars.FAL_VIDEO_MODEL).toBe('fal-ai/veo3.1');
    expect(vars[PROVIDER_SECRETS.fal.env]).toBe('prod/fal');
    expect(() => synth({ videoProvider: 'fal-veo', falVideoModel: 'fal-ai/sora-2' })).toThrow(/context key "falVideoModel" must be a fal Veo model id/);
  });
});

describe('per-product render checks', () => {
  it('takes each product’s Wait interval and check limit from context, the global values by default', () => {
    const s = synth({ videoProvider: 'google-veo', videoCheckSeconds: '15', videoMaxChecks: 40, renderCheckSeconds: 3, imageMaxChecks: 7, veoModel: 'veo-3.1-generate-preview' });
    expect(checksOf(s, 'agent_video')).toEqual({ seconds: 15, limit: 40 });
    expect(checksOf(s, 'create_music')).toEqual({ seconds: 3, limit: 120 });
    expect(checksOf(s, 'agent_image')).toEqual({ seconds: 3, limit: 7 });
    expect(s.resources[fnOf(s, 'RenderGoogleVeo')].Properties.Environment.Variables.VEO_MODEL).toBe('veo-3.1-generate-preview');
  });

  it("the local synthesiser: every product on the global interval; the vendors' functions are there for jobs sold with them", () => {
    const s = synth();
    for (const product of PRODUCT_IDS) expect(checksOf(s, product)).toEqual({ seconds: 5, limit: 120 });
    expect(s.resources[fnOf(s, 'RenderLocal')].Properties.Environment.Variables.VEO_MODEL).toBeUndefined();
    expect(s.resources[fnOf(s, 'RenderGoogleVeo')].Properties.Environment.Variables.VEO_MODEL).toBe('veo-3.1-fast-generate-preview');
  });

  it('rejects bad values naming the context key', () => {
    expect(() => synth({ veoModel: 'gpt-video' })).toThrow(/context key "veoModel" must be a Veo model id/);
    expect(() => synth({ videoCheckSeconds: 0 })).toThrow(/context key "videoCheckSeconds"/);
    expect(() => synth({ musicMaxChecks: 'many' })).toThrow(/context key "musicMaxChecks"/);
  });
});

describe("a video vendor's writes as the embedded runtime enforces them", () => {
  let cacheDir: string;
  beforeAll(async () => {
    cacheDir = await mkdtemp(path.join(os.tmpdir(), 'paycall-video-synth-'));
  });
  afterAll(() => rm(cacheDir, { recursive: true, force: true }));

  it("may put a job's clip and its vendor record, never delete, never another bucket", async () => {
    const defs = await synthesizeForLocal({ cacheDir, context: { videoProvider: 'fal-veo' } });
    const decide = (action: string, key: string, bucket = LOCAL_ASSETS_BUCKET) => evaluate(defs.policies.RenderFalVeo, { action, resource: `arn:aws:s3:::${bucket}/${key}` }).decision;
    expect(decide('s3:PutObject', videoKey('job_01HZX3Q9V7'))).toBe('allow');
    // The submit's record (a retried submit reads it so as not to pay twice).
    expect(decide('s3:PutObject', jobRecordKey('fal-veo', 'job_01HZX3Q9V7'))).toBe('allow');
    expect(decide('s3:GetObject', jobRecordKey('fal-veo', 'job_01HZX3Q9V7'))).toBe('allow');
    expect(decide('s3:DeleteObject', videoKey('job_01HZX3Q9V7'))).not.toBe('allow');
    expect(decide('s3:PutObject', videoKey('job_01HZX3Q9V7'), 'other-bucket')).not.toBe('allow');
  }, 120_000);
});
