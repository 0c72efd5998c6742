/**
 * A small IAM identity-policy evaluator for the embedded runtime: every AWS SDK call a function makes locally is
 * checked against that function's statements (read from the synthesised template by ./template.ts).
 *
 * What it implements: Allow/Deny, Action/NotAction, Resource/NotResource, `*` and `?` wildcards (actions match
 * case-insensitively, resources case-sensitively, both against the whole string), explicit deny wins over allow,
 * no allow = implicit deny. What it refuses (throws rather than guess): any Condition operator (none of the grants
 * the stack's functions get carries a condition today; a future one must be implemented here, not ignored), policy
 * variables (`${aws:username}`) in a resource, and malformed statements.
 */

export type Effect = 'Allow' | 'Deny';

/** One statement of an identity policy, every Resource already a concrete ARN pattern (no CloudFormation tokens). */
export interface PolicyStatement {
  Sid?: string;
  Effect: Effect;
  /** Exactly one of Action / NotAction. */
  Action?: string | string[];
  NotAction?: string | string[];
  /** Exactly one of Resource / NotResource. */
  Resource?: string | string[];
  NotResource?: string | string[];
  /** Operator → condition key → value(s). No operator is supported yet: a matching statement with one throws. */
  Condition?: Record<string, Record<string, unknown>>;
}

export interface AuthorizationRequest {
  /** `service:Operation`, e.g. `dynamodb:PutItem`. */
  action: string;
  /** The ARN the call acts on, e.g. `arn:aws:dynamodb:local:000000000000:table/jobs`. */
  resource: string;
}

export type Decision = 'allow' | 'explicit-deny' | 'implicit-deny';

export interface EvaluationResult {
  decision: Decision;
  /** The Deny statement that decided an explicit deny, or the first Allow statement that allowed. */
  matched?: PolicyStatement;
}

export interface MultiEvaluationResult extends EvaluationResult {
  /** The first request that was not allowed (absent when every request is allowed). */
  denied?: AuthorizationRequest;
  /** One result per request, in order. */
  results: (EvaluationResult & AuthorizationRequest)[];
}

/**
 * Condition operators this evaluator implements. Empty on purpose: the synthesised stack's function policies carry
 * no conditions (only the state machines' trust policies do, and trust policies are not identity policies).
 */
const SUPPORTED_CONDITION_OPERATORS: ReadonlySet<string> = new Set();

export class PolicyEvaluationError extends Error {
  override name = 'PolicyEvaluationError';
}

/**
 * IAM has no `dynamodb:TransactWriteItems` / `TransactGetItems` action: each item of a transaction is authorised
 * as the underlying item operation on its own table. Map an item kind of the request to the action to evaluate.
 */
export const DYNAMODB_TRANSACT_ITEM_ACTIONS = {
  Put: 'dynamodb:PutItem',
  Update: 'dynamodb:UpdateItem',
  Delete: 'dynamodb:DeleteItem',
  ConditionCheck: 'dynamodb:ConditionCheckItem',
  Get: 'dynamodb:GetItem',
} as const;

const patternCache = new Map<string, RegExp>();

function globToRegExp(pattern: string, caseInsensitive: boolean): RegExp {
  const key = `${caseInsensitive ? 'i' : 's'}:${pattern}`;
  let re = patternCache.get(key);
  if (!re) {
    const body = pattern
      .split('')
      .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\/-]/g, '\\$&')))
      .join('');
    re = new RegExp(`^${body}$`, caseInsensitive ? 'is' : 's');
    patternCache.set(key, re);
  }
  return re;
}

/** `dynamodb:Get*`, `s3:*`, `*` — case-insensitive (IAM action names are). */
export function actionMatches(pattern: string, action: string): boolean {
  return globToRegExp(pattern, true).test(action);
}

/** `arn:aws:s3:::bucket/*` — case-sensitive; `*` spans `/` and `:`. */
export function resourceMatches(pattern: string, resource: string): boolean {
  if (pattern.includes('${')) throw new PolicyEvaluationError(`policy variables are not supported: Resource "${pattern}"`);
  return globToRegExp(pattern, false).test(resource);
}

const list = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

function label(statement: PolicyStatement): string {
  return statement.Sid ? `statement "${statement.Sid}"` : `statement ${JSON.stringify(statement)}`;
}

