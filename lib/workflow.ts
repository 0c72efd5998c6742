/**
 * One Standard state machine per product, built from WORKFLOW_TASKS (lib/routes.ts). The same synthesised ASL runs
 * on AWS and, via lib/local/asl.ts, in the embedded runtime (aws-local-stepfunctions): JSONPath only, no JSONata.
 *
 *   Render with which provider? ($.provider, the job's) → Submit render (<provider>) → Render finished?
 *   Wait for render → Check with which provider? ($.render.provider) → Check render (<provider>) → Render finished?
 *   (a provider this product has no branch for → Unknown render provider → Mark failed)
 *     done                         → Store asset → Mark completed → Job completed (Succeed)
 *     failed, refusal 'content'    → Render refused ────────────┐
 *     failed (with error string)   → Render failed ─────────────┤
 *     failed (no error string)     → Render failed without reason ┤
 *     attempts > maxChecks         → Render timed out ───────────┤
 *     otherwise                    → Wait for render             │
 *   any task error (Catch States.ALL, ResultPath $.error) ───────┴→ Mark failed → Refund payment → Refused for content?
 *     $.error.Error ContentRefused → Job refused (Succeed)
 *     otherwise                    → Job failed (Fail)
 *
 * A render the model refused for its content fails and refunds the job like any other failure, but the execution
 * succeeds: a failed execution pages the operator (lib/monitoring.ts), and a buyer's refused prompt is no incident.
 * Submit render may already answer a refusal (a synchronous model), hence the Choice right after it.
 *
 * Each provider that can render the product has its own Submit and Check states, run by that provider's own function
 * (RENDER_FUNCTIONS, ADR 0016): only its SDK in the bundle, its own concurrency, and a job in flight finishes on the
 * provider it was sold with after the operator chooses another (the branch follows the job, not the configuration).
 *
 * Execution input {jobId, product, provider}. Task payloads (the Lambda's event) and results (payloadResponseOnly):
 *   Submit render   in {step: 'submit', jobId, product}          out → $.render   e.g. {renderId, provider, state: 'running', attempts: 0}
 *   Check render    in {step: 'check', jobId, product, render}   out → $.render   {renderId, provider, state: 'running'|'done'|'failed', attempts, error?, ...}
 *   Store asset     in {jobId, product, render}           out → $.stored   (anything JSON)
 *   Mark completed  in {jobId, product, render, stored}   out discarded
 *   Mark failed     in {jobId, product, error: {Error, Cause}}  out discarded
 */
import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import * as tasks from 'aws-cdk-lib/aws-stepfunctions-tasks';
import { Construct } from 'constructs';
import { ContentRefusedError, RenderError, TransientRenderError } from '../lambdas/render/provider.js';
import { PaymentNotFinalError } from '../lambdas/workflow/tasks.js';
import { WORKFLOW_TASKS } from '../lambdas/surfaces/routes.js';
import { RENDER_FUNCTIONS, renderStateName, type RenderStep } from '../lambdas/workflow/render-functions.js';
import type { ProviderName } from '../lambdas/render/providers.js';
import { TransientRefundError } from '../lambdas/jobs/refund.js';

/** State names that are not Lambda tasks (task state names come from WORKFLOW_TASKS[].stateName). */
export const WORKFLOW_STATES = {
  submitBy: 'Render with which provider?',
  checkBy: 'Check with which provider?',
  unknownProvider: 'Unknown render provider',
  wait: 'Wait for render',
  finished: 'Render finished?',
  renderFailed: 'Render failed',
  renderRefused: 'Render refused',
  renderFailedNoReason: 'Render failed without reason',
  timedOut: 'Render timed out',
  succeeded: 'Job completed',
  failed: 'Job failed',
  refusedOrFailed: 'Refused for content?',
  refused: 'Job refused',
} as const;

