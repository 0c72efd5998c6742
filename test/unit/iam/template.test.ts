/**
 * Per-function policies read from a synthesised template (lib/local/iam/template.ts), on small hand-written
 * templates: where statements come from (DefaultPolicy, inline, managed), each intrinsic function, and tokens that
 * cannot be resolved (they throw with their JSON, never a silent allow).
 */
import { describe, expect, it } from 'vitest';
import { createResolver, functionPolicies, TemplateResolutionError, type CfnResources, type LocalResolverConfig } from '../../../lib/local/iam/template.js';
import { evaluate } from '../../../lib/local/iam/policy.js';

const CONFIG: LocalResolverConfig = {
  region: 'local',
  account: '000000000000',
  tables: { JobsTable1: 'jobs' },
  stateMachines: { ImageMachine1: 'arn:aws:states:local:000000000000:stateMachine:ImageWorkflow' },
  buckets: { AssetsBucket1: 'paycall-assets' },
  functions: { Fn1: 'arn:aws:lambda:local:000000000000:function:GetImage' },
  parameters: { PayToParam: '0xabc' },
};

const partition = { Ref: 'AWS::Partition' };
const BASE: CfnResources = {
  JobsTable1: { Type: 'AWS::DynamoDB::Table', Properties: {} },
  StreamTable1: { Type: 'AWS::DynamoDB::Table', Properties: { StreamSpecification: { StreamViewType: 'NEW_IMAGE' } } },
  ImageMachine1: { Type: 'AWS::StepFunctions::StateMachine', Properties: {} },
  AssetsBucket1: { Type: 'AWS::S3::Bucket', Properties: {} },
  Fn1: { Type: 'AWS::Lambda::Function', Properties: { Role: { 'Fn::GetAtt': ['Fn1Role', 'Arn'] } } },
  Fn1Role: {
    Type: 'AWS::IAM::Role',
    Properties: { ManagedPolicyArns: [{ 'Fn::Join': ['', ['arn:', partition, ':iam::aws:policy/service-role/AWSLambdaBasicExecutionRole']] }] },
  },
};

const resolver = createResolver({ ...BASE, StreamTable1: BASE.StreamTable1 }, { ...CONFIG, tables: { ...CONFIG.tables, StreamTable1: 'events' } });
const resolve = (v: unknown) => resolver.resolve(v);

