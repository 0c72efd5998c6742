/**
 * The policies the embedded runtime will enforce, read from the real synthesised stack (lib/local/asl.ts →
 * lib/local/iam/template.ts): concrete facts of today's grants, evaluated the way a local SDK call will be.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LOCAL_ACCOUNT,
  LOCAL_ASSETS_BUCKET,
  LOCAL_REGION,
  localSecretArn,
  localTableArn,
  localTableName,
  synthesizeForLocal,
  type LocalDefinitions,
} from '../../lib/local/asl.js';
import { DYNAMODB_TRANSACT_ITEM_ACTIONS, evaluate, evaluateAll, evaluateRequests, type Decision } from '../../lib/local/iam/policy.js';
import { SWEEPER, WORKFLOW_TASKS } from '../../lambdas/surfaces/routes.js';
import { RENDER_FUNCTIONS } from '../../lambdas/workflow/render-functions.js';
import { STORE_ACTIONS } from '../../lib/grants.js';

let defs: LocalDefinitions;
let cacheDir: string;

beforeAll(async () => {
  cacheDir = await mkdtemp(path.join(os.tmpdir(), 'paycall-iam-synth-'));
  defs = await synthesizeForLocal({ cacheDir });
});
afterAll(() => rm(cacheDir, { recursive: true, force: true }));

const JOBS = localTableArn(localTableName('JOBS_TABLE'));
const PAYMENTS = localTableArn(localTableName('PAYMENTS_TABLE'));
const ALL_TABLES = ['JOBS_TABLE', 'PAYMENTS_TABLE', 'IDEMPOTENCY_TABLE', 'RATE_LIMIT_TABLE'].map((e) => localTableArn(localTableName(e)));
/** The paid route's tables and the actions their stores send (lib/grants.ts STORE_ACTIONS). */
const PAID_TABLES = {
  JOBS_TABLE: STORE_ACTIONS.jobs,
  PAYMENTS_TABLE: STORE_ACTIONS.payments,
  IDEMPOTENCY_TABLE: STORE_ACTIONS.idempotency,
  RATE_LIMIT_TABLE: STORE_ACTIONS.rateLimit,
  SETTLER_LEASES_TABLE: STORE_ACTIONS.settlerLeases,
};
const ITEM_ACTIONS = ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'ConditionCheckItem'] as const;
const object = (key: string) => `arn:aws:s3:::${LOCAL_ASSETS_BUCKET}/${key}`;
const machineArns = () => Object.values(defs.stateMachines).map((m) => m.stateMachineArn);
const executionArn = (machineName: string, jobId: string) => `arn:aws:states:${LOCAL_REGION}:${LOCAL_ACCOUNT}:execution:${machineName}:${jobId}`;

const decide = (fn: string, action: string, resource: string): Decision => evaluate(defs.policies[fn], { action, resource }).decision;

describe('extraction', () => {
  it('has a policy for every route, task and the sweeper, keyed by its id', () => {
    const ids = Object.values(defs.functions).map((e) => e.id);
    expect(Object.keys(defs.policies).sort()).toEqual([...ids].sort());
    for (const task of WORKFLOW_TASKS) expect(defs.policies[task.id]).toBeDefined();
    expect(defs.policies[SWEEPER.id]).toBeDefined();
  });

  it('names the local resources: tables by environment variable, the asset bucket', () => {
    expect(defs.localNames.tables.JOBS_TABLE).toBe('jobs');
    expect(defs.localNames.tables.PAYMENTS_TABLE).toBe('payments');
    expect(Object.keys(defs.localNames.tables).sort()).toEqual(defs.tables.map((t) => t.envName).sort());
    expect(defs.localNames.assetsBucket).toBe('paycall-assets');
  });

  it('leaves no CloudFormation token and no condition in any statement', () => {
    for (const [fn, statements] of Object.entries(defs.policies)) {
      for (const s of statements) {
        for (const r of [s.Resource, s.NotResource].flat()) if (r !== undefined) expect(typeof r, `${fn}: ${JSON.stringify(s)}`).toBe('string');
        expect(s.Condition, fn).toBeUndefined();
        expect(JSON.stringify(s), fn).not.toMatch(/Fn::|"Ref"|AWS::/);
      }
    }
  });

  it('resolves to local ARNs only (region local, account 000000000000)', () => {
    const arns = Object.values(defs.policies).flatMap((ss) => ss.flatMap((s) => [s.Resource ?? []].flat()));
    // A Bedrock foundation model is named by the model's own region and no account (Bedrock's render function has it
    // whatever the image provider: ADR 0016); the embedded runtime's Bedrock fake is asked for that same ARN.
    const model = /^arn:aws:bedrock:[a-z0-9-]+::foundation-model\//;
    for (const arn of arns.filter((a) => a !== '*' && !a.startsWith('arn:aws:s3:::') && !model.test(a))) {
      expect(arn).toMatch(new RegExp(`^arn:aws:[a-z]+:${LOCAL_REGION}:${LOCAL_ACCOUNT}:`));
    }
  });
});

