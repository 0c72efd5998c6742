/**
 * CDK assertions on the generation stack (bundling skipped). One file on purpose: importing aws-cdk-lib costs
 * seconds, and the first synthesis of a process several more; later stacks in the same file are cheap.
 */
import { JOB_SECRETS_ENV } from '../../lambdas/jobs/job-secrets.js';
import { OFFER_SIGNER_ENV } from '../../lambdas/payments/offer-receipt.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Match } from 'aws-cdk-lib/assertions';
import { POWERTOOLS_PACKAGES, powertoolsLayerParameter, powertoolsVersion } from '../../lib/bundling/externals.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT, STATE_MACHINE_ENV, type PaycallStackProps } from '../../lib/paycall-stack.js';
import { readCdkJsonContext, StackConfigError } from '../../lib/config.js';
import { providerEnvironment } from '../../lib/render-providers.js';
import { PROVIDER_SECRETS, providerSecret, providersFor } from '../../lambdas/render/providers.js';
import { ROUTES, SIGN_IN_AUTHORIZER, SWEEPER, WORKFLOW_TASKS } from '../../lambdas/surfaces/routes.js';
import { functionIdOf } from '../../lib/function-map.js';
import { authorizerName } from '../../lib/surface-stack.js';
import { RENDER_FUNCTIONS, renderFunctionId, renderStateName } from '../../lambdas/workflow/render-functions.js';
import { ENV } from '../../lambdas/shared/config.js';
import { providerEnvName } from '../../lambdas/render/providers.js';
import { REFUND_ENV } from '../../lambdas/payments/refund.js';
import { PRODUCT_IDS, PRODUCTS } from '../../lambdas/products/catalog.js';
import { actionsOf, ofType, refersTo, type Resources } from '../support/template.js';
import { synthGeneration } from '../support/synth.js';

const PAY_TO = '0x2222222222222222222222222222222222222222';
const GENERATION_ROUTES = ROUTES.filter((r) => r.surface === 'generation');
/** One function per route, except where routes share one (`fn`: the A2A interfaces). */
const ROUTE_FUNCTIONS = [...new Set(ROUTES.map(functionIdOf))];


let cdkContext: Record<string, unknown>;

const synth = (context: Record<string, unknown> = {}, props: PaycallStackProps = {}) => synthGeneration(cdkContext, context, props);

/** Parse a DefinitionString (Fn::Join with GetAtt tokens) into ASL, tokens shown as `<LogicalId.Attr>`. */
function asl(definitionString: any): any {
  const text =
    typeof definitionString === 'string'
      ? definitionString
      : (definitionString['Fn::Join'][1] as any[])
          .map((p) => (typeof p === 'string' ? p : p['Fn::GetAtt'] ? `<${p['Fn::GetAtt'].join('.')}>` : '<token>'))
          .join('');
  return JSON.parse(text);
}


beforeAll(async () => {
  cdkContext = await readCdkJsonContext(PROJECT_ROOT);
});

