/**
 * CDK assertions for agent_video rendered by google-veo or fal-veo (`-c videoProvider=…`): the adapter's settings on
 * the tasks that call it, its API key by secret name only, the check task's write to renders/, and each product's
 * own Wait interval and check limit.
 */
import { Stack } from 'aws-cdk-lib';
import type { CfnStateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT, type GenerationStackProps } from '../../lib/generation-stack.js';
import { readCdkJsonContext } from '../../lib/config.js';
import { PRODUCT_IDS, type ProductId } from '../../lambdas/products/catalog.js';
import { PROVIDER_SECRETS, providerEnvName } from '../../lambdas/render/providers.js';
import { actionsOf, ofType, type Resources } from '../support/template.js';
import { CHECK_RENDER_WRITES } from '../../lib/render-providers.js';
import { jobRecordKey, videoKey } from '../../lambdas/render/video-shared.js';
import { LOCAL_ASSETS_BUCKET, synthesizeForLocal } from '../../lib/local/asl.js';
import { evaluate } from '../../lib/local/iam/policy.js';
import { synthGeneration } from '../support/synth.js';

let cdkContext: Record<string, unknown>;

// The check task's PutObject resource: the asset bucket's ARN, then exactly /renders/*/video.mp4.
const CLIP_ONLY = /"\/renders\/\*\/video\.mp4"\]\]\}$/;

const synth = (context: Record<string, unknown> = {}, props: GenerationStackProps = {}) => synthGeneration(cdkContext, context, props);

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

  it('gives Submit render and Check render the provider choice, the Veo model and the Gemini key by secret name only', () => {
    for (const id of ['SubmitRender', 'CheckRender']) {
      const vars = s.resources[fnOf(s, id)].Properties.Environment.Variables;
      expect(vars[providerEnvName('agent_video')]).toBe('google-veo');
      expect(vars.VEO_MODEL).toBe('veo-3.1-fast-generate-preview');
      expect(vars[PROVIDER_SECRETS.gemini.env]).toBe('paycall/gemini-api-key');
      // The Gemini endpoint is the SDK's default on AWS (the embedded default points it at its fake).
      expect(vars.GEMINI_API_BASE_URL).toBeUndefined();
    }
    for (const id of ['StoreAsset', 'MarkCompleted', 'MarkFailed']) {
      const vars = s.resources[fnOf(s, id)].Properties.Environment.Variables;
      expect(vars.VEO_MODEL, id).toBeUndefined();
      expect(vars[PROVIDER_SECRETS.gemini.env], id).toBeUndefined();
    }
  });

  it('grants GetSecretValue on the Gemini key secret to Submit render and Check render only, and puts no key value in the template', () => {
    for (const [logicalId, entry] of Object.entries(s.stack.functionEntries)) {
      const reads = actionsOf(s.resources, logicalId).filter((g) => g.action === 'secretsmanager:GetSecretValue' && JSON.stringify(g.resource).includes('secret:paycall/gemini-api-key'));
      expect(reads.length > 0, entry.id).toBe(entry.id === 'SubmitRender' || entry.id === 'CheckRender');
    }
    // Imported by name: no secret resource, no dynamic reference resolving the value into the template at deploy.
    expect(ofType(s.resources, 'AWS::SecretsManager::Secret')).toEqual([]);
    const text = JSON.stringify(s.template.toJSON());
    expect(text).not.toContain('{{resolve:secretsmanager');
    expect(text).not.toMatch(/SecretString|local-fake-gemini-key/);
  });

  it("lets Check render write each job's clip only (renders/*/video.mp4), and ships it ffmpeg for the 1:1 crop", () => {
    const fn = fnOf(s, 'CheckRender');
    const puts = actionsOf(s.resources, fn).filter((g) => g.action === 's3:PutObject');
    expect(puts.length).toBeGreaterThan(0);
    for (const put of puts) expect(JSON.stringify(put.resource), JSON.stringify(put)).toMatch(CLIP_ONLY);
    const props = s.resources[fn].Properties;
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

  it('gives Submit render and Check render the provider choice, the fal model and the fal key by secret name only', () => {
    for (const id of ['SubmitRender', 'CheckRender']) {
      const vars = s.resources[fnOf(s, id)].Properties.Environment.Variables;
      expect(vars[providerEnvName('agent_video')]).toBe('fal-veo');
      expect(vars.FAL_VIDEO_MODEL).toBe('fal-ai/veo3.1/fast');
      expect(vars[PROVIDER_SECRETS.fal.env]).toBe('paycall/fal-key');
      // fal's queue host is the SDK's default on AWS (the embedded default points it at its fake); no Gemini settings.
      expect(vars.FAL_QUEUE_BASE_URL).toBeUndefined();
      expect(vars.VEO_MODEL).toBeUndefined();
      expect(vars[PROVIDER_SECRETS.gemini.env]).toBeUndefined();
    }
    for (const id of ['StoreAsset', 'MarkCompleted', 'MarkFailed', 'RefundPayment']) {
      const vars = s.resources[fnOf(s, id)].Properties.Environment.Variables;
      expect(vars.FAL_VIDEO_MODEL, id).toBeUndefined();
      expect(vars[PROVIDER_SECRETS.fal.env], id).toBeUndefined();
    }
  });

  it('grants GetSecretValue on the fal key secret to Submit render and Check render only, and puts no key value in the template', () => {
    for (const [logicalId, entry] of Object.entries(s.stack.functionEntries)) {
      const reads = actionsOf(s.resources, logicalId).filter((g) => g.action === 'secretsmanager:GetSecretValue' && JSON.stringify(g.resource).includes('secret:paycall/fal-key'));
      expect(reads.length > 0, entry.id).toBe(entry.id === 'SubmitRender' || entry.id === 'CheckRender');
    }
    expect(ofType(s.resources, 'AWS::SecretsManager::Secret')).toEqual([]);
    const text = JSON.stringify(s.template.toJSON());
    expect(text).not.toContain('{{resolve:secretsmanager');
    expect(text).not.toMatch(/SecretString|local-fake-fal-key/);
    expect(text).not.toContain('paycall/gemini-api-key');
  });

  it("lets Check render write each job's clip only (renders/*/video.mp4), and polls every 10 s", () => {
    const puts = actionsOf(s.resources, fnOf(s, 'CheckRender')).filter((g) => g.action === 's3:PutObject');
    expect(puts.length).toBeGreaterThan(0);
    for (const put of puts) expect(JSON.stringify(put.resource), JSON.stringify(put)).toMatch(CLIP_ONLY);
    expect(checksOf(s, 'agent_video')).toEqual({ seconds: 10, limit: 120 });
    expect(checksOf(s, 'create_music')).toEqual({ seconds: 5, limit: 120 });
  });

  it('takes the fal model and the key secret name from context, and rejects a model that is not a fal Veo id', () => {
    const custom = synth({ videoProvider: 'fal-veo', falVideoModel: 'fal-ai/veo3.1', falKeySecretName: 'prod/fal' });
    const vars = custom.resources[fnOf(custom, 'CheckRender')].Properties.Environment.Variables;
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
    expect(s.resources[fnOf(s, 'CheckRender')].Properties.Environment.Variables.VEO_MODEL).toBe('veo-3.1-generate-preview');
  });

  it('the local synthesiser: every product on the global interval, no Veo settings, Check render writes nothing', () => {
    const s = synth();
    for (const product of PRODUCT_IDS) expect(checksOf(s, product)).toEqual({ seconds: 5, limit: 120 });
    const fn = fnOf(s, 'CheckRender');
    expect(s.resources[fn].Properties.Environment.Variables.VEO_MODEL).toBeUndefined();
    expect(actionsOf(s.resources, fn).some((g) => g.action === 's3:PutObject')).toBe(false);
  });

  it('rejects bad values naming the context key', () => {
    expect(() => synth({ veoModel: 'gpt-video' })).toThrow(/context key "veoModel" must be a Veo model id/);
    expect(() => synth({ videoCheckSeconds: 0 })).toThrow(/context key "videoCheckSeconds"/);
    expect(() => synth({ musicMaxChecks: 'many' })).toThrow(/context key "musicMaxChecks"/);
  });
});

