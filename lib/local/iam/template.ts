/**
 * Each function's identity policy, read from the synthesised CloudFormation template and resolved to concrete local
 * ARNs, for the embedded runtime to enforce (./policy.ts). A function's statements are those of its execution role:
 * the role's inline `Policies`, its managed policies, and every AWS::IAM::Policy / AWS::IAM::ManagedPolicy naming the
 * role in `Roles` (CDK grants land in `<Fn>ServiceRoleDefaultPolicy…`).
 *
 * AWS managed policies are attached by ARN and are not in the template: the few Lambda uses are recorded below as
 * their published statements (logs / X-Ray on `*`). Our functions never call CloudWatch Logs or X-Ray through the
 * SDK, so these statements are inert locally; they are kept so the extracted policy is the whole role, and so an
 * unknown managed policy fails loudly instead of being dropped.
 *
 * Every CloudFormation token must resolve: anything unknown throws with its JSON (never a silent allow or deny).
 */
import type { PolicyStatement } from './policy.js';

export type CfnResources = Record<string, { Type: string; Properties?: Record<string, any> }>;

export interface LocalResolverConfig {
  region: string;
  account: string;
  /** Default `aws`. */
  partition?: string;
  /** Default `amazonaws.com`. */
  urlSuffix?: string;
  /** AWS::DynamoDB::Table logical id → local table name. */
  tables: Record<string, string>;
  /** AWS::StepFunctions::StateMachine logical id → local state machine ARN. */
  stateMachines: Record<string, string>;
  /** AWS::S3::Bucket logical id → local bucket name. */
  buckets: Record<string, string>;
  /** AWS::Lambda::Function logical id → local function ARN. */
  functions?: Record<string, string>;
  /** Template parameter (SSM-typed parameters included) → value, for `Ref` to a parameter. */
  parameters?: Record<string, string>;
}

export class TemplateResolutionError extends Error {
  override name = 'TemplateResolutionError';
}

/** Published statements of the AWS managed policies Lambda execution roles get (service-role/… or plain name). */
export const KNOWN_MANAGED_POLICIES: Record<string, PolicyStatement[]> = {
  'service-role/AWSLambdaBasicExecutionRole': [
    { Effect: 'Allow', Action: ['logs:CreateLogGroup', 'logs:CreateLogStream', 'logs:PutLogEvents'], Resource: '*' },
  ],
  AWSXRayDaemonWriteAccess: [
    {
      Effect: 'Allow',
      Action: ['xray:PutTraceSegments', 'xray:PutTelemetryRecords', 'xray:GetSamplingRules', 'xray:GetSamplingTargets', 'xray:GetSamplingStatisticSummaries'],
      Resource: '*',
    },
  ],
};

const fail = (what: string, token: unknown): never => {
  throw new TemplateResolutionError(`${what}: ${JSON.stringify(token)}`);
};

function lookup(map: Record<string, string> | undefined, id: string, kind: string, token: unknown): string {
  const value = map?.[id];
  return value ?? fail(`no local name for ${kind} ${id}`, token);
}

export interface TokenResolver {
  /** A string-valued expression → its string. */
  resolve(value: unknown): string;
  /** A list-valued expression (literal array, Fn::Split) → its strings. */
  resolveList(value: unknown): string[];
}

