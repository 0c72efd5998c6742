/**
 * Starts a product's state machine for a job; the execution is named by the job id (idempotent by name).
 *
 * The Step Functions client is imported on first use, not with the function: a paid function's cold start most
 * often serves the buyer's unpaid probe (the 402), which starts nothing, and the client costs a cold import tens of
 * milliseconds (the bundle table of `npm run bench`).
 */
import type { SFNClient } from '@aws-sdk/client-sfn';
import type { ProductId } from '../products/catalog.js';
import { sfnConfig, webhookConfig, workflowConfig } from '../shared/config.js';
import { traceClient } from '../shared/tracing.js';
import { lazyRetry } from '../shared/lazy.js';

type Sdk = typeof import('@aws-sdk/client-sfn');

// A failed load (a bad configuration) is not kept: the next call tries again.
const sfn = lazyRetry(async (): Promise<{ sdk: Sdk; client: SFNClient }> => {
  const sdk = await import('@aws-sdk/client-sfn');
  const { sfnEndpoint } = sfnConfig();
  const client = traceClient(
    new sdk.SFNClient(
      sfnEndpoint
        ? { endpoint: sfnEndpoint, region: process.env.AWS_REGION ?? 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
        : {},
    ),
  );
  return { sdk, client };
});

/** What an execution starts from: the job's id, product and the render provider its purchase recorded. */
export type WorkflowJob = { jobId: string; product: ProductId; provider: string };

export type ExecutionState = 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'TIMED_OUT' | 'ABORTED' | 'PENDING_REDRIVE' | 'UNKNOWN';

export class WorkflowStarter {
  /**
   * Starts the job's execution with its recorded render provider (the machine runs that provider's render function:
   * lib/workflow.ts). Returns 'started', or 'exists' when an execution with this job id was already started (before or
   * elsewhere).
   */
  async start({ jobId, product, provider }: WorkflowJob): Promise<'started' | 'exists'> {
    const { stateMachineArns } = workflowConfig();
    const { sdk, client } = await sfn();
    try {
      await client.send(
        new sdk.StartExecutionCommand({
          stateMachineArn: stateMachineArns[product],
          name: jobId,
          input: JSON.stringify({ jobId, product, provider }),
        }),
      );
      return 'started';
    } catch (error) {
      if (error instanceof sdk.ExecutionAlreadyExists) return 'exists';
      throw error;
    }
  }

  async state(jobId: string, product: ProductId): Promise<ExecutionState> {
    const executionArn = executionArnOf(jobId, product);
    const { sdk, client } = await sfn();
    try {
      const out = await client.send(new sdk.DescribeExecutionCommand({ executionArn }));
      return (out.status as ExecutionState) ?? 'UNKNOWN';
    } catch (error) {
      if (error instanceof sdk.ExecutionDoesNotExist) return 'UNKNOWN';
      throw error;
    }
  }
}

/** Stops jobs' executions: the cancel route's alone (a class of its own, so the functions that only start leave it out). */
export class WorkflowStopper {
  /**
   * Stops the job's execution (a canceled job, lambdas/jobs/cancel.ts): 'stopped', or 'absent' when no execution
   * with this job id exists (the sweeper had not started it yet; it never will, the job being final). Stopping one
   * that already ended changes nothing.
   */
  async stop(jobId: string, product: ProductId, cause: string): Promise<'stopped' | 'absent'> {
    const { sdk, client } = await sfn();
    try {
      await client.send(new sdk.StopExecutionCommand({ executionArn: executionArnOf(jobId, product), error: 'JobCanceled', cause }));
      return 'stopped';
    } catch (error) {
      if (error instanceof sdk.ExecutionDoesNotExist) return 'absent';
      throw error;
    }
  }
}

/** A job's execution: named by the job id on its product's machine. */
function executionArnOf(jobId: string, product: ProductId): string {
  return `${workflowConfig().stateMachineArns[product].replace(':stateMachine:', ':execution:')}:${jobId}`;
}

/**
 * Starts the delivery of a job's webhook (docs/decisions/0018): one execution of the webhook machine per job, named by its id, so
 * the enders that race (the workflow's last task, the cancel route, the sweeper) start one delivery between them.
 * Returns 'exists' when one was already started.
 */
export class WebhookStarter {
  async start(jobId: string): Promise<'started' | 'exists'> {
    const { sdk, client } = await sfn();
    try {
      await client.send(new sdk.StartExecutionCommand({ stateMachineArn: webhookConfig().stateMachineArn, name: jobId, input: JSON.stringify({ jobId }) }));
      return 'started';
    } catch (error) {
      if (error instanceof sdk.ExecutionAlreadyExists) return 'exists';
      throw error;
    }
  }
}
