/**
 * The operator's view (lib/monitoring.ts): every alarm goes to the one SNS topic, each alarm watches what it says,
 * and the dashboard shows paid calls, revenue, render latency per product and all the alarms. Per stack: the
 * custom metrics and their alarms are the stack's own (a staging stack beside it alarms on its own), the topic takes
 * subscribers from context, and a render refused for its content pages nobody.
 */
import { App } from 'aws-cdk-lib';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PaycallStack, PROJECT_ROOT } from '../../lib/paycall-stack.js';
import { readCdkJsonContext } from '../../lib/config.js';
import { DOCUMENT_ROLES, gasBalanceQuery, insightsQuery, refundWalletQuery } from '../../lib/monitoring.js';
import { functionIdOf, routeRole } from '../../lib/function-map.js';
import { gasMetric, refundWalletMetric } from '../../lambdas/payments/gas-metric.js';
import { PRODUCT_IDS, PRODUCTS } from '../../lambdas/products/catalog.js';
import { METRIC_DIMENSIONS, METRIC_NAMES, METRIC_NAMESPACE, METRICS_NAMESPACE_ENV } from '../../lambdas/shared/metric-names.js';
import { ROUTES, SWEEPER, WORKFLOW_TASKS, type SurfaceId } from '../../lambdas/surfaces/routes.js';
import { RENDER_FUNCTIONS, renderStateName } from '../../lambdas/workflow/render-functions.js';
import { providersFor } from '../../lambdas/render/providers.js';
import { parseStackConfig, StackConfigError } from '../../lib/config.js';
import { WORKFLOW_ERRORS, WORKFLOW_STATES } from '../../lib/workflow.js';
import { synthGeneration, flatTemplateOf } from '../support/synth.js';

type Resource = { Type: string; Properties: any };

let stack: PaycallStack;
/** A second stack of the same app, as a staging stack in the production account. */
let staging: PaycallStack;
let resources: Record<string, Resource>;
let alarms: [string, Resource][];
let topicId: string;
let cdkContext: Record<string, unknown>;

const logicalId = (construct: { node: { defaultChild?: unknown } }) => stack.getLogicalId(construct.node.defaultChild as any);

/** The alarms whose single metric (or any metric of whose expression) carries this dimension value. */
function alarmsOn(dimension: string, ref: string, metricName: string): Resource[] {
  const matches = (m: any) => m?.MetricName === metricName && (m.Dimensions ?? []).some((d: any) => d.Name === dimension && d.Value?.Ref === ref);
  return alarms
    .map(([, a]) => a)
    .filter((a) => matches(a.Properties) || (a.Properties.Metrics ?? []).some((q: any) => matches(q.MetricStat?.Metric)));
}

/** The one EMF line `emit` writes with metrics on and the stack's namespace, as a function would: its directive. */
function emittedDirective(emit: () => void): any {
  const lines: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: any) => (lines.push(String(chunk)), true));
  vi.stubEnv('PAYCALL_METRICS', 'stdout');
  vi.stubEnv('LOG_LEVEL', 'INFO');
  vi.stubEnv(METRICS_NAMESPACE_ENV, stackVar(stack, METRICS_NAMESPACE_ENV));
  try {
    emit();
  } finally {
    vi.unstubAllEnvs();
  }
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0])._aws.CloudWatchMetrics[0];
}

function alarmNamed(id: string): Resource {
  const found = alarms.filter(([, a]) => a.Properties.AlarmName === `Gen-${id}`);
  expect(found, id).toHaveLength(1);
  return found[0][1];
}

/** The value every function of the stack gives a variable (one value, or the test fails). */
function stackVar(of: PaycallStack, name: string): string {
  const template = flatTemplateOf(of).toJSON().Resources;
  const values = new Set(Object.keys(of.functionEntries).map((id) => template[id].Properties.Environment.Variables[name]));
  expect([...values], name).toHaveLength(1);
  return [...values][0];
}

/** What each alarm of a template reads: its Insights query, or each metric's namespace, name and dimensions. */
function alarmMetrics(of: PaycallStack): { queries: string[]; stats: any[] } {
  const template = flatTemplateOf(of).toJSON().Resources as Record<string, Resource>;
  const found = Object.values(template).filter((r) => r.Type === 'AWS::CloudWatch::Alarm');
  const queries: string[] = [];
  const stats: any[] = [];
  for (const alarm of found) {
    if (alarm.Properties.MetricName) stats.push({ Namespace: alarm.Properties.Namespace, MetricName: alarm.Properties.MetricName, Dimensions: alarm.Properties.Dimensions });
    for (const q of alarm.Properties.Metrics ?? []) {
      if (q.MetricStat) stats.push(q.MetricStat.Metric);
      else if (/^SELECT /.test(q.Expression)) queries.push(q.Expression);
    }
  }
  return { queries, stats };
}