describe('paid route AgentImage', () => {
  it('may write the jobs and payments tables in one transaction (authorised item by item)', () => {
    const items = [
      { action: DYNAMODB_TRANSACT_ITEM_ACTIONS.Put, resource: JOBS },
      { action: DYNAMODB_TRANSACT_ITEM_ACTIONS.Update, resource: PAYMENTS },
      { action: DYNAMODB_TRANSACT_ITEM_ACTIONS.Delete, resource: PAYMENTS },
    ];
    expect(evaluateRequests(defs.policies.AgentImage, items).decision).toBe('allow');
    // Exactly what each table's store sends, nothing more (no ConditionCheck: no paid transaction has one).
    for (const [env, actions] of Object.entries(PAID_TABLES)) {
      const arn = localTableArn(localTableName(env));
      for (const action of ITEM_ACTIONS) {
        expect(decide('AgentImage', `dynamodb:${action}`, arn), `${action} ${env}`).toBe((actions as readonly string[]).includes(action) ? 'allow' : 'implicit-deny');
      }
    }
  });

  it('is not granted the literal action dynamodb:TransactWriteItems (IAM has none: the wiring must check per item)', () => {
    expect(evaluateAll(defs.policies.AgentImage, 'dynamodb:TransactWriteItems', [JOBS, PAYMENTS]).decision).toBe('implicit-deny');
  });

  it("may start an execution of its own product's state machine only, and nothing else on Step Functions", () => {
    expect(machineArns()).toHaveLength(3);
    expect(decide('AgentImage', 'states:StartExecution', defs.stateMachines.agent_image.stateMachineArn)).toBe('allow');
    for (const product of ['create_music', 'agent_video'] as const) {
      expect(decide('AgentImage', 'states:StartExecution', defs.stateMachines[product].stateMachineArn), product).toBe('implicit-deny');
    }
    // the MCP server's token-paid tool buys music, so it starts the music machine alone
    expect(decide('Mcp', 'states:StartExecution', defs.stateMachines.create_music.stateMachineArn)).toBe('allow');
    expect(decide('Mcp', 'states:StartExecution', defs.stateMachines.agent_video.stateMachineArn)).toBe('implicit-deny');
    expect(decide('AgentImage', 'states:DescribeExecution', executionArn(Object.values(defs.stateMachines)[0].name, 'job-1'))).toBe('implicit-deny');
    expect(decide('AgentImage', 'states:StartExecution', 'arn:aws:states:local:000000000000:stateMachine:Other')).toBe('implicit-deny');
  });

  it('may read the settlement key secret, by its local ARN', () => {
    expect(decide('AgentImage', 'secretsmanager:GetSecretValue', localSecretArn('paycall/settler-key'))).toBe('allow');
    expect(decide('AgentImage', 'secretsmanager:GetSecretValue', localSecretArn('paycall/other'))).toBe('implicit-deny');
  });

  it('may not touch the asset bucket', () => {
    expect(decide('AgentImage', 's3:GetObject', object('renders/x/manifest.json'))).toBe('implicit-deny');
  });
});

