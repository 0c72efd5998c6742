/**
 * The embedded default's Secrets Manager (lib/local/secrets-server.ts): the official SecretsManagerClient reads the
 * secrets the synthesized template names, in the format the runbook documents for AWS, through the same loader the
 * functions use; an unknown secret is a ResourceNotFoundException; and a function whose role has no grant to the
 * secret is refused by the IAM enforcement (AccessDeniedException) before the request leaves, as on AWS.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_ACCOUNT, LOCAL_REGION, synthesizeForLocal, type LocalDefinitions } from '../../lib/local/asl.js';
import { asFunction, installIamEnforcement, type Enforcement } from '../../lib/local/iam/enforce.js';
import { sellerKeySecret, settlerKeyPoolSecret, startLocalSecretsManager, templateSecrets, type LocalSecretsManager } from '../../lib/local/secrets-server.js';
import { ENV } from '../../lambdas/shared/config.js';
import { SECRETS_MANAGER_ENDPOINT } from '../../lambdas/shared/secrets.js';
import { loadSettlerKeys, resetSettlerKeyCache } from '../../lambdas/payments/secrets.js';
import { loadSellerKey, TOKEN_ENV } from '../../lambdas/payments/token/config.js';

const SETTLER_KEYS = ['0x' + 'a1'.repeat(32), '0x' + 'b2'.repeat(32)];
const SELLER_KEY = 'c3'.repeat(32);

let defs: LocalDefinitions;
let secrets: LocalSecretsManager;
let enforcement: Enforcement;
let client: SecretsManagerClient;
let settlerSecret: string;
let sellerSecret: string;
let dirs: string[] = [];
const previousEndpoint = process.env[SECRETS_MANAGER_ENDPOINT];

beforeAll(async () => {
  const cacheDir = await mkdtemp(path.join(os.tmpdir(), 'paycall-secrets-synth-'));
  const stateDir = await mkdtemp(path.join(os.tmpdir(), 'paycall-secrets-state-'));
  dirs = [cacheDir, stateDir];
  defs = await synthesizeForLocal({ cacheDir });
  const settlerFile = path.join(stateDir, 'settler.key');
  const sellerFile = path.join(stateDir, 'seller.key');
  // As the local chain and issuer write them: one key a line; the bare key.
  await writeFile(settlerFile, SETTLER_KEYS.map((k) => `${k}\n`).join(''), { mode: 0o600 });
  await writeFile(sellerFile, `${SELLER_KEY}\n`, { mode: 0o600 });
  secrets = await startLocalSecretsManager({
    secrets: templateSecrets(defs.environments, {
      [ENV.settlerKeySecretId]: settlerKeyPoolSecret(settlerFile),
      [TOKEN_ENV.sellerKeySecretId]: sellerKeySecret(sellerFile),
    }),
  });
  // The names the template gives the functions (the stack's configuration), not names of this test's own.
  settlerSecret = defs.environments.AgentImage[ENV.settlerKeySecretId]!;
  sellerSecret = defs.environments.AgentImage[TOKEN_ENV.sellerKeySecretId]!;
  enforcement = installIamEnforcement(defs.policies);
  client = new SecretsManagerClient({ endpoint: secrets.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 1 });
  process.env[SECRETS_MANAGER_ENDPOINT] = secrets.endpoint;
}, 120_000);

afterEach(() => resetSettlerKeyCache());

afterAll(async () => {
  if (previousEndpoint === undefined) delete process.env[SECRETS_MANAGER_ENDPOINT];
  else process.env[SECRETS_MANAGER_ENDPOINT] = previousEndpoint;
  enforcement?.uninstall();
  client?.destroy();
  await secrets?.stop();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const arn = (name: string) => `arn:aws:secretsmanager:${LOCAL_REGION}:${LOCAL_ACCOUNT}:secret:${name}-local0`;

describe('GetSecretValue answers as Secrets Manager answers', () => {
  it('serves the settler key pool the template names, as the runbook stores it ({"privateKeys": […]})', async () => {
    expect(settlerSecret).toBe('paycall/settler-key');
    const answer = await client.send(new GetSecretValueCommand({ SecretId: settlerSecret }));
    expect(answer).toMatchObject({
      $metadata: { httpStatusCode: 200 },
      ARN: arn(settlerSecret),
      Name: settlerSecret,
      VersionId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
      VersionStages: ['AWSCURRENT'],
    });
    expect(answer.CreatedDate).toBeInstanceOf(Date);
    expect(JSON.parse(answer.SecretString!)).toEqual({ privateKeys: SETTLER_KEYS });
    // By full ARN, and by partial ARN (without the random suffix), the same secret and version.
    const byArn = await client.send(new GetSecretValueCommand({ SecretId: arn(settlerSecret) }));
    const byPartialArn = await client.send(new GetSecretValueCommand({ SecretId: arn(settlerSecret).replace(/-local0$/, '') }));
    expect([byArn.VersionId, byPartialArn.VersionId]).toEqual([answer.VersionId, answer.VersionId]);
    expect(await client.send(new GetSecretValueCommand({ SecretId: settlerSecret, VersionStage: 'AWSCURRENT' }))).toMatchObject({ Name: settlerSecret });
  });

  it('serves the token seller key as {"apiKey": "…"}', async () => {
    expect(sellerSecret).toBe('paycall/token-seller-key');
    const answer = await client.send(new GetSecretValueCommand({ SecretId: sellerSecret }));
    expect(JSON.parse(answer.SecretString!)).toEqual({ apiKey: SELLER_KEY });
  });

  it('an unknown secret, version or stage is a ResourceNotFoundException', async () => {
    await expect(client.send(new GetSecretValueCommand({ SecretId: 'paycall/no-such-secret' }))).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
      message: "Secrets Manager can't find the specified secret.",
      $metadata: { httpStatusCode: 400 },
    });
    await expect(client.send(new GetSecretValueCommand({ SecretId: arn('paycall/no-such-secret') }))).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
    await expect(client.send(new GetSecretValueCommand({ SecretId: settlerSecret, VersionStage: 'AWSPREVIOUS' }))).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
    await expect(client.send(new GetSecretValueCommand({ SecretId: settlerSecret, VersionId: '00000000-0000-0000-0000-000000000000' }))).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
    });
  });

  it('the functions’ own loaders read and parse both secrets through SECRETS_MANAGER_ENDPOINT', async () => {
    expect(await loadSettlerKeys({ settlerKeySecretId: settlerSecret })).toEqual(SETTLER_KEYS);
    expect(await loadSellerKey({ sellerKeySecretId: sellerSecret })).toBe(SELLER_KEY);
  });
});

describe('Reading a secret is checked against the function’s policy', () => {
  it('a paid route, granted both secrets, reads them', async () => {
    for (const id of [settlerSecret, sellerSecret]) {
      await expect(asFunction('AgentImage', () => client.send(new GetSecretValueCommand({ SecretId: id })))).resolves.toMatchObject({ Name: id });
    }
    await expect(asFunction('RunAgent', () => loadSettlerKeys({ settlerKeySecretId: settlerSecret }))).resolves.toEqual(SETTLER_KEYS);
  });

  it('a function whose role lacks the grant gets AccessDeniedException naming the action and the secret ARN', async () => {
    // An agent-run route is granted the settler key, not the seller key; a poll route neither.
    await expect(asFunction('RunAgent', () => client.send(new GetSecretValueCommand({ SecretId: sellerSecret })))).rejects.toMatchObject({
      name: 'AccessDeniedException',
      $metadata: { httpStatusCode: 400 },
      message: expect.stringContaining(`is not authorized to perform: secretsmanager:GetSecretValue on resource: ${arn(sellerSecret)}`),
    });
    await expect(asFunction('GetImage', () => client.send(new GetSecretValueCommand({ SecretId: settlerSecret })))).rejects.toMatchObject({
      name: 'AccessDeniedException',
    });
    // Through the functions’ loader, the refusal is a SettlerKeyError that names the secret, never a value.
    await expect(asFunction('GetImage', () => loadSettlerKeys({ settlerKeySecretId: settlerSecret }))).rejects.toMatchObject({
      name: 'SettlerKeyError',
      message: `Cannot read settler keys secret ${settlerSecret}: AccessDeniedException`,
    });
    expect(enforcement.denials.map((d) => `${d.functionId} ${d.action} ${d.resource}`)).toEqual(
      expect.arrayContaining([`RunAgent secretsmanager:GetSecretValue ${arn(sellerSecret)}`, `GetImage secretsmanager:GetSecretValue ${arn(settlerSecret)}`]),
    );
  });
});