/** A Metrics Insights alarm: its one query, the returned expression. */
function insightsOf(alarm: Resource): string {
  const queries = alarm.Properties.Metrics;
  expect(queries).toHaveLength(1);
  expect(queries[0]).toMatchObject({ ReturnData: true, Period: 300 });
  return queries[0].Expression;
}

beforeAll(async () => {
  cdkContext = await readCdkJsonContext(PROJECT_ROOT);
  const app = new App({ context: { ...cdkContext, 'aws:cdk:bundling-stacks': [] } });
  stack = new PaycallStack(app, 'Gen', { allowMissingEntries: true });
  staging = new PaycallStack(app, 'GenStaging', { allowMissingEntries: true });
  resources = flatTemplateOf(stack).toJSON().Resources;
  alarms = Object.entries(resources).filter(([, r]) => r.Type === 'AWS::CloudWatch::Alarm');
  topicId = logicalId(stack.monitoring.topic);
});

describe('one alarm topic', () => {
  it('is the only SNS topic, encrypted with a rotated key CloudWatch may use, TLS only', () => {
    const topics = Object.entries(resources).filter(([, r]) => r.Type === 'AWS::SNS::Topic');
    expect(topics.map(([id]) => id)).toEqual([topicId]);
    expect(topicId).toMatch(/^AlarmTopic/);
    const keyId = resources[topicId].Properties.KmsMasterKeyId['Fn::GetAtt'][0];
    expect(resources[keyId].Properties.EnableKeyRotation).toBe(true);
    const statements = resources[keyId].Properties.KeyPolicy.Statement;
    expect(statements).toContainEqual(
      expect.objectContaining({ Principal: { Service: 'cloudwatch.amazonaws.com' }, Action: ['kms:Decrypt', 'kms:GenerateDataKey*'] }),
    );
    const policies = Object.values(resources).filter((r) => r.Type === 'AWS::SNS::TopicPolicy');
    expect(JSON.stringify(policies)).toContain('aws:SecureTransport');
  });

  it('receives every alarm and its recovery, and nothing else does', () => {
    expect(alarms.length).toBe(stack.monitoring.alarms.length);
    for (const [id, alarm] of alarms) {
      expect(alarm.Properties.AlarmActions, id).toEqual([{ Ref: topicId }]);
      expect(alarm.Properties.OKActions, id).toEqual([{ Ref: topicId }]);
      expect(alarm.Properties.AlarmName, id).toMatch(/^Gen-/);
      expect(alarm.Properties.AlarmDescription, id).toEqual(expect.any(String));
    }
  });

  it('keeps every metric-math alarm within the 10 metrics an alarm may read', () => {
    for (const [id, alarm] of alarms) {
      const stats = (alarm.Properties.Metrics ?? []).filter((q: any) => q.MetricStat);
      expect(stats.length, id).toBeLessThanOrEqual(10);
    }
  });
});

describe('failed, timed-out and aborted executions, per state machine', () => {
  it.each(PRODUCT_IDS)('%s', (product) => {
    const machine = logicalId(stack.stateMachines[product]);
    const name = PRODUCTS[product].workflow.constructId;
    for (const [metric, suffix] of [
      ['ExecutionsFailed', 'ExecutionsFailed'],
      ['ExecutionsTimedOut', 'ExecutionsTimedOut'],
      ['ExecutionsAborted', 'ExecutionsAborted'],
    ]) {
      const found = alarmsOn('StateMachineArn', machine, metric);
      expect(found, `${product} ${metric}`).toHaveLength(1);
      expect(found[0]).toBe(alarmNamed(`${name}${suffix}`));
      expect(found[0].Properties).toMatchObject({
        Namespace: 'AWS/States',
        Statistic: 'Sum',
        Period: 300,
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        TreatMissingData: 'notBreaching',
      });
    }
  });
});

/**
 * Route functions by whether they move money or state. A function keeps its own alarm unless every route
 * it serves reads nothing or only a published document (`none`, `read`: the song page, `merchant-key`: the JWKS).
 */
