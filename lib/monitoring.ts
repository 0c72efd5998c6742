/**
 * What an operator watches: alarms on everything that loses money or jobs, all sent to one SNS topic (AlarmTopic),
 * and one dashboard (PaycallDashboard) with paid calls, revenue, render latency per product and every alarm. The
 * topic's subscribers come from context (`alarmEmail`; `alarmTopicArn`, a topic every alarm also publishes to).
 *
 * - Lambda: one alarm per function that moves money or state on `errors + throttles`, not one expression over all of
 *   them: a metric-math alarm reads at most 10 metrics (there are ~30 such functions), the alarm's name then says
 *   which function broke, and the functions do not share a normal level (a workflow task throws on purpose for a
 *   transient provider problem and the state machine retries it; a route never should). One alarm per function
 *   rather than two keeps the stack under CloudFormation's 500 resources.
 * - API Gateway: the document functions (routes whose role reads nothing or only a published document: catalogs,
 *   cards, OpenAPI, llms.txt, playgrounds, the JWKS, the song page) have no alarm of their own. Whatever breaks one
 *   (an unhandled error, a throttle, a timeout) reaches its caller as a 5xx from its HTTP API, and one alarm per API on
 *   that API's `5xx` count pages for all of them (20-odd alarms fewer; the access log's routeKey and status
 *   say which route). It also rings on a 5xx any other route answers on purpose (503 `unavailable`,
 *   `settlement_pending`), which is worth a look too.
 * - DynamoDB: one alarm per table on throttle events plus 5xx answers (SystemErrors of the operations the stores
 *   use): eight metrics, within the ten an alarm may read.
 * - Custom metrics (lambdas/shared/metric-names.ts) are read with Metrics Insights over the whole of this stack's
 *   namespace (`Paycall/<stack name>`, the one its functions write to), so the alarm counts an event whatever
 *   dimensions its emitter adds (Powertools adds `service`), and never another stack's in the same account.
 * - What pages is an incident, never a buyer's outcome: a render the model refused for its content ends its job
 *   failed and refunded through an execution that succeeds (lib/workflow.ts), without a task error, and is counted
 *   as RendersRefused, which no alarm reads.
 */
import { CfnOutput, Duration, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sns from 'aws-cdk-lib/aws-sns';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';
import type { Product } from '../lambdas/products/catalog.js';
import { METRIC_DIMENSIONS, METRIC_NAMES, stackMetricNamespace, type MetricName } from '../lambdas/shared/metric-names.js';
import type { SurfaceId } from '../lambdas/surfaces/routes.js';
import { count, PERIOD, pascal, SUM, type AlarmGroup, type Alarms } from './alarms.js';

export { DOCUMENT_ROLES, documentSurfaceOf } from './alarms.js';

export interface MonitoringProps {
  /** Each product's state machine, by product id; `products` names its workflow (the stack's catalog). */
  stateMachines: Record<string, sfn.IStateMachine>;
  products: Readonly<Record<string, Pick<Product<string>, 'workflow'>>>;
  /** The core stack's functions by task id (and SWEEPER.id, the authorizer's): a surface's alarm its own (lib/surface-stack.ts). */
  functions: Record<string, lambda.IFunction>;
  tables: Record<string, dynamodb.ITable>;
  /** The surfaces whose API has a 5xx alarm (in its nested stack), which covers their document functions. */
  apiSurfaces: ReadonlySet<SurfaceId>;
  /** The topic and the alarms made so far (the surfaces' are made before these, in their nested stacks). */
  alarms: Alarms;
  /** A settlement key below this (wei, decimal string) takes no settlement (StackConfig.settlerGasFloorWei). */
  settlerGasFloorWei: string;
  /** SettlerGasLow fires below this (wei): the floor plus the configured runway (StackConfig.settlerGasAlarmWei, lib/runway.ts). */
  settlerGasAlarmWei: bigint;
  /** RefundWalletLow fires below this (USDC base units; StackConfig.refundWalletFloorBaseUnits). */
  refundWalletFloorBaseUnits: bigint;
}

export interface Monitoring {
  topic: sns.Topic;
  alarms: cloudwatch.Alarm[];
  dashboard: cloudwatch.Dashboard;
}

/**
 * The DynamoDB operations the stores use (lambdas/store/): SystemErrors is published per operation, and an alarm
 * may sum at most 10 metrics, so the alarm sums these six rather than every operation DynamoDB has.
 */
const TABLE_OPERATIONS = ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'Query', 'TransactWriteItems'] as dynamodb.Operation[];