describe('PaycallStack (default configuration: pay-to from SSM, self-settlement)', () => {
  let s: ReturnType<typeof synth>;
  beforeAll(() => {
    s = synth();
  });

  it('has one Node.js 22 arm64 traced function per route, workflow task, the sign-in authorizer and the sweeper', () => {
    // CDK's own custom-resource handlers (the static-asset deployment) are not ours: only count entry functions.
    const fns = ofType(s.resources, 'AWS::Lambda::Function').filter(([logicalId]) => s.stack.functionEntries[logicalId]);
    // Every route of every served surface (the agent studio's too: test/infra/agents-stack.test.ts checks those).
    expect(fns).toHaveLength(ROUTE_FUNCTIONS.length + WORKFLOW_TASKS.length + RENDER_FUNCTIONS.length + 2);
    expect(Object.keys(s.stack.functionEntries)).toHaveLength(ROUTE_FUNCTIONS.length + WORKFLOW_TASKS.length + RENDER_FUNCTIONS.length + 2);
    for (const [logicalId, fn] of fns) {
      const entry = s.stack.functionEntries[logicalId];
      expect(fn.Properties.Runtime).toBe('nodejs22.x');
      // The render functions that encode or crop carry the static linux-x64 ffmpeg (bundleFfmpeg, default true):
      // x86_64 there only.
      if (RENDER_FUNCTIONS.some((f) => f.id === entry.id && f.ffmpeg)) {
        expect(fn.Properties.Architectures).toEqual(['x86_64']);
        expect(fn.Properties.Environment.Variables[ENV.ffmpegPath]).toBe('/var/task/bin/ffmpeg');
      } else {
        expect(fn.Properties.Architectures).toEqual(['arm64']);
        expect(fn.Properties.Environment.Variables[ENV.ffmpegPath]).toBeUndefined();
      }
      expect(fn.Properties.TracingConfig).toEqual({ Mode: 'Active' });
      expect(fn.Properties.LoggingConfig.LogGroup).toEqual({ Ref: expect.any(String) });
    }
    const entries = Object.values(s.stack.functionEntries);
    expect(entries.filter((e) => e.kind === 'route').map((e) => e.id).sort()).toEqual([...ROUTE_FUNCTIONS].sort());
    expect(entries.filter((e) => e.kind === 'task').map((e) => e.id).sort()).toEqual([...WORKFLOW_TASKS, ...RENDER_FUNCTIONS].map((t) => t.id).sort());
    expect(entries.filter((e) => e.kind === 'sweeper').map((e) => e.id)).toEqual([SWEEPER.id]);
    expect(entries.filter((e) => e.kind === 'authorizer').map((e) => e.id)).toEqual([SIGN_IN_AUTHORIZER.id]);
    for (const logicalId of Object.keys(s.stack.functionEntries)) {
      expect(s.resources[logicalId]?.Type).toBe('AWS::Lambda::Function');
    }
  });

  it("gives every function AWS's Powertools layer at the installed Powertools version, whose packages the bundles leave out (docs/decisions/0022)", () => {
    const version = powertoolsVersion(PROJECT_ROOT);
    for (const name of POWERTOOLS_PACKAGES) {
      expect(JSON.parse(readFileSync(join(PROJECT_ROOT, 'node_modules', '@aws-lambda-powertools', name, 'package.json'), 'utf8')).version).toBe(version);
    }
    // The layer's ARN is AWS's public SSM parameter for that version, resolved by CloudFormation in the stack's region.
    const parameters = Object.entries(s.template.toJSON().Parameters as Record<string, { Type: string; Default: string }>).filter(
      ([, p]) => p.Default === powertoolsLayerParameter(version),
    );
    expect(parameters).toHaveLength(1);
    const [layerParameter, { Type }] = parameters[0];
    expect(powertoolsLayerParameter(version)).toBe(`/aws/service/powertools/typescript/generic/all/${version}`);
    expect(Type).toBe('AWS::SSM::Parameter::Value<String>');
    const fns = ofType(s.resources, 'AWS::Lambda::Function').filter(([logicalId]) => s.stack.functionEntries[logicalId]);
    for (const [, fn] of fns) expect(fn.Properties.Layers).toEqual([{ Ref: layerParameter }]);
  });

  it('gives every function log group an explicit retention', () => {
    const logGroups = Object.fromEntries(ofType(s.resources, 'AWS::Logs::LogGroup'));
    for (const [logicalId, fn] of ofType(s.resources, 'AWS::Lambda::Function')) {
      if (!s.stack.functionEntries[logicalId]) continue; // CDK's custom-resource handler
      const lg = logGroups[fn.Properties.LoggingConfig.LogGroup.Ref];
      expect(lg.Properties.RetentionInDays).toBe(30);
    }
  });

  it('routes exactly the generation ROUTES on the generation HTTP API', () => {
    // One HTTP API per served surface: the generation surface's and the agent studio's.
    s.template.resourceCountIs('AWS::ApiGatewayV2::Api', 2);
    s.template.hasResourceProperties('AWS::ApiGatewayV2::Api', { ProtocolType: 'HTTP' });
    const apiId = s.stack.getLogicalId(s.stack.api.node.defaultChild as any);
    const keys = ofType(s.resources, 'AWS::ApiGatewayV2::Route')
      .filter(([, r]) => r.Properties.ApiId?.Ref === apiId)
      .map(([, r]) => r.Properties.RouteKey)
      .sort();
    expect(keys).toEqual(GENERATION_ROUTES.map((r) => `${r.method} ${r.path}`).sort());
    // Each route's integration invokes the function that serves it (its own, or the one it shares: `fn`).
    for (const route of GENERATION_ROUTES) {
      const fnLogicalId = s.stack.getLogicalId(s.stack.functions[functionIdOf(route)].node.defaultChild as any);
      const [, r] = ofType(s.resources, 'AWS::ApiGatewayV2::Route').find(([, r]) => r.Properties.RouteKey === `${route.method} ${route.path}`)!;
      const integrationId = r.Properties.Target['Fn::Join'][1][1].Ref as string;
      expect(JSON.stringify(s.resources[integrationId].Properties.IntegrationUri)).toContain(fnLogicalId);
    }
  });

  it('creates the tables with their keys, on-demand billing, TTL and PITR/retention where durable', () => {
    const tables = ofType(s.resources, 'AWS::DynamoDB::Table');
    // These six, and the workspaces and credit ledger (asserted in test/infra/agents-stack.test.ts).
    expect(tables).toHaveLength(8);
    const byName = (t: any) => s.stack.getLogicalId(t.node.defaultChild);
    const expectations = [
      { table: s.stack.tables.jobs, pk: 'jobId', durable: true },
      { table: s.stack.tables.payments, pk: 'pk', durable: true },
      { table: s.stack.tables.idempotency, pk: 'pk', durable: false },
      { table: s.stack.tables.rateLimit, pk: 'pk', durable: false },
      { table: s.stack.tables.settlerLeases, pk: 'pk', durable: false },
      { table: s.stack.tables.runs, pk: 'runId', durable: true },
    ];
    for (const { table, pk, durable } of expectations) {
      const res = s.resources[byName(table)];
      expect(res.Properties.KeySchema).toEqual([{ AttributeName: pk, KeyType: 'HASH' }]);
      expect(res.Properties.AttributeDefinitions).toContainEqual({ AttributeName: pk, AttributeType: 'S' });
      expect(res.Properties.BillingMode).toBe('PAY_PER_REQUEST');
      expect(res.Properties.TimeToLiveSpecification).toEqual({ AttributeName: 'expiresAt', Enabled: true });
      if (durable) {
        expect(res.Properties.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
        expect(res.DeletionPolicy).toBe('Retain');
      } else {
        expect(res.DeletionPolicy).toBe('Delete');
      }
    }
    // The sweeper's sparse indexes of open jobs and of refunds still owed (lambdas/store/jobs.ts), and a wallet's purchases.
    expect(s.resources[byName(s.stack.tables.jobs)].Properties.GlobalSecondaryIndexes).toEqual([
      {
        IndexName: 'OpenJobs',
        KeySchema: [
          { AttributeName: 'openStatus', KeyType: 'HASH' },
          { AttributeName: 'updatedAt', KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      },
      {
        IndexName: 'OpenRefunds',
        KeySchema: [
          { AttributeName: 'refundOpen', KeyType: 'HASH' },
          { AttributeName: 'refundAt', KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      },
      // Webhooks (docs/decisions/0018) no delivery took yet (the sweeper starts those of ended jobs).
      {
        IndexName: 'OpenWebhooks',
        KeySchema: [
          { AttributeName: 'webhookOpen', KeyType: 'HASH' },
          { AttributeName: 'updatedAt', KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      },
      // Sign-in-with-x (docs/decisions/0020): a wallet's purchases (GET /api/purchases), the summary's attributes only (not the request).
      {
        IndexName: 'ByBuyer',
        KeySchema: [
          { AttributeName: 'buyer', KeyType: 'HASH' },
          { AttributeName: 'createdAt', KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['product', 'status', 'amount', 'transaction', 'refund'] },
      },
    ]);
    expect(s.resources[byName(s.stack.tables.runs)].Properties.GlobalSecondaryIndexes.map((index: any) => [index.IndexName, index.Projection])).toEqual([
      ['OpenRuns', { ProjectionType: 'ALL' }],
      ['ByBuyer', { ProjectionType: 'INCLUDE', NonKeyAttributes: ['agent', 'status', 'cost', 'transaction', 'mode'] }],
    ]);
    for (const t of [s.stack.tables.payments, s.stack.tables.idempotency, s.stack.tables.rateLimit, s.stack.tables.settlerLeases]) {
      expect(s.resources[byName(t)].Properties.GlobalSecondaryIndexes).toBeUndefined();
    }
  });

  it('builds the webhook machine (docs/decisions/0018): one attempt per task, a wait the task names, ended when the task says so', () => {
    const m = s.resources[s.stack.getLogicalId(s.stack.webhookMachine.node.defaultChild as any)];
    expect(m.Properties.StateMachineType).toBe('STANDARD');
    expect(m.Properties.TracingConfiguration).toEqual({ Enabled: true });
    expect(m.Properties.LoggingConfiguration.Level).toBe('ALL');
    const def = asl(m.Properties.DefinitionString);
    // Longer than the whole retry schedule (about 27.6 hours).
    expect(def.TimeoutSeconds).toBe(36 * 3600);
    expect(def.StartAt).toBe('Deliver webhook');
    expect(Object.keys(def.States).sort()).toEqual(['Deliver webhook', 'Wait to retry webhook', 'Webhook done?', 'Webhook ended'].sort());
    const st = def.States;
    expect(st['Deliver webhook']).toMatchObject({ Type: 'Task', ResultPath: '$.delivery', Next: 'Webhook done?', Parameters: { 'jobId.$': '$.jobId' } });
    expect(JSON.stringify(st['Deliver webhook'].Resource)).toContain(s.stack.getLogicalId(s.stack.functions.DeliverWebhook.node.defaultChild as any));
    expect(st['Deliver webhook'].Retry.map((r: any) => r.ErrorEquals).flat()).toEqual(expect.arrayContaining(['Lambda.TooManyRequestsException', 'States.ALL']));
    expect(st['Webhook done?']).toMatchObject({ Type: 'Choice', Choices: [{ Variable: '$.delivery.done', BooleanEquals: true, Next: 'Webhook ended' }], Default: 'Wait to retry webhook' });
    expect(st['Wait to retry webhook']).toEqual({ Type: 'Wait', SecondsPath: '$.delivery.waitSeconds', Next: 'Deliver webhook' });
    expect(st['Webhook ended'].Type).toBe('Succeed');
  });

  it('keeps the asset bucket private, encrypted, TLS-only and serves it through CloudFront with OAC', () => {
    s.template.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
    });
    s.template.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          Match.objectLike({ Effect: 'Allow', Principal: { Service: 'cloudfront.amazonaws.com' }, Action: 's3:GetObject' }),
        ]),
      },
    });
    s.template.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    // the placeholder cover a pending song shows is deployed with the stack
    s.template.hasResourceProperties('Custom::CDKBucketDeployment', { DestinationBucketKeyPrefix: 'static/', Prune: false });
    s.template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        Origins: [Match.objectLike({ OriginAccessControlId: Match.anyValue() })],
        DefaultCacheBehavior: Match.objectLike({ ViewerProtocolPolicy: 'redirect-to-https' }),
      }),
    });
    const outputs = s.template.toJSON().Outputs;
    expect(Object.keys(outputs)).toEqual(expect.arrayContaining(['ApiUrl', 'AssetsUrl']));
    expect(JSON.stringify(outputs.AssetsUrl.Value)).toContain('DomainName');
  });

  it('builds three STANDARD state machines with the named states, traced and logged', () => {
    const machines = ofType(s.resources, 'AWS::StepFunctions::StateMachine');
    // One per product, and the webhook machine (its own test below).
    expect(machines).toHaveLength(4);
    expect(Object.keys(s.stack.stateMachines).sort()).toEqual([...PRODUCT_IDS].sort());
    for (const product of PRODUCT_IDS) {
      const m = s.resources[s.stack.getLogicalId(s.stack.stateMachines[product].node.defaultChild as any)];
      expect(m.Properties.StateMachineType).toBe('STANDARD');
      expect(m.Properties.TracingConfiguration).toEqual({ Enabled: true });
      expect(m.Properties.LoggingConfiguration.Level).toBe('ALL');
      expect(m.Properties.LoggingConfiguration.Destinations).toHaveLength(1);
      const def = asl(m.Properties.DefinitionString);
      expect(def.QueryLanguage ?? 'JSONPath').toBe('JSONPath');
      expect(def.TimeoutSeconds).toBe(3600);
      expect(def.StartAt).toBe('Render with which provider?');
      const providers = providersFor(product);
      expect(Object.keys(def.States).sort()).toEqual(
        [
          ...WORKFLOW_TASKS.filter((t) => t.id !== 'DeliverWebhook').map((t) => t.stateName),
          ...providers.flatMap((p) => [renderStateName('submit', p), renderStateName('check', p)]),
          'Render with which provider?',
          'Check with which provider?',
          'Unknown render provider',
          'Wait for render',
          'Render finished?',
          'Render failed',
          'Render refused',
          'Render failed without reason',
          'Render timed out',
          'Job completed',
          'Job failed',
          'Refused for content?',
          'Job refused',
        ].sort(),
      );
      const st = def.States;
      // The job's provider (execution input) picks the submit; the render's provider (the submit's result) the check.
      const branches = (choice: any) => choice.Choices.map((c: any) => [c.And[1].Variable, c.And[1].StringEquals, c.Next]);
      expect(branches(st['Render with which provider?'])).toEqual(providers.map((p) => ['$.provider', p, renderStateName('submit', p)]));
      expect(branches(st['Check with which provider?'])).toEqual(providers.map((p) => ['$.render.provider', p, renderStateName('check', p)]));
      for (const choice of ['Render with which provider?', 'Check with which provider?']) expect(st[choice].Default).toBe('Unknown render provider');
      expect(st['Unknown render provider']).toMatchObject({ Type: 'Pass', ResultPath: '$.error', Result: { Error: 'UnknownRenderProvider' }, Next: 'Mark failed' });
      for (const p of providers) {
        const submit = st[renderStateName('submit', p)];
        const check = st[renderStateName('check', p)];
        expect(submit).toMatchObject({ Next: 'Render finished?', ResultPath: '$.render', Parameters: { step: 'submit', 'jobId.$': '$.jobId', 'product.$': '$.product' } });
        expect(check).toMatchObject({ Next: 'Render finished?', ResultPath: '$.render', Parameters: { step: 'check', 'render.$': '$.render' } });
        for (const task of [submit, check]) expect(JSON.stringify(task.Parameters.FunctionName ?? task.Resource)).toContain(renderFunctionId(p));
      }
      expect(st['Wait for render']).toMatchObject({ Type: 'Wait', Seconds: 5, Next: 'Check with which provider?' });
      expect(st['Render finished?'].Type).toBe('Choice');
      expect(st['Render finished?'].Default).toBe('Wait for render');
      expect(st['Render finished?'].Choices[0]).toEqual({ Variable: '$.render.state', StringEquals: 'done', Next: 'Store asset' });
      expect(st['Render finished?'].Choices.at(-1)).toEqual({ Variable: '$.render.attempts', NumericGreaterThan: 120, Next: 'Render timed out' });
      expect(st['Render timed out']).toMatchObject({ Type: 'Pass', ResultPath: '$.error', Result: { Error: 'RenderTimeout' }, Next: 'Mark failed' });
      expect(st['Store asset']).toMatchObject({ ResultPath: '$.stored', Next: 'Mark completed' });
      expect(st['Mark completed']).toMatchObject({ Next: 'Job completed' });
      expect(st['Job completed'].Type).toBe('Succeed');
      expect(st['Mark failed']).toMatchObject({ Next: 'Refund payment', Parameters: { 'error.$': '$.error' } });
      // The refund keeps $.error for the Fail state, retries what may pass, and whatever is left goes to the sweeper.
      expect(st['Refund payment']).toMatchObject({ Next: 'Refused for content?', ResultPath: null, Parameters: { 'jobId.$': '$.jobId', 'product.$': '$.product' } });
      expect(st['Refund payment'].Retry.some((r: any) => r.ErrorEquals.includes('TransientRefundError') && r.MaxAttempts === 4)).toBe(true);
      expect(st['Refund payment'].Catch).toEqual([{ ErrorEquals: ['States.ALL'], ResultPath: '$.refundError', Next: 'Job failed' }]);
      expect(st['Mark failed'].Retry.some((r: any) => r.ErrorEquals.includes('States.ALL'))).toBe(true);
      expect(st['Mark failed'].Catch).toBeUndefined();
      expect(st['Job failed']).toMatchObject({ Type: 'Fail', ErrorPath: '$.error.Error', CausePath: '$.error.Cause' });

      for (const task of WORKFLOW_TASKS.filter((t) => t.id !== 'DeliverWebhook')) {
        const state = st[task.stateName];
        expect(state.Type).toBe('Task');
        // payloadResponseOnly: the Resource is the function itself, the result is its return value.
        expect(state.Resource).toMatch(/^<.+\.Arn>$/);
        expect(state.Retry.some((r: any) => r.ErrorEquals.includes('Lambda.ServiceException'))).toBe(true);
        if (task.stateName === 'Mark failed' || task.stateName === 'Refund payment') continue; // their own Retry/Catch, asserted above
        expect(state.Catch).toEqual([{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'Mark failed' }]);
        expect(state.Retry.some((r: any) => r.ErrorEquals.includes('TransientRenderError'))).toBe(true);
      }
      expect(JSON.stringify(def)).not.toMatch(/JSONata|\{%/);
    }
  });

  it('sets exactly the ENV variables, per function role', () => {
    const envNames = new Set<string>([...Object.values(ENV), ...PRODUCT_IDS.map(providerEnvName), 'NODE_OPTIONS']);
    // Each render provider's settings and API key name, on its own function (and the image provider's on a song
    // vendor's, for the cover): lib/render-providers.ts.
    for (const render of RENDER_FUNCTIONS) {
      const vars = s.resources[s.stack.getLogicalId(s.stack.functions[render.id].node.defaultChild as any)].Properties.Environment.Variables as Record<string, any>;
      const own = [...Object.keys(providerEnvironment(render.provider, s.stack.config)), ...Object.values(PROVIDER_SECRETS).map((p) => p.env).filter((name) => vars[name] !== undefined)];
      for (const name of own) envNames.add(name);
    }
    // The refund wallet's secret: only the refund task and the sweeper (which retries refunds) name it.
    for (const [logicalId, entry] of Object.entries(s.stack.functionEntries)) {
      const vars = s.resources[logicalId].Properties.Environment.Variables as Record<string, any>;
      const refunds = entry.id === 'RefundPayment' || entry.kind === 'sweeper';
      expect(vars[REFUND_ENV.secretId], entry.id).toBe(refunds ? 'paycall/refund-key' : undefined);
    }
    envNames.add(REFUND_ENV.secretId);
    // AP2 (test/infra/ap2.test.ts): the merchant key's name and the trusted issuers, the agent run functions only (and
    // the key's name for the key set route).
    for (const [logicalId, entry] of Object.entries(s.stack.functionEntries)) {
      const vars = s.resources[logicalId].Properties.Environment.Variables as Record<string, any>;
      const run = entry.kind === 'route' && entry.role === 'run';
      // The key set route (GET /.well-known/jwks.json) reads the key too, to publish its public half; no issuers.
      const keyReader = run || (entry.kind === 'route' && entry.role === 'merchant-key');
      expect(vars.AP2_MERCHANT_KEY_SECRET_ID, entry.id).toBe(keyReader ? 'paycall/ap2-merchant-key' : undefined);
      expect(vars.AP2_TRUSTED_ISSUERS, entry.id).toBe(run ? '{"keys":[]}' : undefined);
    }
    envNames.add('AP2_MERCHANT_KEY_SECRET_ID').add('AP2_TRUSTED_ISSUERS');
    // The service key's name (docs/decisions/0017: cancel tokens, webhook secrets): the paid generation routes (their 202 gives
    // both), the cancel route and the webhook delivery (it signs) only.
    for (const [logicalId, entry] of Object.entries(s.stack.functionEntries)) {
      const vars = s.resources[logicalId].Properties.Environment.Variables as Record<string, any>;
      const reader = (entry.kind === 'route' && (entry.role === 'paid' || entry.role === 'cancel')) || entry.id === 'DeliverWebhook';
      expect(vars[JOB_SECRETS_ENV.secretId], entry.id).toBe(reader ? 'paycall/service-key' : undefined);
    }
    envNames.add(JOB_SECRETS_ENV.secretId);
    // The offer-signing key's name (offer-receipt, docs/decisions/0019): whatever answers a 402 or a paid answer (paid, run and
    // top-up routes) signs offers and receipts; the x402 indexes publish its address; nothing else.
    for (const [logicalId, entry] of Object.entries(s.stack.functionEntries)) {
      const vars = s.resources[logicalId].Properties.Environment.Variables as Record<string, any>;
      const signer = entry.kind === 'route' && ['paid', 'run', 'topup', 'offer-signer'].includes(entry.role);
      expect(vars[OFFER_SIGNER_ENV.secretId], entry.id).toBe(signer ? 'paycall/offer-signing-key' : undefined);
    }
    envNames.add(OFFER_SIGNER_ENV.secretId);
    // The webhook machine's ARN (docs/decisions/0018): whatever ends jobs starts it (the two ending tasks, the cancel route, the
    // sweeper); nothing else.
    for (const [logicalId, entry] of Object.entries(s.stack.functionEntries)) {
      const vars = s.resources[logicalId].Properties.Environment.Variables as Record<string, any>;
      const ender = ['MarkCompleted', 'MarkFailed', SWEEPER.id].includes(entry.id) || (entry.kind === 'route' && entry.role === 'cancel');
      expect(vars.WEBHOOK_STATE_MACHINE_ARN, entry.id).toEqual(ender ? { Ref: s.stack.getLogicalId(s.stack.webhookMachine.node.defaultChild as any) } : undefined);
    }
    envNames.add('WEBHOOK_STATE_MACHINE_ARN');
    const smVars = PRODUCT_IDS.map((p) => STATE_MACHINE_ENV[p]);
    for (const [logicalId, entry] of Object.entries(s.stack.functionEntries)) {
      const vars = s.resources[logicalId].Properties.Environment.Variables as Record<string, any>;
      for (const name of Object.keys(vars)) expect(envNames, `${entry.id}: ${name}`).toContain(name);
      expect(vars.NODE_OPTIONS).toBe('--enable-source-maps');
      expect(vars[ENV.network]).toBe('eip155:8453');
      expect(vars[ENV.chainId]).toBe('8453');
      expect(vars[ENV.usdcAddress]).toBe('0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913');
      expect(vars[ENV.rpcUrl]).toBe('https://mainnet.base.org');
      expect(vars[ENV.facilitatorMode]).toBe('self');
      expect(vars[ENV.settlerKeySecretId]).toBe('paycall/settler-key');
      expect(vars[ENV.facilitatorUrl]).toBeUndefined();
      for (const product of PRODUCT_IDS) expect(vars[providerEnvName(product)]).toBe('local');
      expect(vars[ENV.blockingWaitMs]).toBe('25000');
      expect(vars[ENV.receiptPollMs]).toBe('50');
      expect(vars[ENV.blockTimeMs]).toBe('2000');
      for (const key of [ENV.jobsTable, ENV.paymentsTable, ENV.idempotencyTable, ENV.rateLimitTable, ENV.assetsBucket]) {
        expect(vars[key], `${entry.id}: ${key}`).toEqual({ Ref: expect.any(String) });
      }
      expect(JSON.stringify(vars[ENV.assetsPublicUrl])).toContain('DomainName');
      // Pay-to comes from SSM at deploy time: a template parameter, no address in the template.
      const payToParam = vars[ENV.payTo].Ref as string;
      expect(s.template.toJSON().Parameters[payToParam]).toMatchObject({
        Type: 'AWS::SSM::Parameter::Value<String>',
        Default: '/paycall/pay-to',
      });
      // Task functions are referenced by the machines, so they cannot reference the machines back.
      for (const v of smVars) {
        // Agent-studio functions start no execution (test/infra/agents-stack.test.ts).
        const agentRoute = entry.kind === 'route' && entry.route.surface === 'agents';
        if (entry.kind === 'task' || entry.kind === 'authorizer' || agentRoute) expect(vars[v]).toBeUndefined();
        else expect(vars[v], `${entry.id}: ${v}`).toEqual({ Ref: expect.any(String) });
      }
    }
    expect(JSON.stringify(s.template.toJSON())).not.toMatch(/SecretString|PrivateKey/i);
  });

  it('sign-in-with-x (docs/decisions/0020): one authorizer function before exactly the routes that take a sign-in, on both APIs (payload 2.0, simple responses, never cached, the route key as identity source); it alone uses the nonce (PutItem on the idempotency table); the purchases lists query only their ByBuyer index', () => {
    const id = (table: { node: { defaultChild: unknown } }) => s.stack.getLogicalId(table.node.defaultChild as any);
    const { jobs, runs, idempotency } = s.stack.tables;
    const entryOf = (functionId: string) => Object.entries(s.stack.functionEntries).find(([, e]) => e.id === functionId)!;
    const dynamo = (functionId: string) =>
      actionsOf(s.resources, entryOf(functionId)[0])
        .filter((g) => g.action.startsWith('dynamodb:'))
        .map((g) => `${g.action} ${JSON.stringify(g.resource).includes('/index/ByBuyer') ? 'ByBuyer of ' : ''}${[jobs, runs, idempotency].map(id).find((t) => refersTo(g.resource, t))}`)
        .sort();
    const others = (functionId: string) => actionsOf(s.resources, entryOf(functionId)[0]).filter((g) => !g.action.startsWith('dynamodb:') && !g.action.startsWith('xray:') && !g.action.startsWith('logs:'));
    expect(dynamo(SIGN_IN_AUTHORIZER.id)).toEqual([`dynamodb:PutItem ${id(idempotency)}`]);
    expect(others(SIGN_IN_AUTHORIZER.id)).toEqual([]);
    expect(dynamo('Purchases')).toEqual([`dynamodb:Query ByBuyer of ${id(jobs)}`]);
    expect(others('Purchases')).toEqual([]);
    expect(dynamo('AgentsRuns')).toEqual([`dynamodb:DeleteItem ${id(runs)}`, `dynamodb:GetItem ${id(runs)}`, `dynamodb:UpdateItem ${id(runs)}`, `dynamodb:Query ByBuyer of ${id(runs)}`].sort());
    expect(dynamo(functionIdOf(ROUTES.find((r) => r.access === 'cancel')!))).not.toContain(`dynamodb:PutItem ${id(idempotency)}`);

    const authorizerFn = entryOf(SIGN_IN_AUTHORIZER.id)[0];
    const authorizers = ofType(s.resources, 'AWS::ApiGatewayV2::Authorizer');
    expect(authorizers).toHaveLength(2);
    const apis = ofType(s.resources, 'AWS::ApiGatewayV2::Api').map(([logicalId]) => logicalId);
    for (const [, authorizer] of authorizers) {
      expect(authorizer.Properties).toMatchObject({
        AuthorizerType: 'REQUEST',
        AuthorizerPayloadFormatVersion: '2.0',
        EnableSimpleResponses: true,
        AuthorizerResultTtlInSeconds: 0,
        // API Gateway answers 401 without calling the authorizer when an identity source is missing or empty: the
        // route key, which every request that reached a route has, never is (lib/sign-in-authorizer.ts).
        IdentitySource: ['$context.routeKey'],
      });
      // By its fixed name (lib/surface-stack.ts): a surface's stack names the core's authorizer without a reference.
      expect(JSON.stringify(authorizer.Properties.AuthorizerUri)).toContain(`:function:${authorizerName(s.stack.stackName)}/invocations`);
    }
    expect(s.resources[authorizerFn].Properties.FunctionName).toBe(authorizerName(s.stack.stackName));
    expect(authorizers.map(([, a]) => a.Properties.ApiId.Ref).sort()).toEqual(apis.sort());
    // API Gateway may invoke it, from each API.
    const permissions = ofType(s.resources, 'AWS::Lambda::Permission').filter(([, p]) => JSON.stringify(p.Properties.FunctionName).includes(authorizerFn));
    expect(permissions.map(([, p]) => p.Properties.Principal)).toEqual(['apigateway.amazonaws.com', 'apigateway.amazonaws.com']);
    // Each stage names its surface.
    const stages = ofType(s.resources, 'AWS::ApiGatewayV2::Stage').map(([, stage]) => stage.Properties.StageVariables);
    expect(stages.sort((a, b) => a.surface.localeCompare(b.surface))).toEqual([{ surface: 'agents' }, { surface: 'generation' }]);
    // Exactly the sign-in routes carry it (their route keys; the others none).
    const routes = ofType(s.resources, 'AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties);
    const guarded = routes.filter((r) => r.AuthorizerId).map((r) => r.RouteKey).sort();
    expect(guarded).toEqual(ROUTES.filter((r) => r.signIn).map((r) => `${r.method} ${r.path}`).sort());
    for (const route of routes.filter((r) => r.AuthorizerId)) expect(route.AuthorizationType).toBe('CUSTOM');
  });

  it("each product's Mark completed retries PaymentNotFinal (ADR 0021), a few seconds apart, for longer than an authorization lives, before its catch", () => {
    for (const machine of Object.values(s.stack.stateMachines)) {
      const states = asl(s.resources[s.stack.getLogicalId(machine.node.defaultChild as any)].Properties.DefinitionString).States;
      const mark = states['Mark completed'];
      const at = mark.Retry.findIndex((r: any) => r.ErrorEquals.includes('PaymentNotFinal'));
      expect(mark.Retry[at]).toMatchObject({ ErrorEquals: ['PaymentNotFinal'], IntervalSeconds: 2, BackoffRate: 1.5, MaxDelaySeconds: 30, MaxAttempts: 30 });
      expect(mark.Catch.map((c: any) => c.ErrorEquals)).toEqual([['States.ALL']]);
    }
    // 2, 3, 4.5, … capped at 30 s: well past an authorization's 300 s.
    let total = 0;
    for (let i = 0, wait = 2; i < 30; i++, wait = Math.min(wait * 1.5, 30)) total += wait;
    expect(total).toBeGreaterThan(600);
  });

  it('gives the poll role to exactly the three job polls (GET /api/songs, /agent/video, /agent/image by id)', () => {
    const polls = Object.values(s.stack.functionEntries).filter((e) => e.kind === 'route' && e.role === 'poll');
    expect(polls.map((e) => e.id).sort()).toEqual(['GetImage', 'GetSong', 'GetVideo']);
  });

  it('grants least privilege: read functions only read jobs; polls reconcile reserved jobs; paid functions write and start only their own machine', () => {
    const jobs = s.stack.getLogicalId(s.stack.tables.jobs.node.defaultChild as any);
    const machines = PRODUCT_IDS.map((p) => s.stack.getLogicalId(s.stack.stateMachines[p].node.defaultChild as any));
    const machineOf = (product: (typeof PRODUCT_IDS)[number]) => machines[PRODUCT_IDS.indexOf(product)];
    const writes = /^dynamodb:(PutItem|UpdateItem|DeleteItem|BatchWriteItem)$/;
    for (const [logicalId, entry] of Object.entries(s.stack.functionEntries)) {
      const grants = actionsOf(s.resources, logicalId);
      // What no code sends (lambdas/store/*.ts): no table-wide scan or batch, no wildcard over a table's indexes,
      // no S3 delete or multipart abort, no wildcard object action.
      expect(grants.filter((g) => /^dynamodb:(Scan|BatchWriteItem|BatchGetItem|DescribeTable)$/.test(g.action)), entry.id).toEqual([]);
      expect(grants.filter((g) => g.action.startsWith('dynamodb:') && JSON.stringify(g.resource).includes('/index/*')), entry.id).toEqual([]);
      expect(grants.filter((g) => /^s3:(Delete|Abort)/.test(g.action) || (g.action.startsWith('s3:') && g.action.includes('*'))), entry.id).toEqual([]);
      const starts = grants.filter((g) => g.action === 'states:StartExecution');
      const jobWrites = grants.filter((g) => writes.test(g.action) && refersTo(g.resource, jobs));
      if (entry.kind === 'route' && entry.role === 'none') {
        // documents and the A2A pointer answer from the catalog alone
        expect(grants.filter((g) => /^(dynamodb|s3|states|secretsmanager):/.test(g.action)), entry.id).toEqual([]);
      } else if (entry.kind === 'route' && entry.role === 'read') {
        expect(jobWrites, entry.id).toEqual([]);
        expect(starts, entry.id).toEqual([]);
        expect(grants.some((g) => g.action === 'dynamodb:GetItem' && refersTo(g.resource, jobs))).toBe(true);
        expect(grants.filter((g) => g.action.startsWith('dynamodb:') && !refersTo(g.resource, jobs))).toEqual([]);
        expect(grants.some((g) => g.action.startsWith('secretsmanager:') || g.action.startsWith('s3:'))).toBe(false);
      } else if (entry.kind === 'route' && entry.role === 'poll') {
        // A poll reconciles a reserved job (lambdas/workflow/poll-reconcile.ts): it claims the job and records the
        // receipt or voids it (UpdateItem on jobs; UpdateItem/DeleteItem on payments), reads a token job's lock
        // (GetItem on payments) and starts the execution. Nothing more: no other table, no index write, no secret.
        const payments = s.stack.getLogicalId(s.stack.tables.payments.node.defaultChild as any);
        const tableOnly = (g: { resource: unknown }, table: string) => refersTo(g.resource, table) && !JSON.stringify(g.resource).includes('/index/');
        expect(jobWrites.map((g) => g.action), entry.id).toEqual(['dynamodb:UpdateItem']);
        expect(jobWrites.every((g) => tableOnly(g, jobs)), entry.id).toBe(true);
        expect(grants.some((g) => g.action === 'dynamodb:GetItem' && refersTo(g.resource, jobs))).toBe(true);
        const paymentActions = grants.filter((g) => g.action.startsWith('dynamodb:') && refersTo(g.resource, payments));
        expect(paymentActions.every((g) => tableOnly(g, payments)), entry.id).toBe(true);
        expect(paymentActions.map((g) => g.action).sort(), entry.id).toEqual(['dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:UpdateItem']);
        expect(grants.filter((g) => g.action.startsWith('dynamodb:') && !refersTo(g.resource, jobs) && !refersTo(g.resource, payments))).toEqual([]);
        expect(starts.map((g) => machines.find((m) => refersTo(g.resource, m))).sort()).toEqual([...machines].sort());
        expect(grants.filter((g) => g.action.startsWith('states:') && g.action !== 'states:StartExecution')).toEqual([]);
        expect(grants.some((g) => g.action.startsWith('secretsmanager:') || g.action.startsWith('s3:'))).toBe(false);
      } else if (entry.kind === 'route' && entry.role === 'paid') {
        expect(jobWrites.length).toBeGreaterThan(0);
        // A pay route starts its product's machine; the MCP server's token-paid tool buys music only.
        const own = entry.id === 'Mcp' ? 'create_music' : PRODUCT_IDS.find((p) => PRODUCTS[p].routes.pay === entry.id)!;
        expect(own, entry.id).toBeDefined();
        expect(starts.map((g) => machines.find((m) => refersTo(g.resource, m))), entry.id).toEqual([machineOf(own)]);
        expect(grants.some((g) => g.action === 'secretsmanager:GetSecretValue')).toBe(true);
      } else if (entry.kind === 'task') {
        // A task starts no product machine; the two that end jobs start their webhook deliveries (docs/decisions/0018).
        const webhookMachine = s.stack.getLogicalId(s.stack.webhookMachine.node.defaultChild as any);
        const ender = entry.id === 'MarkCompleted' || entry.id === 'MarkFailed';
        expect(starts.map((g) => g.resource), entry.id).toEqual(ender ? [{ Ref: webhookMachine }] : []);
        expect(jobWrites.length).toBeGreaterThan(0);
        const s3Actions = grants.filter((g) => g.action.startsWith('s3:')).map((g) => g.action);
        const render = RENDER_FUNCTIONS.find((f) => f.id === entry.id);
        if (render) {
          // it writes the render's outputs and manifest, and reads the manifest back (lambdas/render/local/provider.ts)
          expect(s3Actions.sort()).toEqual(['s3:GetObject', 's3:ListBucket', 's3:PutObject']);
        } else if (entry.id === 'StoreAsset') {
          expect(s3Actions.sort()).toEqual(['s3:GetObject', 's3:ListBucket', 's3:PutObject']);
        } else {
          expect(s3Actions, entry.id).toEqual([]);
        }
        // The refund task reads the refund wallet's key and the settler's keys; a vendor's render function its own API
        // key only (whatever the products are configured to: a job sold with it finishes there); nothing else.
        const secretReads = grants.filter((g) => g.action.startsWith('secretsmanager:')).map((g) => JSON.stringify(g.resource));
        const vendorKey = render && providerSecret(render.provider);
        if (vendorKey) {
          expect(secretReads.length, entry.id).toBeGreaterThan(0);
          expect(secretReads.every((r) => r.includes(`secret:${PROVIDER_SECRETS[vendorKey].defaultName}`)), entry.id).toBe(true);
        } else if (entry.id === 'DeliverWebhook') {
          // It signs with the job's secret, derived from the service key; no other secret.
          expect(secretReads, entry.id).toHaveLength(1);
          expect(secretReads[0]).toContain('secret:paycall/service-key');
        } else if (entry.id === 'RefundPayment') {
          expect(secretReads.some((r) => r.includes('secret:paycall/refund-key'))).toBe(true);
          expect(secretReads.some((r) => r.includes('secret:paycall/settler-key'))).toBe(true);
          expect(secretReads.every((r) => /secret:paycall\/(refund|settler)-key/.test(r))).toBe(true);
        } else {
          expect(secretReads, entry.id).toEqual([]);
        }
      } else if (entry.kind === 'sweeper') {
        // Every product's machine, and the webhook machine (docs/decisions/0018).
        expect(starts.length).toBe(4);
        expect(jobWrites.length).toBeGreaterThan(0);
        const payments = s.stack.getLogicalId(s.stack.tables.payments.node.defaultChild as any);
        // it records the receipt of a payment whose outcome was not recorded (reconciliation against the chain)
        expect(grants.some((g) => g.action === 'dynamodb:UpdateItem' && refersTo(g.resource, payments))).toBe(true);
        expect(grants.some((g) => g.action.startsWith('s3:'))).toBe(false);
        // it retries owed refunds: the refund wallet's and the settler's keys, no other secret
        const secretReads = grants.filter((g) => g.action.startsWith('secretsmanager:')).map((g) => JSON.stringify(g.resource));
        expect(secretReads.length).toBeGreaterThan(0);
        expect(secretReads.every((r) => /secret:paycall\/(refund|settler)-key/.test(r))).toBe(true);
        // it asks whether a job's execution still runs (DescribeExecution on the machines' executions)
        const describes = grants.filter((g) => g.action === 'states:DescribeExecution');
        expect(describes.map((g) => JSON.stringify(g.resource)).join(' ')).toMatch(/:execution:/);
        expect(describes.length).toBe(3);
      }
    }
  });

  describe('Deployment guards', () => {
    it('retries Lambda.TooManyRequestsException on every task of every state machine', () => {
      for (const [, machine] of ofType(s.resources, 'AWS::StepFunctions::StateMachine')) {
        const asl = JSON.stringify(machine.Properties.DefinitionString);
        const tasks = (asl.match(/\\"Type\\":\\"Task\\"/g) ?? []).length;
        const throttled = (asl.match(/Lambda\.TooManyRequestsException/g) ?? []).length;
        expect(tasks).toBeGreaterThan(0);
        expect(throttled).toBe(tasks);
      }
    });

    it('reserves no concurrency by default: a new account (quota as low as 10, 100 always unreserved) can create it', () => {
      const reserving = ofType(s.resources, 'AWS::Lambda::Function').filter(([, fn]) => fn.Properties.ReservedConcurrentExecutions !== undefined);
      expect(reserving.map(([logicalId]) => logicalId)).toEqual([]);
    });

    it('throttles the API stage and writes JSON access logs', () => {
      for (const [, stage] of ofType(s.resources, 'AWS::ApiGatewayV2::Stage')) {
        expect(stage.Properties.DefaultRouteSettings).toEqual({ ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 });
        expect(stage.Properties.AccessLogSettings.DestinationArn).toBeDefined();
        expect(JSON.parse(stage.Properties.AccessLogSettings.Format)).toMatchObject({ status: '$context.status', routeKey: '$context.routeKey' });
      }
    });

    it('protects the jobs, payments, runs, workspaces and credit-ledger tables from deletion', () => {
      const protectedTables = ofType(s.resources, 'AWS::DynamoDB::Table').filter(([, t]) => t.Properties.DeletionProtectionEnabled === true);
      const ids = protectedTables.map(([id]) => id).sort();
      expect(ids).toEqual(
        [s.stack.tables.jobs, s.stack.tables.payments, s.stack.tables.runs, s.stack.tables.workspaces, s.stack.tables.creditLedger]
          .map((t) => s.stack.getLogicalId(t.node.defaultChild as any))
          .sort(),
      );
    });
  });

  it('has no dependency cycle between resources (CloudFormation would reject it at deploy)', () => {
    const ids = new Set(Object.keys(s.resources));
    const deps = new Map<string, Set<string>>();
    const collect = (value: unknown, into: Set<string>) => {
      if (Array.isArray(value)) value.forEach((v) => collect(v, into));
      else if (value && typeof value === 'object') {
        const o = value as Record<string, unknown>;
        if (typeof o.Ref === 'string' && ids.has(o.Ref)) into.add(o.Ref);
        const getAtt = o['Fn::GetAtt'] as unknown[] | undefined;
        if (Array.isArray(getAtt) && typeof getAtt[0] === 'string' && ids.has(getAtt[0])) into.add(getAtt[0]);
        Object.values(o).forEach((v) => collect(v, into));
      }
    };
    for (const [id, res] of Object.entries(s.resources) as [string, any][]) {
      const set = new Set<string>();
      collect(res.Properties, set);
      for (const d of [res.DependsOn ?? []].flat()) set.add(d);
      deps.set(id, set);
    }
    const state = new Map<string, 'visiting' | 'done'>();
    const visit = (id: string, trail: string[]) => {
      if (state.get(id) === 'done') return;
      if (state.get(id) === 'visiting') throw new Error(`cycle: ${[...trail, id].join(' -> ')}`);
      state.set(id, 'visiting');
      for (const d of deps.get(id) ?? []) visit(d, [...trail, id]);
      state.set(id, 'done');
    };
    for (const id of ids) visit(id, []);
  });

  it('runs the sweeper on its schedule', () => {
    s.template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: SWEEPER.everyMinutes === 1 ? "rate(1 minute)" : `rate(${SWEEPER.everyMinutes} minutes)`,
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [Match.stringLikeRegexp(`^${SWEEPER.id}`), 'Arn'] } })],
    });
  });
});