const MONEY_OR_STATE_ROLES = ['paid', 'run', 'poll', 'workspace', 'topup', 'credit'] as const;
function routeFunctions(): { money: Set<string>; documents: Map<string, SurfaceId> } {
  const money = new Set<string>();
  const documents = new Map<string, SurfaceId>();
  for (const route of ROUTES) {
    const role = routeRole(route);
    if (['none', 'read', 'merchant-key'].includes(role)) documents.set(functionIdOf(route), route.surface);
    else money.add(functionIdOf(route));
  }
  for (const id of money) documents.delete(id);
  return { money, documents };
}

describe('Lambda errors and throttles: one alarm per function that moves money or state', () => {
  it('names exactly none, read and merchant-key as the document roles', () => {
    expect([...DOCUMENT_ROLES].sort()).toEqual(['merchant-key', 'none', 'read']);
  });

  it('keeps an alarm for every function of a paid, run, poll, workspace, top-up or MCP route, every task and the sweeper', () => {
    const { money } = routeFunctions();
    for (const role of MONEY_OR_STATE_ROLES) expect(ROUTES.some((r) => routeRole(r) === role), role).toBe(true);
    for (const id of ['CreateMusic', 'AgentImage', 'Mcp', 'GetSong', 'RunAgent', 'AgentsA2aSend', 'GatewayTopUp', 'AgentsWorkspaces', 'AgentsMcp']) expect(money, id).toContain(id);
    const kept = [...money, ...WORKFLOW_TASKS.map((t) => t.id), ...RENDER_FUNCTIONS.map((t) => t.id), SWEEPER.id];
    for (const id of kept) {
      expect(stack.functions[id], id).toBeDefined();
      expect(alarmsOn('FunctionName', logicalId(stack.functions[id]), 'Errors'), id).toEqual([alarmNamed(`${id}ErrorsOrThrottles`)]);
    }
  });

  it('gives a document function no alarm of its own: its API\'s 5xx alarm covers it', () => {
    const { documents } = routeFunctions();
    expect(documents.size).toBeGreaterThan(10);
    for (const id of ['Catalog', 'OpenApi', 'LlmsTxt', 'Playground', 'AgentsDocuments', 'AgentsJwks', 'AgentsA2aOperations', 'SongPage']) expect(documents.has(id), id).toBe(true);
    const apis = Object.values(resources).filter((r) => r.Type === 'AWS::ApiGatewayV2::Api');
    expect(apis).toHaveLength(2);
    for (const [id, surface] of documents) {
      const ref = logicalId(stack.functions[id]);
      expect(alarmsOn('FunctionName', ref, 'Errors'), id).toEqual([]);
      expect(alarmsOn('FunctionName', ref, 'Throttles'), id).toEqual([]);
      expect(alarms.filter(([, a]) => a.Properties.AlarmName === `Gen-${id}ErrorsOrThrottles`), id).toEqual([]);
      // The API the function serves, by its HttpApi construct (`HttpApi` for generation, `AgentsHttpApi` for agents).
      const apiId = Object.keys(resources).find(
        (key) => resources[key].Type === 'AWS::ApiGatewayV2::Api' && key.startsWith(surface === 'generation' ? 'HttpApi' : 'AgentsHttpApi'),
      )!;
      expect(apiId, id).toBeDefined();
      const found = alarmsOn('ApiId', apiId, '5xx');
      expect(found, id).toHaveLength(1);
      expect(found[0]).toBe(alarmNamed(`${surface === 'generation' ? 'Generation' : 'Agents'}Api5xx`));
    }
  });

  it('alarms on each HTTP API\'s 5xx count (its one stage is $default): one in 5 minutes, silence not breaching', () => {
    const stages = Object.values(resources).filter((r) => r.Type === 'AWS::ApiGatewayV2::Stage');
    expect(stages.map((r) => r.Properties.StageName)).toEqual(['$default', '$default']);
    for (const name of ['GenerationApi5xx', 'AgentsApi5xx']) {
      const alarm = alarmNamed(name);
      expect(alarm.Properties).toMatchObject({
        Namespace: 'AWS/ApiGateway',
        MetricName: '5xx',
        Statistic: 'Sum',
        Period: 300,
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        TreatMissingData: 'notBreaching',
      });
      expect(alarm.Properties.Dimensions.map((d: any) => d.Name)).toEqual(['ApiId']);
      expect(resources[alarm.Properties.Dimensions[0].Value.Ref].Type).toBe('AWS::ApiGatewayV2::Api');
    }
  });

  it('covers every other function of the stack with errors + throttles', () => {
    const tasks = new Set([...WORKFLOW_TASKS, ...RENDER_FUNCTIONS].map((t) => t.id));
    const { documents } = routeFunctions();
    expect(Object.keys(stack.functions).length).toBeGreaterThan(10);
    for (const [id, fn] of Object.entries(stack.functions)) {
      if (documents.has(id)) continue;
      const ref = logicalId(fn);
      const found = alarmsOn('FunctionName', ref, 'Errors');
      expect(found, id).toHaveLength(1);
      expect(alarmsOn('FunctionName', ref, 'Throttles'), id).toEqual(found);
      const [alarm] = found;
      expect(alarm).toBe(alarmNamed(`${id}ErrorsOrThrottles`));
      const queries = alarm.Properties.Metrics;
      expect(queries.find((q: any) => q.ReturnData).Expression).toBe('errors + throttles');
      for (const q of queries.filter((q: any) => q.MetricStat)) {
        expect(q.MetricStat, id).toMatchObject({ Stat: 'Sum', Period: 300, Metric: { Namespace: 'AWS/Lambda' } });
      }
      // Tasks throw on purpose for a transient provider problem, and the machine retries them and their throttles.
      expect(alarm.Properties, id).toMatchObject({
        Threshold: tasks.has(id) ? 10 : 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        TreatMissingData: 'notBreaching',
      });
    }
    expect(alarmNamed(`${SWEEPER.id}ErrorsOrThrottles`).Properties.Threshold).toBe(1);
  });

  it('leaves the stack room under the 500-resource limit of CloudFormation', () => {
    // 432 with the A2A interfaces (their 24 routes share three functions, ADR 0012); 456 with workspaces, the top-up,
    // the agent studio's MCP and the AP2 key set (three generation routes now share their entry's function, ADR 0015); 457 with
    // the refund wallet's alarm; 477 with a render function per provider (ADR 0016: four more functions, one per
    // provider for both render steps rather than two); 485 with GET /api/runs/{runId} (ADR 0017: its own function, whose
    // only grant reads a run); 456 with one alarm per table instead of two (throttles + system errors) and none of
    // their own for the document functions, whose failures their API's 5xx alarm reports (the resource budget:
    // 31 alarms out, 2 in); 468 with the cancel routes (ADR 0017: three routes, one function with its own alarm).
    // 477 with webhook delivery (ADR 0018: its machine and function, each with role, policy and log group,
    // and the function's alarm). 474 with offer-receipt (ADR 0019: the agent studio's x402 index got its own function,
    // the generation index's two routes now share one). 484 with sign-in-with-x (ADR 0020): the generation surface's
    // GET /api/purchases has its own function (no other holds the jobs' ByBuyer index), the agent studio's shares GetRun's.
    // 493 with the sign-in authorizer (its function, role, policy, log group and alarm; an authorizer and an invoke
    // permission per API). 445 with one function per surface, entry and role (lib/function-map.ts): the agent studio's
    // seven document functions became one, and each shared function has one invoke permission, not one per route.
    // CloudFormation refuses a stack past 500: what comes next shares functions or goes in a nested stack of its own.
    expect(Object.keys(resources).length).toBeLessThan(495);
  });
});

