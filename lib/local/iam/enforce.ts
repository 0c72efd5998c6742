/**
 * IAM enforcement in the embedded runtime. Every AWS SDK request a function sends is checked, at the HTTP handler
 * SDK clients use (`@smithy/node-http-handler`, HTTP/1.1 and HTTP/2), against the policy that function's role has in the
 * synthesized template; a request the policy does not allow is answered as the service answers it on AWS
 * (JSON protocols: 400 AccessDeniedException; S3: 403 AccessDenied; Bedrock: 403 AccessDeniedException), so the
 * handler sees the same error it would see deployed.
 *
 * Which function is calling is the thread's (a function instance's worker thread runs one function: `runThreadAs`) or
 * is carried by AsyncLocalStorage where one thread runs several (`asFunction(id, …)`: tests, the bench). Requests made outside any function (the runtime's own
 * table creation, a test reading a table) are an operator's, and are not checked.
 *
 * Not modelled: resource policies (bucket, key, secret policies), SCPs and permission boundaries, KMS key policies,
 * session policies, condition keys (no grant of ours has a condition; the evaluator refuses one rather than ignore
 * it), and IAM's eventual consistency.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { Readable } from 'node:stream';
import { NodeHttp2Handler, NodeHttpHandler } from '@smithy/node-http-handler';
import type { HttpRequest, HttpResponse } from '@smithy/types';
import { accessDeniedMessage, evaluateRequests, type PolicyStatement } from './policy.js';
import { authorizationOf, principalOf, UnmodelledRequestError, type Protocol } from './requests.js';

const calling = new AsyncLocalStorage<string>();
/**
 * The function a whole thread runs as: a function instance's worker thread runs one function only
 * (lib/local/functions/worker.ts), so it needs no per-invocation context — which would turn on AsyncLocalStorage's
 * promise hooks for every promise of the instance, a cost Lambda does not have.
 */
let threadFunction: string | undefined;

/** Runs `work` as function `functionId` (a route, task or sweeper id): its AWS calls are checked against its policy. */
export function asFunction<T>(functionId: string, work: () => T): T {
  return calling.run(functionId, work);
}

/** Every AWS call of this thread is function `functionId`'s (a function instance's worker thread). */
export function runThreadAs(functionId: string): void {
  threadFunction = functionId;
}

export function callingFunction(): string | undefined {
  return calling.getStore() ?? threadFunction;
}

export interface Denial {
  functionId: string;
  action: string;
  resource: string;
  message: string;
}

export interface Enforcement {
  /** Every refusal since installation (the runtime logs them; tests read them). */
  denials: Denial[];
  uninstall(): void;
}

/** The decision for one request of function `functionId`: undefined = allowed. Exported for tests. */
export function decide(policies: Record<string, PolicyStatement[]>, functionId: string, request: HttpRequest): { denial: Denial; protocol: Protocol } | undefined {
  let authorization;
  try {
    authorization = authorizationOf(request);
  } catch (error) {
    if (!(error instanceof UnmodelledRequestError)) throw error;
    const message = `Local IAM enforcement refused a request it cannot authorize (${error.message}); model it in lib/local/iam/requests.ts`;
    return { denial: { functionId, action: 'unknown', resource: 'unknown', message }, protocol: 'json' };
  }
  const result = evaluateRequests(policies[functionId] ?? [], authorization.requests);
  if (result.decision === 'allow') return undefined;
  const { action, resource } = result.denied!;
  const message = accessDeniedMessage(principalOf(functionId), action, resource, result.decision);
  return { denial: { functionId, action, resource, message }, protocol: authorization.protocol };
}

function deniedResponse(protocol: Protocol, message: string): HttpResponse {
  if (protocol === 'rest-json') {
    // As Bedrock answers it: 403, the error type in x-amzn-ErrorType, {message} in the body.
    const json = JSON.stringify({ message: message });
    return {
      statusCode: 403,
      headers: { 'content-type': 'application/json', 'x-amzn-errortype': 'AccessDeniedException', 'x-amzn-requestid': 'local' },
      body: Readable.from([Buffer.from(json)]),
    };
  }
  if (protocol === 's3') {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>${escapeXml(message)}</Message><RequestId>local</RequestId></Error>`;
    return { statusCode: 403, headers: { 'content-type': 'application/xml', 'x-amz-request-id': 'local' }, body: Readable.from([Buffer.from(xml)]) };
  }
  const json = JSON.stringify({ __type: 'com.amazon.coral.service#AccessDeniedException', message, Message: message });
  return {
    statusCode: 400,
    headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-errortype': 'AccessDeniedException', 'x-amzn-requestid': 'local' },
    body: Readable.from([Buffer.from(json)]),
  };
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

let installed: Enforcement | undefined;

/** Installs the check for the whole process (once); `policies` maps function id → its role's statements. */
export function installIamEnforcement(policies: Record<string, PolicyStatement[]>, log: (line: string) => void = () => {}): Enforcement {
  if (installed) throw new Error('IAM enforcement is already installed in this process');
  const denials: Denial[] = [];
  // Both of the SDK's Node handlers: HTTP/1.1, and HTTP/2 (the Bedrock runtime client's default), so a client built
  // with either is checked.
  const handlers = [NodeHttpHandler.prototype, NodeHttp2Handler.prototype] as { handle: NodeHttpHandler['handle'] }[];
  const originals = handlers.map((prototype) => prototype.handle);
  handlers.forEach((prototype, i) => {
    const original = originals[i];
    prototype.handle = function handle(this: unknown, request, options) {
      const functionId = callingFunction();
      const verdict = functionId === undefined ? undefined : decide(policies, functionId, request);
      if (!verdict) return original.call(this, request, options);
      denials.push(verdict.denial);
      log(`[iam] ${verdict.denial.functionId}: ${verdict.denial.message}`);
      return Promise.resolve({ response: deniedResponse(verdict.protocol, verdict.denial.message) });
    };
  });
  installed = {
    denials,
    uninstall: () => {
      handlers.forEach((prototype, i) => (prototype.handle = originals[i]));
      installed = undefined;
    },
  };
  return installed;
}