function checkShape(statement: PolicyStatement): void {
  if (statement.Effect !== 'Allow' && statement.Effect !== 'Deny') {
    throw new PolicyEvaluationError(`Effect must be Allow or Deny in ${label(statement)}`);
  }
  if ((statement.Action === undefined) === (statement.NotAction === undefined)) {
    throw new PolicyEvaluationError(`exactly one of Action / NotAction is required in ${label(statement)}`);
  }
  if ((statement.Resource === undefined) === (statement.NotResource === undefined)) {
    throw new PolicyEvaluationError(`exactly one of Resource / NotResource is required in ${label(statement)}`);
  }
}

/** Whether the statement's Action/Resource (or Not…) select this request; its Condition is checked afterwards. */
function selects(statement: PolicyStatement, request: AuthorizationRequest): boolean {
  checkShape(statement);
  const actionHit =
    statement.Action !== undefined
      ? list(statement.Action).some((p) => actionMatches(p, request.action))
      : !list(statement.NotAction).some((p) => actionMatches(p, request.action));
  if (!actionHit) return false;
  return statement.Resource !== undefined
    ? list(statement.Resource).some((p) => resourceMatches(p, request.resource))
    : !list(statement.NotResource).some((p) => resourceMatches(p, request.resource));
}

/** A selected statement's Condition: none → applies; any operator (none supported yet) → throws. */
function conditionHolds(statement: PolicyStatement): boolean {
  for (const operator of Object.keys(statement.Condition ?? {})) {
    if (!SUPPORTED_CONDITION_OPERATORS.has(operator)) {
      throw new PolicyEvaluationError(
        `unsupported condition operator "${operator}" in ${label(statement)}: implement it in lib/local/iam/policy.ts rather than ignore it`,
      );
    }
  }
  return true;
}

/** One request: an explicit Deny wins; otherwise any Allow; otherwise implicit deny. */
export function evaluate(statements: readonly PolicyStatement[], request: AuthorizationRequest): EvaluationResult {
  let allowedBy: PolicyStatement | undefined;
  for (const statement of statements) {
    if (!selects(statement, request) || !conditionHolds(statement)) continue;
    if (statement.Effect === 'Deny') return { decision: 'explicit-deny', matched: statement };
    allowedBy ??= statement;
  }
  return allowedBy ? { decision: 'allow', matched: allowedBy } : { decision: 'implicit-deny' };
}

/**
 * Several requests that one call makes (a TransactWriteItems writing jobs and payments: one request per item, see
 * DYNAMODB_TRANSACT_ITEM_ACTIONS). Allowed only if every request is; otherwise the first explicit deny, else the
 * first implicit deny, decides.
 */
export function evaluateRequests(statements: readonly PolicyStatement[], requests: readonly AuthorizationRequest[]): MultiEvaluationResult {
  if (requests.length === 0) throw new PolicyEvaluationError('nothing to authorise: no request');
  const results = requests.map((r) => ({ ...r, ...evaluate(statements, r) }));
  const denied = results.find((r) => r.decision === 'explicit-deny') ?? results.find((r) => r.decision === 'implicit-deny');
  if (!denied) return { decision: 'allow', results };
  return { decision: denied.decision, matched: denied.matched, denied: { action: denied.action, resource: denied.resource }, results };
}

/** The same action on several resources (e.g. BatchGetItem over two tables): allowed only if every resource is. */
export function evaluateAll(statements: readonly PolicyStatement[], action: string, resources: readonly string[]): MultiEvaluationResult {
  return evaluateRequests(
    statements,
    resources.map((resource) => ({ action, resource })),
  );
}

/**
 * The message AWS answers an AccessDenied(Exception) with, word for word. `principalArn` is the caller's assumed-role
 * session ARN, e.g. `arn:aws:sts::000000000000:assumed-role/<RoleName>/<FunctionName>`.
 */
export function accessDeniedMessage(principalArn: string, action: string, resource: string, decision: Decision = 'implicit-deny'): string {
  const head = `User: ${principalArn} is not authorized to perform: ${action} on resource: ${resource}`;
  return decision === 'explicit-deny'
    ? `${head} with an explicit deny in an identity-based policy`
    : `${head} because no identity-based policy allows the ${action} action`;
}