describe('DynamoDB throttles and system errors: one alarm per table', () => {
  it('covers every table', () => {
    expect(Object.keys(stack.tables).sort()).toEqual(['creditLedger', 'idempotency', 'jobs', 'payments', 'rateLimit', 'runs', 'settlerLeases', 'workspaces']);
  });

  it.each(['jobs', 'payments', 'idempotency', 'rateLimit', 'settlerLeases', 'runs', 'workspaces', 'creditLedger'] as const)('%s', (key) => {
    const ref = logicalId(stack.tables[key]);
    const found = alarmsOn('TableName', ref, 'ReadThrottleEvents');
    expect(found).toHaveLength(1);
    const [alarm] = found;
    const name = key.charAt(0).toUpperCase() + key.slice(1);
    expect(alarm).toBe(alarmNamed(`${name}TableErrors`));
    expect(alarms.filter(([, a]) => /Table(Throttles|SystemErrors)$/.test(a.Properties.AlarmName))).toEqual([]);
    expect(alarmsOn('TableName', ref, 'WriteThrottleEvents')).toEqual(found);
    expect(alarmsOn('TableName', ref, 'SystemErrors')).toEqual(found);
    expect(alarm.Properties.AlarmDescription).toMatch(/throttled.*5xx/);
    const queries = alarm.Properties.Metrics as any[];
    expect(queries.find((q) => q.ReturnData).Expression).toBe('FILL(throttles, 0) + FILL(systemErrors, 0)');
    expect(queries.find((q) => q.Id === 'throttles').Expression).toBe('reads + writes');
    // SystemErrors is per operation: the alarm sums every operation the stores use, eight metrics of the ten allowed.
    const operations = queries
      .filter((q) => q.MetricStat?.Metric.MetricName === 'SystemErrors')
      .map((q) => q.MetricStat.Metric.Dimensions.find((d: any) => d.Name === 'Operation').Value);
    expect(operations.sort()).toEqual(['DeleteItem', 'GetItem', 'PutItem', 'Query', 'TransactWriteItems', 'UpdateItem']);
    expect(queries.filter((q) => q.MetricStat)).toHaveLength(8);
    expect(alarm.Properties).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold', TreatMissingData: 'notBreaching' });
  });
});

