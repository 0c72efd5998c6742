/**
 * What an AWS SDK request asks IAM for: its `service:Action` and the ARNs it acts on, read from the signed HTTP
 * request as a service endpoint sees it (the SigV4 credential scope names the service; JSON protocols name the
 * operation in X-Amz-Target; S3 is REST). Only what our functions call is modelled; anything else is refused
 * (fail closed), so a new kind of call is noticed rather than waved through.
 */
import { localSecretArn, localTableArn, LOCAL_ACCOUNT, LOCAL_REGION } from '../asl.js';
import { DYNAMODB_TRANSACT_ITEM_ACTIONS, type AuthorizationRequest } from './policy.js';

/** The parts of a smithy HttpRequest this reads. */
export interface SignedRequest {
  method: string;
  hostname?: string;
  path: string;
  query?: Record<string, unknown>;
  headers: Record<string, string>;
  body?: unknown;
}

/** How a refusal is answered: JSON protocols (400 AccessDeniedException), S3 (403 XML), REST-JSON services (403 JSON). */
export type Protocol = 'json' | 's3' | 'rest-json';

export interface RequestAuthorization {
  service: string;
  operation: string;
  protocol: Protocol;
  requests: AuthorizationRequest[];
}

export class UnmodelledRequestError extends Error {
  override name = 'UnmodelledRequestError';
}

function headerOf(request: SignedRequest, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(request.headers)) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

/** `dynamodb` from `AWS4-HMAC-SHA256 Credential=AKID/20261123/us-east-1/dynamodb/aws4_request, …`. */
export function signedService(request: SignedRequest): string | undefined {
  return /Credential=[^/]+\/\d{8}\/[^/]+\/([^/]+)\/aws4_request/.exec(headerOf(request, 'authorization') ?? '')?.[1];
}

function jsonBody(request: SignedRequest): Record<string, any> {
  const body = request.body;
  // A view on the bytes, not Buffer.from(body): the SDK's JSON body is a Uint8Array subclass whose valueOf() warns.
  const text =
    typeof body === 'string' ? body : body instanceof Uint8Array ? Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8') : undefined;
  if (text === undefined) throw new UnmodelledRequestError('a JSON-protocol request without a readable body');
  return text ? (JSON.parse(text) as Record<string, any>) : {};
}

function dynamodb(operation: string, body: Record<string, any>): AuthorizationRequest[] {
  const table = (name: string, index?: string) => `${localTableArn(name)}${index ? `/index/${index}` : ''}`;
  if (operation === 'TransactWriteItems' || operation === 'TransactGetItems') {
    return (body.TransactItems as Record<string, { TableName: string }>[]).map((item) => {
      const [kind, spec] = Object.entries(item)[0] as [keyof typeof DYNAMODB_TRANSACT_ITEM_ACTIONS, { TableName: string }];
      return { action: DYNAMODB_TRANSACT_ITEM_ACTIONS[kind], resource: table(spec.TableName) };
    });
  }
  if (operation === 'BatchWriteItem' || operation === 'BatchGetItem') {
    return Object.keys(body.RequestItems ?? {}).map((name) => ({ action: `dynamodb:${operation}`, resource: table(name) }));
  }
  if (typeof body.TableName !== 'string') throw new UnmodelledRequestError(`dynamodb:${operation} without a TableName`);
  return [{ action: `dynamodb:${operation}`, resource: table(body.TableName, body.IndexName) }];
}

function states(operation: string, body: Record<string, any>): AuthorizationRequest[] {
  const resource = body.executionArn ?? body.stateMachineArn;
  if (typeof resource !== 'string') throw new UnmodelledRequestError(`states:${operation} names no state machine or execution`);
  return [{ action: `states:${operation}`, resource }];
}

function secretsmanager(operation: string, body: Record<string, any>): AuthorizationRequest[] {
  const id = String(body.SecretId ?? '');
  return [{ action: `secretsmanager:${operation}`, resource: id.startsWith('arn:') ? id : localSecretArn(id) }];
}

