/**
 * cdk-nag 3 on the app: the AwsSolutions and Serverless packs run as CDK policy-validation plugins at synthesis
 * (the report is the cloud assembly's validation-report.json; an unacknowledged error fails `cdk synth`), and every
 * finding that remains after the fixes (lib/assets.ts, lib/monitoring.ts, lib/workflow.ts) is acknowledged here, on
 * the construct it concerns, with the reason. Nothing is acknowledged on the stack or the app: a new resource with
 * the same weakness is reported, not silently covered.
 *
 * bin/app.ts applies this; test/infra/nag.test.ts synthesizes with it and requires an empty report.
 */
import { DefaultStackSynthesizer, Names, Stack, Token, Validations, type App, type CfnElement } from 'aws-cdk-lib';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import * as sns from 'aws-cdk-lib/aws-sns';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { SWEEPER, WORKFLOW_TASKS } from '../lambdas/surfaces/routes.js';
import { RENDER_FUNCTIONS } from '../lambdas/workflow/render-functions.js';
import type { PaycallStack } from './paycall-stack.js';

/** Registers the packs on the app and acknowledges the stack's accepted findings. */
export function applyNag(app: App, stack: PaycallStack): void {
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new ServerlessChecks(app));
  acknowledgeFindings(stack);
}

function ack(scope: IConstruct, reason: string, ...ids: string[]): void {
  for (const id of ids) Validations.of(scope).acknowledge({ id, reason });
}

/**
 * How cdk-nag writes a value in a finding: a pseudo parameter as `<AWS::Region>` unless the stack's environment
 * makes it literal (`cdk synth` with a default region), so findings that name a region or account follow the stack.
 */
function pseudo(stack: Stack, value: 'region' | 'account'): string {
  const literal = stack[value];
  return Token.isUnresolved(literal) ? (value === 'region' ? '<AWS::Region>' : '<AWS::AccountId>') : literal;
}

/**
 * How cdk-nag names a resource's ARN in a finding of `user`: `<LogicalId.Arn>` in its own stack; in a surface's
 * nested stack, the parameter CDK passes it down as (`<referenceto<unique id>Arn>`).
 */
function arnRef(construct: IConstruct, user: IConstruct = construct): string {
  const element = construct.node.defaultChild as CfnElement;
  if (Stack.of(user) !== Stack.of(construct)) return `<${nestedParameter(element, 'Arn')}>`;
  return `<${Stack.of(construct).getLogicalId(element)}.Arn>`;
}

/** The parameter of a nested stack that carries `attribute` of a resource of its parent (aws-cdk-lib's naming). */
function nestedParameter(element: CfnElement, attribute: 'Arn' | 'Ref'): string {
  return `referenceto${Names.nodeUniqueId(element.node)}${attribute}`;
}

const LATEST_RUNTIME =
  'Node.js 22 on purpose: the project, its tests and the embedded runtime all run Node 22 (package.json engines), and the functions move to a newer runtime with the project, not ahead of it.';
const BASIC_EXECUTION_ROLE =
  'AWSLambdaBasicExecutionRole only lets the function write its own logs (CreateLogGroup/CreateLogStream/PutLogEvents); a hand-written copy would grant the same.';
const XRAY = 'X-Ray PutTraceSegments/PutTelemetryRecords take no resource: tracing (Tracing.ACTIVE) needs Resource *.';
/**
 * Why an alarm e-mail has no dead-letter queue. The queue and its access policy are two resources, and the template is
 * at CloudFormation's limit of 500 with the edge (or the custom domains) and the runbook's two addresses, counted as
 * `cdk synth` counts it (test/infra/nag.test.ts): the DLQ would make that documented production setting fail to synthesise.
 */
const ALARM_EMAIL_UNREDRIVEN =
  "No dead-letter queue: SNS discards an alarm e-mail it still cannot deliver after its retries, and a queue with its access policy would be two more resources in a template that the edge (or the custom domains) and two addresses bring to CloudFormation's 500. What is lost is that e-mail, not the alarm: its state and history stay in CloudWatch and on the dashboard, SNS counts the failure in the topic's NumberOfNotificationsFailed, and alarmTopicArn sends every alarm to a topic of the operator's as well.";
const SWEEP_REPEATS = `Invoked asynchronously by its ${SWEEPER.everyMinutes}-minute schedule, and each sweep redoes all pending work: a lost event costs one interval, and failing sweeps raise the ${SWEEPER.id}ErrorsOrThrottles alarm. A dead-letter queue would only collect stale schedule ticks.`;

