/**
 * cdk-nag 3 (lib/nag.ts): the AwsSolutions and Serverless packs run as CDK validation plugins when the app
 * synthesizes, and the report CDK writes to the cloud assembly (validation-report.json, as `cdk synth` writes it to
 * cdk.out) holds no unacknowledged finding, errors or warnings, for every configuration the README documents (each
 * render provider, agent reasoning, Sepolia staging, the remote facilitator, tokens, …): a finding that only one
 * context's resources raise fails that context's `cdk synth` just the same. Every acknowledgment sits on the
 * construct it concerns, with its reason; the findings that were cheap to fix are fixed and asserted here.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { App, Stack, Validations, type Environment } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { PaycallStack, PROJECT_ROOT } from '../../lib/paycall-stack.js';
import { readCdkJsonContext } from '../../lib/config.js';
import { applyNag } from '../../lib/nag.js';
import { JOB_FILE_DAYS, JOB_FILE_PREFIXES, NONCURRENT_VERSION_DAYS } from '../../lib/assets.js';
import { VENDED_LOGS_PREFIX } from '../../lib/workflow.js';
import { JOB_TTL_SECONDS } from '../../lambdas/store/jobs.js';
import { PRODUCT_IDS, type ProductId } from '../../lambdas/products/catalog.js';
import { providersFor } from '../../lambdas/render/providers.js';
import { reasonableAgents } from '../../lib/agent-reasoning.js';

interface ValidationReport {
  title: string;
  pluginReports: { pluginName: string; conclusion: string; violations: { ruleName: string; severity: string; violatingConstructs: { constructPath: string }[] }[] }[];
}

let context: Record<string, unknown>;

function newApp(): App {
  return new App({ context: { ...context, 'aws:cdk:bundling-stacks': [] } });
}

/**
 * Synthesizes the stack as bin/app.ts does (packs and acknowledgments; its name from the `stackName` context, as
 * there) with `extra` context over cdk.json's, and reads the validation report.
 */
function synthWithNag(env?: Environment, extra: Record<string, unknown> = {}) {
  const app = new App({ context: { ...context, 'aws:cdk:bundling-stacks': [], ...extra } });
  const stack = new PaycallStack(app, String(extra.stackName ?? 'Gen'), { allowMissingEntries: true, env });
  applyNag(app, stack);
  const assembly = app.synth();
  const report = JSON.parse(readFileSync(path.join(assembly.directory, 'validation-report.json'), 'utf8')) as ValidationReport;
  return { app, stack, report };
}

/** Each configuration is synthesized once per file, whichever test asks first. */
const synthesized = new Map<string, ReturnType<typeof synthWithNag>>();
function synthOnce(name: string, extra: Record<string, unknown>, env?: Environment) {
  const key = `${name} ${JSON.stringify(env ?? {})}`;
  if (!synthesized.has(key)) synthesized.set(key, synthWithNag(env, extra));
  return synthesized.get(key)!;
}

/** Every finding still reported, as `rule at construct path`. */
function findings(report: ValidationReport): string[] {
  return report.pluginReports.flatMap((r) =>
    r.violations.flatMap((v) => v.violatingConstructs.map((c) => `${r.pluginName} ${v.severity} ${v.ruleName} at ${c.constructPath}`)),
  );
}

beforeAll(async () => {
  context = await readCdkJsonContext(PROJECT_ROOT);
});

const PROVIDER_KEYS: Record<ProductId, string> = { create_music: 'musicProvider', agent_video: 'videoProvider', agent_image: 'imageProvider' };
const LITERAL_ENV: Environment = { account: '123456789012', region: 'eu-west-1' };
const DEFAULT = 'the default (cdk.json)';
const REMOTE = 'facilitatorMode=remote';
/** The edge (lib/edge.ts) needs us-east-1: agnostic here (a template rule), literal below; not part of EVERYTHING's eu-west-1. */
const EDGE = 'edge=cloudfront-waf, edgeRateLimit=200';
const EDGE_ENV: Environment = { account: '123456789012', region: 'us-east-1' };
/** A custom domain per surface (lib/custom-domain.ts); its certificates in the region the stack is synthesised for. */
const DOMAIN = 'domainName, certificateArn, agentsDomainName, agentsCertificateArn';
const domains = (region: string): Record<string, unknown> => ({
  domainName: 'api.example.com',
  certificateArn: `arn:aws:acm:${region}:123456789012:certificate/00000001-1111-2222-3333-444444444444`,
  agentsDomainName: 'agents.example.com',
  agentsCertificateArn: `arn:aws:acm:${region}:123456789012:certificate/00000002-1111-2222-3333-444444444444`,
});

/**
 * Every configuration the README documents (its "Render providers", "Model reasoning", "On AWS" and runbook
 * sections), each over cdk.json's context as `cdk synth -c key=value` gives it. The provider choices come from the
 * provider list itself, so a provider added there is checked here without editing this list.
 */
