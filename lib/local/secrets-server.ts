/**
 * A Secrets Manager endpoint on loopback for the embedded default: the functions' unchanged SecretsManagerClient
 * (lambdas/shared/secrets.ts, pointed here by SECRETS_MANAGER_ENDPOINT) reads the settler key pool and the token
 * seller key through it as it reads them on AWS, so the Secrets Manager path, and the function's grant to it (the
 * IAM enforcement checks `secretsmanager:GetSecretValue` on the secret's ARN before the request leaves), run in
 * every local test.
 *
 * It speaks the AWS JSON 1.1 protocol for the one operation our functions call, GetSecretValue (by name, full ARN
 * or partial ARN; the current version only), and answers as Secrets Manager does: `ResourceNotFoundException` for
 * a secret it does not hold, `MissingAuthenticationTokenException` for an unsigned request. Signatures are not
 * verified. Each secret's value is produced when it is read (from the runtime's key files), in the format the
 * runbook (docs/deploy.md) documents for the secret on AWS.
 */
import { createHash, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { localSecretArn } from './asl.js';
import { buffer } from 'node:stream/consumers';

/** A secret's current SecretString, read when a request asks for it. */
export type SecretValue = () => Promise<string>;

export interface LocalSecretsManager {
  /** `http://127.0.0.1:<port>`, for SECRETS_MANAGER_ENDPOINT. */
  endpoint: string;
  /** The ARN a secret has here (as IAM sees it): `…:secret:<name>-local0`. */
  arnOf(name: string): string;
  stop(): Promise<void>;
}

const TARGET_PREFIX = 'secretsmanager.';
const CURRENT = 'AWSCURRENT';

class ServiceError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

export async function startLocalSecretsManager(options: { secrets: Record<string, SecretValue>; port?: number }): Promise<LocalSecretsManager> {
  const secrets = new Map(Object.entries(options.secrets));
  /** When each version was first served: its CreatedDate, stable while the value does not change. */
  const created = new Map<string, Date>();

  const server = createServer((req, res) => {
    answer(req)
      .then((body) => reply(res, 200, body))
      .catch((error: unknown) => {
        const known = error instanceof ServiceError;
        const type = known ? error.type : 'InternalServiceError';
        reply(res, known ? 400 : 500, { __type: type, message: known ? error.message : 'The local Secrets Manager endpoint failed' }, type);
      });
  });

  async function answer(req: IncomingMessage): Promise<Record<string, unknown>> {
    const text = (await buffer(req)).toString('utf8');
    if (!req.headers.authorization) throw new ServiceError('MissingAuthenticationTokenException', 'Missing Authentication Token');
    const target = String(req.headers['x-amz-target'] ?? '');
    if (req.method !== 'POST' || !target.startsWith(TARGET_PREFIX)) throw new ServiceError('UnknownOperationException', `Unknown operation ${target}`);
    const operation = target.slice(TARGET_PREFIX.length);
    if (operation !== 'GetSecretValue') throw new ServiceError('UnknownOperationException', `${operation} is not implemented by the local Secrets Manager endpoint`);
    let body: { SecretId?: unknown; VersionId?: unknown; VersionStage?: unknown };
    try {
      body = text ? (JSON.parse(text) as typeof body) : {};
    } catch {
      throw new ServiceError('SerializationException', 'The request body is not valid JSON');
    }
    return getSecretValue(body);
  }

  async function getSecretValue(body: { SecretId?: unknown; VersionId?: unknown; VersionStage?: unknown }): Promise<Record<string, unknown>> {
    if (typeof body.SecretId !== 'string' || body.SecretId === '') {
      throw new ServiceError('ValidationException', "1 validation error detected: Value null at 'secretId' failed to satisfy constraint: Member must not be null");
    }
    const name = nameOf(body.SecretId);
    const value = name === undefined ? undefined : secrets.get(name);
    if (name === undefined || !value) throw new ServiceError('ResourceNotFoundException', "Secrets Manager can't find the specified secret.");
    const secretString = await value();
    const versionId = versionOf(name, secretString);
    if (body.VersionStage !== undefined && body.VersionStage !== CURRENT) {
      throw new ServiceError('ResourceNotFoundException', `Secrets Manager can't find the specified secret value for staging label: ${String(body.VersionStage)}`);
    }
    if (body.VersionId !== undefined && body.VersionId !== versionId) {
      throw new ServiceError('ResourceNotFoundException', `Secrets Manager can't find the specified secret value for VersionId: ${String(body.VersionId)}`);
    }
    if (!created.has(versionId)) created.set(versionId, new Date());
    return {
      ARN: localSecretArn(name),
      Name: name,
      SecretString: secretString,
      VersionId: versionId,
      VersionStages: [CURRENT],
      // JSON 1.1 timestamps are epoch seconds.
      CreatedDate: created.get(versionId)!.getTime() / 1000,
    };
  }

  /** A secret name, its full ARN, or its partial ARN (the ARN without Secrets Manager's random suffix). */
  function nameOf(id: string): string | undefined {
    if (!id.startsWith('arn:')) return id;
    for (const name of secrets.keys()) if (id === localSecretArn(name) || id === localSecretArn(name).replace(/-local0$/, '')) return name;
    return undefined;
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => (server.off('error', reject), resolve()));
  });
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    arnOf: localSecretArn,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A version id (UUID-shaped, as AWS's) that changes when the value does, as a new version would. */
function versionOf(name: string, value: string): string {
  const hex = createHash('sha256').update(`${name}\0${value}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

function reply(res: ServerResponse, status: number, body: unknown, errorType?: string): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/x-amz-json-1.1',
    'Content-Length': String(Buffer.byteLength(text)),
    'x-amzn-RequestId': randomUUID(),
    ...(errorType ? { 'x-amzn-ErrorType': errorType } : {}),
  });
  res.end(text);
}

/** The settler key pool as the runbook stores it: `{"privateKeys": ["0x…", …]}`, from the one-key-a-line file. */
export function settlerKeyPoolSecret(file: string): SecretValue {
  return async () => {
    const privateKeys = (await readFile(file, 'utf8')).split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
    return JSON.stringify({ privateKeys });
  };
}

/** The token seller's API key as the runbook stores it: `{"apiKey": "…"}`, from its file. */
export function sellerKeySecret(file: string): SecretValue {
  return async () => JSON.stringify({ apiKey: (await readFile(file, 'utf8')).trim() });
}

/**
 * The secrets the functions' template names (`*_SECRET_ID` values, the same name in every function), each with
 * the value this machine holds for it. A name the template uses for a secret the runtime has no value for is left
 * out, so reading it fails as a missing secret does on AWS.
 */
export function templateSecrets(
  environments: Record<string, Record<string, string | null>>,
  values: Record<string, SecretValue>,
): Record<string, SecretValue> {
  const secrets: Record<string, SecretValue> = {};
  for (const environment of Object.values(environments)) {
    for (const [variable, value] of Object.entries(values)) {
      const name = environment[variable];
      if (typeof name === 'string' && name !== '') secrets[name] = value;
    }
  }
  return secrets;
}