describe('PaycallStack configuration', () => {
  it('a staging stack on Base Sepolia: its chain id, Circle USDC address and RPC by default, and the 402 names its token', () => {
    const { stack, resources } = synth({ network: 'eip155:84532', payTo: PAY_TO });
    for (const logicalId of Object.keys(stack.functionEntries)) {
      const vars = resources[logicalId].Properties.Environment.Variables;
      expect(vars[ENV.network]).toBe('eip155:84532');
      expect(vars[ENV.chainId]).toBe('84532');
      expect(vars[ENV.usdcAddress]).toBe('0x036CbD53842c5426634e7929541eC2318f3dCF7e');
      expect(vars[ENV.rpcUrl]).toBe('https://sepolia.base.org');
    }
    expect(() => synth({ network: 'eip155:1' })).toThrow(/context key "network"/);
  });

  it('uses a literal payTo from context and the remote facilitator when configured', () => {
    const { stack, resources, template } = synth({
      payTo: PAY_TO,
      facilitatorMode: 'remote',
      facilitatorUrl: 'https://facilitator.example.com',
      logRetentionDays: '7',
      bundleFfmpeg: 'false',
    });
    for (const logicalId of Object.keys(stack.functionEntries)) {
      const vars = resources[logicalId].Properties.Environment.Variables;
      expect(vars[ENV.payTo]).toBe(PAY_TO);
      expect(vars[ENV.facilitatorMode]).toBe('remote');
      expect(vars[ENV.facilitatorUrl]).toBe('https://facilitator.example.com');
      expect(vars[ENV.settlerKeySecretId]).toBeUndefined();
      // Without a settler key, the only secrets any function reads are the refund wallet's (refund task, sweeper),
      // the AP2 merchant key (the agent run functions), the service key (paid generation routes, cancel), the
      // offer-signing key (whatever signs offers and receipts, the x402 indexes) and a vendor's API key (its own render function).
      const secrets = actionsOf(resources, logicalId).filter((g) => g.action.startsWith('secretsmanager:'));
      expect(secrets.every((g) => /secret:paycall\/(refund-key|ap2-merchant-key|service-key|offer-signing-key|gemini-api-key|fal-key|minimax-api-key)/.test(JSON.stringify(g.resource)))).toBe(true);
    }
    const params = Object.values((template.toJSON().Parameters ?? {}) as Record<string, { Default?: string }>);
    expect(params.filter((p: any) => p.Default === '/paycall/pay-to')).toEqual([]);
    for (const [, lg] of ofType(resources, 'AWS::Logs::LogGroup')) expect(lg.Properties.RetentionInDays).toBe(7);
    for (const [, fn] of ofType(resources, 'AWS::Lambda::Function')) {
      expect(fn.Properties.Architectures).toEqual(['arm64']);
      expect(fn.Properties.Environment.Variables[ENV.ffmpegPath]).toBeUndefined();
    }
  });

  it('points the paid routes at an agent-payment token issuer when configured, with the seller key from Secrets Manager', () => {
    const { stack, resources } = synth({
      payTo: PAY_TO,
      tokenIssuer: 'https://issuer.example.com',
      tokenJwksUrl: 'https://issuer.example.com/.well-known/jwks.json',
      tokenChargeUrl: 'https://issuer.example.com/charge',
      tokenSellerId: 'seller-service-1',
    });
    const paid = Object.entries(stack.functionEntries).filter(([, e]) => e.kind === 'route' && e.role === 'paid');
    expect(paid.length).toBeGreaterThanOrEqual(3);
    for (const [logicalId] of paid) {
      const vars = resources[logicalId].Properties.Environment.Variables;
      expect(vars.TOKEN_ISSUER).toBe('https://issuer.example.com');
      expect(vars.TOKEN_JWKS_URL).toBe('https://issuer.example.com/.well-known/jwks.json');
      expect(vars.TOKEN_CHARGE_URL).toBe('https://issuer.example.com/charge');
      expect(vars.TOKEN_SELLER_ID).toBe('seller-service-1');
      expect(vars.TOKEN_SELLER_KEY_SECRET_ID).toBe('paycall/token-seller-key');
      expect(actionsOf(resources, logicalId).filter((g) => g.action === 'secretsmanager:GetSecretValue').length).toBeGreaterThanOrEqual(2);
    }
    expect(() => synth({ tokenIssuer: 'https://issuer.example.com' })).toThrow(/context key "tokenJwksUrl" is required/);
  });

  describe('reserved concurrency, one context key per function, nothing by default', () => {
    const reservedOf = (r: ReturnType<typeof synth>) =>
      Object.fromEntries(
        ofType(r.resources, 'AWS::Lambda::Function')
          .filter(([, fn]) => fn.Properties.ReservedConcurrentExecutions !== undefined)
          .map(([logicalId, fn]) => [r.stack.functionEntries[logicalId]?.id ?? logicalId, fn.Properties.ReservedConcurrentExecutions]),
      );

    it("renderReservedConcurrency reserves for each provider's render function (its own), sweeperReservedConcurrency for the sweeper, nothing else", () => {
      const each = (n: number) => Object.fromEntries(RENDER_FUNCTIONS.map((f) => [f.id, n]));
      expect(reservedOf(synth({ renderReservedConcurrency: '10', sweeperReservedConcurrency: '1' }))).toEqual({ ...each(10), [SWEEPER.id]: 1 });
      expect(reservedOf(synth({ renderReservedConcurrency: 25 }))).toEqual(each(25));
      expect(reservedOf(synth({ sweeperReservedConcurrency: 1 }))).toEqual({ [SWEEPER.id]: 1 });
    });

    it("0 means none reserved, never Lambda's throttle-everything 0", () => {
      expect(reservedOf(synth({ renderReservedConcurrency: 0, sweeperReservedConcurrency: '0' }))).toEqual({});
    });

    it('rejects a reservation that is not a whole number from 0 to 1000, naming the key', () => {
      for (const [key, value] of [
        ['renderReservedConcurrency', -1],
        ['renderReservedConcurrency', '1.5'],
        ['sweeperReservedConcurrency', 'ten'],
        ['sweeperReservedConcurrency', 1001],
      ] as const) {
        expect(() => synth({ [key]: value }), `${key}=${value}`).toThrow(StackConfigError);
        expect(() => synth({ [key]: value }), `${key}=${value}`).toThrow(new RegExp(`context key "${key}" must be a whole number of executions from 0 \\(none reserved\\) to 1000`));
      }
    });
  });

  it('rejects a bad payTo naming the context key', () => {
    expect(() => synth({ payTo: '0x1234' })).toThrow(StackConfigError);
    expect(() => synth({ payTo: '0x1234' })).toThrow(/context key "payTo" must be a 0x-prefixed 20-byte hex address/);
  });

  it('rejects remote mode without a facilitator URL naming the key', () => {
    expect(() => synth({ facilitatorMode: 'remote' })).toThrow(/context key "facilitatorUrl" is required when facilitatorMode is "remote"/);
  });

  it('rejects other bad values naming the key', () => {
    expect(() => synth({ logRetentionDays: 42 })).toThrow(/context key "logRetentionDays" must be one of/);
    expect(() => synth({ rpcUrl: 'mainnet.base.org' })).toThrow(/context key "rpcUrl"/);
    expect(() => synth({ facilitatorMode: 'trusted' })).toThrow(/context key "facilitatorMode"/);
    expect(() => synth({}, { config: { blockingWaitMs: 60_000 } })).toThrow(/context key "blockingWaitMs"/);
  });
});