const DOCUMENTED_CONTEXTS: [name: string, extra: Record<string, unknown>][] = [
  [DEFAULT, {}],
  ...PRODUCT_IDS.flatMap((product) =>
    providersFor(product)
      .filter((provider) => provider !== 'local')
      .map((provider): [string, Record<string, unknown>] => [`${PROVIDER_KEYS[product]}=${provider}`, { [PROVIDER_KEYS[product]]: provider }]),
  ),
  [`agentReasoning=<all ${reasonableAgents().length} agents a model may reason>`, { agentReasoning: reasonableAgents().join(',') }],
  ['Sepolia staging (network=eip155:84532, stackName=PaycallStaging)', { network: 'eip155:84532', stackName: 'PaycallStaging' }],
  [REMOTE, { facilitatorMode: 'remote', facilitatorUrl: 'https://facilitator.example.com' }],
  [
    'agent-payment tokens (tokenIssuer, tokenJwksUrl, tokenChargeUrl, tokenSellerId)',
    { tokenIssuer: 'https://issuer.example.com', tokenJwksUrl: 'https://issuer.example.com/jwks.json', tokenChargeUrl: 'https://issuer.example.com/charge', tokenSellerId: 'seller-1' },
  ],
  ['bundleFfmpeg=false', { bundleFfmpeg: 'false' }],
  ['payTo, rpcUrl and publicBaseUrl given', { payTo: '0x2222222222222222222222222222222222222222', rpcUrl: 'https://base.example.com', publicBaseUrl: 'https://api.example.com' }],
  ['renderReservedConcurrency=10, sweeperReservedConcurrency=1', { renderReservedConcurrency: '10', sweeperReservedConcurrency: '1' }],
  [EDGE, { edge: 'cloudfront-waf', edgeRateLimit: '200' }],
  [DOMAIN, domains(LITERAL_ENV.region!)],
];

/**
 * Everything the separate contexts add, together (self-settlement kept, so the settler key's grants are there too):
 * the last provider listed wins for each product, with tokens, reasoning and staging.
 */
const EVERYTHING = 'every documented choice at once, region and account literal';
const everything = (): Record<string, unknown> => Object.assign({}, ...DOCUMENTED_CONTEXTS.filter(([name]) => name !== REMOTE && name !== EDGE).map(([, extra]) => extra));
const edgeAndEverything = (): Record<string, unknown> => ({ ...everything(), ...DOCUMENTED_CONTEXTS.find(([name]) => name === EDGE)![1], ...domains(EDGE_ENV.region!) });

describe('the AwsSolutions and Serverless packs', () => {
  it.each(DOCUMENTED_CONTEXTS)('report no unacknowledged error or warning with %s', (name, extra) => {
    const s = synthOnce(name, extra);
    expect(s.report.title).toBe('Validation Report');
    expect(findings(s.report)).toEqual([]);
  });

  it('report none either when the environment makes region and account literal (as `cdk synth` does)', () => {
    expect(findings(synthOnce(DEFAULT, {}, LITERAL_ENV).report)).toEqual([]);
  });

  it(`report none with ${EVERYTHING}`, () => {
    expect(findings(synthOnce(EVERYTHING, everything(), LITERAL_ENV).report)).toEqual([]);
  });

  it(`report none with ${EDGE} and every other choice, in us-east-1 with a literal account`, () => {
    const s = synthOnce(`${EDGE} + ${EVERYTHING}`, edgeAndEverything(), EDGE_ENV);
    expect(Object.keys(s.stack.edge!.distributions)).toHaveLength(2);
    expect(findings(s.report)).toEqual([]);
  });

  it('do run: without the acknowledgments the same stack fails synthesis with their findings', () => {
    const app = newApp();
    new PaycallStack(app, 'Gen', { allowMissingEntries: true });
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new ServerlessChecks(app));
    expect(() => app.synth()).toThrow(/AwsSolutions-APIG4[\s\S]*Serverless-LambdaDLQ|Serverless-LambdaDLQ[\s\S]*AwsSolutions-APIG4/);
  });

  it.each([
    [DEFAULT, {}, undefined],
    [EVERYTHING, undefined, LITERAL_ENV],
    [`${EDGE} + ${EVERYTHING}`, edgeAndEverything(), EDGE_ENV],
  ] as const)('acknowledge each finding on its own construct, with a reason, never on the stack or the app (%s)', (name, extra, env) => {
    const s = synthOnce(name, extra ?? everything(), env);
    const acknowledged: { path: string; id: string; reason: string }[] = [];
    for (const construct of s.app.node.findAll()) {
      for (const entry of construct.node.metadata) {
        if (entry.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY) continue;
        for (const [id, reason] of Object.entries(entry.data as Record<string, string>)) {
          acknowledged.push({ path: construct.node.path, id, reason });
          expect(construct === s.app || Stack.isStack(construct), `${id} acknowledged on ${construct.node.path || 'the app'}`).toBe(false);
        }
      }
    }
    expect(acknowledged.length).toBeGreaterThan(0);
    for (const a of acknowledged) expect(a.reason.length, `${a.id} at ${a.path}`).toBeGreaterThan(40);
    // No rule is waved through wholesale: a wildcard finding is acknowledged by its exact resource or action.
    expect(acknowledged.filter((a) => /AwsSolutions-IAM5$/.test(a.id))).toEqual([]);
    const apig4 = acknowledged.filter((a) => a.id.endsWith('AwsSolutions-APIG4'));
    expect(apig4.length).toBe(2); // one per HTTP API (generation, agents)
    for (const a of apig4) expect(a.reason).toMatch(/payment is the authentication/);
  });
});

