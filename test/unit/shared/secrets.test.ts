/** The one secret loader behind the settler key and the seller API key: file or Secrets Manager, cached, never echoed. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SecretError, loadSecret, resetSecretCache, type SecretReader } from '../../../lambdas/shared/secrets.js';

const VALUE = 'tok_SUPERSECRET_42';

class WidgetKeyError extends Error {
  override name = 'WidgetKeyError';
}

/** Accepts `tok_…` values only; the refusal names the source, not the value. */
const widgetKey: SecretReader<string> = {
  describe: 'widget key',
  parse: (raw, where) => {
    const key = raw.trim();
    if (!key.startsWith('tok_')) throw new WidgetKeyError(`Widget key from ${where} is not a token`);
    return key;
  },
  jsonMember: 'token',
  error: WidgetKeyError,
  configureHint: 'set WIDGET_KEY_FILE or WIDGET_KEY_SECRET_ID',
};

async function failure(promise: Promise<unknown>): Promise<Error> {
  return (await promise.then(
    () => expect.fail('expected the load to fail'),
    (error: unknown) => error,
  )) as Error;
}

afterEach(() => resetSecretCache());

describe('loadSecret from a file', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'shared-secrets-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('reads and parses the file once, then serves it from memory', async () => {
    const file = path.join(dir, 'widget.key');
    await writeFile(file, `  ${VALUE}\n`);
    expect(await loadSecret({ file }, widgetKey)).toBe(VALUE);
    await writeFile(file, 'tok_changed');
    expect(await loadSecret({ file }, widgetKey)).toBe(VALUE);
  });

  it('caches per reader: the same file read as another secret is parsed again', async () => {
    const file = path.join(dir, 'shared.key');
    await writeFile(file, VALUE);
    expect(await loadSecret({ file }, widgetKey)).toBe(VALUE);
    expect(await loadSecret({ file }, { describe: 'length', parse: (raw) => raw.length })).toBe(VALUE.length);
  });

  it('names a missing file by path and error code', async () => {
    const file = path.join(dir, 'missing.key');
    const error = await failure(loadSecret({ file }, widgetKey));
    expect(error).toBeInstanceOf(WidgetKeyError);
    expect(error.message).toBe(`Cannot read widget key file ${file}: ENOENT`);
  });

  it('forgets a failed load, so the next call reads again', async () => {
    const file = path.join(dir, 'late.key');
    await failure(loadSecret({ file }, widgetKey));
    await writeFile(file, VALUE);
    expect(await loadSecret({ file }, widgetKey)).toBe(VALUE);
  });

  it('passes the parser’s refusal through without the value', async () => {
    const file = path.join(dir, 'bad.key');
    await writeFile(file, 'SUPERSECRET-but-not-a-token');
    const error = await failure(loadSecret({ file }, widgetKey));
    expect(error).toMatchObject({ name: 'WidgetKeyError', message: `Widget key from file ${file} is not a token` });
    expect(error.message).not.toContain('SUPERSECRET');
  });
});

describe('loadSecret from Secrets Manager', () => {
  const sm = mockClient(SecretsManagerClient);
  afterEach(() => sm.reset());
  afterAll(() => sm.restore());

  it('prefers the file over the secret', async () => {
    sm.on(GetSecretValueCommand).rejects(new Error('must not be called'));
    const dir = await mkdtemp(path.join(tmpdir(), 'shared-secrets-'));
    try {
      const file = path.join(dir, 'first.key');
      await writeFile(file, VALUE);
      expect(await loadSecret({ file, secretId: 'x' }, widgetKey)).toBe(VALUE);
      expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reads a plain SecretString once (trimmed) and caches it', async () => {
    sm.on(GetSecretValueCommand, { SecretId: 'plain' }).resolves({ SecretString: ` ${VALUE}\n` });
    expect(await loadSecret({ secretId: 'plain' }, widgetKey)).toBe(VALUE);
    expect(await loadSecret({ secretId: 'plain' }, widgetKey)).toBe(VALUE);
    expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(1);
  });

  it('reads the JSON member when the secret is a JSON object', async () => {
    sm.on(GetSecretValueCommand, { SecretId: 'json' }).resolves({ SecretString: JSON.stringify({ token: VALUE, other: 1 }) });
    expect(await loadSecret({ secretId: 'json' }, widgetKey)).toBe(VALUE);
  });

  it('hands JSON-looking text to the parser as is when no member is named', async () => {
    sm.on(GetSecretValueCommand).resolves({ SecretString: '{"a":1}' });
    expect(await loadSecret({ secretId: 'raw' }, { describe: 'raw', parse: (raw) => raw })).toBe('{"a":1}');
  });

  it('refuses JSON without the member, without echoing the secret', async () => {
    sm.on(GetSecretValueCommand).resolves({ SecretString: JSON.stringify({ key: VALUE }) });
    const error = await failure(loadSecret({ secretId: 'j' }, widgetKey));
    expect(error).toMatchObject({ name: 'WidgetKeyError', message: 'Widget key secret j has no string member token' });
    expect(error.message).not.toContain('SUPERSECRET');
  });

  it('refuses invalid JSON and an empty SecretString', async () => {
    sm.on(GetSecretValueCommand, { SecretId: 'broken' }).resolves({ SecretString: `{"token":"${VALUE}"` });
    sm.on(GetSecretValueCommand, { SecretId: 'binary' }).resolves({ SecretBinary: new Uint8Array([1]) });
    const broken = await failure(loadSecret({ secretId: 'broken' }, widgetKey));
    expect(broken.message).toBe('Widget key secret broken is not valid JSON');
    expect(broken.message).not.toContain('SUPERSECRET');
    expect((await failure(loadSecret({ secretId: 'binary' }, widgetKey))).message).toBe('Widget key secret binary has no SecretString');
  });

  it('names the secret and the AWS error, evicts the failure and retries on the next call', async () => {
    sm.on(GetSecretValueCommand).rejectsOnce(Object.assign(new Error('denied'), { name: 'AccessDeniedException' }));
    const error = await failure(loadSecret({ secretId: 's' }, widgetKey));
    expect(error).toBeInstanceOf(WidgetKeyError);
    expect(error.message).toBe('Cannot read widget key secret s: AccessDeniedException');
    sm.on(GetSecretValueCommand).resolves({ SecretString: VALUE });
    expect(await loadSecret({ secretId: 's' }, widgetKey)).toBe(VALUE);
    expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(2);
  });
});

describe('loadSecret without a source', () => {
  it('refuses with the reader’s hint', async () => {
    const error = await failure(loadSecret({}, widgetKey));
    expect(error).toMatchObject({ name: 'WidgetKeyError', message: 'No widget key configured: set WIDGET_KEY_FILE or WIDGET_KEY_SECRET_ID' });
  });

  it('uses SecretError when the reader names no error class', async () => {
    const error = await failure(loadSecret({ file: '' }, { describe: 'thing', parse: (raw) => raw }));
    expect(error).toBeInstanceOf(SecretError);
    expect(error.message).toBe('No thing configured');
  });
});