/** The log group prefix AWS recommends for state machine logs (see the log group below). */
export const VENDED_LOGS_PREFIX = '/aws/vendedlogs/states/';

/** Error names the workflow produces or retries on. */
export const WORKFLOW_ERRORS = {
  /** Thrown by a task for a temporary provider problem: retried with back-off before the Catch applies. */
  transient: TransientRenderError.errorName,
  /** Lambda refused the invoke (reserved concurrency or the account limit reached): retried with back-off. */
  throttled: 'Lambda.TooManyRequestsException',
  /**
   * A render that reported `failed`. Same name as the port's RenderError (lambdas/render/provider.ts; a buyer-safe
   * message): from the Choice the Cause is that plain message; from a thrown RenderError it is Lambda's JSON.
   */
  renderFailed: RenderError.errorName,
  /** A render the model refused for its content (`refusal: 'content'`): the job fails, the execution does not. */
  contentRefused: ContentRefusedError.errorName,
  timeout: 'RenderTimeout',
  /**
   * Mark completed found the job's payment preconfirmed, not yet in a sealed block (docs/decisions/0021): retried
   * until the authorization can no longer pay (then PaymentNeverLanded fails the job, caught as any failure).
   */
  paymentNotFinal: PaymentNotFinalError.errorName,
  /** The execution's provider has no render branch in this product's machine. */
  unknownProvider: 'UnknownRenderProvider',
  /** A refund that may pass if retried (lambdas/jobs/refund.ts). */
  refundTransient: TransientRefundError.errorName,
} as const;

export type WorkflowTaskId = 'StoreAsset' | 'MarkCompleted' | 'MarkFailed' | 'RefundPayment';

export interface ProductWorkflowProps {
  /** The product's id (a catalog's: lib/render-providers.ts StackProduct). */
  product: string;
  /** The providers that can render it: a Submit and a Check state each. */
  providers: readonly ProviderName[];
  /** Task functions by WORKFLOW_TASKS id, and the render functions by RENDER_FUNCTIONS id (those of this product's providers). */
  functions: Record<string, lambda.IFunction>;
  /** Seconds between render checks. */
  checkIntervalSeconds: number;
  /** A running render is failed with RenderTimeout once the check count exceeds this. */
  maxChecks: number;
  /** Whole-execution timeout. */
  timeout: Duration;
  logRetention: logs.RetentionDays;
}

function taskDef(id: WorkflowTaskId) {
  const def = WORKFLOW_TASKS.find((t) => t.id === id);
  if (!def) throw new Error(`lib/routes.ts WORKFLOW_TASKS has no task with id ${id}`);
  return def;
}

