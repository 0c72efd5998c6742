/**
 * The local IAM evaluator's reading of a Bedrock runtime call (lib/local/iam/requests.ts), from the request the real
 * `@aws-sdk/client-bedrock-runtime` signs (captured at the HTTP handler, nothing sent), and its verdict against a
 * policy granting one model.
 */
import { BedrockRuntimeClient, InvokeModelCommand } from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import type { HttpRequest } from '@smithy/types';
import { describe, expect, it } from 'vitest';
import { authorizationOf, UnmodelledRequestError } from '../../../lib/local/iam/requests.js';
import { decide } from '../../../lib/local/iam/enforce.js';
import type { PolicyStatement } from '../../../lib/local/iam/policy.js';

const CORE = 'stability.stable-image-core-v1:1';

/** The HttpRequest the SDK would send for InvokeModel of `modelId` (signed; intercepted before the network). */
async function signedInvoke(modelId: string, region = 'us-west-2'): Promise<HttpRequest> {
  let captured: HttpRequest | undefined;
  const handler = new NodeHttpHandler();
  handler.handle = async (request: HttpRequest) => {
    captured = request;
    throw new Error('captured');
  };
  const client = new BedrockRuntimeClient({ region, endpoint: 'http://127.0.0.1:9', credentials: { accessKeyId: 'AKID', secretAccessKey: 'secret' }, maxAttempts: 1, requestHandler: handler });
  await client.send(new InvokeModelCommand({ modelId, contentType: 'application/json', body: '{"prompt":"a fox"}' })).catch(() => undefined);
  client.destroy();
  if (!captured) throw new Error('the SDK sent nothing');
  return captured;
}

describe('Bedrock runtime requests as IAM sees them', () => {
  it('InvokeModel is bedrock:InvokeModel on the foundation model in the signing region (the SDK percent-encodes the colon)', async () => {
    const request = await signedInvoke(CORE);
    expect(request.path).toBe('/model/stability.stable-image-core-v1%3A1/invoke');
    expect(authorizationOf(request)).toEqual({
      service: 'bedrock',
      operation: 'InvokeModel',
      protocol: 'rest-json',
      requests: [{ action: 'bedrock:InvokeModel', resource: `arn:aws:bedrock:us-west-2::foundation-model/${CORE}` }],
    });
    expect(authorizationOf(await signedInvoke(CORE, 'us-east-1')).requests[0].resource).toBe(`arn:aws:bedrock:us-east-1::foundation-model/${CORE}`);
  });

  it('a model ARN (an inference profile) is its own resource; another Bedrock path is not guessed at', async () => {
    const arn = 'arn:aws:bedrock:us-west-2:123456789012:inference-profile/us.stability.sd3-5-large-v1:0';
    expect(authorizationOf(await signedInvoke(arn)).requests[0].resource).toBe(arn);
    const request = await signedInvoke(CORE);
    expect(() => authorizationOf({ ...request, path: '/async-invoke', method: 'POST' })).toThrow(UnmodelledRequestError);
  });

  it('the template’s grant of one model allows that model only: another model, or no grant, is AccessDenied (403, as Bedrock)', async () => {
    const grant: PolicyStatement[] = [{ Effect: 'Allow', Action: 'bedrock:InvokeModel', Resource: `arn:aws:bedrock:us-west-2::foundation-model/${CORE}` }];
    const policies = { RenderBedrockStability: grant, StoreAsset: [] };
    expect(decide(policies, 'RenderBedrockStability', await signedInvoke(CORE))).toBeUndefined();
    const other = decide(policies, 'RenderBedrockStability', await signedInvoke('stability.sd3-5-large-v1:0'));
    expect(other).toMatchObject({ protocol: 'rest-json', denial: { action: 'bedrock:InvokeModel', resource: 'arn:aws:bedrock:us-west-2::foundation-model/stability.sd3-5-large-v1:0' } });
    expect(other!.denial.message).toMatch(/not authorized to perform: bedrock:InvokeModel/);
    // The same model in another region is another resource.
    expect(decide(policies, 'RenderBedrockStability', await signedInvoke(CORE, 'us-east-1'))).toBeDefined();
    expect(decide(policies, 'StoreAsset', await signedInvoke(CORE))).toMatchObject({ denial: { action: 'bedrock:InvokeModel' } });
  });
});
