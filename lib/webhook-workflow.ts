/**
 * The webhook delivery machine (docs/decisions/0018): one Standard execution per job with a webhook, named
 * by the job id, started by whatever ends the job (lambdas/jobs/webhook-start.ts). The same synthesised ASL runs on AWS and
 * in the embedded runtime.
 *
 *   Deliver webhook (DeliverWebhook: one attempt, recorded on the job) → Webhook done?
 *     $.delivery.done true → Webhook ended (Succeed)
 *     otherwise            → Wait to retry webhook ($.delivery.waitSeconds) → Deliver webhook
 *
 * The schedule is the task's (lambdas/webhooks/deliver.ts RETRY_SCHEDULE_SECONDS: 8 attempts over about 28 hours), so
 * the machine holds no timing of its own but its time-out. Waiting costs a Standard execution nothing but its state
 * transitions (two per attempt). A task that errors (DynamoDB throttled, Lambda refused) is retried with back-off; one
 * that keeps failing fails the execution, which leaves the job's webhook in the OpenWebhooks index for an operator.
 *
 * Execution input {jobId}. Task payload {jobId}; result (payloadResponseOnly) → $.delivery {done, waitSeconds?}.
 */
import { Duration } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as logs from 'aws-cdk-lib/aws-logs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import * as tasks from 'aws-cdk-lib/aws-stepfunctions-tasks';
import { Construct } from 'constructs';
import { WORKFLOW_TASKS } from '../lambdas/surfaces/routes.js';
import { standardMachine, WORKFLOW_ERRORS } from './workflow.js';

export const WEBHOOK_STATES = {
  done: 'Webhook done?',
  wait: 'Wait to retry webhook',
  ended: 'Webhook ended',
} as const;

/** The stack output naming the machine, beside each product's (docs/deploy.md runbook step 16: a job's execution from its id). */
export const WEBHOOK_STATE_MACHINE_OUTPUT = 'WebhookStateMachineArn';

/** Longer than the whole schedule (about 27.6 hours) with room for throttled tasks; an execution never runs past it. */
export const WEBHOOK_EXECUTION_TIMEOUT = Duration.hours(36);

export interface WebhookWorkflowProps {
  /** The DeliverWebhook function (WORKFLOW_TASKS). */
  deliver: lambda.IFunction;
  logRetention: logs.RetentionDays;
}

export class WebhookWorkflow extends Construct {
  readonly stateMachine: sfn.StateMachine;

  constructor(scope: Construct, id: string, props: WebhookWorkflowProps) {
    super(scope, id);
    const def = WORKFLOW_TASKS.find((t) => t.id === 'DeliverWebhook');
    if (!def) throw new Error('WORKFLOW_TASKS has no DeliverWebhook task');

    const deliver = tasks.LambdaInvoke.jsonPath(this, def.stateName, {
      stateName: def.stateName,
      lambdaFunction: props.deliver,
      payload: sfn.TaskInput.fromObject({ jobId: sfn.JsonPath.stringAt('$.jobId') }),
      payloadResponseOnly: true,
      resultPath: '$.delivery',
      taskTimeout: sfn.Timeout.duration(Duration.seconds(def.timeoutSeconds + 10)),
      retryOnServiceExceptions: true,
    });
    deliver.addRetry({ errors: [WORKFLOW_ERRORS.throttled], interval: Duration.seconds(2), backoffRate: 2, maxAttempts: 8, maxDelay: Duration.seconds(60), jitterStrategy: sfn.JitterType.FULL });
    deliver.addRetry({ errors: [sfn.Errors.ALL], interval: Duration.seconds(5), backoffRate: 2, maxAttempts: 5, jitterStrategy: sfn.JitterType.FULL });

    const ended = sfn.Succeed.jsonPath(this, WEBHOOK_STATES.ended, { stateName: WEBHOOK_STATES.ended });
    const wait = sfn.Wait.jsonPath(this, WEBHOOK_STATES.wait, { stateName: WEBHOOK_STATES.wait, time: sfn.WaitTime.secondsPath('$.delivery.waitSeconds') });
    const done = sfn.Choice.jsonPath(this, WEBHOOK_STATES.done, { stateName: WEBHOOK_STATES.done })
      .when(sfn.Condition.booleanEquals('$.delivery.done', true), ended)
      .otherwise(wait);
    deliver.next(done);
    wait.next(deliver);

    this.stateMachine = standardMachine(this, id, {
      comment: "Deliver a job's webhook, signed (Standard Webhooks), retried over about 28 hours (input {jobId}).",
      definition: deliver,
      timeout: WEBHOOK_EXECUTION_TIMEOUT,
      logRetention: props.logRetention,
    }).stateMachine;
  }
}