/** The state machine of one product. */
export class ProductWorkflow extends Construct {
  readonly stateMachine: sfn.StateMachine;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: ProductWorkflowProps) {
    super(scope, id);
    const { functions } = props;

    const { providers } = props;
    const renderDefs = providers.map((provider) => RENDER_FUNCTIONS.find((f) => f.provider === provider)!);
    for (const def of [...WORKFLOW_TASKS, ...renderDefs]) {
      if (!functions[def.id]) throw new Error(`ProductWorkflow ${id}: no function for workflow task ${def.id}`);
    }

    const lambdaTask = (stateName: string, fn: { id: string; timeoutSeconds: number }, payload: Record<string, unknown>, resultPath: string) =>
      tasks.LambdaInvoke.jsonPath(this, stateName, {
        stateName,
        lambdaFunction: functions[fn.id],
        payload: sfn.TaskInput.fromObject(payload),
        // The task result is exactly the function's return value (no {Payload, StatusCode} envelope): the same
        // shape the local runner's handlers return.
        payloadResponseOnly: true,
        resultPath,
        // A little longer than the function's own timeout, so a hung invoke ends as States.Timeout (caught) and
        // the local runner (which defaults to 60 s per task) behaves like AWS.
        taskTimeout: sfn.Timeout.duration(Duration.seconds(fn.timeoutSeconds + 10)),
        // CDK adds the Lambda.ServiceException/AWSLambdaException/SdkClientException retrier by default.
        retryOnServiceExceptions: true,
      });
    const invoke = (taskId: WorkflowTaskId, payload: Record<string, unknown>, resultPath: string) => {
      const def = taskDef(taskId);
      return lambdaTask(def.stateName, def, payload, resultPath);
    };

    const jobRef = { jobId: sfn.JsonPath.stringAt('$.jobId'), product: sfn.JsonPath.stringAt('$.product') };

    const renderTask = (step: RenderStep, provider: ProviderName) => {
      const def = renderDefs.find((f) => f.provider === provider)!;
      const payload = step === 'submit' ? { step, ...jobRef } : { step, ...jobRef, render: sfn.JsonPath.objectAt('$.render') };
      return lambdaTask(renderStateName(step, provider), def, payload, '$.render');
    };
    const submits = providers.map((provider) => ({ provider, task: renderTask('submit', provider) }));
    const checks = providers.map((provider) => ({ provider, task: renderTask('check', provider) }));
    const store = invoke('StoreAsset', { ...jobRef, render: sfn.JsonPath.objectAt('$.render') }, '$.stored');
    const markCompleted = invoke(
      'MarkCompleted',
      { ...jobRef, render: sfn.JsonPath.objectAt('$.render'), stored: sfn.JsonPath.objectAt('$.stored') },
      sfn.JsonPath.DISCARD,
    );
    const markFailed = invoke('MarkFailed', { ...jobRef, error: sfn.JsonPath.objectAt('$.error') }, sfn.JsonPath.DISCARD);
    const refund = invoke('RefundPayment', jobRef, sfn.JsonPath.DISCARD);

    const transientRetry: sfn.RetryProps = {
      errors: [WORKFLOW_ERRORS.transient],
      interval: Duration.seconds(2),
      backoffRate: 2,
      maxAttempts: 3,
      jitterStrategy: sfn.JitterType.FULL,
    };
    // Step Functions does not retry a throttled invoke by default (CDK's service-exception retrier leaves out
    // Lambda.TooManyRequestsException): with a render reservation (renderReservedConcurrency), or an account's low
    // concurrency quota, throttling is expected.
    const throttledRetry: sfn.RetryProps = {
      errors: [WORKFLOW_ERRORS.throttled],
      interval: Duration.seconds(2),
      backoffRate: 2,
      maxAttempts: 8,
      maxDelay: Duration.seconds(60),
      jitterStrategy: sfn.JitterType.FULL,
    };
    const renderTasks = [...submits, ...checks].map(({ task }) => task);
    for (const task of [...renderTasks, store, markCompleted, markFailed, refund]) task.addRetry(throttledRetry);
    // Before the catch-all: a delivery waiting for its payment's sealed block is retried, a few seconds apart at first,
    // for longer than any authorization stays valid (300 s), so the job ends completed or failed, never stuck.
    markCompleted.addRetry({
      errors: [WORKFLOW_ERRORS.paymentNotFinal],
      interval: Duration.seconds(2),
      backoffRate: 1.5,
      maxDelay: Duration.seconds(30),
      maxAttempts: 30,
      jitterStrategy: sfn.JitterType.FULL,
    });
    for (const task of [...renderTasks, store, markCompleted]) {
      task.addRetry(transientRetry);
      task.addCatch(markFailed, { errors: [sfn.Errors.ALL], resultPath: '$.error' });
    }
    // Marking the job failed must not be lost to a blip: retry anything (the sweeper is the last resort).
    markFailed.addRetry({
      errors: [sfn.Errors.ALL],
      interval: Duration.seconds(1),
      backoffRate: 2,
      maxAttempts: 5,
      jitterStrategy: sfn.JitterType.FULL,
    });

    const jobFailed = sfn.Fail.jsonPath(this, WORKFLOW_STATES.failed, {
      stateName: WORKFLOW_STATES.failed,
      errorPath: '$.error.Error',
      causePath: '$.error.Cause',
    });
    // The refund: retried while it may pass (the chain, the settler); whatever is still owed after that stays on the
    // job (`refund.status` pending or failed) for the sweeper, and the execution ends failed as the job did.
    refund.addRetry({
      errors: [WORKFLOW_ERRORS.refundTransient],
      interval: Duration.seconds(5),
      backoffRate: 2,
      maxAttempts: 4,
      jitterStrategy: sfn.JitterType.FULL,
    });
    refund.addCatch(jobFailed, { errors: [sfn.Errors.ALL], resultPath: '$.refundError' });
    const jobRefused = sfn.Succeed.jsonPath(this, WORKFLOW_STATES.refused, {
      stateName: WORKFLOW_STATES.refused,
      comment: 'The model refused the render for its content: the job is failed and refunded, and nothing is wrong.',
    });
    const refusedOrFailed = sfn.Choice.jsonPath(this, WORKFLOW_STATES.refusedOrFailed, { stateName: WORKFLOW_STATES.refusedOrFailed })
      .when(
        sfn.Condition.and(sfn.Condition.isPresent('$.error.Error'), sfn.Condition.stringEquals('$.error.Error', WORKFLOW_ERRORS.contentRefused)),
        jobRefused,
      )
      .otherwise(jobFailed);
    markFailed.next(refund).next(refusedOrFailed);

    const wait = sfn.Wait.jsonPath(this, WORKFLOW_STATES.wait, {
      stateName: WORKFLOW_STATES.wait,
      time: sfn.WaitTime.duration(Duration.seconds(props.checkIntervalSeconds)),
    });

    const renderFailed = sfn.Pass.jsonPath(this, WORKFLOW_STATES.renderFailed, {
      stateName: WORKFLOW_STATES.renderFailed,
      parameters: { Error: WORKFLOW_ERRORS.renderFailed, Cause: sfn.JsonPath.stringAt('$.render.error') },
      resultPath: '$.error',
    }).next(markFailed);
    const renderRefused = sfn.Pass.jsonPath(this, WORKFLOW_STATES.renderRefused, {
      stateName: WORKFLOW_STATES.renderRefused,
      parameters: { Error: WORKFLOW_ERRORS.contentRefused, Cause: sfn.JsonPath.stringAt('$.render.error') },
      resultPath: '$.error',
    }).next(markFailed);
    const renderFailedNoReason = sfn.Pass.jsonPath(this, WORKFLOW_STATES.renderFailedNoReason, {
      stateName: WORKFLOW_STATES.renderFailedNoReason,
      result: sfn.Result.fromObject({ Error: WORKFLOW_ERRORS.renderFailed, Cause: 'The render failed without a reason' }),
      resultPath: '$.error',
    }).next(markFailed);
    const timedOut = sfn.Pass.jsonPath(this, WORKFLOW_STATES.timedOut, {
      stateName: WORKFLOW_STATES.timedOut,
      result: sfn.Result.fromObject({
        Error: WORKFLOW_ERRORS.timeout,
        Cause: `The render was still running after ${props.maxChecks} checks`,
      }),
      resultPath: '$.error',
    }).next(markFailed);

    // The job's provider picks the branch; a provider this product has none for (an execution from before the
    // provider was in the input, a hand-started one) fails the job and refunds it rather than rendering elsewhere.
    const unknownProvider = sfn.Pass.jsonPath(this, WORKFLOW_STATES.unknownProvider, {
      stateName: WORKFLOW_STATES.unknownProvider,
      result: sfn.Result.fromObject({ Error: WORKFLOW_ERRORS.unknownProvider, Cause: `No render provider of ${props.product} was named` }),
      resultPath: '$.error',
    }).next(markFailed);
    const byProvider = (stateName: string, path: string, branches: { provider: ProviderName; task: tasks.LambdaInvoke }[]) => {
      const choice = sfn.Choice.jsonPath(this, stateName, { stateName });
      for (const { provider, task } of branches) {
        choice.when(sfn.Condition.and(sfn.Condition.isPresent(path), sfn.Condition.stringEquals(path, provider)), task);
      }
      return choice.otherwise(unknownProvider);
    };
    const submitBy = byProvider(WORKFLOW_STATES.submitBy, '$.provider', submits);
    const checkBy = byProvider(WORKFLOW_STATES.checkBy, '$.render.provider', checks);

    const finished = sfn.Choice.jsonPath(this, WORKFLOW_STATES.finished, { stateName: WORKFLOW_STATES.finished })
      .when(sfn.Condition.stringEquals('$.render.state', 'done'), store)
      .when(
        sfn.Condition.and(
          sfn.Condition.stringEquals('$.render.state', 'failed'),
          sfn.Condition.isPresent('$.render.refusal'),
          sfn.Condition.stringEquals('$.render.refusal', 'content'),
          sfn.Condition.isPresent('$.render.error'),
          sfn.Condition.isString('$.render.error'),
        ),
        renderRefused,
      )
      .when(
        sfn.Condition.and(
          sfn.Condition.stringEquals('$.render.state', 'failed'),
          sfn.Condition.isPresent('$.render.error'),
          sfn.Condition.isString('$.render.error'),
        ),
        renderFailed,
      )
      .when(sfn.Condition.stringEquals('$.render.state', 'failed'), renderFailedNoReason)
      .when(sfn.Condition.numberGreaterThan('$.render.attempts', props.maxChecks), timedOut)
      .otherwise(wait);

    const jobCompleted = sfn.Succeed.jsonPath(this, WORKFLOW_STATES.succeeded, { stateName: WORKFLOW_STATES.succeeded });
    store.next(markCompleted).next(jobCompleted);

    wait.next(checkBy);
    for (const { task } of checks) task.next(finished);
    for (const { task } of submits) task.next(finished);
    const definition = submitBy;

    ({ logGroup: this.logGroup, stateMachine: this.stateMachine } = standardMachine(this, id, {
      comment: `Render, store and complete a ${props.product} job (input {jobId, product}).`,
      definition,
      timeout: props.timeout,
      logRetention: props.logRetention,
    }));
  }
}