describe('findings fixed rather than acknowledged', () => {
  let resources: Record<string, { Type: string; Properties: any }>;
  let stack: PaycallStack;
  beforeAll(() => {
    const app = newApp();
    stack = new PaycallStack(app, 'Gen', { allowMissingEntries: true });
    resources = Template.fromStack(stack).toJSON().Resources;
  });
  const id = (c: { node: { defaultChild?: unknown } }) => stack.getLogicalId(c.node.defaultChild as any);

  it('the asset bucket is versioned and writes server access logs to the log bucket', () => {
    const bucket = resources[id(stack.assetsBucket)].Properties;
    expect(bucket.VersioningConfiguration).toEqual({ Status: 'Enabled' });
    expect(bucket.LoggingConfiguration).toEqual({ DestinationBucketName: { Ref: expect.stringMatching(/^AccessLogsBucket/) }, LogFilePrefix: 's3/' });
  });

  it("expires a job's files a day after the job itself, never the static assets, and old versions after a week", () => {
    expect(JOB_FILE_DAYS).toBe(JOB_TTL_SECONDS / 86_400 + 1);
    const rules = resources[id(stack.assetsBucket)].Properties.LifecycleConfiguration.Rules as any[];
    for (const prefix of JOB_FILE_PREFIXES) {
      expect(rules).toContainEqual(expect.objectContaining({ Prefix: prefix, ExpirationInDays: JOB_FILE_DAYS, Status: 'Enabled' }));
    }
    expect(rules.filter((r) => r.ExpirationInDays !== undefined).map((r) => r.Prefix).sort()).toEqual([...JOB_FILE_PREFIXES].sort());
    expect(rules).toContainEqual(
      expect.objectContaining({
        NoncurrentVersionExpiration: { NoncurrentDays: NONCURRENT_VERSION_DAYS },
        ExpiredObjectDeleteMarker: true,
        AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
      }),
    );
  });

  it('the distribution logs to the log bucket and sends the security headers', () => {
    const config = resources[id(stack.assetsDistribution)].Properties.DistributionConfig;
    expect(config.Logging).toEqual({ Bucket: { 'Fn::GetAtt': [expect.stringMatching(/^AccessLogsBucket/), 'RegionalDomainName'] }, Prefix: 'cdn/' });
    expect(config.DefaultCacheBehavior.ResponseHeadersPolicyId).toBe(cloudfront.ResponseHeadersPolicy.SECURITY_HEADERS.responseHeadersPolicyId);
  });

  it('the log bucket is private, encrypted, TLS only, accepts CloudFront log delivery and expires logs', () => {
    const [logId, log] = Object.entries(resources).find(([k]) => k.startsWith('AccessLogsBucket') && resources[k].Type === 'AWS::S3::Bucket')!;
    expect(log.Properties.PublicAccessBlockConfiguration).toMatchObject({ BlockPublicAcls: true, RestrictPublicBuckets: true });
    expect(log.Properties.OwnershipControls.Rules).toEqual([{ ObjectOwnership: 'BucketOwnerPreferred' }]);
    expect(log.Properties.LifecycleConfiguration.Rules).toContainEqual(expect.objectContaining({ ExpirationInDays: 90 }));
    const policy = Object.values(resources).find((r) => r.Type === 'AWS::S3::BucketPolicy' && r.Properties.Bucket.Ref === logId)!;
    const statements = JSON.stringify(policy.Properties.PolicyDocument.Statement);
    expect(statements).toContain('aws:SecureTransport');
    expect(statements).toContain('logging.s3.amazonaws.com');
  });

  it('each state machine logs to its own /aws/vendedlogs/states/ log group', () => {
    const names = new Set<string>();
    for (const product of PRODUCT_IDS) {
      const machine = resources[id(stack.stateMachines[product])].Properties;
      const logGroupId = machine.LoggingConfiguration.Destinations[0].CloudWatchLogsLogGroup.LogGroupArn['Fn::GetAtt'][0];
      const name = resources[logGroupId].Properties.LogGroupName as string;
      expect(name.startsWith(VENDED_LOGS_PREFIX), name).toBe(true);
      expect(name).toContain('Gen-');
      names.add(name);
    }
    expect(names.size).toBe(PRODUCT_IDS.length);
  });
});
