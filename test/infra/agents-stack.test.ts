/**
 * CDK assertions on the agent studio's part of the stack (bundling skipped): its own HTTP API with one route per
 * agent-surface route of the route table, the runs table kept like the payments it records, and least privilege for
 * the run and document functions.
 */
import { App } from 'aws-cdk-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { PaycallStack, PROJECT_ROOT } from '../../lib/paycall-stack.js';
import { readCdkJsonContext } from '../../lib/config.js';
import { gatewayPath } from '../../lib/surface-api.js';
import { STORE_ACTIONS } from '../../lib/grants.js';
import { CORS_POLICY } from '../../lib/cors.js';
import { AGENT_STUDIO, GENERATION, surfaceRoutes } from '../../lambdas/surfaces/surface.js';
import { functionIdOf } from '../../lib/function-map.js';
import { PRODUCT_IDS } from '../../lambdas/products/catalog.js';
import { actionsOf, ofType, refersTo, type Resources } from '../support/template.js';
import type { Template } from 'aws-cdk-lib/assertions';
import { flatTemplateOf } from '../support/synth.js';


const AGENT_ROUTES = surfaceRoutes(AGENT_STUDIO);
const gatewayKey = (r: { method: string; path: string }) => `${r.method} ${gatewayPath(r.path)}`;
/** The ids of the functions that serve the agent routes of an access kind (routes may share one: `fn`). */
const functionIds = (access: string) => [...new Set(AGENT_ROUTES.filter((r) => r.access === access).map(functionIdOf))].sort();


