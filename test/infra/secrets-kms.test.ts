/**
 * Secrets under a customer managed KMS key (context `secretsKmsKeyArn`; docs/deploy.md runbook step 5): Secrets Manager
 * decrypts a secret with its key on behalf of the reader, so a role that may GetSecretValue but not kms:Decrypt on
 * that key is refused (AccessDeniedException, "Access to KMS is not allowed"). With the key named, exactly the roles
 * that read a secret may decrypt with it, on that key alone and only through Secrets Manager of the stack's region;
 * without it, no role may use any key.
 */
import { App, type Environment } from 'aws-cdk-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { PaycallStack, PROJECT_ROOT } from '../../lib/paycall-stack.js';
import { parseStackConfig, readCdkJsonContext } from '../../lib/config.js';
import { SWEEPER } from '../../lambdas/surfaces/routes.js';
import { ofType, type Resources } from '../support/template.js';
import { flatTemplateOf, SECRET_READERS_CONTEXT } from '../support/synth.js';

const REGION = 'eu-west-1';
const ENV: Environment = { account: '123456789012', region: REGION };
const KEY = `arn:aws:kms:${REGION}:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab`;
/**
 * Every secret a function may read: the settler's, refund, service, offer-signing and AP2 merchant keys and the
 * vendors' API keys (always: every render provider has its function), the RPC URLs' and the token seller's.
 */
const READERS_CONTEXT = SECRET_READERS_CONTEXT;

let cdkContext: Record<string, unknown>;
beforeAll(async () => {
  cdkContext = await readCdkJsonContext(PROJECT_ROOT);
});

function synth(extra: Record<string, unknown>, env?: Environment) {
  const app = new App({ context: { ...cdkContext, 'aws:cdk:bundling-stacks': [], ...extra } });
  const stack = new PaycallStack(app, 'Gen', { allowMissingEntries: true, env });
  return flatTemplateOf(stack).toJSON() as { Resources: Resources; Rules?: Record<string, any> };
}

interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: unknown;
}

/** Each role of the template (by logical id) with the statements of the policies attached to it. */
function statementsByRole(resources: Resources): Map<string, Statement[]> {
  const byRole = new Map<string, Statement[]>(ofType(resources, 'AWS::IAM::Role').map(([id]) => [id, []]));
  for (const [, policy] of ofType(resources, 'AWS::IAM::Policy')) {
    for (const role of policy.Properties.Roles as { Ref: string }[]) byRole.get(role.Ref)!.push(...(policy.Properties.PolicyDocument.Statement as Statement[]));
  }
  return byRole;
}
const actions = (st: Statement) => (Array.isArray(st.Action) ? st.Action : [st.Action]);
const readsSecrets = (statements: Statement[]) => statements.some((st) => st.Effect === 'Allow' && actions(st).includes('secretsmanager:GetSecretValue'));
const usesKms = (statements: Statement[]) => statements.filter((st) => actions(st).some((a) => a.startsWith('kms:')));

/** The role of each function, by the function's logical id. */
function functionOfRole(resources: Resources): Map<string, string> {
  return new Map(ofType(resources, 'AWS::Lambda::Function').map(([id, fn]) => [fn.Properties.Role['Fn::GetAtt'][0] as string, id]));
}

describe('secretsKmsKeyArn: the roles that read a secret may decrypt it with the key', () => {
  let resources: Resources;
  beforeAll(() => {
    resources = synth({ ...READERS_CONTEXT, secretsKmsKeyArn: KEY }, ENV).Resources;
  });

  it('exactly the roles that may GetSecretValue get kms:Decrypt, on that key, through Secrets Manager of the region', () => {
    const readers: string[] = [];
    for (const [role, statements] of statementsByRole(resources)) {
      if (readsSecrets(statements)) {
        readers.push(role);
        expect(usesKms(statements), role).toEqual([
          { Effect: 'Allow', Action: 'kms:Decrypt', Resource: KEY, Condition: { StringEquals: { 'kms:ViaService': `secretsmanager.${REGION}.amazonaws.com` } } },
        ]);
      } else {
        expect(usesKms(statements), role).toEqual([]);
      }
    }
    // The readers are many (paid, run, top-up and poll routes, the tasks and render functions, the sweeper, …).
    const readingFunctions = readers.map((role) => functionOfRole(resources).get(role));
    expect(readingFunctions.length).toBeGreaterThan(15);
    for (const id of [SWEEPER.id, 'RefundPayment', 'DeliverWebhook', 'RenderGoogleVeo', 'CreateMusic', 'RunAgent', 'GatewayTopUp', 'CancelJob']) {
      expect(readingFunctions.some((logicalId) => logicalId?.startsWith(id)), id).toBe(true);
    }
  });
});

describe('without secretsKmsKeyArn', () => {
  it('no role may use a KMS key (Secrets Manager decrypts with its own default key)', () => {
    const { Resources: resources } = synth(READERS_CONTEXT, ENV);
    const byRole = statementsByRole(resources);
    expect([...byRole.values()].filter(readsSecrets).length).toBeGreaterThan(15);
    expect([...byRole].filter(([, statements]) => usesKms(statements).length)).toEqual([]);
  });
});

describe('the key is checked', () => {
  it.each([
    ['an alias', `arn:aws:kms:${REGION}:123456789012:alias/paycall`],
    ['a bare key id', '1234abcd-12ab-34cd-56ef-1234567890ab'],
    ["another service's ARN", `arn:aws:secretsmanager:${REGION}:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab`],
  ])('%s is refused, naming the key', (_, arn) => {
    expect(() => parseStackConfig({ secretsKmsKeyArn: arn })).toThrow(/context key "secretsKmsKeyArn" must be a KMS key ARN/);
  });

  it('a multi-Region key is taken', () => {
    expect(parseStackConfig({ secretsKmsKeyArn: `arn:aws:kms:${REGION}:123456789012:key/mrk-1234abcd12ab34cd56ef1234567890ab` }).secretsKmsKeyArn).toMatch(/mrk-/);
  });

  it("a key outside the stack's region fails synthesis when the region is known", () => {
    expect(() => synth({ secretsKmsKeyArn: KEY.replace(REGION, 'us-east-1') }, ENV)).toThrow(
      /context key "secretsKmsKeyArn" must be a key in the stack's region eu-west-1 .*got us-east-1/,
    );
  });

  it('an environment-agnostic template carries a rule that fails the deployment in another region', () => {
    const { Rules: rules } = synth({ secretsKmsKeyArn: KEY });
    expect(rules?.SecretsKmsKeyRegion.Assertions).toEqual([
      { Assert: { 'Fn::Equals': [{ Ref: 'AWS::Region' }, REGION] }, AssertDescription: expect.stringContaining('"secretsKmsKeyArn"') },
    ]);
  });
});
