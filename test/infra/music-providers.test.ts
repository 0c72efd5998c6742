/**
 * CDK assertions for create_music rendered by a model (`-c musicProvider=minimax-music | google-lyria`): the model id
 * on the two tasks that call the provider, its API key by secret name only and readable by those two tasks only, and
 * nothing of it when the local synthesiser is chosen.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT, type PaycallStackProps } from '../../lib/paycall-stack.js';
import { readCdkJsonContext } from '../../lib/config.js';
import { PROVIDER_SECRETS, providerEnvName } from '../../lambdas/render/providers.js';
import { actionsOf, ofType, type Resources } from '../support/template.js';
import { synthGeneration } from '../support/synth.js';

let cdkContext: Record<string, unknown>;

const synth = (context: Record<string, unknown> = {}, props: PaycallStackProps = {}) => synthGeneration(cdkContext, context, props);
type Synth = ReturnType<typeof synth>;

const varsOf = (s: Synth, id: string): Record<string, unknown> => {
  const found = Object.entries(s.stack.functionEntries).find(([, entry]) => entry.id === id);
  if (!found) throw new Error(`no function ${id}`);
  return s.resources[found[0]].Properties.Environment.Variables;
};

/** The task functions that may read the secret of that name. */
function readersOf(s: Synth, secretName: string): string[] {
  return Object.entries(s.stack.functionEntries)
    .filter(([logicalId]) => actionsOf(s.resources, logicalId).some((g) => g.action === 'secretsmanager:GetSecretValue' && JSON.stringify(g.resource).includes(`secret:${secretName}`)))
    .map(([, entry]) => entry.id)
    .sort();
}

function expectNoKeyValue(s: Synth, which: 'minimax' | 'gemini'): void {
  expect(ofType(s.resources, 'AWS::SecretsManager::Secret')).toEqual([]);
  const text = JSON.stringify(s.template.toJSON());
  expect(text).not.toContain('{{resolve:secretsmanager');
  expect(text).not.toMatch(new RegExp(`SecretString|local-fake-${which}-key`));
}

beforeAll(async () => {
  cdkContext = await readCdkJsonContext(PROJECT_ROOT);
});

describe('create_music by minimax-music', () => {
  let s: Synth;
  beforeAll(() => {
    s = synth({ musicProvider: 'minimax-music', minimaxApiKeySecretName: 'team/minimax-key', minimaxModel: 'music-2.5' });
  });

  it('gives its render function the choice, the model and the MiniMax key by secret name; the endpoint stays MiniMax’s own', () => {
    for (const id of ['RenderMinimaxMusic']) {
      const vars = varsOf(s, id);
      expect(vars[providerEnvName('create_music')]).toBe('minimax-music');
      expect(vars.MINIMAX_MUSIC_MODEL).toBe('music-2.5');
      expect(vars[PROVIDER_SECRETS.minimax.env]).toBe('team/minimax-key');
      expect(vars.MINIMAX_API_BASE_URL).toBeUndefined();
      expect(vars.LYRIA_MODEL).toBeUndefined();
    }
    for (const id of ['RenderLocal', 'RenderGoogleLyria', 'StoreAsset', 'MarkCompleted', 'MarkFailed']) {
      expect(varsOf(s, id).MINIMAX_MUSIC_MODEL, id).toBeUndefined();
      expect(varsOf(s, id)[PROVIDER_SECRETS.minimax.env], id).toBeUndefined();
    }
  });

  it('lets only its render function read the MiniMax key, and puts no key value in the template', () => {
    expect(readersOf(s, 'team/minimax-key')).toEqual(['RenderMinimaxMusic']);
    expectNoKeyValue(s, 'minimax');
  });
});

describe('create_music by google-lyria', () => {
  let s: Synth;
  beforeAll(() => {
    s = synth({ musicProvider: 'google-lyria' });
  });

  it('gives its render function the Lyria model (lyria-3-pro-preview by default) and the Gemini key by secret name', () => {
    for (const id of ['RenderGoogleLyria']) {
      const vars = varsOf(s, id);
      expect(vars[providerEnvName('create_music')]).toBe('google-lyria');
      expect(vars.LYRIA_MODEL).toBe('lyria-3-pro-preview');
      expect(vars[PROVIDER_SECRETS.gemini.env]).toBe('paycall/gemini-api-key');
      expect(vars.GEMINI_API_BASE_URL).toBeUndefined();
      expect(vars.MINIMAX_MUSIC_MODEL).toBeUndefined();
    }
  });

  it('lets only the Gemini render functions (Lyria, Veo) read the Gemini key, and puts no key value in the template', () => {
    expect(readersOf(s, 'paycall/gemini-api-key')).toEqual(['RenderGoogleLyria', 'RenderGoogleVeo']);
    expectNoKeyValue(s, 'gemini');
  });

  it('takes another Lyria model from context, and refuses one that is not a Lyria id, naming the key', () => {
    expect(varsOf(synth({ musicProvider: 'google-lyria', lyriaModel: 'lyria-3.5' }), 'RenderGoogleLyria').LYRIA_MODEL).toBe('lyria-3.5');
    expect(() => synth({ musicProvider: 'google-lyria', lyriaModel: 'gpt-4o' })).toThrow(/context key "lyriaModel" must be a Lyria model id/);
    expect(() => synth({ musicProvider: 'minimax-music', minimaxModel: 'lyria-3.5' })).toThrow(/context key "minimaxModel" must be a MiniMax music model id/);
  });
});

describe('create_music by the local synthesiser (default)', () => {
  it("the synthesiser's function carries no music model, no vendor key variable and no vendor key grant; the vendors' keep theirs", () => {
    const s = synth();
    const vars = varsOf(s, 'RenderLocal');
    expect(vars[providerEnvName('create_music')]).toBe('local');
    for (const name of ['MINIMAX_MUSIC_MODEL', 'LYRIA_MODEL', PROVIDER_SECRETS.minimax.env, PROVIDER_SECRETS.gemini.env]) expect(vars[name], name).toBeUndefined();
    // A job sold with a vendor before the operator chose the synthesiser still finishes there.
    expect(readersOf(s, 'paycall/minimax-api-key')).toEqual(['RenderMinimaxMusic']);
    expect(readersOf(s, 'paycall/gemini-api-key')).toEqual(['RenderGoogleLyria', 'RenderGoogleVeo']);
  });
});