describe('read and discovery routes', () => {
  it('SongPage may read the jobs table but not write it, nor read payments', () => {
    expect(decide('SongPage', 'dynamodb:GetItem', JOBS)).toBe('allow');
    expect(decide('SongPage', 'dynamodb:Query', JOBS)).toBe('implicit-deny');
    expect(decide('SongPage', 'dynamodb:PutItem', JOBS)).toBe('implicit-deny');
    expect(decide('SongPage', 'dynamodb:UpdateItem', JOBS)).toBe('implicit-deny');
    expect(decide('SongPage', 'dynamodb:GetItem', PAYMENTS)).toBe('implicit-deny');
  });

  it('GetImage (a poll) reads jobs and may reconcile a reserved one: update jobs, settle or release its lock, start it', () => {
    expect(decide('GetImage', 'dynamodb:GetItem', JOBS)).toBe('allow');
    expect(decide('GetImage', 'dynamodb:UpdateItem', JOBS)).toBe('allow');
    expect(decide('GetImage', 'dynamodb:PutItem', JOBS)).toBe('implicit-deny');
    expect(decide('GetImage', 'dynamodb:DeleteItem', JOBS)).toBe('implicit-deny');
    for (const action of ['GetItem', 'UpdateItem', 'DeleteItem']) expect(decide('GetImage', `dynamodb:${action}`, PAYMENTS)).toBe('allow');
    expect(decide('GetImage', 'dynamodb:PutItem', PAYMENTS)).toBe('implicit-deny');
    for (const arn of machineArns()) expect(decide('GetImage', 'states:StartExecution', arn)).toBe('allow');
    for (const table of ALL_TABLES.filter((t) => t !== JOBS && t !== PAYMENTS)) expect(decide('GetImage', 'dynamodb:GetItem', table)).toBe('implicit-deny');
    expect(decide('GetImage', 'secretsmanager:GetSecretValue', localSecretArn('paycall/settler-key'))).toBe('implicit-deny');
  });

  it('OpenApi (discovery) is allowed nothing on DynamoDB, Step Functions, S3 or Secrets Manager', () => {
    for (const table of ALL_TABLES) expect(decide('OpenApi', 'dynamodb:GetItem', table)).toBe('implicit-deny');
    expect(decide('OpenApi', 'states:StartExecution', machineArns()[0])).toBe('implicit-deny');
    expect(decide('OpenApi', 's3:GetObject', object('x'))).toBe('implicit-deny');
    expect(decide('OpenApi', 'secretsmanager:GetSecretValue', localSecretArn('paycall/settler-key'))).toBe('implicit-deny');
    const services = defs.policies.OpenApi.flatMap((s) => [s.Action ?? []].flat().map((a) => a.split(':')[0]));
    expect(new Set(services)).toEqual(new Set(['logs', 'xray']));
  });
});

