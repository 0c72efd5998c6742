/**
 * The embedded runtime's IAM identity-policy evaluator (lib/local/iam/policy.ts): wildcards, the case rules of
 * actions and resources, explicit deny, several resources per call, and conditions refused rather than ignored.
 */
import { describe, expect, it } from 'vitest';
import {
  accessDeniedMessage,
  actionMatches,
  DYNAMODB_TRANSACT_ITEM_ACTIONS,
  evaluate,
  evaluateAll,
  evaluateRequests,
  PolicyEvaluationError,
  resourceMatches,
  type PolicyStatement,
} from '../../../lib/local/iam/policy.js';

const TABLE = (name: string) => `arn:aws:dynamodb:local:000000000000:table/${name}`;
const JOBS = TABLE('jobs');
const PAYMENTS = TABLE('payments');

const readJobs: PolicyStatement = { Effect: 'Allow', Action: ['dynamodb:Get*', 'dynamodb:Query'], Resource: JOBS };
const writeBoth: PolicyStatement = { Effect: 'Allow', Action: ['dynamodb:PutItem', 'dynamodb:UpdateItem'], Resource: [JOBS, PAYMENTS] };
const bucket: PolicyStatement = { Effect: 'Allow', Action: 's3:*', Resource: 'arn:aws:s3:::paycall-assets/*' };

describe('action matching', () => {
  it('matches exactly, with * and ? wildcards', () => {
    expect(actionMatches('dynamodb:GetItem', 'dynamodb:GetItem')).toBe(true);
    expect(actionMatches('dynamodb:Get*', 'dynamodb:GetItem')).toBe(true);
    expect(actionMatches('dynamodb:Get*', 'dynamodb:PutItem')).toBe(false);
    expect(actionMatches('s3:*', 's3:PutObject')).toBe(true);
    expect(actionMatches('*', 'states:StartExecution')).toBe(true);
    expect(actionMatches('s3:?etObject', 's3:GetObject')).toBe(true);
    expect(actionMatches('s3:?etObject', 's3:GGetObject')).toBe(false);
    expect(actionMatches('dynamodb:GetItem', 'dynamodb:GetItems')).toBe(false);
  });

  it('is case-insensitive', () => {
    expect(actionMatches('DynamoDB:getitem', 'dynamodb:GetItem')).toBe(true);
    expect(actionMatches('S3:Get*', 's3:getobject')).toBe(true);
  });

  it('treats regular-expression characters literally', () => {
    expect(actionMatches('s3.GetObject', 's3:GetObject')).toBe(false);
    expect(actionMatches('s3:Get(Object)', 's3:GetObject')).toBe(false);
  });
});

describe('resource matching', () => {
  it('matches with * (across / and :) and ?', () => {
    expect(resourceMatches('arn:aws:s3:::paycall-assets/*', 'arn:aws:s3:::paycall-assets/renders/x/manifest.json')).toBe(true);
    expect(resourceMatches('arn:aws:s3:::paycall-assets/*', 'arn:aws:s3:::paycall-assets')).toBe(false);
    expect(resourceMatches('arn:aws:states:local:000000000000:execution:ImageWorkflow:*', 'arn:aws:states:local:000000000000:execution:ImageWorkflow:job-1')).toBe(true);
    expect(resourceMatches('arn:aws:secretsmanager:local:000000000000:secret:paycall/settler-key-??????', 'arn:aws:secretsmanager:local:000000000000:secret:paycall/settler-key-AbC123')).toBe(true);
    expect(resourceMatches('arn:aws:secretsmanager:local:000000000000:secret:paycall/settler-key-??????', 'arn:aws:secretsmanager:local:000000000000:secret:paycall/settler-key-AbC12')).toBe(false);
    expect(resourceMatches('*', JOBS)).toBe(true);
  });

  it('is case-sensitive', () => {
    expect(resourceMatches(JOBS, TABLE('Jobs'))).toBe(false);
    expect(resourceMatches('arn:aws:s3:::paycall-assets/Renders/*', 'arn:aws:s3:::paycall-assets/renders/x')).toBe(false);
  });

  it('refuses policy variables', () => {
    expect(() => resourceMatches('arn:aws:s3:::b/${aws:username}/*', 'arn:aws:s3:::b/x/y')).toThrow(PolicyEvaluationError);
  });
});