describe("Check render's write as the embedded runtime enforces it (a Veo provider)", () => {
  let cacheDir: string;
  beforeAll(async () => {
    cacheDir = await mkdtemp(path.join(os.tmpdir(), 'paycall-video-synth-'));
  });
  afterAll(() => rm(cacheDir, { recursive: true, force: true }));

  it("may put a job's clip, where the adapters store it, and nothing else of the bucket", async () => {
    expect(CHECK_RENDER_WRITES).toBe('renders/*/video.mp4');
    const defs = await synthesizeForLocal({ cacheDir, context: { videoProvider: 'fal-veo' } });
    const put = (key: string) => evaluate(defs.policies.CheckRender, { action: 's3:PutObject', resource: `arn:aws:s3:::${LOCAL_ASSETS_BUCKET}/${key}` }).decision;
    expect(put(videoKey('job_01HZX3Q9V7'))).toBe('allow');
    // The submit task's records (a retried submit reads them to not pay twice) and every other object stay out of reach.
    expect(put(jobRecordKey('fal-veo', 'job_01HZX3Q9V7'))).not.toBe('allow');
    expect(put('renders/job_01HZX3Q9V7/audio.mp3')).not.toBe('allow');
    expect(put('assets/job_01HZX3Q9V7/video.mp4')).not.toBe('allow');
    expect(put('static/index.html')).not.toBe('allow');
  }, 120_000);
});