describe('agent studio A2A routes', () => {
  const table = (env: string) => localTableArn(localTableName(env));
  const RUN_TABLES = ['RUNS_TABLE', 'PAYMENTS_TABLE', 'IDEMPOTENCY_TABLE', 'RATE_LIMIT_TABLE'];
  const ids = (kind: string) => Object.values(defs.functions).filter((e) => e.kind === 'route' && e.id === kind);

  it('message:send (per agent and root, one function) is granted exactly what a run route is', () => {
    expect(ids('AgentsA2aSend')).toHaveLength(1);
    expect(defs.policies.A2aSend).toBeUndefined(); // the root send is served by the same function
    const runActions: Record<string, readonly string[]> = {
      RUNS_TABLE: STORE_ACTIONS.runs,
      PAYMENTS_TABLE: STORE_ACTIONS.payments,
      IDEMPOTENCY_TABLE: STORE_ACTIONS.idempotency,
      RATE_LIMIT_TABLE: STORE_ACTIONS.rateLimit,
    };
    for (const env of RUN_TABLES) {
      for (const action of ITEM_ACTIONS) {
        expect(decide('AgentsA2aSend', `dynamodb:${action}`, table(env)), `${action} ${env}`).toBe(decide('RunAgent', `dynamodb:${action}`, table(env)));
        expect(decide('AgentsA2aSend', `dynamodb:${action}`, table(env)), `${action} ${env}`).toBe(runActions[env].includes(action) ? 'allow' : 'implicit-deny');
      }
    }
    expect(decide('AgentsA2aSend', 'secretsmanager:GetSecretValue', localSecretArn('paycall/settler-key'))).toBe('allow');
    expect(decide('AgentsA2aSend', 'dynamodb:GetItem', JOBS)).toBe('implicit-deny');
    expect(decide('AgentsA2aSend', 'states:StartExecution', machineArns()[0])).toBe('implicit-deny');
    const services = (fn: string) => new Set(defs.policies[fn].flatMap((s) => [s.Action ?? []].flat().map((a) => a.split(':')[0])));
    expect(services('AgentsA2aSend')).toEqual(services('RunAgent'));
  });

  it('the other A2A operations (one function) and the cards (the documents functions) are allowed nothing but logs and traces', () => {
    expect(ids('AgentsA2aOperations')).toHaveLength(1);
    for (const fn of ['AgentsA2aOperations', 'AgentsDocuments']) {
      for (const env of RUN_TABLES) expect(decide(fn, 'dynamodb:GetItem', table(env)), fn).toBe('implicit-deny');
      expect(decide(fn, 'secretsmanager:GetSecretValue', localSecretArn('paycall/settler-key')), fn).toBe('implicit-deny');
      const services = defs.policies[fn].flatMap((s) => [s.Action ?? []].flat().map((a) => a.split(':')[0]));
      expect(new Set(services), fn).toEqual(new Set(['logs', 'xray']));
    }
  });
});

describe('sweeper and tasks', () => {
  it('JobSweeper may write jobs and payments, start executions, and (since cf25847) DescribeExecution on executions', () => {
    expect(evaluateAll(defs.policies.JobSweeper, 'dynamodb:UpdateItem', [JOBS, PAYMENTS]).decision).toBe('allow');
    expect(evaluateAll(defs.policies.JobSweeper, 'states:StartExecution', machineArns()).decision).toBe('allow');
    for (const machine of Object.values(defs.stateMachines)) {
      expect(decide('JobSweeper', 'states:DescribeExecution', executionArn(machine.name, 'job-123')), machine.name).toBe('allow');
    }
    expect(decide('JobSweeper', 'states:DescribeExecution', executionArn('OtherWorkflow', 'job-123'))).toBe('implicit-deny');
    expect(decide('JobSweeper', 'dynamodb:GetItem', localTableArn(localTableName('IDEMPOTENCY_TABLE')))).toBe('implicit-deny');
  });

  it.each(RENDER_FUNCTIONS.map((f) => f.id))('%s may put and (since cf25847) get its manifest in the asset bucket; not other buckets', (id) => {
    expect(decide(id, 's3:PutObject', object('renders/x/manifest.json'))).toBe('allow');
    expect(decide(id, 's3:GetObject', object('renders/x/manifest.json'))).toBe('allow');
    expect(decide(id, 's3:PutObject', 'arn:aws:s3:::other-bucket/renders/x/manifest.json')).toBe('implicit-deny');
    expect(decide(id, 's3:DeleteObject', object('renders/x/manifest.json'))).toBe('implicit-deny');
    expect(decide(id, 'states:StartExecution', machineArns()[0])).toBe('implicit-deny');
  });

  it('every task may read and write the jobs table only', () => {
    for (const task of [...WORKFLOW_TASKS, ...RENDER_FUNCTIONS]) {
      expect(decide(task.id, 'dynamodb:UpdateItem', JOBS), task.id).toBe('allow');
      expect(decide(task.id, 'dynamodb:UpdateItem', PAYMENTS), task.id).toBe('implicit-deny');
    }
  });
});