describe('money: settlement failures, unknown outcomes, stuck jobs (custom EMF metrics)', () => {
  it.each([
    ['SettlementFailed', METRIC_NAMES.settlementFailed],
    ['SettlementUnknownOutcome', METRIC_NAMES.settlementUnknownOutcome],
    ['JobsStuck', METRIC_NAMES.jobsStuck],
  ])('%s: any occurrence in 5 minutes, whatever dimensions the emitter adds', (id, metric) => {
    const alarm = alarmNamed(id);
    expect(insightsOf(alarm)).toBe(`SELECT SUM(${metric}) FROM "Paycall/Gen"`);
    expect(insightsOf(alarm)).toBe(insightsQuery('Paycall/Gen', 'SUM', metric));
    expect(alarm.Properties).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold', TreatMissingData: 'notBreaching' });
  });

  it('names the metrics the lambdas emit in one namespace', () => {
    expect(METRIC_NAMESPACE).toBe('Paycall');
    expect(Object.values(METRIC_NAMES)).toEqual(
      expect.arrayContaining([
        'SettlementFailed',
        'SettlementUnknownOutcome',
        'PaidRequests',
        'RevenueBaseUnits',
        'RendersCompleted',
        'RendersFailed',
        'RenderSeconds',
        'Http402',
        'Http429',
        'JobsVoided',
        'JobsReconciled',
        'JobsStuck',
      ]),
    );
  });
});

describe("a settler key's gas balance under a threshold", () => {
  afterEach(() => vi.restoreAllMocks());

  it('alarms on the lowest key a runway above its floor, keeping its state while no settlement reads a balance', () => {
    const alarm = alarmNamed('SettlerGasLow');
    expect(insightsOf(alarm)).toBe('SELECT MIN(SettlerGasWei) FROM SCHEMA("Paycall/Gen", Settler)');
    // Defaults: floor 10 × 2e12 = 2e13 wei; 2e13 + 100/h × 24 h × 2e12 wei = 4.82e15 wei (docs/deploy.md "Gas and refund runway").
    expect(stack.config.settlerGasFloorWei).toBe('20000000000000');
    expect(alarm.Properties).toMatchObject({
      Threshold: 4.82e15,
      ComparisonOperator: 'LessThanThreshold',
      TreatMissingData: 'ignore',
    });
  });

  it('follows the expected rate and runway given by context, and the settler gets the derived floor', () => {
    const app = new App({ context: { ...cdkContext, 'aws:cdk:bundling-stacks': [], gasPerSettlementWei: '1000000000000', expectedPaidPerHour: '2000', runwayHours: '12' } });
    const busy = new PaycallStack(app, 'Busy', { allowMissingEntries: true });
    const found = Object.values(flatTemplateOf(busy).toJSON().Resources as Record<string, Resource>).filter(
      (r) => r.Type === 'AWS::CloudWatch::Alarm' && r.Properties.AlarmName === 'Busy-SettlerGasLow',
    );
    expect(found).toHaveLength(1);
    // floor 10 × 1e12 = 1e13 wei; alarm 1e13 + 2000/h × 12 h × 1e12 = 2.401e16 wei.
    expect(found[0].Properties.Threshold).toBe(2.401e16);
    expect(stackVar(busy, 'SETTLER_GAS_FLOOR_WEI')).toBe('10000000000000');
  });

  it('reads exactly the namespace, name and dimension set lambdas/payments/gas-metric.ts emits', () => {
    const directive = emittedDirective(() => gasMetric('0x1111111111111111111111111111111111111111', 5n, 10n));
    expect(directive.Namespace).toBe('Paycall/Gen');
    expect(directive.Dimensions).toEqual([[METRIC_DIMENSIONS.settler]]);
    expect(directive.Metrics.map((m: any) => m.Name)).toContain(METRIC_NAMES.settlerGasWei);
    expect(gasBalanceQuery('Paycall/Gen')).toBe(`SELECT MIN(${METRIC_NAMES.settlerGasWei}) FROM SCHEMA("${directive.Namespace}", ${directive.Dimensions[0][0]})`);
  });
});

