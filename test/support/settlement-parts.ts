/**
 * The real parts a settlement component test needs, started once per file: the local chain with `settlerCount` keys,
 * DynamoDB Local with a settler-leases table, the environment the lease store reads (restored by `stop`), a verifier
 * and a reader on the chain, and the lease store's class loaded after that environment is set.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CreateTableCommand } from '@aws-sdk/client-dynamodb';
import { createPublicClient, http } from 'viem';
import { startLocalChain, type LocalChain } from '../../lib/local/chain.js';
import { startDynamoLocal, type LocalDynamo } from '../../lib/local/dynamodb.js';
import type { PaymentRequirement, VerifiedPayment } from '../../lambdas/payments/types.js';
import { ViemPaymentVerifier } from '../../lambdas/payments/verify.js';
import { newBuyer, requirementFor, signedPayment } from '../unit/payments/fixtures.js';

const ARTIFACT_CACHE = fileURLToPath(new URL('../../node_modules/.cache/paycall-local-chain', import.meta.url));

export interface SettlementParts {
  chain: LocalChain;
  dynamo: LocalDynamo;
  requirement: PaymentRequirement;
  verifier: ViemPaymentVerifier;
  reader: ReturnType<typeof createPublicClient>;
  Leases: typeof import('../../lambdas/store/settler-leases.js').DynamoSettlerLeases;
  /** A fresh buyer funded with USDC and its payment for `requirement`, verified. */
  payment(): Promise<VerifiedPayment>;
  stop(): Promise<void>;
}

export async function startSettlementParts(name: string, options: { settlerCount: number; leasesTable: string }): Promise<SettlementParts> {
  const savedEnv = { ...process.env };
  const chainDir = await mkdtemp(path.join(tmpdir(), `${name}-chain-`));
  const dynamoDir = await mkdtemp(path.join(tmpdir(), `${name}-dynamo-`));
  const [chain, dynamo] = await Promise.all([
    startLocalChain({ port: 0, stateDir: chainDir, buyerCount: 0, artifactCacheDir: ARTIFACT_CACHE, settlerCount: options.settlerCount }),
    startDynamoLocal({ dir: dynamoDir }),
  ]);
  await dynamo.client.send(
    new CreateTableCommand({
      TableName: options.leasesTable,
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      BillingMode: 'PAY_PER_REQUEST',
    }),
  );
  Object.assign(process.env, { JOBS_TABLE: 'unused', DYNAMODB_ENDPOINT: dynamo.endpoint, AWS_REGION: 'us-east-1' });
  const { DynamoSettlerLeases: Leases } = await import('../../lambdas/store/settler-leases.js');
  const requirement = requirementFor({ asset: chain.usdcAddress, payTo: chain.payTo });
  const verifier = new ViemPaymentVerifier({ config: { chainId: chain.chainId, rpcUrl: chain.rpcUrl } });
  return {
    chain,
    dynamo,
    Leases,
    requirement,
    verifier,
    async payment() {
      const buyer = newBuyer();
      await chain.fund(buyer.address, 1_000_000n);
      const result = await verifier.verify(await signedPayment(buyer, requirement), requirement);
      if (!result.ok) throw new Error(result.reason);
      return result.payment;
    },
    reader: createPublicClient({ transport: http(chain.rpcUrl, { retryCount: 0 }) }),
    async stop() {
      await chain.stop();
      await dynamo.stop();
      for (const dir of [chainDir, dynamoDir]) await rm(dir, { recursive: true, force: true });
      process.env = savedEnv;
    },
  };
}
