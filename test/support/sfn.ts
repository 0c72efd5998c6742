/** The official Step Functions client pointed at a local endpoint, one attempt per call (a test sees each answer). */
import { SFNClient } from '@aws-sdk/client-sfn';

export function localSfnClient(endpoint: string): SFNClient {
  return new SFNClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 1 });
}