describe("the refund wallet's USDC under its floor", () => {
  afterEach(() => vi.restoreAllMocks());

  it('alarms below runwayHours of the expected refunds at the dearest price, keeping its state between refunds', () => {
    const alarm = alarmNamed('RefundWalletLow');
    expect(insightsOf(alarm)).toBe('SELECT MIN(RefundWalletBaseUnits) FROM SCHEMA("Paycall/Gen", RefundWallet)');
    // Defaults: 10 refunds/day × 24 h × 4_990_000 (the dearest product) / 24 = 49_900_000 base units (49.9 USDC).
    expect(alarm.Properties).toMatchObject({ Threshold: 49_900_000, ComparisonOperator: 'LessThanThreshold', TreatMissingData: 'ignore' });
    expect(alarm.Properties.AlarmActions).toContainEqual({ Ref: topicId });
  });

  it('takes refundWalletFloorUsdc from context over the derived floor', () => {
    const app = new App({ context: { ...cdkContext, 'aws:cdk:bundling-stacks': [], refundWalletFloorUsdc: '250.5' } });
    const funded = new PaycallStack(app, 'Funded', { allowMissingEntries: true });
    const found = Object.values(flatTemplateOf(funded).toJSON().Resources as Record<string, Resource>).filter(
      (r) => r.Type === 'AWS::CloudWatch::Alarm' && r.Properties.AlarmName === 'Funded-RefundWalletLow',
    );
    expect(found.map((r) => r.Properties.Threshold)).toEqual([250_500_000]);
  });

  it('reads exactly the namespace, name and dimension set lambdas/payments/gas-metric.ts emits', () => {
    const directive = emittedDirective(() => refundWalletMetric('0x2222222222222222222222222222222222222222', 49_000_000n));
    expect(directive.Dimensions).toEqual([[METRIC_DIMENSIONS.refundWallet]]);
    expect(directive.Metrics.map((m: any) => m.Name)).toEqual([METRIC_NAMES.refundWalletBaseUnits]);
    expect(refundWalletQuery('Paycall/Gen')).toBe(`SELECT MIN(${METRIC_NAMES.refundWalletBaseUnits}) FROM SCHEMA("${directive.Namespace}", ${directive.Dimensions[0][0]})`);
  });
});

describe('one dashboard', () => {
  let body: any;
  let text: string;
  beforeAll(() => {
    const dashboards = Object.entries(resources).filter(([, r]) => r.Type === 'AWS::CloudWatch::Dashboard');
    expect(dashboards).toHaveLength(1);
    expect(dashboards[0][0]).toMatch(/^PaycallDashboard/);
    // The body is a Fn::Join of JSON text and tokens: show each token as <LogicalId> so the JSON parses.
    const parts = dashboards[0][1].Properties.DashboardBody['Fn::Join'][1] as any[];
    text = parts.map((p) => (typeof p === 'string' ? p : p.Ref ? `<${p.Ref}>` : `<${p['Fn::GetAtt'][0]}>`)).join('');
    body = JSON.parse(text);
  });

  const widget = (title: string) => {
    const found = body.widgets.filter((w: any) => w.properties.title === title);
    expect(found, title).toHaveLength(1);
    return found[0].properties;
  };

  it('shows paid calls and revenue per product', () => {
    expect(widget('Paid calls per product').metrics).toEqual([
      [expect.objectContaining({ expression: `SELECT SUM(PaidRequests) FROM "Paycall/Gen" GROUP BY ${METRIC_DIMENSIONS.product}` })],
    ]);
    expect(widget('Revenue per product (USDC base units, 1e6 = 1 USDC)').metrics).toEqual([
      [expect.objectContaining({ expression: `SELECT SUM(RevenueBaseUnits) FROM "Paycall/Gen" GROUP BY ${METRIC_DIMENSIONS.product}` })],
    ]);
  });

  it("shows render latency per product: each workflow's p90 and the reported render time", () => {
    const latency = JSON.stringify(widget('Render latency per product (seconds)').metrics);
    for (const product of PRODUCT_IDS) {
      expect(latency).toContain(`<${logicalId(stack.stateMachines[product])}>`);
      expect(latency).toContain(`${product} workflow p90`);
    }
    expect(latency).toContain('"ExecutionTime"');
    expect(latency).toContain('"stat":"p90"');
    expect(latency).toContain('SELECT AVG(RenderSeconds) FROM \\"Paycall/Gen\\" GROUP BY product');
  });

  it('shows every alarm in alarm-status widgets', () => {
    const statusWidgets = body.widgets.filter((w: any) => w.type === 'alarm');
    expect(statusWidgets.length).toBeGreaterThan(0);
    const shown = statusWidgets.flatMap((w: any) => w.properties.alarms as string[]);
    expect(shown.sort()).toEqual(alarms.map(([id]) => `<${id}>`).sort());
    for (const w of statusWidgets) expect(w.properties.alarms.length).toBeLessThanOrEqual(100);
  });

  it('graphs the other business metrics', () => {
    for (const name of [
      METRIC_NAMES.settlementFailed,
      METRIC_NAMES.settlementUnknownOutcome,
      METRIC_NAMES.rendersCompleted,
      METRIC_NAMES.rendersFailed,
      METRIC_NAMES.rendersRefused,
      METRIC_NAMES.http402,
      METRIC_NAMES.http429,
      METRIC_NAMES.jobsVoided,
      METRIC_NAMES.jobsReconciled,
      METRIC_NAMES.jobsStuck,
      METRIC_NAMES.settlerGasWei,
    ]) {
      expect(text, name).toContain(`(${name})`);
    }
  });
});

