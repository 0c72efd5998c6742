/**
 * The alarm topic and how every alarm of the service is made (lib/monitoring.ts says which alarms there are and why).
 * Alarms live in the stack of what they watch: the core stack's (state machines, tables, tasks, custom metrics) and
 * each surface's nested stack's (its API's 5xx, its route functions), all named after the core stack and all sent to
 * the core stack's one topic, so an operator sees one set of names and subscribes once.
 */
import { Duration, Stack, Token } from 'aws-cdk-lib';
import type * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as cloudwatchActions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { SIGN_IN_AUTHORIZER, SWEEPER, WORKFLOW_TASKS, type SurfaceId } from '../lambdas/surfaces/routes.js';
import { RENDER_FUNCTIONS } from '../lambdas/workflow/render-functions.js';
import { StackConfigError } from './config.js';
import { ROUTE_FUNCTIONS, type RouteRole } from './function-map.js';

export const PERIOD = Duration.minutes(5);

/** The dashboard's alarm-status widgets, one per concern. */
export type AlarmGroup = 'money' | 'functions' | 'apis' | 'tables';

/**
 * Route roles (lib/functions.ts RouteRole) that move no money and write nothing: `none` (catalogs, cards, OpenAPI,
 * llms.txt, playgrounds, A2A answers that hold no state), `read` (the song page: reads a job) and `merchant-key` (the
 * JWKS: publishes a public key). A function serving only such routes has no alarm of its own: its API's 5xx alarm
 * covers it. Every other role (paid, run, poll, workspace, topup, credit, and any role added later) keeps one.
 */
export const DOCUMENT_ROLES: ReadonlySet<RouteRole> = new Set<RouteRole>(['none', 'read', 'merchant-key']);

/**
 * The surface of a route function whose every route has a document role (DOCUMENT_ROLES), else undefined (not a
 * route function, or one that moves money or state).
 */
export function documentSurfaceOf(functionId: string): SurfaceId | undefined {
  const fn = ROUTE_FUNCTIONS.find((f) => f.id === functionId);
  return fn && DOCUMENT_ROLES.has(fn.role) ? fn.surface : undefined;
}

