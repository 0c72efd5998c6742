/** Starts a product's state machine for a job; the execution is named by the job id (idempotent by name). */
import { DescribeExecutionCommand, SFNClient, StartExecutionCommand, ExecutionAlreadyExists, ExecutionDoesNotExist } from '@aws-sdk/client-sfn';
import type { ProductId } from '../products/catalog.js';
import { workflowConfig } from '../shared/config.js';
import { traceClient } from '../shared/tracing.js';

let client: SFNClient | undefined;
function sfn(): SFNClient {
  if (client) return client;
  const { sfnEndpoint } = workflowConfig();
  client = traceClient(
    new SFNClient(
      sfnEndpoint
        ? { endpoint: sfnEndpoint, region: process.env.AWS_REGION ?? 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
        : {},
    ),
  );
  return client;
}

export type ExecutionState = 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'TIMED_OUT' | 'ABORTED' | 'PENDING_REDRIVE' | 'UNKNOWN';

export class WorkflowStarter {
  /** Returns 'started', or 'exists' when an execution with this job id was already started (before or elsewhere). */
  async start(jobId: string, product: ProductId): Promise<'started' | 'exists'> {
    const { stateMachineArns } = workflowConfig();
    try {
      await sfn().send(
        new StartExecutionCommand({
          stateMachineArn: stateMachineArns[product],
          name: jobId,
          input: JSON.stringify({ jobId, product }),
        }),
      );
      return 'started';
    } catch (error) {
      if (error instanceof ExecutionAlreadyExists) return 'exists';
      throw error;
    }
  }

  async state(jobId: string, product: ProductId): Promise<ExecutionState> {
    const arn = workflowConfig().stateMachineArns[product];
    const executionArn = `${arn.replace(':stateMachine:', ':execution:')}:${jobId}`;
    try {
      const out = await sfn().send(new DescribeExecutionCommand({ executionArn }));
      return (out.status as ExecutionState) ?? 'UNKNOWN';
    } catch (error) {
      if (error instanceof ExecutionDoesNotExist) return 'UNKNOWN';
      throw error;
    }
  }
}