describe('metrics and alarms per stack', () => {
  it("every function writes its metrics under the stack's own namespace", () => {
    expect(stackVar(stack, METRICS_NAMESPACE_ENV)).toBe('Paycall/Gen');
    expect(stackVar(staging, METRICS_NAMESPACE_ENV)).toBe('Paycall/GenStaging');
  });

  it("every custom-metric alarm reads that namespace only; every AWS-metric alarm one of the stack's own resources", () => {
    const { queries, stats } = alarmMetrics(stack);
    expect(queries.length).toBeGreaterThanOrEqual(6);
    for (const query of queries) expect(query).toContain('"Paycall/Gen"');
    expect(stats.length).toBeGreaterThan(0);
    for (const metric of stats) {
      expect(metric.Namespace).toMatch(/^AWS\//);
      // Each dimension is a reference into this template (a function, table or state machine of this stack), or the
      // fixed name of a DynamoDB operation.
      for (const d of metric.Dimensions) {
        if (d.Name === 'Operation') continue;
        const ref = d.Value.Ref ?? d.Value['Fn::GetAtt']?.[0];
        expect(resources[ref], JSON.stringify(d)).toBeDefined();
      }
    }
  });

  it('two stacks of one app, in one account, alarm on disjoint metrics', () => {
    const gen = alarmMetrics(stack);
    const other = alarmMetrics(staging);
    expect(other.queries).toHaveLength(gen.queries.length);
    expect(other.queries.filter((q) => gen.queries.includes(q))).toEqual([]);
    for (const query of other.queries) expect(query).toContain('"Paycall/GenStaging"');
    // The dashboards graph their own stack's namespace too.
    const body = (of: PaycallStack) =>
      JSON.stringify(Object.values(flatTemplateOf(of).toJSON().Resources as Record<string, Resource>).find((r) => r.Type === 'AWS::CloudWatch::Dashboard')!.Properties);
    expect(body(stack)).not.toContain('GenStaging');
    expect(body(staging)).not.toMatch(/\\"Paycall(\/Gen)?\\"/);
  });
});

describe('who hears the alarms, by context', () => {
  it('nobody by default: the topic has no subscription', () => {
    expect(Object.values(resources).filter((r) => r.Type === 'AWS::SNS::Subscription')).toEqual([]);
  });

  it('alarmEmail subscribes each address by e-mail; alarmTopicArn receives every alarm and recovery as well', () => {
    const arn = 'arn:aws:sns:us-east-1:123456789012:oncall';
    const s = synthGeneration(cdkContext, { alarmEmail: 'ops@example.com, night-shift@example.org', alarmTopicArn: arn });
    const topic = s.stack.getLogicalId(s.stack.monitoring.topic.node.defaultChild as any);
    const subscriptions = Object.values(s.resources).filter((r) => r.Type === 'AWS::SNS::Subscription');
    expect(subscriptions.map((r) => r.Properties)).toEqual([
      { Protocol: 'email', Endpoint: 'ops@example.com', TopicArn: { Ref: topic } },
      { Protocol: 'email', Endpoint: 'night-shift@example.org', TopicArn: { Ref: topic } },
    ]);
    const alarmsHere = Object.entries(s.resources).filter(([, r]) => r.Type === 'AWS::CloudWatch::Alarm');
    expect(alarmsHere.length).toBe(alarms.length);
    for (const [id, alarm] of alarmsHere) {
      expect(alarm.Properties.AlarmActions, id).toEqual([{ Ref: topic }, arn]);
      expect(alarm.Properties.OKActions, id).toEqual([{ Ref: topic }, arn]);
    }
    // Only the subscriptions are new resources.
    expect(Object.keys(s.resources).length).toBe(Object.keys(resources).length + 2);
  });

  it.each([
    ['alarmEmail', 'ops', /context key "alarmEmail" must be an e-mail address, or several separated by commas \(got "ops"\)/],
    ['alarmEmail', 'ops@example.com;dev@example.com', /context key "alarmEmail" must be an e-mail address/],
    ['alarmEmail', ' , ', /context key "alarmEmail"/],
    ['alarmTopicArn', 'oncall', /context key "alarmTopicArn" must be a standard SNS topic ARN/],
    ['alarmTopicArn', 'arn:aws:sns:us-east-1:123456789012:oncall.fifo', /context key "alarmTopicArn"/],
    ['alarmTopicArn', 'arn:aws:sqs:us-east-1:123456789012:oncall', /context key "alarmTopicArn"/],
  ])('a bad %s (%j) is refused, naming the key', (key, value, message) => {
    expect(() => parseStackConfig({ [key]: value })).toThrow(StackConfigError);
    expect(() => parseStackConfig({ [key]: value })).toThrow(message);
  });

  it('a bad value given as context stops the stack before anything is built', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [], alarmEmail: 'ops at example.com' } });
    expect(() => new PaycallStack(app, 'Bad', { allowMissingEntries: true })).toThrow(/context key "alarmEmail"/);
  });

  it("a topic in another region than the stack's is refused, naming the key", () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [], alarmTopicArn: 'arn:aws:sns:us-east-1:123456789012:oncall' } });
    expect(() => new PaycallStack(app, 'Elsewhere', { allowMissingEntries: true, env: { region: 'eu-west-1' } })).toThrow(
      /context key "alarmTopicArn" must be a topic in the stack's region eu-west-1/,
    );
  });
});