export function acknowledgeFindings(stack: PaycallStack): void {
  const { tables } = stack;

  // Short-lived tables whose rows are rebuilt or harmlessly lost; the record of sales (jobs, payments, runs) has PITR.
  ack(tables.idempotency, 'Cached answers of idempotent POSTs, kept 24 h (TTL). Losing them only lets a retry run again, and the payment ledger (PITR) still refuses a second settlement of the same authorization.', 'AwsSolutions-DDB3');
  ack(tables.rateLimit, 'Per-client request counters of the current rate window (TTL): restoring old windows has no use.', 'AwsSolutions-DDB3');
  ack(tables.settlerLeases, "Seconds-long leases on settlement keys and each key's last nonce: the chain is the nonce's source of truth, a lost row is recreated at the next settlement.", 'AwsSolutions-DDB3');

  const cdn = stack.assetsDistribution;
  ack(cdn, 'Generated assets are sold to any buyer worldwide: no country is excluded.', 'AwsSolutions-CFR1');
  ack(cdn, 'Read-only GETs of unguessable per-job keys, cached at the edge, from a private origin (OAC), with access logs. A web ACL (billed per ACL and rule) is left to the operator when the logs show abuse.', 'AwsSolutions-CFR2');
  ack(cdn, "The distribution uses the default *.cloudfront.net certificate, for which CloudFront fixes the minimum viewer protocol (TLSv1); a custom domain's ACM certificate would take TLSv1.2_2021 (the cdk.json feature flag already selects it then).", 'AwsSolutions-CFR4');

  // The edge (lib/edge.ts, edge=cloudfront-waf): a distribution per API, with the web ACL (CFR2) and access logs (CFR3).
  for (const { distribution } of Object.values(stack.edge?.distributions ?? {})) {
    ack(distribution, 'The APIs sell to any buyer worldwide (payment is the authentication): no country is excluded.', 'AwsSolutions-CFR1');
    ack(distribution, "The edge uses the default *.cloudfront.net certificate, for which CloudFront fixes the minimum viewer protocol (TLSv1); a custom domain's ACM certificate would take TLSv1.2_2021.", 'AwsSolutions-CFR4');
  }

  for (const api of stack.node.findAll().filter((c): c is apigwv2.HttpApi => c instanceof apigwv2.HttpApi)) {
    ack(api, 'The payment is the authentication: paid routes verify an x402 payment or an agent-payment token in the function before any work; the other routes are public documents and polls of unguessable ids (spec: no accounts).', 'AwsSolutions-APIG4');
  }

  // DynamoDB grants name the table and each queried index (lib/grants.ts): no wildcard to acknowledge.
  const bucketObjects = `AwsSolutions-IAM5[Resource::${arnRef(stack.assetsBucket)}/*]`;
  const s3Read = ['s3:GetBucket*', 's3:GetObject*', 's3:List*'].map((a) => `AwsSolutions-IAM5[Action::${a}]`);
  const s3Write = ['s3:Abort*', 's3:DeleteObject*'].map((a) => `AwsSolutions-IAM5[Action::${a}]`);
  const S3_GRANT =
    "GetObject/PutObject (lib/grants.ts) on the asset bucket's objects only, no delete. Render outputs are written per job (renders/<jobId>/, assets/<jobId>/), so the keys are not known in advance.";

  for (const [logicalId, entry] of Object.entries(stack.functionEntries)) {
    const fn = stack.functions[entry.id];
    if (!fn) throw new Error(`lib/nag.ts: no function ${entry.id} (${logicalId})`);
    ack(fn, LATEST_RUNTIME, 'AwsSolutions-L1', 'Serverless-LambdaLatestVersion');
    ack(fn, BASIC_EXECUTION_ROLE, 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]');
    ack(fn, XRAY, 'AwsSolutions-IAM5[Resource::*]');
    if (entry.kind === 'route' || entry.kind === 'authorizer') {
      ack(fn, 'Invoked synchronously by API Gateway: the caller gets the error, and a dead-letter queue only receives failed asynchronous invocations.', 'Serverless-LambdaDLQ');
      if (entry.kind === 'route' && entry.role === 'cancel') {
        for (const machine of Object.values(stack.stateMachines)) {
          ack(fn, "StopExecution on this state machine's executions: a canceled job's execution is named by its job id, unknown in advance.", executionsOf(machine, fn));
        }
        ack(fn, 'GetObject on the asset bucket\'s objects only (no write, no delete): a fal job\'s request record, under a key named by its request id.', `AwsSolutions-IAM5[Resource::${arnRef(stack.assetsBucket, fn)}/*]`);
      }
    } else if (entry.kind === 'task') {
      ack(fn, 'Invoked synchronously by its state machine, which retries and catches every error (the job is then failed, and the execution alarms fire).', 'Serverless-LambdaDLQ');
    } else {
      ack(fn, SWEEP_REPEATS, 'Serverless-LambdaDLQ');
      for (const machine of Object.values(stack.stateMachines)) {
        ack(fn, "DescribeExecution on this state machine's executions: an execution is named by its job id, unknown in advance.", executionsOf(machine));
      }
    }
  }
  for (const id of ['StoreAsset', ...RENDER_FUNCTIONS.map((f) => f.id)]) {
    if (stack.functions[id]) ack(stack.functions[id], S3_GRANT, bucketObjects);
  }

  // The alarm topic's e-mail subscriptions (context alarmEmail, lib/monitoring.ts).
  for (const subscription of stack.monitoring.topic.node.findAll().filter((c): c is sns.Subscription => c instanceof sns.Subscription)) {
    ack(subscription, ALARM_EMAIL_UNREDRIVEN, 'Serverless-SNSRedrivePolicy');
  }

  const sweeperRule = stack.node.tryFindChild('SweeperSchedule');
  if (sweeperRule) ack(sweeperRule, SWEEP_REPEATS, 'Serverless-EventBusDLQ');

  for (const product of Object.values(stack.products)) {
    const machine = stack.stateMachines[product.id];
    ack(machine, 'Vended log delivery (logs:CreateLogDelivery and co.) and X-Ray take no resource: logging and tracing of the state machine need Resource *.', 'AwsSolutions-IAM5[Resource::*]');
    const ownTasks = WORKFLOW_TASKS.filter((t) => t.id !== 'DeliverWebhook');
    for (const task of [...ownTasks, ...RENDER_FUNCTIONS.filter((f) => product.providers.includes(f.provider))]) {
      ack(machine, `CDK's invoke grant covers ${task.id} and its versions/aliases (${task.id}:*), nothing else.`, `AwsSolutions-IAM5[Resource::${arnRef(stack.functions[task.id])}:*]`);
    }
  }
  // The webhook machine (docs/decisions/0018) invokes DeliverWebhook alone.
  const webhooks = stack.webhookMachine;
  ack(webhooks, 'Vended log delivery (logs:CreateLogDelivery and co.) and X-Ray take no resource: logging and tracing of the state machine need Resource *.', 'AwsSolutions-IAM5[Resource::*]');
  ack(webhooks, "CDK's invoke grant covers DeliverWebhook and its versions/aliases (DeliverWebhook:*), nothing else.", `AwsSolutions-IAM5[Resource::${arnRef(stack.functions.DeliverWebhook)}:*]`);

  // CDK's own handler behind the static-asset BucketDeployment: it runs only during deployments, and its runtime,
  // role and policy are CDK's to keep current, not ours to edit.
  const deployment = stack.node.children.find((c) => c.node.id.startsWith('Custom::CDKBucketDeployment'));
  if (deployment) {
    const reason = "CDK's BucketDeployment handler (copies assets/static/ at deployment time; runtime, role and policy are managed by CDK).";
    ack(deployment, reason, 'AwsSolutions-L1', 'Serverless-LambdaLatestVersion', 'Serverless-LambdaDLQ', 'Serverless-LambdaTracing');
    ack(deployment, reason, 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]');
    ack(deployment, reason, bucketObjects, ...s3Read, ...s3Write);
    const qualifier = (stack.node.tryGetContext('@aws-cdk/core:bootstrapQualifier') as string | undefined) ?? DefaultStackSynthesizer.DEFAULT_QUALIFIER;
    const stagingBucket = `cdk-${qualifier}-assets-${pseudo(stack, 'account')}-${pseudo(stack, 'region')}`;
    ack(deployment, reason, `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::${stagingBucket}/*]`);
  }
}

function executionsOf(machine: sfn.StateMachine, user: IConstruct = machine): string {
  const stack = Stack.of(machine);
  const element = machine.node.defaultChild as CfnElement;
  const logicalId = Stack.of(user) === stack ? stack.getLogicalId(element) : nestedParameter(element, 'Ref');
  return `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:states:${pseudo(stack, 'region')}:${pseudo(stack, 'account')}:execution:{"Fn::Select":[6,{"Fn::Split":[":",{"Ref":"${logicalId}"}]}]}:*]`;
}