/**
 * Metrics Insights over every dimension set of a custom metric in one namespace (the stack's): one series, the
 * namespace-wide aggregate.
 */
export function insightsQuery(namespace: string, stat: 'SUM' | 'MIN' | 'MAX' | 'AVG', name: MetricName, groupBy?: string): string {
  return `SELECT ${stat}(${name}) FROM "${namespace}"${groupBy ? ` GROUP BY ${groupBy}` : ''}`;
}

/** The gas balance exactly as lambdas/payments/gas-metric.ts emits it (dimension set [Settler]), lowest key first. */
export function gasBalanceQuery(namespace: string): string {
  return `SELECT MIN(${METRIC_NAMES.settlerGasWei}) FROM SCHEMA("${namespace}", ${METRIC_DIMENSIONS.settler})`;
}

/** The refund wallet's USDC exactly as lambdas/payments/gas-metric.ts emits it (dimension set [RefundWallet]). */
export function refundWalletQuery(namespace: string): string {
  return `SELECT MIN(${METRIC_NAMES.refundWalletBaseUnits}) FROM SCHEMA("${namespace}", ${METRIC_DIMENSIONS.refundWallet})`;
}

export function createMonitoring(scope: Construct, props: MonitoringProps): Monitoring {
  const stack = Stack.of(scope);
  const namespace = stackMetricNamespace(stack.stackName);
  const { alarms } = props;
  const groups = alarms.groups;
  const alarm = (group: AlarmGroup, id: string, description: string, options: Omit<cloudwatch.AlarmProps, 'evaluationPeriods'>) => alarms.alarm(scope, group, id, description, options);
  const sum = SUM;
  for (const [product, machine] of Object.entries(props.stateMachines)) {
    const name = props.products[product].workflow.constructId;
    alarm('money', `${name}ExecutionsFailed`, `A paid ${product} job's workflow failed: the buyer got a failed job.`, count(machine.metricFailed(sum)));
    alarm('money', `${name}ExecutionsTimedOut`, `A ${product} workflow hit its whole-execution timeout: its job is left to the sweeper.`, count(machine.metricTimedOut(sum)));
    alarm('money', `${name}ExecutionsAborted`, `A ${product} workflow was stopped by hand or by a deployment.`, count(machine.metricAborted(sum)));
  }

  for (const [id, fn] of Object.entries(props.functions)) alarms.functionAlarm(scope, id, fn, props.apiSurfaces);

  for (const [key, table] of Object.entries(props.tables)) {
    const name = pascal(key);
    const throttles = new cloudwatch.MathExpression({
      expression: 'reads + writes',
      usingMetrics: { reads: table.metric('ReadThrottleEvents', sum), writes: table.metric('WriteThrottleEvents', sum) },
      label: `${key} throttle events`,
      period: PERIOD,
    });
    // One metric per operation (six): with the two throttle counts, eight of the ten metrics an alarm may read.
    // DynamoDB publishes neither count in a quiet period: FILL keeps one cause from needing the other to show.
    const systemErrors = table.metricSystemErrorsForOperations({ operations: TABLE_OPERATIONS, ...sum });
    const errors = new cloudwatch.MathExpression({
      expression: 'FILL(throttles, 0) + FILL(systemErrors, 0)',
      usingMetrics: { throttles, systemErrors },
      label: `${key} throttle events + system errors`,
      period: PERIOD,
    });
    alarm('tables', `${name}TableErrors`, `DynamoDB throttled requests to the ${key} table or answered them with a 5xx (SystemErrors).`, count(errors));
  }

  const custom = (name: MetricName, label: string) =>
    new cloudwatch.MathExpression({ expression: insightsQuery(namespace, 'SUM', name), label, period: PERIOD, usingMetrics: {} });
  alarm(
    'money',
    'SettlementFailed',
    'A settlement failed: a buyer authorized a payment that did not settle.',
    count(custom(METRIC_NAMES.settlementFailed, 'settlements failed')),
  );
  alarm(
    'money',
    'SettlementUnknownOutcome',
    'A settlement outcome is unknown: money may have moved without a job. The sweeper reconciles it; check that it did.',
    count(custom(METRIC_NAMES.settlementUnknownOutcome, 'settlement outcomes unknown')),
  );
  alarm(
    'money',
    'JobsStuck',
    "The sweeper failed a job that stayed open past its product's limit.",
    count(custom(METRIC_NAMES.jobsStuck, 'jobs stuck')),
  );
  alarm(
    'money',
    'RefundsFailed',
    'A refund of a failed paid job did not move the money (the refund wallet short of USDC, the chain unreachable). The sweeper retries it; fix the cause.',
    count(custom(METRIC_NAMES.refundsFailed, 'refunds failed')),
  );
  alarm(
    'money',
    'RefundsOwed',
    'A failed job paid with an agent-payment token is owed a refund that cannot be sent automatically: refund it with the issuer.',
    count(custom(METRIC_NAMES.refundsOwed, 'refunds owed by hand')),
  );
  const gasThreshold = props.settlerGasAlarmWei;
  alarm(
    'money',
    'SettlerGasLow',
    `A settlement key holds less than ${gasThreshold} wei of gas: at the expected rate it reaches its floor (${props.settlerGasFloorWei} wei, where it stops settling) within the configured runway. Fund it.`,
    {
      metric: new cloudwatch.MathExpression({ expression: gasBalanceQuery(namespace), label: 'lowest settler gas (wei)', period: PERIOD, usingMetrics: {} }),
      // A Number from here on: exact below 2^53 wei (~0.009 ETH), and an alarm threshold needs no more.
      threshold: Number(gasThreshold),
      comparisonOperator: cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
      // The balance is published only when a settlement reads it. Silence means no settlement, hence no gas spent:
      // keep the last state (a low key stays in ALARM until a reading after funding clears it) rather than ring on
      // every quiet night (breaching) or forget a low key (notBreaching).
      treatMissingData: cloudwatch.TreatMissingData.IGNORE,
    },
  );
  // Read after every refund attempt: the wallet changes only by refunds (and funding, seen at the next refund), so
  // silence keeps the last state as the gas alarm does.
  alarm(
    'money',
    'RefundWalletLow',
    `The refund wallet holds less than ${props.refundWalletFloorBaseUnits} USDC base units: at the expected refund rate it runs dry within the configured runway, and failed jobs then go unrefunded. Fund it.`,
    {
      metric: new cloudwatch.MathExpression({ expression: refundWalletQuery(namespace), label: 'refund wallet (USDC base units)', period: PERIOD, usingMetrics: {} }),
      threshold: Number(props.refundWalletFloorBaseUnits),
      comparisonOperator: cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.IGNORE,
    },
  );

  const dashboard = createDashboard(scope, props, namespace, groups, gasThreshold);
  new CfnOutput(scope, 'AlarmTopicArn', { value: alarms.topic.topicArn, description: 'Subscribe operators to this topic for every alarm' });
  return { topic: alarms.topic, alarms: alarms.all(), dashboard };
}