/**
 * A Standard state machine (JSONPath), traced, logging every state with its data to its own log group: the product
 * machines and the webhook machine (lib/webhook-workflow.ts) alike.
 */
export function standardMachine(
  scope: Construct,
  id: string,
  props: { comment: string; definition: sfn.IChainable; timeout: Duration; logRetention: logs.RetentionDays },
): { logGroup: logs.LogGroup; stateMachine: sfn.StateMachine } {
  const logGroup = new logs.LogGroup(scope, 'Logs', {
    // Step Functions delivers logs through CloudWatch vended logs: under this prefix it needs no log-group resource
    // policy, which otherwise grows with every state machine until it hits the account's 5 KB policy limit.
    logGroupName: `${VENDED_LOGS_PREFIX}${Stack.of(scope).stackName}-${id}`,
    retention: props.logRetention,
    removalPolicy: RemovalPolicy.DESTROY,
  });
  const stateMachine = new sfn.StateMachine(scope, 'StateMachine', {
    stateMachineType: sfn.StateMachineType.STANDARD,
    queryLanguage: sfn.QueryLanguage.JSON_PATH,
    comment: props.comment,
    definitionBody: sfn.DefinitionBody.fromChainable(props.definition),
    timeout: props.timeout,
    tracingEnabled: true,
    logs: { destination: logGroup, level: sfn.LogLevel.ALL, includeExecutionData: true },
  });
  return { logGroup, stateMachine };
}
