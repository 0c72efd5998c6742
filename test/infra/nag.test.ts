/**
 * cdk-nag 3 (lib/nag.ts): the AwsSolutions and Serverless packs run as CDK validation plugins when the app
 * synthesizes, and the report CDK writes to the cloud assembly (validation-report.json, as `cdk synth` writes it to
 * cdk.out) holds no unacknowledged finding, errors or warnings, for every context key there is: a finding that only
 * one key's resources raise fails that `cdk synth` just the same. The keys come from where they are declared (the
 * schema's examples, lib/config.ts CONFIG_EXAMPLES; the reasoning keys; every render provider), so a key added there
 * is synthesised here, alone and with all the others. Every acknowledgment sits on the construct it concerns, with
 * its reason; the findings that were cheap to fix are fixed and asserted here.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { App, Stack, Validations, type Environment } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { PaycallStack, PROJECT_ROOT } from '../../lib/paycall-stack.js';
import { CONFIG_EXAMPLES, CONFIG_KEYS, EXCLUSIVE_KEYS, exampleContext, exampleValue, readCdkJsonContext, type ConfigKey } from '../../lib/config.js';
import { applyNag } from '../../lib/nag.js';
import { JOB_FILE_DAYS, JOB_FILE_PREFIXES, NONCURRENT_VERSION_DAYS } from '../../lib/assets.js';
import { VENDED_LOGS_PREFIX } from '../../lib/workflow.js';
import { JOB_TTL_SECONDS } from '../../lambdas/store/jobs.js';
import { PRODUCT_IDS } from '../../lambdas/products/catalog.js';
import { providerContextKey, providersFor } from '../../lambdas/render/providers.js';
import { REASONING_CONTEXT_KEYS, reasonableAgents } from '../../lib/agent-reasoning.js';
import { flatTemplateOf } from '../support/synth.js';

interface ValidationReport {
  title: string;
  pluginReports: { pluginName: string; conclusion: string; violations: { ruleName: string; severity: string; violatingConstructs: { constructPath: string }[] }[] }[];
}

let context: Record<string, unknown>;

function newApp(): App {
  return new App({ context: { ...context, 'aws:cdk:bundling-stacks': [] } });
}

/**
 * Synthesizes the stack as bin/app.ts does under `cdk synth` (packs and acknowledgments; its name from the
 * `stackName` context; version reporting on, so the template holds CDKMetadata, a resource CloudFormation counts
 * against its 500) with `extra` context over cdk.json's, and reads the validation report.
 */
function synthWithNag(env?: Environment, extra: Record<string, unknown> = {}) {
  const app = new App({ context: { ...context, 'aws:cdk:bundling-stacks': [], 'aws:cdk:version-reporting': true, ...extra } });
  const stack = new PaycallStack(app, String(extra.stackName ?? 'Gen'), { allowMissingEntries: true, env });
  applyNag(app, stack);
  const assembly = app.synth();
  const report = JSON.parse(readFileSync(path.join(assembly.directory, 'validation-report.json'), 'utf8')) as ValidationReport;
  const template = assembly.getStackArtifact(stack.artifactId).template as Record<string, Record<string, unknown> | undefined>;
  // Each surface's nested template (lib/surface-stack.ts), by its construct id: CloudFormation counts each on its own.
  const nested = Object.fromEntries(
    stack.surfaceStacks.map((s) => [s.node.id, JSON.parse(readFileSync(path.join(assembly.directory, s.templateFile), 'utf8')) as Record<string, Record<string, unknown> | undefined>]),
  );
  return { app, stack, report, template, nested };
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

/**
 * What cdk-nag's rules look at, without the values: which resources, properties, statements, outputs and rules there
 * are, every string, number and boolean replaced by its type, and no function's environment variables (values a
 * function reads, whichever are set).
 */
function shape(node: unknown, key?: string): unknown {
  if (node === null || typeof node !== 'object') return typeof node;
  if (Array.isArray(node)) return node.map((child) => shape(child));
  return Object.fromEntries(Object.entries(node).filter(([k]) => !(key === 'Environment' && k === 'Variables')).map(([k, child]) => [k, shape(child, k)]));
}
const templateShape = (t: Record<string, unknown>) => shape({ Resources: withoutPassedValues(t.Resources), Outputs: t.Outputs, Rules: t.Rules, Conditions: t.Conditions });
/** A nested stack's parameters are values the core passes down (a literal pay-to needs no SSM parameter passed). */
const withoutPassedValues = (resources: unknown) =>
  Object.fromEntries(
    Object.entries((resources ?? {}) as Record<string, { Type: string; Properties?: Record<string, unknown> }>).map(([id, r]) => [
      id,
      r.Type === 'AWS::CloudFormation::Stack' ? { ...r, Properties: { ...r.Properties, Parameters: undefined } } : r,
    ]),
  );

beforeAll(async () => {
  context = await readCdkJsonContext(PROJECT_ROOT);
});

/** The region of the examples' ARNs (and of the literal environment); the edge's is us-east-1. */
const REGION = 'eu-west-1';
const LITERAL_ENV: Environment = { account: '123456789012', region: REGION };
const EDGE_ENV: Environment = { account: '123456789012', region: 'us-east-1' };
const DEFAULT = 'the default (cdk.json)';

type Named = [name: string, extra: Record<string, string>];
const sameContext = (a: Record<string, string>, b: Record<string, string>) => JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());
const named = (extra: Record<string, string>): Named => [Object.entries(extra).map(([k, v]) => `${k}=${v}`).join(', '), extra];