describe('evaluate', () => {
  it('allows what an Allow statement covers and names the statement', () => {
    expect(evaluate([readJobs], { action: 'dynamodb:GetItem', resource: JOBS })).toEqual({ decision: 'allow', matched: readJobs });
    expect(evaluate([bucket], { action: 's3:PutObject', resource: 'arn:aws:s3:::paycall-assets/a.png' }).decision).toBe('allow');
  });

  it('denies implicitly what no statement covers: other action, other resource, no statements', () => {
    expect(evaluate([readJobs], { action: 'dynamodb:PutItem', resource: JOBS })).toEqual({ decision: 'implicit-deny' });
    expect(evaluate([readJobs], { action: 'dynamodb:GetItem', resource: PAYMENTS }).decision).toBe('implicit-deny');
    expect(evaluate([], { action: 'dynamodb:GetItem', resource: JOBS }).decision).toBe('implicit-deny');
  });

  it('lets an explicit Deny win over any Allow, whatever the order', () => {
    const deny: PolicyStatement = { Sid: 'NoPayments', Effect: 'Deny', Action: 'dynamodb:*', Resource: PAYMENTS };
    for (const statements of [[writeBoth, deny], [deny, writeBoth]]) {
      expect(evaluate(statements, { action: 'dynamodb:PutItem', resource: PAYMENTS })).toEqual({ decision: 'explicit-deny', matched: deny });
      expect(evaluate(statements, { action: 'dynamodb:PutItem', resource: JOBS }).decision).toBe('allow');
    }
  });

  it('supports NotAction and NotResource', () => {
    const allButDelete: PolicyStatement = { Effect: 'Allow', NotAction: 'dynamodb:Delete*', Resource: JOBS };
    expect(evaluate([allButDelete], { action: 'dynamodb:PutItem', resource: JOBS }).decision).toBe('allow');
    expect(evaluate([allButDelete], { action: 'dynamodb:DeleteItem', resource: JOBS }).decision).toBe('implicit-deny');
    const notPayments: PolicyStatement = { Effect: 'Deny', Action: '*', NotResource: JOBS };
    expect(evaluate([writeBoth, notPayments], { action: 'dynamodb:PutItem', resource: PAYMENTS }).decision).toBe('explicit-deny');
    expect(evaluate([writeBoth, notPayments], { action: 'dynamodb:PutItem', resource: JOBS }).decision).toBe('allow');
  });

  it('refuses malformed statements', () => {
    const noAction = { Effect: 'Allow', Resource: JOBS } as PolicyStatement;
    const both = { Effect: 'Allow', Action: '*', NotAction: 's3:*', Resource: '*' } as PolicyStatement;
    const noResource = { Effect: 'Allow', Action: '*' } as PolicyStatement;
    const badEffect = { Effect: 'allow', Action: '*', Resource: '*' } as unknown as PolicyStatement;
    for (const s of [noAction, both, noResource, badEffect]) {
      expect(() => evaluate([s], { action: 'dynamodb:GetItem', resource: JOBS })).toThrow(PolicyEvaluationError);
    }
  });
});