export function createResolver(resources: CfnResources, config: LocalResolverConfig): TokenResolver {
  const partition = config.partition ?? 'aws';
  const pseudo: Record<string, string> = {
    'AWS::Partition': partition,
    'AWS::Region': config.region,
    'AWS::AccountId': config.account,
    'AWS::URLSuffix': config.urlSuffix ?? 'amazonaws.com',
  };

  const ref = (id: string, token: unknown): string => {
    if (id in pseudo) return pseudo[id];
    const type = resources[id]?.Type;
    switch (type) {
      case 'AWS::DynamoDB::Table':
        return lookup(config.tables, id, 'table', token);
      case 'AWS::StepFunctions::StateMachine':
        return lookup(config.stateMachines, id, 'state machine', token);
      case 'AWS::S3::Bucket':
        return lookup(config.buckets, id, 'bucket', token);
      case 'AWS::Lambda::Function':
        return lookup(config.functions, id, 'function', token).split(':').pop()!;
      case undefined:
        return lookup(config.parameters, id, 'parameter', token);
    }
    return fail(`unsupported Ref to ${type}`, token);
  };

  const getAtt = (id: string, attr: string, token: unknown): string => {
    const res = resources[id];
    switch (`${res?.Type}.${attr}`) {
      case 'AWS::DynamoDB::Table.Arn':
        return `arn:${partition}:dynamodb:${config.region}:${config.account}:table/${ref(id, token)}`;
      case 'AWS::DynamoDB::Table.StreamArn':
        if (!res.Properties?.StreamSpecification) return fail(`table ${id} has no stream`, token);
        return `arn:${partition}:dynamodb:${config.region}:${config.account}:table/${ref(id, token)}/stream/1970-01-01T00:00:00.000`;
      case 'AWS::StepFunctions::StateMachine.Arn':
        return ref(id, token);
      case 'AWS::StepFunctions::StateMachine.Name':
        return ref(id, token).split(':').pop()!;
      case 'AWS::S3::Bucket.Arn':
        return `arn:${partition}:s3:::${ref(id, token)}`;
      case 'AWS::Lambda::Function.Arn':
        return lookup(config.functions, id, 'function', token);
    }
    return fail(`unsupported Fn::GetAtt ${res?.Type ?? '(no such resource)'}.${attr}`, token);
  };

  const sub = (template: unknown, vars: Record<string, unknown>, token: unknown): string => {
    if (typeof template !== 'string') return fail('Fn::Sub template is not a string', token);
    return template.replace(/\$\{([^}]*)\}/g, (_, name: string) => {
      if (name.startsWith('!')) return `\${${name.slice(1)}}`;
      if (name in vars) return resolve(vars[name]);
      const dot = name.indexOf('.');
      return dot > 0 && !name.startsWith('AWS::') ? getAtt(name.slice(0, dot), name.slice(dot + 1), token) : ref(name, token);
    });
  };

  const resolveList = (value: unknown): string[] => {
    if (Array.isArray(value)) return value.map(resolve);
    const v = value as Record<string, any> | null;
    if (v && typeof v === 'object' && Object.keys(v).length === 1 && 'Fn::Split' in v) {
      const [delimiter, source] = v['Fn::Split'] as [unknown, unknown];
      if (typeof delimiter !== 'string') return fail('Fn::Split delimiter is not a string', value);
      return resolve(source).split(delimiter);
    }
    return fail('unresolvable list token', value);
  };

  function resolve(value: unknown): string {
    if (typeof value === 'string') {
      if (value.includes('{{resolve:')) return fail('unsupported dynamic reference', value);
      return value;
    }
    const v = value as Record<string, any> | null;
    if (!v || typeof v !== 'object' || Array.isArray(v) || Object.keys(v).length !== 1) return fail('unresolvable token', value);
    const [fn, args] = Object.entries(v)[0];
    switch (fn) {
      case 'Ref':
        return typeof args === 'string' ? ref(args, value) : fail('Ref to a non-string', value);
      case 'Fn::GetAtt': {
        const [id, attr] = typeof args === 'string' ? [args.slice(0, args.indexOf('.')), args.slice(args.indexOf('.') + 1)] : args;
        return typeof id === 'string' && typeof attr === 'string' ? getAtt(id, attr, value) : fail('malformed Fn::GetAtt', value);
      }
      case 'Fn::Join':
        return Array.isArray(args) && typeof args[0] === 'string' ? resolveList(args[1]).join(args[0]) : fail('malformed Fn::Join', value);
      case 'Fn::Select': {
        const index = Number(Array.isArray(args) ? resolve(typeof args[0] === 'number' ? String(args[0]) : args[0]) : NaN);
        const items = Number.isInteger(index) ? resolveList(args[1]) : [];
        return index >= 0 && index < items.length ? items[index] : fail('Fn::Select index out of range', value);
      }
      case 'Fn::Sub':
        return Array.isArray(args) ? sub(args[0], args[1] ?? {}, value) : sub(args, {}, value);
    }
    return fail('unresolvable token', value);
  }

  return { resolve, resolveList };
}

const statementsOf = (document: any, where: string): any[] => {
  const statement = document?.Statement;
  if (statement === undefined) return fail(`policy document without Statement in ${where}`, document);
  return Array.isArray(statement) ? statement : [statement];
};