/** Path-style (`/bucket/key`), as the local S3 endpoint is addressed; a virtual-hosted bucket comes from the host. */
function s3(request: SignedRequest): RequestAuthorization {
  const segments = request.path.replace(/^\/+/, '').split('/');
  const hosted = request.hostname && /^([a-z0-9.-]+)\.s3[.-]/.exec(request.hostname)?.[1];
  const bucket = hosted || decodeURIComponent(segments.shift() ?? '');
  const key = segments.map(decodeURIComponent).join('/');
  const method = request.method.toUpperCase();
  const object = `arn:aws:s3:::${bucket}/${key}`;
  let operation: string;
  let requests: AuthorizationRequest[];
  if (!key) {
    if (method !== 'GET') throw new UnmodelledRequestError(`S3 ${method} on a bucket`);
    operation = 'ListObjectsV2';
    requests = [{ action: 's3:ListBucket', resource: `arn:aws:s3:::${bucket}` }];
  } else if (method === 'GET' || method === 'HEAD') {
    operation = method === 'GET' ? 'GetObject' : 'HeadObject';
    requests = [{ action: 's3:GetObject', resource: object }];
  } else if (method === 'PUT') {
    const source = headerOf(request, 'x-amz-copy-source');
    operation = source ? 'CopyObject' : 'PutObject';
    requests = [{ action: 's3:PutObject', resource: object }];
    if (source) requests.push({ action: 's3:GetObject', resource: `arn:aws:s3:::${decodeURIComponent(source.replace(/^\//, '').split('?')[0])}` });
  } else if (method === 'DELETE') {
    operation = 'DeleteObject';
    requests = [{ action: 's3:DeleteObject', resource: object }];
  } else {
    throw new UnmodelledRequestError(`S3 ${method} ${request.path}`);
  }
  return { service: 's3', operation, protocol: 's3', requests };
}

/**
 * Bedrock runtime (REST-JSON): `POST /model/{modelId}/invoke` is bedrock:InvokeModel on the foundation model in the
 * request's signing region (a model ARN, e.g. an inference profile, stands for itself); the streaming variant is its
 * own action. Converse is authorized as InvokeModel and ConverseStream as InvokeModelWithResponseStream (Bedrock's
 * API reference: they have no actions of their own).
 */
function bedrock(request: SignedRequest): RequestAuthorization {
  const match = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream|converse|converse-stream)$/.exec(request.path);
  if (!match || request.method.toUpperCase() !== 'POST') throw new UnmodelledRequestError(`bedrock ${request.method} ${request.path}`);
  const region = /Credential=[^/]+\/\d{8}\/([^/]+)\//.exec(headerOf(request, 'authorization') ?? '')?.[1];
  const modelId = decodeURIComponent(match[1]);
  const [operation, action] = {
    invoke: ['InvokeModel', 'InvokeModel'],
    'invoke-with-response-stream': ['InvokeModelWithResponseStream', 'InvokeModelWithResponseStream'],
    converse: ['Converse', 'InvokeModel'],
    'converse-stream': ['ConverseStream', 'InvokeModelWithResponseStream'],
  }[match[2] as 'invoke' | 'invoke-with-response-stream' | 'converse' | 'converse-stream'];
  const resource = modelId.startsWith('arn:') ? modelId : `arn:aws:bedrock:${region}::foundation-model/${modelId}`;
  return { service: 'bedrock', operation, protocol: 'rest-json', requests: [{ action: `bedrock:${action}`, resource }] };
}

const JSON_SERVICES: Record<string, (operation: string, body: Record<string, any>) => AuthorizationRequest[]> = {
  dynamodb,
  states,
  secretsmanager,
};

export function authorizationOf(request: SignedRequest): RequestAuthorization {
  const service = signedService(request);
  if (!service) throw new UnmodelledRequestError('an unsigned request');
  if (service === 's3') return s3(request);
  if (service === 'bedrock') return bedrock(request);
  const target = headerOf(request, 'x-amz-target');
  const build = JSON_SERVICES[service];
  if (!build || !target) throw new UnmodelledRequestError(`${service} requests are not modelled by the local IAM enforcement`);
  const operation = target.slice(target.lastIndexOf('.') + 1);
  return { service, operation, protocol: 'json', requests: build(operation, jsonBody(request)) };
}

/** The principal AWS names in an AccessDenied: the function's execution role session. */
export function principalOf(functionId: string): string {
  return `arn:aws:sts::${LOCAL_ACCOUNT}:assumed-role/${functionId}Role/${functionId}`;
}

export { LOCAL_REGION };