describe('conditions', () => {
  const conditioned: PolicyStatement = {
    Sid: 'OnlyFromVpc',
    Effect: 'Allow',
    Action: 'dynamodb:GetItem',
    Resource: JOBS,
    Condition: { StringEquals: { 'aws:SourceVpc': 'vpc-1' } },
  };

  it('refuses to evaluate a statement that applies and carries a condition (no operator is supported)', () => {
    expect(() => evaluate([conditioned], { action: 'dynamodb:GetItem', resource: JOBS })).toThrow(/unsupported condition operator "StringEquals".*OnlyFromVpc/);
    const deny: PolicyStatement = { Effect: 'Deny', Action: '*', Resource: '*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } };
    expect(() => evaluate([readJobs, deny], { action: 'dynamodb:GetItem', resource: JOBS })).toThrow(/"Bool"/);
  });

  it('ignores a conditioned statement whose action or resource does not apply (it cannot change the decision)', () => {
    expect(evaluate([conditioned], { action: 'dynamodb:PutItem', resource: JOBS }).decision).toBe('implicit-deny');
    expect(evaluate([conditioned, readJobs], { action: 'dynamodb:GetItem', resource: PAYMENTS }).decision).toBe('implicit-deny');
  });

  it('treats an empty Condition as none', () => {
    expect(evaluate([{ ...readJobs, Condition: {} }], { action: 'dynamodb:GetItem', resource: JOBS }).decision).toBe('allow');
  });
});

describe('several resources per call', () => {
  it('allows only if every resource is allowed, and names the first one that is not', () => {
    expect(evaluateAll([writeBoth], 'dynamodb:PutItem', [JOBS, PAYMENTS]).decision).toBe('allow');
    const partial = evaluateAll([readJobs], 'dynamodb:GetItem', [JOBS, PAYMENTS, TABLE('idempotency')]);
    expect(partial.decision).toBe('implicit-deny');
    expect(partial.denied).toEqual({ action: 'dynamodb:GetItem', resource: PAYMENTS });
    expect(partial.results.map((r) => r.decision)).toEqual(['allow', 'implicit-deny', 'implicit-deny']);
  });

  it('reports an explicit deny before an implicit one', () => {
    const deny: PolicyStatement = { Effect: 'Deny', Action: 'dynamodb:*', Resource: TABLE('idempotency') };
    const result = evaluateAll([readJobs, deny], 'dynamodb:GetItem', [JOBS, PAYMENTS, TABLE('idempotency')]);
    expect(result).toMatchObject({ decision: 'explicit-deny', matched: deny, denied: { resource: TABLE('idempotency') } });
  });

  it('evaluates a transaction item by item with the underlying item actions', () => {
    const items = [
      { action: DYNAMODB_TRANSACT_ITEM_ACTIONS.Put, resource: JOBS },
      { action: DYNAMODB_TRANSACT_ITEM_ACTIONS.Update, resource: PAYMENTS },
    ];
    expect(evaluateRequests([writeBoth], items).decision).toBe('allow');
    const withCheck = [...items, { action: DYNAMODB_TRANSACT_ITEM_ACTIONS.ConditionCheck, resource: JOBS }];
    expect(evaluateRequests([writeBoth], withCheck).denied).toEqual({ action: 'dynamodb:ConditionCheckItem', resource: JOBS });
  });

  it('refuses an empty request list', () => {
    expect(() => evaluateAll([writeBoth], 'dynamodb:PutItem', [])).toThrow(PolicyEvaluationError);
  });
});

describe('accessDeniedMessage', () => {
  const principal = 'arn:aws:sts::000000000000:assumed-role/GetImageServiceRole/GetImage';

  it('uses the AWS wording for an implicit deny', () => {
    expect(accessDeniedMessage(principal, 'dynamodb:PutItem', JOBS)).toBe(
      `User: ${principal} is not authorized to perform: dynamodb:PutItem on resource: ${JOBS} because no identity-based policy allows the dynamodb:PutItem action`,
    );
  });

  it('uses the AWS wording for an explicit deny', () => {
    expect(accessDeniedMessage(principal, 'dynamodb:PutItem', JOBS, 'explicit-deny')).toBe(
      `User: ${principal} is not authorized to perform: dynamodb:PutItem on resource: ${JOBS} with an explicit deny in an identity-based policy`,
    );
  });
});