describe('PaycallStack: the agent studio', () => {
  let stack: PaycallStack;
  let resources: Resources;
  let template: Template;
  const id = (construct: any) => stack.getLogicalId(construct.node.defaultChild ?? construct);
  /** The logical id of the HTTP API whose description is the surface's. */
  const apiOf = (description: string) => {
    const found = ofType(resources, 'AWS::ApiGatewayV2::Api').filter(([, api]) => api.Properties.Description === description);
    expect(found, description).toHaveLength(1);
    return found[0][0];
  };
  const routesOf = (apiId: string) => ofType(resources, 'AWS::ApiGatewayV2::Route').filter(([, r]) => r.Properties.ApiId.Ref === apiId);
  const agentFunctions = (role: string) =>
    Object.entries(stack.functionEntries).filter(([, e]) => e.kind === 'route' && e.route.surface === 'agents' && e.role === role);

  beforeAll(async () => {
    const cdkContext = await readCdkJsonContext(PROJECT_ROOT);
    const app = new App({ context: { ...cdkContext, 'aws:cdk:bundling-stacks': [] } });
    stack = new PaycallStack(app, 'Gen', { allowMissingEntries: true });
    template = flatTemplateOf(stack);
    resources = template.toJSON().Resources as Resources;
  });

  describe('a second HTTP API', () => {
    it('exists beside the generation API, HTTP protocol', () => {
      template.resourceCountIs('AWS::ApiGatewayV2::Api', 2);
      const agents = apiOf(AGENT_STUDIO.description);
      expect(agents).not.toBe(apiOf(GENERATION.description));
      expect(resources[agents].Properties.ProtocolType).toBe('HTTP');
      expect(Object.keys(template.toJSON().Outputs)).toEqual(expect.arrayContaining(['ApiUrl', 'AgentsApiUrl']));
    });

    it('routes exactly the agent-surface routes of the route table, each to the function that serves it', () => {
      expect(AGENT_ROUTES.length).toBeGreaterThanOrEqual(13);
      const routes = routesOf(apiOf(AGENT_STUDIO.description));
      // A2A's tasks/{taskId}:cancel and :subscribe are API Gateway's tasks/{taskId}: one route for the operations' one function.
      expect(routes.map(([, r]) => r.Properties.RouteKey).sort()).toEqual([...new Set(AGENT_ROUTES.map(gatewayKey))].sort());
      for (const route of AGENT_ROUTES) {
        const fnId = id(stack.functions[functionIdOf(route)]);
        const [, r] = routes.find(([, r]) => r.Properties.RouteKey === gatewayKey(route))!;
        const integrationId = r.Properties.Target['Fn::Join'][1][1].Ref as string;
        expect(JSON.stringify(resources[integrationId].Properties.IntegrationUri), route.id).toContain(fnId);
        expect(stack.functionEntries[fnId]).toMatchObject({ kind: 'route', id: functionIdOf(route), entry: route.entry });
      }
      // and no generation route is on it
      const generationApi = apiOf(GENERATION.description);
      expect(routesOf(generationApi).map(([, r]) => r.Properties.RouteKey)).not.toContain('POST /api/agents/{agent}/run');
    });

    it('throttles its stage and writes JSON access logs to its own log group', () => {
      const agents = apiOf(AGENT_STUDIO.description);
      const stages = ofType(resources, 'AWS::ApiGatewayV2::Stage').filter(([, s]) => s.Properties.ApiId.Ref === agents);
      expect(stages).toHaveLength(1);
      const [, stage] = stages[0];
      expect(stage.Properties.DefaultRouteSettings).toEqual({ ThrottlingRateLimit: expect.any(Number), ThrottlingBurstLimit: expect.any(Number) });
      expect(stage.Properties.DefaultRouteSettings.ThrottlingRateLimit).toBeGreaterThan(0);
      expect(stage.Properties.DefaultRouteSettings.ThrottlingBurstLimit).toBeGreaterThan(0);
      const logGroupId = stage.Properties.AccessLogSettings.DestinationArn['Fn::GetAtt'][0] as string;
      expect(resources[logGroupId].Type).toBe('AWS::Logs::LogGroup');
      expect(resources[logGroupId].Properties.RetentionInDays).toBe(30);
      const generationStage = ofType(resources, 'AWS::ApiGatewayV2::Stage').find(([, s]) => s.Properties.ApiId.Ref === apiOf(GENERATION.description))!;
      expect(generationStage[1].Properties.AccessLogSettings.DestinationArn['Fn::GetAtt'][0]).not.toBe(logGroupId);
      expect(JSON.parse(stage.Properties.AccessLogSettings.Format)).toMatchObject({ status: '$context.status', routeKey: '$context.routeKey' });
    });
  });

  describe('CORS on both HTTP APIs: browser buyers on any origin can pay (lib/cors.ts)', () => {
    it('allows any origin without credentials, the payment and protocol headers, and exposes the challenge, receipt and waits', () => {
      for (const surface of [GENERATION, AGENT_STUDIO]) {
        const cors = resources[apiOf(surface.description)].Properties.CorsConfiguration;
        expect(cors, surface.id).toEqual({
          AllowOrigins: ['*'],
          AllowMethods: CORS_POLICY.allowMethods,
          AllowHeaders: CORS_POLICY.allowHeaders,
          ExposeHeaders: CORS_POLICY.exposeHeaders,
          MaxAge: CORS_POLICY.maxAgeSeconds,
        });
        expect(cors.AllowHeaders).toEqual(
          expect.arrayContaining(['PAYMENT-SIGNATURE', 'X-PAYMENT', 'X-Idempotency-Key', 'Service-API-Version', 'Authorization', 'Content-Type']),
        );
        expect(cors.AllowHeaders).toEqual(expect.arrayContaining(['A2A-Version', 'A2A-Extensions', 'X-A2A-Extensions', 'MCP-Protocol-Version', 'Mcp-Session-Id']));
        expect(cors.ExposeHeaders).toEqual(
          expect.arrayContaining(['PAYMENT-REQUIRED', 'PAYMENT-RESPONSE', 'X-PAYMENT-RESPONSE', 'Location', 'Retry-After', 'RateLimit', 'RateLimit-Policy', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']),
        );
        // Every method of the surface's routes may be sent cross-origin.
        expect(cors.AllowMethods).toEqual(expect.arrayContaining([...new Set(surfaceRoutes(surface).map((r) => r.method))]));
      }
    });
  });

  describe('the runs table', () => {
    it('is keyed by runId, on demand, with TTL, point-in-time recovery, deletion protection and Retain', () => {
      const runs = resources[id(stack.tables.runs)];
      expect(runs.Type).toBe('AWS::DynamoDB::Table');
      expect(runs.Properties.KeySchema).toEqual([{ AttributeName: 'runId', KeyType: 'HASH' }]);
      expect(runs.Properties.BillingMode).toBe('PAY_PER_REQUEST');
      expect(runs.Properties.TimeToLiveSpecification).toEqual({ AttributeName: 'expiresAt', Enabled: true });
      expect(runs.Properties.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
      expect(runs.Properties.DeletionProtectionEnabled).toBe(true);
      expect(runs.DeletionPolicy).toBe('Retain');
      expect(runs.UpdateReplacePolicy).toBe('Retain');
    });
  });

  describe('workspaces and the credit ledger', () => {
    it('are on demand, encrypted, with point-in-time recovery, deletion protection and Retain', () => {
      for (const table of [stack.tables.workspaces, stack.tables.creditLedger]) {
        const t = resources[id(table)];
        expect(t.Properties.BillingMode).toBe('PAY_PER_REQUEST');
        expect(t.Properties.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
        expect(t.Properties.DeletionProtectionEnabled).toBe(true);
        expect(t.Properties.SSESpecification).toEqual({ SSEEnabled: true });
        expect(t.DeletionPolicy).toBe('Retain');
        expect(t.UpdateReplacePolicy).toBe('Retain');
      }
    });

    it('key workspaces by the key hash, and the ledger by workspace and entry, newest first (ByTime) and open top-ups (OpenTopUps)', () => {
      expect(resources[id(stack.tables.workspaces)].Properties.KeySchema).toEqual([{ AttributeName: 'keyHash', KeyType: 'HASH' }]);
      const ledger = resources[id(stack.tables.creditLedger)].Properties;
      expect(ledger.KeySchema).toEqual([
        { AttributeName: 'workspaceId', KeyType: 'HASH' },
        { AttributeName: 'entryKey', KeyType: 'RANGE' },
      ]);
      expect(ledger.LocalSecondaryIndexes).toEqual([
        { IndexName: 'ByTime', KeySchema: [{ AttributeName: 'workspaceId', KeyType: 'HASH' }, { AttributeName: 'at', KeyType: 'RANGE' }], Projection: { ProjectionType: 'ALL' } },
      ]);
      expect(ledger.GlobalSecondaryIndexes).toEqual([
        { IndexName: 'OpenTopUps', KeySchema: [{ AttributeName: 'openStatus', KeyType: 'HASH' }, { AttributeName: 'updatedAt', KeyType: 'RANGE' }], Projection: { ProjectionType: 'ALL' } },
      ]);
    });

    it('the workspace routes share one function; the top-up has its own, and only they (and the sweeper) are granted the tables', () => {
      const workspaceRoutes = AGENT_ROUTES.filter((r) => r.access === 'workspace');
      expect(workspaceRoutes.map((r) => `${r.method} ${r.path}`).sort()).toEqual(['GET /api/gateway/balance', 'GET /api/gateway/ledger', 'POST /api/workspaces']);
      expect(new Set(workspaceRoutes.map(functionIdOf))).toEqual(new Set(['AgentsWorkspaces']));
      expect(functionIds('topup')).toEqual(['GatewayTopUp']);
      const tables = [id(stack.tables.workspaces), id(stack.tables.creditLedger)];
      const granted = Object.keys(stack.functionEntries).filter((logicalId) => actionsOf(resources, logicalId).some((g) => tables.some((t) => refersTo(g.resource, t))));
      expect(granted.map((l) => stack.functionEntries[l].id).sort()).toEqual(['AgentsMcp', 'AgentsWorkspaces', 'GatewayTopUp', 'JobSweeper']);
      const topUp = agentFunctions('topup')[0][0];
      const grants = actionsOf(resources, topUp);
      expect(grants.some((g) => g.action === 'secretsmanager:GetSecretValue')).toBe(true);
      expect(grants.filter((g) => refersTo(g.resource, id(stack.tables.jobs)))).toEqual([]);
      expect(grants.filter((g) => refersTo(g.resource, id(stack.tables.workspaces))).map((g) => g.action).sort()).toEqual(['dynamodb:GetItem', 'dynamodb:UpdateItem']);
      const ws = agentFunctions('workspace')[0][0];
      expect(actionsOf(resources, ws).filter((g) => refersTo(g.resource, id(stack.tables.workspaces))).map((g) => g.action).sort()).toEqual(['dynamodb:GetItem', 'dynamodb:PutItem']);
    });
  });

  describe('the AP2 merchant key', () => {
    it('is read by the run functions, to sign, and by the key set route, to publish its public half; by nothing else', () => {
      expect(functionIds('merchant-key')).toEqual(['AgentsJwks']);
      const readers = Object.entries(stack.functionEntries)
        .filter(([logicalId]) => resources[logicalId].Properties.Environment?.Variables?.AP2_MERCHANT_KEY_SECRET_ID !== undefined)
        .map(([, e]) => e.id)
        .sort();
      expect(readers).toEqual([...functionIds('run'), 'AgentsJwks'].sort());
      const [jwks] = agentFunctions('merchant-key')[0];
      const grants = actionsOf(resources, jwks);
      expect(grants.filter((g) => g.action.startsWith('secretsmanager:')).map((g) => g.action).sort()).toEqual(['secretsmanager:DescribeSecret', 'secretsmanager:GetSecretValue']);
      expect(grants.filter((g) => /^(dynamodb|s3|states):/.test(g.action))).toEqual([]);
    });
  });

  describe('the agent studio’s MCP (docs/decisions/0015)', () => {
    it('POST and GET /api/mcp share one function, the only `credit` one', () => {
      const mcpRoutes = AGENT_ROUTES.filter((r) => r.path === '/api/mcp');
      expect(mcpRoutes.map((r) => r.method).sort()).toEqual(['GET', 'POST']);
      expect(new Set(mcpRoutes.map(functionIdOf))).toEqual(new Set(['AgentsMcp']));
      expect(functionIds('credit')).toEqual(['AgentsMcp']);
    });

    it('reads and debits workspaces, writes debit entries and finished runs, and touches nothing of x402', () => {
      const [logicalId] = agentFunctions('credit')[0];
      const grants = actionsOf(resources, logicalId);
      const on = (table: Parameters<typeof id>[0]) => grants.filter((g) => refersTo(g.resource, id(table))).map((g) => g.action).sort();
      const { workspaces, creditLedger, runs, payments, idempotency, settlerLeases, jobs } = stack.tables;
      expect(on(workspaces)).toEqual(['dynamodb:GetItem', 'dynamodb:UpdateItem']);
      expect(on(creditLedger)).toEqual(['dynamodb:GetItem', 'dynamodb:PutItem']);
      expect(on(runs)).toEqual(['dynamodb:PutItem']);
      for (const table of [payments, idempotency, settlerLeases, jobs]) expect(on(table)).toEqual([]);
      expect(grants.filter((g) => /^(s3|states|secretsmanager):/.test(g.action))).toEqual([]);
    });
  });

  describe('least privilege', () => {
    it('every agent run function may use the runs, payments, idempotency, rate-limit and settler-leases tables, exactly as their stores do', () => {
      const runFns = agentFunctions('run');
      expect(runFns.map(([, e]) => e.id).sort()).toEqual(functionIds('run'));
      // every run route (the generic one and each concrete agent's own) and both A2A message:send routes, and nothing else
      const fixed = ['bank-rec', 'expense-policy', 'po-match', 'vendor-risk'].map((family) => `lambdas/http/agents/run-${family}.ts`);
      expect(runFns.map(([, e]) => e.entry).sort()).toEqual(['lambdas/http/agents/a2a-send.ts', ...fixed, 'lambdas/http/agents/run.ts']);
      expect(AGENT_ROUTES.filter((r) => r.access === 'run').map((r) => r.path)).toEqual(
        expect.arrayContaining(['/api/agents/{agent}/a2a/message:send', '/api/a2a/message:send']),
      );
      const { runs, payments, idempotency, rateLimit, settlerLeases } = stack.tables;
      for (const [logicalId, entry] of runFns) {
        const grants = actionsOf(resources, logicalId);
        // exactly what each table's store sends, on the table alone: no Scan, no batch, no index
        for (const [table, actions] of [[runs, STORE_ACTIONS.runs], [payments, STORE_ACTIONS.payments], [idempotency, STORE_ACTIONS.idempotency], [rateLimit, STORE_ACTIONS.rateLimit], [settlerLeases, STORE_ACTIONS.settlerLeases]] as const) {
          const tableId = id(table);
          const on = grants.filter((g) => refersTo(g.resource, tableId));
          expect(on.map((g) => g.action).sort(), `${entry.id} on ${tableId}`).toEqual(actions.map((a) => `dynamodb:${a}`).sort());
          expect(on.every((g) => !JSON.stringify(g.resource).includes('/index/')), `${entry.id} on ${tableId}`).toBe(true);
        }
        // it settles with the self-settlement key
        expect(grants.some((g) => g.action === 'secretsmanager:GetSecretValue'), entry.id).toBe(true);
      }
    });

    it('agent functions are not given the state machine ARNs nor the token issuer (they use neither)', () => {
      for (const [logicalId] of [...agentFunctions('run'), ...agentFunctions('none')]) {
        const names = Object.keys(resources[logicalId].Properties.Environment.Variables);
        expect(names).toContain('RUNS_TABLE');
        expect(names.filter((n) => n.endsWith('_STATE_MACHINE_ARN') || n.startsWith('TOKEN_'))).toEqual([]);
      }
    });

    it('no agent run function touches the jobs table or starts an execution', () => {
      const jobs = id(stack.tables.jobs);
      const machines = PRODUCT_IDS.map((p) => id(stack.stateMachines[p]));
      for (const [logicalId, entry] of agentFunctions('run')) {
        const grants = actionsOf(resources, logicalId);
        expect(grants.filter((g) => refersTo(g.resource, jobs)), entry.id).toEqual([]);
        expect(grants.filter((g) => g.action.startsWith('states:')), entry.id).toEqual([]);
        for (const m of machines) expect(grants.filter((g) => refersTo(g.resource, m)), entry.id).toEqual([]);
        expect(grants.some((g) => g.action.startsWith('s3:')), entry.id).toBe(false);
      }
    });

    it('agent document functions get no DynamoDB access at all (nor S3, Step Functions or secrets)', () => {
      const docFns = agentFunctions('none');
      // the documents (the A2A cards among them), the playground and the A2A operations other than message:send
      expect(docFns.map(([, e]) => e.id).sort()).toEqual(functionIds('none'));
      expect(docFns.map(([, e]) => e.id)).toContain('AgentsA2aOperations');
      for (const [logicalId, entry] of docFns) {
        const grants = actionsOf(resources, logicalId);
        expect(grants.filter((g) => /^(dynamodb|s3|states|secretsmanager):/.test(g.action)), entry.id).toEqual([]);
      }
    });
  });

  describe('the A2A interfaces', () => {
    it('serve their stateless operations from one function for both interfaces, and both sends from one', () => {
      const ops = AGENT_ROUTES.filter((r) => r.entry === 'lambdas/http/agents/a2a-operations.ts');
      expect(ops).toHaveLength(22);
      expect(new Set(ops.map(functionIdOf))).toEqual(new Set(['AgentsA2aOperations']));
      expect(ops.map((r) => r.method)).toContain('DELETE');
      const shared = routesOf(apiOf(AGENT_STUDIO.description)).filter(([, r]) => r.Properties.RouteKey === 'POST /api/agents/{agent}/a2a/tasks/{taskId}');
      expect(shared).toHaveLength(1);
      expect(new Set(AGENT_ROUTES.filter((r) => r.path.endsWith('/message:send')).map(functionIdOf))).toEqual(new Set(['AgentsA2aSend']));
    });

    it('keep the stack under CloudFormation\'s 500 resources (one function per A2A route would not)', () => {
      expect(Object.keys(resources).length).toBeLessThan(500);
    });
  });
});
