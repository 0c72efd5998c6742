import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loadSellerKey, readTokenConfig, resetTokenConfigCache } from '../../../../lambdas/payments/token/config.js';

const complete = {
  TOKEN_ISSUER: 'https://app.issuer.test',
  TOKEN_JWKS_URL: 'https://app.issuer.test/.well-known/jwks.json',
  TOKEN_CHARGE_URL: 'https://api.issuer.test/api/v1/tokens/charge',
  TOKEN_SELLER_ID: 'svc-1',
  TOKEN_SELLER_KEY_SECRET_ID: 'paycall/token-seller-key',
};

describe('readTokenConfig', () => {
  it('is undefined (token payments disabled) when nothing is set', () => {
    expect(readTokenConfig({})).toBeUndefined();
    expect(readTokenConfig({ TOKEN_ISSUER: '' })).toBeUndefined();
  });

  it('reads a complete configuration; the audience defaults to the seller id', () => {
    expect(readTokenConfig(complete)).toEqual({
      issuer: 'https://app.issuer.test',
      jwksUrl: 'https://app.issuer.test/.well-known/jwks.json',
      chargeUrl: 'https://api.issuer.test/api/v1/tokens/charge',
      sellerId: 'svc-1',
      audience: 'svc-1',
      sellerKeyFile: undefined,
      sellerKeySecretId: 'paycall/token-seller-key',
    });
    expect(readTokenConfig({ ...complete, TOKEN_AUDIENCE: 'acct-9' })?.audience).toBe('acct-9');
  });

  it('fails loudly when half configured, naming what is missing', () => {
    expect(() => readTokenConfig({ TOKEN_ISSUER: 'https://app.issuer.test' })).toThrow(
      'Invalid token configuration: TOKEN_ISSUER set but TOKEN_JWKS_URL, TOKEN_CHARGE_URL, TOKEN_SELLER_ID, TOKEN_SELLER_KEY_FILE or TOKEN_SELLER_KEY_SECRET_ID missing',
    );
    expect(() => readTokenConfig({ ...complete, TOKEN_SELLER_KEY_SECRET_ID: undefined })).toThrow(/TOKEN_SELLER_KEY_FILE or TOKEN_SELLER_KEY_SECRET_ID missing/);
  });

  it('accepts http only on loopback', () => {
    expect(readTokenConfig({ ...complete, TOKEN_JWKS_URL: 'http://127.0.0.1:4010/.well-known/jwks.json' })?.jwksUrl).toMatch(/^http:/);
    expect(() => readTokenConfig({ ...complete, TOKEN_CHARGE_URL: 'http://issuer.test/charge' })).toThrow(
      /TOKEN_CHARGE_URL: must be an https URL \(http only on loopback\)/,
    );
    expect(() => readTokenConfig({ ...complete, TOKEN_JWKS_URL: 'not a url' })).toThrow(/TOKEN_JWKS_URL/);
  });
});

describe('loadSellerKey from Secrets Manager', () => {
  const sm = mockClient(SecretsManagerClient);
  afterEach(() => {
    sm.reset();
    resetTokenConfigCache();
  });
  afterAll(() => sm.restore());

  it('reads a plain string secret once per process', async () => {
    sm.on(GetSecretValueCommand, { SecretId: 'plain' }).resolves({ SecretString: ' sk_live_abcdefgh \n' });
    expect(await loadSellerKey({ sellerKeySecretId: 'plain' })).toBe('sk_live_abcdefgh');
    expect(await loadSellerKey({ sellerKeySecretId: 'plain' })).toBe('sk_live_abcdefgh');
    expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(1);
  });

  it('reads the apiKey member of a JSON secret', async () => {
    sm.on(GetSecretValueCommand, { SecretId: 'json' }).resolves({ SecretString: '{"apiKey":"sk_live_12345678"}' });
    expect(await loadSellerKey({ sellerKeySecretId: 'json' })).toBe('sk_live_12345678');
  });

  it('fails without echoing the secret, and retries on the next call', async () => {
    sm.on(GetSecretValueCommand, { SecretId: 'bad' }).resolvesOnce({ SecretString: '{"key":"sk_live_SECRET99"}' }).resolves({ SecretString: 'sk_live_SECRET99' });
    const error = await loadSellerKey({ sellerKeySecretId: 'bad' }).catch((e: Error) => e);
    expect(error).toMatchObject({ name: 'SellerKeyError', message: 'Seller key secret bad has no string member apiKey' });
    expect(String((error as Error).message)).not.toContain('SECRET99');
    expect(await loadSellerKey({ sellerKeySecretId: 'bad' })).toBe('sk_live_SECRET99');
  });

  it('refuses when no source is configured', async () => {
    await expect(loadSellerKey({})).rejects.toThrow(/No seller key configured/);
  });
});