describe('intrinsic functions', () => {
  it('Ref: pseudo parameters, tables, state machines, buckets, functions, template parameters', () => {
    expect(['AWS::Partition', 'AWS::Region', 'AWS::AccountId', 'AWS::URLSuffix'].map((Ref) => resolve({ Ref }))).toEqual([
      'aws',
      'local',
      '000000000000',
      'amazonaws.com',
    ]);
    expect(resolve({ Ref: 'JobsTable1' })).toBe('jobs');
    expect(resolve({ Ref: 'ImageMachine1' })).toBe('arn:aws:states:local:000000000000:stateMachine:ImageWorkflow');
    expect(resolve({ Ref: 'AssetsBucket1' })).toBe('paycall-assets');
    expect(resolve({ Ref: 'Fn1' })).toBe('GetImage');
    expect(resolve({ Ref: 'PayToParam' })).toBe('0xabc');
  });

  it('Fn::GetAtt: Arn of tables, machines, buckets, functions; StreamArn; Name; the string form', () => {
    expect(resolve({ 'Fn::GetAtt': ['JobsTable1', 'Arn'] })).toBe('arn:aws:dynamodb:local:000000000000:table/jobs');
    expect(resolve({ 'Fn::GetAtt': ['StreamTable1', 'StreamArn'] })).toMatch(/^arn:aws:dynamodb:local:000000000000:table\/events\/stream\/.+/);
    expect(resolve({ 'Fn::GetAtt': ['ImageMachine1', 'Arn'] })).toBe('arn:aws:states:local:000000000000:stateMachine:ImageWorkflow');
    expect(resolve({ 'Fn::GetAtt': ['ImageMachine1', 'Name'] })).toBe('ImageWorkflow');
    expect(resolve({ 'Fn::GetAtt': ['AssetsBucket1', 'Arn'] })).toBe('arn:aws:s3:::paycall-assets');
    expect(resolve({ 'Fn::GetAtt': ['Fn1', 'Arn'] })).toBe('arn:aws:lambda:local:000000000000:function:GetImage');
    expect(resolve({ 'Fn::GetAtt': 'JobsTable1.Arn' })).toBe('arn:aws:dynamodb:local:000000000000:table/jobs');
  });

  it('Fn::Join, Fn::Select over Fn::Split (the execution ARN CDK builds from a state machine ARN)', () => {
    expect(resolve({ 'Fn::Join': ['', [{ 'Fn::GetAtt': ['AssetsBucket1', 'Arn'] }, '/*']] })).toBe('arn:aws:s3:::paycall-assets/*');
    const execution = {
      'Fn::Join': [
        '',
        ['arn:', partition, ':states:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ':execution:', { 'Fn::Select': [6, { 'Fn::Split': [':', { Ref: 'ImageMachine1' }] }] }, ':*'],
      ],
    };
    expect(resolve(execution)).toBe('arn:aws:states:local:000000000000:execution:ImageWorkflow:*');
    expect(resolve({ 'Fn::Select': ['1', ['a', { Ref: 'AWS::Region' }]] })).toBe('local');
    expect(resolve({ 'Fn::Join': [':', { 'Fn::Split': ['/', 'a/b/c'] }] })).toBe('a:b:c');
  });

  it('Fn::Sub: pseudo parameters, Ref and GetAtt forms, a variable map, ${!literal}', () => {
    expect(resolve({ 'Fn::Sub': 'cdk-assets-${AWS::AccountId}-${AWS::Region}' })).toBe('cdk-assets-000000000000-local');
    expect(resolve({ 'Fn::Sub': '${AssetsBucket1.Arn}/renders/*' })).toBe('arn:aws:s3:::paycall-assets/renders/*');
    expect(resolve({ 'Fn::Sub': 'arn:${AWS::Partition}:dynamodb:${AWS::Region}:${AWS::AccountId}:table/${JobsTable1}' })).toBe(
      'arn:aws:dynamodb:local:000000000000:table/jobs',
    );
    expect(resolve({ 'Fn::Sub': ['${Machine}:*', { Machine: { Ref: 'ImageMachine1' } }] })).toBe(
      'arn:aws:states:local:000000000000:stateMachine:ImageWorkflow:*',
    );
    expect(resolve({ 'Fn::Sub': 'literal-${!Name}' })).toBe('literal-${Name}');
  });

  it('an unresolvable token throws with its JSON', () => {
    const unresolvable: unknown[] = [
      { Ref: 'Nowhere' },
      { Ref: 'AWS::StackName' },
      { 'Fn::GetAtt': ['JobsTable1', 'StreamArn'] },
      { 'Fn::GetAtt': ['AssetsBucket1', 'DomainName'] },
      { 'Fn::ImportValue': 'Shared-Table' },
      { 'Fn::If': ['IsProd', 'a', 'b'] },
      { 'Fn::Select': [5, ['a']] },
      { 'Fn::Split': [':', 'a:b'] },
      { 'Fn::Sub': '${AWS::NotAPseudo}' },
      '{{resolve:ssm:/paycall/pay-to}}',
      { Ref: 'JobsTable1', Extra: 1 },
      42,
    ];
    for (const token of unresolvable) {
      expect(() => resolve(token), JSON.stringify(token)).toThrow(TemplateResolutionError);
    }
    expect(() => resolve({ 'Fn::ImportValue': 'Shared-Table' })).toThrow('{"Fn::ImportValue":"Shared-Table"}');
  });

  it('a resource with no local name throws', () => {
    const bare = createResolver(BASE, { region: 'local', account: '0', tables: {}, stateMachines: {}, buckets: {} });
    expect(() => bare.resolve({ 'Fn::GetAtt': ['JobsTable1', 'Arn'] })).toThrow(/no local name for table JobsTable1/);
  });
});

describe('functionPolicies', () => {
  const ENTRIES = { Fn1: { id: 'GetImage' } };

  it('a function with only the basic execution role gets the known logs statement; with nothing at all, []', () => {
    expect(functionPolicies(BASE, ENTRIES, CONFIG)).toEqual({
      GetImage: [{ Effect: 'Allow', Action: ['logs:CreateLogGroup', 'logs:CreateLogStream', 'logs:PutLogEvents'], Resource: '*' }],
    });
    const bare = { ...BASE, Fn1Role: { Type: 'AWS::IAM::Role', Properties: {} } };
    expect(functionPolicies(bare, ENTRIES, CONFIG)).toEqual({ GetImage: [] });
  });

  it('collects the role inline policies, customer managed policies and every AWS::IAM::Policy naming the role', () => {
    const resources: CfnResources = {
      ...BASE,
      Fn1Role: {
        Type: 'AWS::IAM::Role',
        Properties: {
          Policies: [{ PolicyName: 'inline', PolicyDocument: { Statement: { Effect: 'Allow', Action: 'states:StartExecution', Resource: { Ref: 'ImageMachine1' } } } }],
          ManagedPolicyArns: [{ Ref: 'Managed1' }],
        },
      },
      Managed1: { Type: 'AWS::IAM::ManagedPolicy', Properties: { PolicyDocument: { Statement: [{ Effect: 'Allow', Action: 's3:GetObject', Resource: { 'Fn::Sub': '${AssetsBucket1.Arn}/*' } }] } } },
      Fn1RoleDefaultPolicy: {
        Type: 'AWS::IAM::Policy',
        Properties: {
          Roles: [{ Ref: 'Fn1Role' }],
          PolicyDocument: { Statement: [{ Sid: 'Read', Effect: 'Allow', Action: ['dynamodb:GetItem'], Resource: [{ 'Fn::GetAtt': ['JobsTable1', 'Arn'] }] }] },
        },
      },
      OtherPolicy: {
        Type: 'AWS::IAM::Policy',
        Properties: { Roles: [{ Ref: 'OtherRole' }], PolicyDocument: { Statement: [{ Effect: 'Allow', Action: '*', Resource: '*' }] } },
      },
    };
    const { GetImage } = functionPolicies(resources, ENTRIES, CONFIG);
    expect(GetImage).toEqual([
      { Effect: 'Allow', Action: 'states:StartExecution', Resource: 'arn:aws:states:local:000000000000:stateMachine:ImageWorkflow' },
      { Effect: 'Allow', Action: 's3:GetObject', Resource: 'arn:aws:s3:::paycall-assets/*' },
      { Sid: 'Read', Effect: 'Allow', Action: ['dynamodb:GetItem'], Resource: ['arn:aws:dynamodb:local:000000000000:table/jobs'] },
    ]);
    expect(evaluate(GetImage, { action: 'dynamodb:PutItem', resource: 'arn:aws:dynamodb:local:000000000000:table/jobs' }).decision).toBe('implicit-deny');
  });

  it('resolves Condition values and NotResource; keeps the condition for the evaluator to refuse', () => {
    const resources: CfnResources = {
      ...BASE,
      P: {
        Type: 'AWS::IAM::Policy',
        Properties: {
          Roles: [{ Ref: 'Fn1Role' }],
          PolicyDocument: {
            Statement: [{ Effect: 'Deny', Action: '*', NotResource: { Ref: 'ImageMachine1' }, Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } } }],
          },
        },
      },
    };
    const [, deny] = functionPolicies(resources, ENTRIES, CONFIG).GetImage;
    expect(deny).toEqual({
      Effect: 'Deny',
      Action: '*',
      NotResource: 'arn:aws:states:local:000000000000:stateMachine:ImageWorkflow',
      Condition: { StringEquals: { 'aws:SourceAccount': '000000000000' } },
    });
  });

  it('skips template functions that are not entries (CDK’s own) and refuses what it cannot attribute', () => {
    const withCdkFn = { ...BASE, CdkFn: { Type: 'AWS::Lambda::Function', Properties: { Role: { 'Fn::GetAtt': ['Missing', 'Arn'] } } } };
    expect(Object.keys(functionPolicies(withCdkFn, ENTRIES, CONFIG))).toEqual(['GetImage']);
    expect(() => functionPolicies(BASE, { Nope: { id: 'X' } }, CONFIG)).toThrow(/not in the template/);
    const importedRole = { ...BASE, Fn1: { Type: 'AWS::Lambda::Function', Properties: { Role: 'arn:aws:iam::1:role/x' } } };
    expect(() => functionPolicies(importedRole, ENTRIES, CONFIG)).toThrow(/no execution role/);
    const unknownManaged = { ...BASE, Fn1Role: { Type: 'AWS::IAM::Role', Properties: { ManagedPolicyArns: ['arn:aws:iam::aws:policy/AdministratorAccess'] } } };
    expect(() => functionPolicies(unknownManaged, ENTRIES, CONFIG)).toThrow(/unknown managed policy/);
    const badResource = {
      ...BASE,
      P: { Type: 'AWS::IAM::Policy', Properties: { Roles: [{ Ref: 'Fn1Role' }], PolicyDocument: { Statement: [{ Effect: 'Allow', Action: '*', Resource: { 'Fn::ImportValue': 'T' } }] } } },
    };
    expect(() => functionPolicies(badResource, ENTRIES, CONFIG)).toThrow(/unresolvable token: \{"Fn::ImportValue":"T"\}/);
  });
});