function createDashboard(
  scope: Construct,
  props: MonitoringProps,
  namespace: string,
  groups: Record<AlarmGroup, cloudwatch.Alarm[]>,
  gasThreshold: bigint,
): cloudwatch.Dashboard {
  // `${LABEL}` keeps each series' own label: the product, from GROUP BY.
  const byProduct = (stat: 'SUM' | 'AVG', name: MetricName) =>
    new cloudwatch.MathExpression({ expression: insightsQuery(namespace, stat, name, METRIC_DIMENSIONS.product), label: '${LABEL}', period: PERIOD, usingMetrics: {} });
  const total = (name: MetricName, label: string) =>
    new cloudwatch.MathExpression({ expression: insightsQuery(namespace, 'SUM', name), label, period: PERIOD, usingMetrics: {} });
  const graph = (title: string, left: cloudwatch.IMetric[], extra: Partial<cloudwatch.GraphWidgetProps> = {}) =>
    new cloudwatch.GraphWidget({ title, left, width: 8, height: 6, ...extra });

  // Latency from the workflow itself (always published) in seconds, beside the render time the tasks report.
  const executionP90 = Object.entries(props.stateMachines).map(
    ([product, machine]) =>
      new cloudwatch.MathExpression({
        // Ids are per graph, not per expression: each product's needs its own.
        expression: `ms_${product} / 1000`,
        usingMetrics: { [`ms_${product}`]: machine.metricTime({ statistic: 'p90', period: PERIOD }) },
        label: `${product} workflow p90`,
        period: PERIOD,
      }),
  );

  const dashboard = new cloudwatch.Dashboard(scope, 'PaycallDashboard', {
    dashboardName: Stack.of(scope).stackName,
    defaultInterval: Duration.days(1),
  });
  dashboard.addWidgets(
    graph('Paid calls per product', [byProduct('SUM', METRIC_NAMES.paidRequests)]),
    graph('Revenue per product (USDC base units, 1e6 = 1 USDC)', [byProduct('SUM', METRIC_NAMES.revenueBaseUnits)]),
    graph('Render latency per product (seconds)', executionP90, { right: [byProduct('AVG', METRIC_NAMES.renderSeconds)], rightYAxis: { label: 'render seconds (avg)' } }),
  );
  dashboard.addWidgets(
    graph('Settlements', [total(METRIC_NAMES.settlementFailed, 'failed'), total(METRIC_NAMES.settlementUnknownOutcome, 'unknown outcome')]),
    graph('Renders', [
      total(METRIC_NAMES.rendersCompleted, 'completed'),
      total(METRIC_NAMES.rendersFailed, 'failed'),
      total(METRIC_NAMES.rendersRefused, 'refused for content'),
    ]),
    graph('Refunds', [total(METRIC_NAMES.refundsSent, 'sent'), total(METRIC_NAMES.refundsFailed, 'failed'), total(METRIC_NAMES.refundsOwed, 'owed by hand')]),
    graph('Refusals', [total(METRIC_NAMES.http402, '402 payment required'), total(METRIC_NAMES.http429, '429 rate limited')]),
  );
  dashboard.addWidgets(
    graph('Reserved and stuck jobs', [
      total(METRIC_NAMES.jobsReconciled, 'reconciled'),
      total(METRIC_NAMES.jobsVoided, 'voided'),
      total(METRIC_NAMES.jobsStuck, 'stuck'),
    ]),
    graph(
      'Settler gas (wei)',
      [new cloudwatch.MathExpression({ expression: `${gasBalanceQuery(namespace)} GROUP BY ${METRIC_DIMENSIONS.settler}`, label: '${LABEL}', period: PERIOD, usingMetrics: {} })],
      { leftAnnotations: [{ value: Number(gasThreshold), label: 'alarm', color: cloudwatch.Color.RED }] },
    ),
  );
  // One widget per concern keeps each list short enough to read (and within a widget's alarm limit).
  dashboard.addWidgets(
    new cloudwatch.AlarmStatusWidget({ title: 'Money and jobs', alarms: groups.money, width: 24, height: 4, sortBy: cloudwatch.AlarmStatusWidgetSortBy.STATE_UPDATED_TIMESTAMP }),
  );
  dashboard.addWidgets(
    new cloudwatch.AlarmStatusWidget({ title: 'Functions', alarms: groups.functions, width: 24, height: 8, sortBy: cloudwatch.AlarmStatusWidgetSortBy.STATE_UPDATED_TIMESTAMP }),
  );
  dashboard.addWidgets(
    new cloudwatch.AlarmStatusWidget({ title: 'APIs (5xx; the document functions have no alarm of their own)', alarms: groups.apis, width: 24, height: 2, sortBy: cloudwatch.AlarmStatusWidgetSortBy.STATE_UPDATED_TIMESTAMP }),
  );
  dashboard.addWidgets(
    new cloudwatch.AlarmStatusWidget({ title: 'Tables', alarms: groups.tables, width: 24, height: 3, sortBy: cloudwatch.AlarmStatusWidgetSortBy.STATE_UPDATED_TIMESTAMP }),
  );
  return dashboard;
}