describe('a render refused for its content pages nobody', () => {
  it('no alarm reads the renders that failed or were refused (the failed execution is what pages)', () => {
    const { queries } = alarmMetrics(stack);
    for (const query of queries) expect(query).not.toMatch(new RegExp(`${METRIC_NAMES.rendersFailed}|${METRIC_NAMES.rendersRefused}`));
    expect(METRIC_NAMES.rendersRefused).toBe('RendersRefused');
  });

  it.each(PRODUCT_IDS)('%s: a refusal fails and refunds the job, and the execution ends in a Succeed state, not Fail', (product) => {
    const machine = resources[logicalId(stack.stateMachines[product])];
    const parts = machine.Properties.DefinitionString['Fn::Join'][1] as any[];
    const def = JSON.parse(parts.map((p) => (typeof p === 'string' ? p : '<token>')).join(''));
    const states = def.States;
    const refusal = states[WORKFLOW_STATES.finished].Choices.find((c: any) => c.Next === WORKFLOW_STATES.renderRefused);
    expect(JSON.stringify(refusal)).toContain('"Variable":"$.render.refusal","StringEquals":"content"');
    expect(states[WORKFLOW_STATES.renderRefused]).toMatchObject({ Type: 'Pass', Parameters: { Error: WORKFLOW_ERRORS.contentRefused, 'Cause.$': '$.render.error' }, ResultPath: '$.error' });
    // Submit render answers a synchronous model's refusal: the Choice follows it directly, for every provider.
    for (const provider of providersFor(product)) expect(states[renderStateName('submit', provider)].Next).toBe(WORKFLOW_STATES.finished);
    const path: string[] = [];
    for (let name: string | undefined = WORKFLOW_STATES.renderRefused; name && path.length < 10; ) {
      path.push(name);
      const state: any = states[name];
      name = state.Type === 'Choice'
        ? (state.Choices.find((c: any) => JSON.stringify(c).includes(`"StringEquals":"${WORKFLOW_ERRORS.contentRefused}"`))?.Next ?? state.Default)
        : state.Next;
    }
    expect(path).toEqual([WORKFLOW_STATES.renderRefused, 'Mark failed', 'Refund payment', WORKFLOW_STATES.refusedOrFailed, WORKFLOW_STATES.refused]);
    expect(states[WORKFLOW_STATES.refused].Type).toBe('Succeed');
    // Every other failure still ends failed, and pages.
    expect(states[WORKFLOW_STATES.refusedOrFailed].Default).toBe(WORKFLOW_STATES.failed);
    expect(states[WORKFLOW_STATES.failed].Type).toBe('Fail');
  });
});