/** Context keys read outside the schema: agent reasoning (lib/agent-reasoning.ts) and the stack's name (bin/app.ts). */
const OTHER_EXAMPLES: Record<(typeof REASONING_CONTEXT_KEYS)[number] | 'stackName', string> = {
  agentReasoning: reasonableAgents().join(','),
  agentReasoningModel: 'amazon.nova-lite-v1:0',
  agentReasoningRegion: 'us-west-2',
  stackName: 'PaycallStaging',
};
const reasoning = Object.fromEntries(REASONING_CONTEXT_KEYS.map((key) => [key, OTHER_EXAMPLES[key]]));

/** The keys whose examples change only values: one synthesis for all of them (its shape is held to the default's below). */
const VALUES_KEYS = CONFIG_KEYS.filter((key) => CONFIG_EXAMPLES[key].valuesOnly);
const VALUES = `the ${VALUES_KEYS.length} keys that change only values, together`;

/**
 * One synthesis per context key (with the keys its example names: a pair, a mode), those that change only values
 * together, every render provider (the examples name one per product), reasoning and the stack's name; the same
 * context reached from two keys (a pair) is synthesised once.
 */
const PER_OPTION = ([
  [DEFAULT, {}],
  ...CONFIG_KEYS.filter((key) => !CONFIG_EXAMPLES[key].valuesOnly).map((key) => named(exampleContext([key], REGION))),
  ...PRODUCT_IDS.flatMap((product) =>
    providersFor(product)
      .filter((provider) => provider !== 'local')
      .map((provider) => named({ [providerContextKey(product)]: provider })),
  ),
  [VALUES, exampleContext(VALUES_KEYS, REGION)],
  [`${REASONING_CONTEXT_KEYS.join(', ')} (all ${reasonableAgents().length} agents a model may reason)`, reasoning],
  named({ stackName: OTHER_EXAMPLES.stackName }),
] satisfies Named[]).filter(([, extra], i, all) => all.findIndex(([, other]) => sameContext(other, extra)) === i);

/** Every example at once, as given (no companions drawn in): `keys` of the schema and the keys read elsewhere. */
const together = (keys: readonly ConfigKey[], region: string): Record<string, string> => ({
  ...Object.fromEntries(keys.map((key) => [key, exampleValue(key, region)])),
  ...OTHER_EXAMPLES,
});
/** The edge's keys: its CloudFront web ACL exists only in us-east-1, where `edge` puts the stack. */
const EDGE_KEYS = Object.keys(exampleContext(['edge'], REGION)) as ConfigKey[];
const [URL_SIDE, SECRET_SIDE] = [EXCLUSIVE_KEYS.map(([url]) => url), EXCLUSIVE_KEYS.map(([, secret]) => secret)];
/**
 * All the keys together, twice, each exclusive choice made once each way. In eu-west-1 (literal): every key but the
 * edge's, the URLs in their secrets (EXCLUSIVE_KEYS) and self-settlement (facilitatorMode left unset: the settler
 * key's grants are there too). In us-east-1 (literal), the edge's region: every key, the URLs in the context and the
 * remote facilitator.
 */
const EVERYTHING = `every key at once but the edge's, ${SECRET_SIDE.join(' and ')} rather than ${URL_SIDE.join(' and ')}, self-settlement, in ${REGION}`;
const everything = () => together(CONFIG_KEYS.filter((key) => !EDGE_KEYS.includes(key) && !(URL_SIDE as readonly string[]).includes(key) && key !== 'facilitatorMode'), REGION);
const EDGE_EVERYTHING = `every key at once, ${URL_SIDE.join(' and ')} rather than ${SECRET_SIDE.join(' and ')}, the remote facilitator, in ${EDGE_ENV.region}`;
const edgeEverything = () => together(CONFIG_KEYS.filter((key) => !(SECRET_SIDE as readonly string[]).includes(key)), EDGE_ENV.region!);