export function pascal(id: string): string {
  return id
    .split(/[_-]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

/** Counts of bad events: no data means none happened, so missing data never breaches. */
export const count = (metric: cloudwatch.IMetric, threshold = 1) => ({
  metric,
  threshold,
  comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
  treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
});
export const SUM = { statistic: cloudwatch.Stats.SUM, period: PERIOD };

export class Alarms {
  readonly topic: sns.Topic;
  readonly groups: Record<AlarmGroup, cloudwatch.Alarm[]> = { money: [], functions: [], apis: [], tables: [] };
  private readonly actions: cloudwatch.IAlarmAction[];
  /** The core stack's name: every alarm's name starts with it, whichever stack holds the alarm. */
  private readonly stackName: string;
  private readonly scopes = new Map<Stack, Construct>();

  /** Made in the core stack: the topic, its subscribers (`alarmEmail`) and the operator's own topic (`alarmTopicArn`). */
  constructor(core: Construct, props: { alarmEmails: string[]; alarmTopicArn?: string }) {
    this.stackName = Stack.of(core).stackName;
    this.topic = alarmTopic(core);
    // Nobody hears an alarm unless someone is subscribed: each address confirms the link SNS mails it. No dead-letter
    // queue for these e-mails: the template has no room for its two resources (lib/nag.ts says what is lost).
    for (const email of props.alarmEmails) this.topic.addSubscription(new subscriptions.EmailSubscription(email));
    this.actions = [new cloudwatchActions.SnsAction(this.topic)];
    if (props.alarmTopicArn) this.actions.push(new cloudwatchActions.SnsAction(externalTopic(core, props.alarmTopicArn)));
  }

  /** An alarm under `Alarms` of the stack `scope` is in, named `<core stack>-<id>`, to the topic(s), in its group. */
  alarm(scope: Construct, group: AlarmGroup, id: string, description: string, options: Omit<cloudwatch.AlarmProps, 'evaluationPeriods'>): cloudwatch.Alarm {
    const stack = Stack.of(scope);
    let parent = this.scopes.get(stack);
    if (!parent) this.scopes.set(stack, (parent = new Construct(stack, 'Alarms')));
    const created = new cloudwatch.Alarm(parent, id, { alarmName: `${this.stackName}-${id}`, alarmDescription: description, evaluationPeriods: 1, ...options });
    created.addAlarmAction(...this.actions);
    created.addOkAction(...this.actions);
    this.groups[group].push(created);
    return created;
  }

  /**
   * A document function's unhandled error, throttle or timeout reaches its caller as a 5xx from its API (a Lambda
   * proxy integration that fails answers 500, 502 or 503): one alarm per API on that count covers every document
   * function of it, where one each would cost a resource apiece for routes that move no money and write nothing.
   */
  apiAlarm(scope: Construct, surface: SurfaceId, api: apigwv2.IHttpApi): cloudwatch.Alarm {
    // The HTTP API's one stage is `$default`: the ApiId dimension alone is the whole API's count.
    return this.alarm(
      scope,
      'apis',
      `${pascal(surface)}Api5xx`,
      `The ${surface} API answered a 5xx: a document function (catalog, card, OpenAPI, llms.txt, playground, JWKS; no alarm of its own) failed or was throttled, or a route answered 503 on purpose. Its access log's routeKey and status say which.`,
      count(api.metricServerError(SUM)),
    );
  }

  /**
   * `errors + throttles` of one function, unless it is a document function, whose API's 5xx alarm covers it
   * (`apiSurfaces`: the surfaces whose API has that alarm).
   */
  functionAlarm(scope: Construct, id: string, fn: lambda.IFunction, apiSurfaces: ReadonlySet<SurfaceId>): cloudwatch.Alarm | undefined {
    const documentSurface = documentSurfaceOf(id);
    if (documentSurface !== undefined) {
      if (!apiSurfaces.has(documentSurface)) throw new Error(`monitoring: document function ${id} is on the ${documentSurface} surface, whose API has no 5xx alarm`);
      return undefined;
    }
    const tasks = new Set([...WORKFLOW_TASKS, ...RENDER_FUNCTIONS].map((t) => t.id));
    const kind = tasks.has(id) ? 'task' : id === SWEEPER.id ? 'sweeper' : id === SIGN_IN_AUTHORIZER.id ? 'authorizer' : 'route';
    // Routes map every expected error to a response, and a throttled route is a failed request: any one is worth a
    // look. Tasks throw TransientRenderError on purpose and may be throttled (a render reservation, a low account
    // quota); the machine retries both, and a job that fails for good shows as ExecutionsFailed: only a backlog of
    // them matters here.
    const threshold = kind === 'task' ? 10 : 1;
    const failures = new cloudwatch.MathExpression({
      expression: 'errors + throttles',
      usingMetrics: { errors: fn.metricErrors(SUM), throttles: fn.metricThrottles(SUM) },
      label: `${id} errors + throttles`,
      period: PERIOD,
    });
    return this.alarm(scope, 'functions', `${id}ErrorsOrThrottles`, `${id} (${kind}) failed with an unhandled error or was throttled ${threshold} time(s) in 5 minutes.`, count(failures, threshold));
  }

  all(): cloudwatch.Alarm[] {
    const { money, functions, apis, tables } = this.groups;
    return [...money, ...functions, ...apis, ...tables];
  }
}

/** Encrypted (a customer managed key: CloudWatch cannot publish to a topic under the AWS managed SNS key), TLS only. */
function alarmTopic(scope: Construct): sns.Topic {
  const key = new kms.Key(scope, 'AlarmTopicKey', { description: 'Encrypts the alarm topic', enableKeyRotation: true });
  key.addToResourcePolicy(
    new iam.PolicyStatement({
      principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
      actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
      resources: ['*'],
    }),
  );
  return new sns.Topic(scope, 'AlarmTopic', { displayName: 'Paycall alarms', masterKey: key, enforceSSL: true });
}

/**
 * The operator's own topic (a pager's, a chat's): an alarm publishes only to a topic in its own region. Its policy
 * (and its key's, if encrypted) must let cloudwatch.amazonaws.com publish: the runbook (docs/deploy.md) says how.
 */
function externalTopic(scope: Construct, arn: string): sns.ITopic {
  const region = arn.split(':')[3];
  const stackRegion = Stack.of(scope).region;
  if (!Token.isUnresolved(stackRegion) && region !== stackRegion) {
    throw new StackConfigError(
      `Invalid stack configuration: context key "alarmTopicArn" must be a topic in the stack's region ${stackRegion} (got ${JSON.stringify(arn)})`,
    );
  }
  return sns.Topic.fromTopicArn(scope, 'OperatorAlarmTopic', arn);
}