function resolveStatement(raw: any, resolver: TokenResolver, where: string): PolicyStatement {
  const out: PolicyStatement = { Effect: raw.Effect };
  for (const key of Object.keys(raw)) {
    const value = raw[key];
    switch (key) {
      case 'Sid':
      case 'Effect':
        (out as any)[key] = value;
        break;
      case 'Action':
      case 'NotAction':
      case 'Resource':
      case 'NotResource':
        out[key] = Array.isArray(value) ? value.map((x) => resolver.resolve(x)) : resolver.resolve(value);
        break;
      case 'Condition': {
        const deep = (x: unknown): unknown => (Array.isArray(x) ? x.map(deep) : typeof x === 'boolean' || typeof x === 'number' ? x : resolver.resolve(x));
        out.Condition = Object.fromEntries(
          Object.entries(value as Record<string, Record<string, unknown>>).map(([op, keys]) => [
            op,
            Object.fromEntries(Object.entries(keys).map(([k, x]) => [k, deep(x)])),
          ]),
        );
        break;
      }
      default:
        fail(`unsupported statement key "${key}" in ${where}`, raw);
    }
  }
  return out;
}

const refersToRole = (roles: unknown, roleId: string): boolean =>
  Array.isArray(roles) && roles.some((r) => r && typeof r === 'object' && (r as { Ref?: unknown }).Ref === roleId);

/** The raw statements (tokens unresolved) of one role, each with where it came from (for error messages). */
function roleStatements(resources: CfnResources, roleId: string, resolver: TokenResolver): { raw: any; where: string }[] {
  const role = resources[roleId];
  if (role?.Type !== 'AWS::IAM::Role') return fail(`function role ${roleId} is not an AWS::IAM::Role of the template`, roleId);
  const found: { raw: any; where: string }[] = [];
  for (const p of role.Properties?.Policies ?? []) {
    const where = `${roleId} inline policy ${p.PolicyName}`;
    for (const raw of statementsOf(p.PolicyDocument, where)) found.push({ raw, where });
  }
  for (const arn of role.Properties?.ManagedPolicyArns ?? []) {
    const refId = (arn as { Ref?: unknown })?.Ref;
    if (typeof refId === 'string' && resources[refId]?.Type === 'AWS::IAM::ManagedPolicy') continue; // listed below
    const name = /^arn:[^:]+:iam::aws:policy\/(.+)$/.exec(resolver.resolve(arn))?.[1];
    const known = name ? KNOWN_MANAGED_POLICIES[name] : undefined;
    if (!known) return fail(`unknown managed policy of ${roleId}`, arn);
    for (const raw of known) found.push({ raw, where: `${roleId} managed policy ${name}` });
  }
  for (const [id, res] of Object.entries(resources)) {
    if (res.Type !== 'AWS::IAM::Policy' && res.Type !== 'AWS::IAM::ManagedPolicy') continue;
    const attached =
      refersToRole(res.Properties?.Roles, roleId) ||
      (res.Type === 'AWS::IAM::ManagedPolicy' && (role.Properties?.ManagedPolicyArns ?? []).some((a: any) => a?.Ref === id));
    if (!attached) continue;
    for (const raw of statementsOf(res.Properties?.PolicyDocument, id)) found.push({ raw, where: id });
  }
  return found;
}

/**
 * Function id (route / task / sweeper id) → the resolved statements of its execution role. `entries` maps function
 * logical ids to what they run (stack.functionEntries); template functions not in it (CDK's own) are skipped.
 */
export function functionPolicies(
  resources: CfnResources,
  entries: Record<string, { id: string }>,
  config: LocalResolverConfig,
): Record<string, PolicyStatement[]> {
  const resolver = createResolver(resources, config);
  const policies: Record<string, PolicyStatement[]> = {};
  for (const [logicalId, entry] of Object.entries(entries)) {
    const fn = resources[logicalId];
    if (fn?.Type !== 'AWS::Lambda::Function') return fail(`function ${logicalId} (${entry.id}) is not in the template`, logicalId);
    const role = fn.Properties?.Role as { 'Fn::GetAtt'?: unknown } | undefined;
    const getAtt = role?.['Fn::GetAtt'];
    if (!Array.isArray(getAtt) || getAtt[1] !== 'Arn' || typeof getAtt[0] !== 'string') {
      return fail(`function ${logicalId} (${entry.id}) has no execution role of this template`, role);
    }
    if (entry.id in policies) return fail(`two functions with id ${entry.id}`, logicalId);
    policies[entry.id] = roleStatements(resources, getAtt[0], resolver).map(({ raw, where }) =>
      resolveStatement(raw, resolver, `${where} (function ${entry.id})`),
    );
  }
  return policies;
}