describe('the AwsSolutions and Serverless packs', () => {
  it('synthesise every context key: alone (or with the keys its example names), and in an all-keys synthesis', () => {
    const alone = new Set(PER_OPTION.flatMap(([, extra]) => Object.keys(extra)));
    expect(CONFIG_KEYS.filter((key) => !alone.has(key))).toEqual([]);
    const all = new Set([...Object.keys(everything()), ...Object.keys(edgeEverything())]);
    expect([...CONFIG_KEYS, ...Object.keys(OTHER_EXAMPLES)].filter((key) => !all.has(key))).toEqual([]);
    // Only the exclusive choices are left out of the us-east-1 one.
    expect(CONFIG_KEYS.filter((key) => !Object.hasOwn(edgeEverything(), key))).toEqual(SECRET_SIDE);
  });

  it.each(PER_OPTION)('report no unacknowledged error or warning with %s', (name, extra) => {
    const s = synthOnce(name, extra);
    expect(s.report.title).toBe('Validation Report');
    expect(findings(s.report)).toEqual([]);
  });

  it(`${VALUES} give the default's template but for its values (else give the key its own synthesis: no valuesOnly)`, () => {
    const values = synthOnce(VALUES, exampleContext(VALUES_KEYS, REGION));
    const plain = synthOnce(DEFAULT, {});
    expect(templateShape(values.template)).toEqual(templateShape(plain.template));
    for (const [id, nested] of Object.entries(values.nested)) expect(templateShape(nested), id).toEqual(templateShape(plain.nested[id]));
  });

  it('report none either when the environment makes region and account literal (as `cdk synth` does)', () => {
    expect(findings(synthOnce(DEFAULT, {}, LITERAL_ENV).report)).toEqual([]);
  });

  it(`report none with ${EVERYTHING}`, () => {
    expect(findings(synthOnce(EVERYTHING, everything(), LITERAL_ENV).report)).toEqual([]);
  });

  it(`report none with ${EDGE_EVERYTHING}`, () => {
    const s = synthOnce(EDGE_EVERYTHING, edgeEverything(), EDGE_ENV);
    expect(Object.keys(s.stack.edge!.distributions)).toHaveLength(2);
    expect(findings(s.report)).toEqual([]);
  });

  it.each([
    [EVERYTHING, LITERAL_ENV],
    [EDGE_EVERYTHING, EDGE_ENV],
  ] as const)('%s: every stack, core and nested, stays under 400 resources (CloudFormation allows 500), CDKMetadata included', (name, env) => {
    const s = synthOnce(name, name === EVERYTHING ? everything() : edgeEverything(), env);
    const stacks = { [s.stack.stackName]: s.template, ...s.nested };
    expect(Object.keys(s.nested).sort()).toEqual(['AgentsSurface', 'GenerationSurface']);
    const counts = Object.fromEntries(Object.entries(stacks).map(([id, template]) => [id, Object.keys(template.Resources ?? {}).length]));
    // The count per stack, printed: the room left is read here before a surface or the core grows.
    console.log(`resources per stack (${name}): ${JSON.stringify(counts)}`);
    expect(Object.keys(s.template.Resources ?? {})).toContain('CDKMetadata');
    for (const [id, resources] of Object.entries(counts)) expect(resources, id).toBeLessThan(400);
  });

  it('do run: without the acknowledgments the same stack fails synthesis with their findings', () => {
    const app = newApp();
    new PaycallStack(app, 'Gen', { allowMissingEntries: true });
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new ServerlessChecks(app));
    expect(() => app.synth()).toThrow(/AwsSolutions-APIG4[\s\S]*Serverless-LambdaDLQ|Serverless-LambdaDLQ[\s\S]*AwsSolutions-APIG4/);
  });

  it.each([
    [DEFAULT, undefined],
    [EVERYTHING, LITERAL_ENV],
    [EDGE_EVERYTHING, EDGE_ENV],
  ] as const)('acknowledge each finding on its own construct, with a reason, never on the stack or the app (%s)', (name, env) => {
    const s = synthOnce(name, name === DEFAULT ? {} : name === EVERYTHING ? everything() : edgeEverything(), env);
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
    resources = flatTemplateOf(stack).toJSON().Resources;
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