describe('workspaces and prepaid credit', () => {
  const WORKSPACES = localTableArn(localTableName('WORKSPACES_TABLE'));
  const LEDGER = localTableArn(localTableName('CREDIT_LEDGER_TABLE'));
  const RATE = localTableArn(localTableName('RATE_LIMIT_TABLE'));

  it('names the two tables locally: workspaces and credit_ledger', () => {
    expect(defs.localNames.tables.WORKSPACES_TABLE).toBe('workspaces');
    expect(defs.localNames.tables.CREDIT_LEDGER_TABLE).toBe('credit_ledger');
  });

  it('the workspace routes (one function) create and find workspaces and read the ledger, nothing more', () => {
    expect(defs.policies.CreateWorkspace).toBeUndefined(); // served by the shared Workspaces function
    for (const action of ['PutItem', 'GetItem']) expect(decide('AgentsWorkspaces', `dynamodb:${action}`, WORKSPACES), action).toBe('allow');
    for (const action of ['UpdateItem', 'DeleteItem', 'Scan']) expect(decide('AgentsWorkspaces', `dynamodb:${action}`, WORKSPACES), action).toBe('implicit-deny');
    expect(decide('AgentsWorkspaces', 'dynamodb:Query', `${LEDGER}/index/ByTime`)).toBe('allow');
    for (const action of ['PutItem', 'UpdateItem', 'DeleteItem']) expect(decide('AgentsWorkspaces', `dynamodb:${action}`, LEDGER), action).toBe('implicit-deny');
    expect(decide('AgentsWorkspaces', 'dynamodb:UpdateItem', RATE)).toBe('allow');
    expect(decide('AgentsWorkspaces', 'dynamodb:GetItem', PAYMENTS)).toBe('implicit-deny');
    expect(decide('AgentsWorkspaces', 'secretsmanager:GetSecretValue', localSecretArn('paycall/settler-key'))).toBe('implicit-deny');
  });

  it('the top-up writes its entry, the balance and the payment lock in one transaction, and settles; it creates no workspace', () => {
    const items = [
      { action: DYNAMODB_TRANSACT_ITEM_ACTIONS.Update, resource: PAYMENTS },
      { action: DYNAMODB_TRANSACT_ITEM_ACTIONS.Update, resource: LEDGER },
      { action: DYNAMODB_TRANSACT_ITEM_ACTIONS.Update, resource: WORKSPACES },
    ];
    expect(evaluateRequests(defs.policies.GatewayTopUp, items).decision).toBe('allow');
    for (const action of ['PutItem', 'DeleteItem']) expect(decide('GatewayTopUp', `dynamodb:${action}`, LEDGER), action).toBe('allow');
    for (const action of ['PutItem', 'DeleteItem']) expect(decide('GatewayTopUp', `dynamodb:${action}`, WORKSPACES), action).toBe('implicit-deny');
    expect(decide('GatewayTopUp', 'secretsmanager:GetSecretValue', localSecretArn('paycall/settler-key'))).toBe('allow');
    expect(decide('GatewayTopUp', 'dynamodb:GetItem', JOBS)).toBe('implicit-deny');
    expect(decide('GatewayTopUp', 'states:StartExecution', machineArns()[0])).toBe('implicit-deny');
  });

  it('the sweeper may find open top-ups and credit them (entry and balance)', () => {
    expect(decide('JobSweeper', 'dynamodb:Query', `${LEDGER}/index/OpenTopUps`)).toBe('allow');
    expect(evaluateAll(defs.policies.JobSweeper, 'dynamodb:UpdateItem', [LEDGER, WORKSPACES]).decision).toBe('allow');
  });

  it('the agent studio’s MCP debits in one transaction (entry, balance, finished run) and reads back a debit; nothing of x402', () => {
    const RUNS = localTableArn(localTableName('RUNS_TABLE'));
    const debit = [
      { action: DYNAMODB_TRANSACT_ITEM_ACTIONS.Put, resource: LEDGER },
      { action: DYNAMODB_TRANSACT_ITEM_ACTIONS.Update, resource: WORKSPACES },
      { action: DYNAMODB_TRANSACT_ITEM_ACTIONS.Put, resource: RUNS },
    ];
    expect(evaluateRequests(defs.policies.AgentsMcp, debit).decision).toBe('allow');
    expect(defs.policies.AgentsMcpGet).toBeUndefined(); // its GET is served by the same function
    expect(decide('AgentsMcp', 'dynamodb:GetItem', WORKSPACES)).toBe('allow');
    expect(decide('AgentsMcp', 'dynamodb:GetItem', LEDGER)).toBe('allow');
    for (const action of ['DeleteItem', 'UpdateItem', 'Query']) expect(decide('AgentsMcp', `dynamodb:${action}`, LEDGER), action).toBe('implicit-deny');
    for (const action of ['PutItem', 'DeleteItem']) expect(decide('AgentsMcp', `dynamodb:${action}`, WORKSPACES), action).toBe('implicit-deny');
    for (const action of ['GetItem', 'UpdateItem']) expect(decide('AgentsMcp', `dynamodb:${action}`, RUNS), action).toBe('implicit-deny');
    expect(decide('AgentsMcp', 'dynamodb:PutItem', PAYMENTS)).toBe('implicit-deny');
    expect(decide('AgentsMcp', 'secretsmanager:GetSecretValue', localSecretArn('paycall/settler-key'))).toBe('implicit-deny');
  });

  it('no other function touches the two tables', () => {
    const allowed = new Set(['AgentsWorkspaces', 'GatewayTopUp', 'AgentsMcp', SWEEPER.id]);
    for (const fn of Object.keys(defs.policies).filter((f) => !allowed.has(f))) {
      for (const table of [WORKSPACES, LEDGER]) expect(decide(fn, 'dynamodb:GetItem', table), `${fn} ${table}`).toBe('implicit-deny');
    }
  });
});

