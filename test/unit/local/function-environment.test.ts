import { describe, expect, it } from 'vitest';
import { functionEnvironment } from '../../../lib/local/functions/environment.js';

const host = {
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'local',
  AWS_SECRET_ACCESS_KEY: 'local',
  DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000',
  SECRETS_MANAGER_ENDPOINT: 'http://127.0.0.1:4566',
  RUNS_TABLE: 'runs',
  RPC_URL: 'http://127.0.0.1:8545',
  SETTLER_KEY_FILE: '/state/settler.key',
  TOKEN_SELLER_KEY_FILE: '/state/seller.key',
  MUSIC_STATE_MACHINE_ARN: 'arn:aws:states:local:000000000000:stateMachine:MusicWorkflow',
  SOMETHING_ELSE: 'x',
};

describe('functionEnvironment: a function sees the environment its template gives it', () => {
  it('takes the template’s names only, the local values over deployment-bound ones, literals otherwise', () => {
    const env = functionEnvironment({ RUNS_TABLE: null, RPC_URL: 'https://mainnet.base.org', X402_NETWORK: 'eip155:8453' }, host);
    expect(env).toEqual({
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000',
      SECRETS_MANAGER_ENDPOINT: 'http://127.0.0.1:4566',
      RUNS_TABLE: 'runs',
      RPC_URL: 'http://127.0.0.1:8545',
      X402_NETWORK: 'eip155:8453',
    });
    // Not in its template: not in its environment, even though the runtime defines it.
    expect(env.MUSIC_STATE_MACHINE_ARN).toBeUndefined();
    expect(env.SOMETHING_ELSE).toBeUndefined();
  });

  it('a reference the runtime has no local value for stays unset (the function then fails its cold-start check)', () => {
    expect(functionEnvironment({ JOBS_TABLE: null }, host).JOBS_TABLE).toBeUndefined();
  });

  it('a secret named in the template keeps its id (read through the local Secrets Manager); the runtime’s key files are never passed', () => {
    const env = functionEnvironment({ SETTLER_KEY_SECRET_ID: 'paycall/settler-key', TOKEN_SELLER_KEY_SECRET_ID: 'paycall/token-seller-key' }, host);
    expect(env.SETTLER_KEY_SECRET_ID).toBe('paycall/settler-key');
    expect(env.TOKEN_SELLER_KEY_SECRET_ID).toBe('paycall/token-seller-key');
    expect(env.SECRETS_MANAGER_ENDPOINT).toBe('http://127.0.0.1:4566');
    expect(env.SETTLER_KEY_FILE).toBeUndefined();
    expect(env.TOKEN_SELLER_KEY_FILE).toBeUndefined();
  });

  it('deployment-only values are never copied; this machine’s own are', () => {
    const env = functionEnvironment({ FFMPEG_PATH: '/var/task/bin/ffmpeg', NODE_OPTIONS: '--enable-source-maps' }, host);
    expect(env.FFMPEG_PATH).toBeUndefined();
    expect(env.NODE_OPTIONS).toBeUndefined();
    expect(functionEnvironment({ FFMPEG_PATH: '/var/task/bin/ffmpeg' }, { ...host, FFMPEG_PATH: '/broken/ffmpeg' }).FFMPEG_PATH).toBe('/broken/ffmpeg');
  });

  it('a render provider’s endpoint override (a wire-level fake) reaches the function like the AWS endpoints do; unset, nothing is added', () => {
    const withFake = functionEnvironment({}, { ...host, MINIMAX_API_BASE_URL: 'http://127.0.0.1:4000', GEMINI_API_BASE_URL: 'http://127.0.0.1:4001' });
    expect(withFake.MINIMAX_API_BASE_URL).toBe('http://127.0.0.1:4000');
    expect(withFake.GEMINI_API_BASE_URL).toBe('http://127.0.0.1:4001');
    expect(functionEnvironment({}, host).MINIMAX_API_BASE_URL).toBeUndefined();
  });
});