describe('least privilege: only what the code sends (the RPC URL secret)', () => {
  const tableArns = () => defs.tables.map((t) => localTableArn(localTableName(t.envName)));

  it('no function may Scan, BatchWriteItem or BatchGetItem any table, nor Query an index it does not read', () => {
    for (const fn of Object.keys(defs.policies)) {
      for (const arn of tableArns()) {
        for (const action of ['Scan', 'BatchWriteItem', 'BatchGetItem']) expect(decide(fn, `dynamodb:${action}`, arn), `${fn} ${action} ${arn}`).toBe('implicit-deny');
        expect(decide(fn, 'dynamodb:Query', `${arn}/index/NoSuchIndex`), `${fn} ${arn}`).toBe('implicit-deny');
      }
    }
  });

  it('no function may delete from the asset bucket or abort its uploads', () => {
    for (const fn of Object.keys(defs.policies)) {
      for (const action of ['s3:DeleteObject', 's3:DeleteObjectVersion', 's3:AbortMultipartUpload']) expect(decide(fn, action, object('renders/x/out.png')), `${fn} ${action}`).toBe('implicit-deny');
    }
  });

  it('the sweeper queries exactly the open-item indexes', () => {
    const table = (env: string) => localTableArn(localTableName(env));
    for (const [env, index] of [['JOBS_TABLE', 'OpenJobs'], ['JOBS_TABLE', 'OpenRefunds'], ['RUNS_TABLE', 'OpenRuns'], ['CREDIT_LEDGER_TABLE', 'OpenTopUps']]) {
      expect(decide(SWEEPER.id, 'dynamodb:Query', `${table(env)}/index/${index}`), index).toBe('allow');
    }
    expect(decide(SWEEPER.id, 'dynamodb:Query', `${table('CREDIT_LEDGER_TABLE')}/index/ByTime`)).toBe('implicit-deny');
    expect(decide(SWEEPER.id, 'dynamodb:PutItem', JOBS)).toBe('implicit-deny');
  });
});
