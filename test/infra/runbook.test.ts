/**
 * Every command the deploy runbook (docs/deploy.md) tells an operator to type is run here, or classified with the reason it
 * is not. The commands are found by the rule of test/support/runbook.ts, so one added later is picked up and fails
 * this file until it is run or classified.
 *
 * - Run by bash from the project's root, verbatim after PLACEHOLDERS, with `aws` and `npx cdk` recorded instead of
 *   called: every command substitution (the Powertools parameter, `openssl rand`, the AP2 key generator) runs for real
 *   and its result is checked as the call received it.
 * - `aws`: each recorded call runs through the AWS CLI (test/support/aws-cli.ts: the real CLI v1 and botocore's
 *   models from aws-cdk-lib's npm dependency) with canned answers: service, operation, options and values are the
 *   CLI's to accept, and `--query` applies to an answer shaped like AWS's.
 * - `npx cdk deploy` and `-c …` options: synthesised with those options, in-process (a few merged sets) and once
 *   through the pinned CLI (`cdk ls`, which runs the app as `cdk deploy` does, without bundling the functions).
 * - `npx cdk bootstrap`: the pinned CLI prints the bootstrap template for the environment (`--show-template`).
 * - `curl`: run against the embedded service by test/integration/runbook-curl.test.ts.
 */
import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { importJWK, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_KEYS, parseStackConfig } from '../../lib/config.js';
import { runAwsCli, type AwsCliJob, type AwsCliResult } from '../support/aws-cli.js';
import { blockScript, ROOT, runbookCommands, runbookSection, runRecorded, type RunbookCommand, type ShellRun } from '../support/runbook.js';
import { synthGeneration } from '../support/synth.js';

const run = promisify(execFile);
const CDK_CONTEXT = JSON.parse(readFileSync(path.join(ROOT, 'cdk.json'), 'utf8')).context as Record<string, unknown>;
const STACK_NAME = CDK_CONTEXT.stackName as string;
const CERTIFICATE_ARN = 'arn:aws:acm:us-east-1:123456789012:certificate/0a1b2c3d-4e5f-6789-abcd-ef0123456789';
const JOB_ID = 'job_01EXAMPLE';
// The CLI would otherwise look for a newer version of itself and send telemetry: this machine has no network.
const OFFLINE_CDK = { ...process.env, CDK_DISABLE_VERSION_CHECK: '1', CDK_DISABLE_CLI_TELEMETRY: 'true' };
const ISSUER = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' });

/** What a placeholder of the runbook stands for here, most specific first. Each must still occur in the runbook. */
const PLACEHOLDERS: [RegExp, string][] = [
  [/--restore-date-time …/g, '--restore-date-time 2026-01-01T00:00:00Z'],
  [/--source-table-name …/g, `--source-table-name ${STACK_NAME}-JobsTable-EXAMPLE`],
  [/--target-table-name …/g, `--target-table-name ${STACK_NAME}-JobsTable-restored`],
  [/payTo=0x…/g, 'payTo=0x1111111111111111111111111111111111111111'],
  [/0x…/g, `0x${'11'.repeat(32)}`],
  [/https:\/\/…/g, 'https://facilitator.example.com'],
  [/SecretName=…/g, 'SecretName=paycall/example'],
  [/<peak settlements an hour>/g, '120'],
  [/<measured>/g, '90000000000000'],
  [/"x":"…","y":"…","kid":"…"/g, `"x":"${ISSUER.x}","y":"${ISSUER.y}","kid":"issuer-1"`],
  [/<key id>/g, '1234abcd-12ab-34cd-56ef-1234567890ab'],
  [/\bARN\b/g, CERTIFICATE_ARN],
  [/\bREGION\b/g, 'us-east-1'],
  [/\bACCOUNT\b/g, '123456789012'],
];

/** Commands not run, each with why. */
const NOT_RUN: Record<string, string> = {
  'npm install': "the install itself: .ci/run runs it before every test run (checked below), and this file runs against what it installed",
  'npx cdk': 'names the pinned CLI in a sentence',
  'cdk synth': 'names the CLI command in a sentence (what synthesis refuses)',
  'cdk destroy': 'names the CLI command in a sentence (what it leaves behind)',
  'cdk deploy --no-rollback': 'what the runbook tells the operator never to run',
  'npm ci && npx cdk deploy -c …':
    "a rollback from a clean checkout of an older commit: `npm ci` reinstalls that commit's lockfile and `-c …` stands for the options that were deployed; every deploy option the runbook names is synthesised here",
};

type Handling = 'shell' | 'embedded' | 'not run';

function handling(command: RunbookCommand): Handling | undefined {
  if (command.text in NOT_RUN) return 'not run';
  if (command.text.startsWith('curl ')) return 'embedded';
  if ('block' in command.where || /^(aws |npx cdk (deploy|bootstrap)\b|-c )/.test(command.text) || command.text.includes('$(')) return 'shell';
  return undefined;
}

const commands = runbookCommands();
const where = (c: RunbookCommand) => `step ${c.step}: ${c.text}`;

function substitute(text: string): string {
  return PLACEHOLDERS.reduce((t, [pattern, value]) => t.replace(pattern, value), text);
}

/** Sample values of the stack's outputs: what an operator's `$ApiUrl` or `describe-stacks` gives. */
function sampleOutput(key: string): string {
  if (key === 'AlarmTopicArn') return `arn:aws:sns:us-east-1:123456789012:${STACK_NAME}-AlarmTopic-EXAMPLE`;
  if (key.endsWith('StateMachineArn')) return `arn:aws:states:us-east-1:123456789012:stateMachine:${key.slice(0, -'Arn'.length)}-EXAMPLE`;
  if (key.endsWith('Url')) return `https://${key.toLowerCase()}.example.com`;
  return `EXAMPLE-${key}`;
}

/** A unit the shell runs: one span, or one whole block (its lines share variables). */
interface ShellUnit {
  commands: RunbookCommand[];
  script: string;
  /** What `aws` prints in this unit for a `$(aws …)` to read; the real CLI must print the same. */
  awsStdout?: string;
  result?: ShellRun;
}

interface Template {
  Parameters: Record<string, { Type: string; Default?: string }>;
  Outputs: Record<string, unknown>;
  Resources: Record<string, { Type: string }>;
}

/** The variables a script reads without setting them itself: the operator's, from the stack's outputs or their own. */
function variablesRead(script: string): string[] {
  const read = [...script.matchAll(/\$\{?([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]);
  const set = new Set([...script.matchAll(/(?:^|\s)([A-Za-z_][A-Za-z0-9_]*)=/gm)].map((m) => m[1]));
  return [...new Set(read)].filter((v) => !set.has(v));
}

describe('Deploy runbook: every command an operator types is run or classified', () => {
  let template: Template;
  const outputs: Record<string, string> = {};
  const units: ShellUnit[] = [];
  const variables = new Set<string>();
  const awsCalls: { unit: ShellUnit; argv: string[]; result?: AwsCliResult }[] = [];
  const deploys: { unit: ShellUnit; context: Record<string, string> }[] = [];
  const bootstraps: { unit: ShellUnit; argv: string[] }[] = [];
  let powertoolsParameter = '';
  let cliSynth: Promise<{ stdout: string; stderr: string; outdir: string }> | undefined;

  beforeAll(async () => {
    const blocks = new Set<number>();
    for (const command of commands) {
      if (handling(command) !== 'shell') continue;
      if ('block' in command.where) {
        if (blocks.has(command.where.block)) continue;
        blocks.add(command.where.block);
        const block = command.where.block;
        const script = blockScript(commands, block);
        // Step 16 reads the state machine's ARN from the stack's outputs through $(aws cloudformation …).
        const awsStdout = /\$\(aws cloudformation describe-stacks/.test(script) ? sampleOutput('ImageStateMachineArn') : undefined;
        units.push({ commands: commands.filter((c) => 'block' in c.where && c.where.block === block), script: substitute(script), awsStdout });
      } else {
        units.push({ commands: [command], script: substitute(command.text.startsWith('-c ') ? `npx cdk deploy ${command.text}` : command.text) });
      }
    }
    for (const unit of units) for (const v of variablesRead(unit.script)) variables.add(v);
    const env = Object.fromEntries([...variables].map((v) => [v, v === 'JOB_ID' ? JOB_ID : sampleOutput(v)]));
    await Promise.all(units.map(async (u) => (u.result = await runRecorded(u.script, env, u.awsStdout))));
    for (const unit of units) {
      for (const call of unit.result!.calls) {
        if (call.program === 'aws') awsCalls.push({ unit, argv: call.argv });
        else if (call.argv[0] === 'deploy') deploys.push({ unit, context: deployContext(call.argv.slice(1), unit) });
        else if (call.argv[0] === 'bootstrap') bootstraps.push({ unit, argv: call.argv });
        else throw new Error(`${unit.script}: npx cdk ${call.argv[0]} is neither deploy nor bootstrap: say how to check it`);
      }
    }
    // The slow runs start first and go on while the rest is done: the app through the pinned CLI, and the
    // Powertools parameter's name as the runbook has the operator print it.
    const staging = deploys.find((d) => d.context.stackName !== undefined);
    if (staging) cliSynth = cdkList(staging.context);
    cliSynth?.catch(() => undefined);
    const printed = run('npx', ['tsx', 'bin/powertools-parameter.ts'], { cwd: ROOT });
    printed.catch(() => undefined);
    // The default deployment (step 12's `npx cdk deploy`): its outputs answer describe-stacks, its resources
    // list-stack-resources.
    template = synthGeneration(CDK_CONTEXT).template.toJSON() as Template;
    for (const key of Object.keys(template.Outputs)) outputs[key] = sampleOutput(key);
    const results = await runAwsCli(awsCalls.map((c): AwsCliJob => ({ argv: c.argv, responses: cannedResponses(c.argv) })));
    results.forEach((r, i) => (awsCalls[i].result = r));
    powertoolsParameter = (await printed).stdout.trim();
  }, 240_000);

  afterAll(async () => {
    const done = await cliSynth?.catch(() => undefined);
    if (done) rmSync(done.outdir, { recursive: true, force: true });
  });

  function deployContext(argv: string[], unit: ShellUnit): Record<string, string> {
    const context: Record<string, string> = {};
    for (let i = 0; i < argv.length; i += 2) {
      const match = /^([^=]+)=(.*)$/s.exec(argv[i + 1] ?? '');
      if (!['-c', '--context'].includes(argv[i]) || !match) throw new Error(`${unit.script}: cdk deploy ${argv.join(' ')}: only -c key=value options are synthesised here`);
      context[match[1]] = match[2];
    }
    return context;
  }

  /** Answers shaped like AWS's, where a command prints or waits on what it gets back. */
  function cannedResponses(argv: string[]): Record<string, unknown> {
    return {
      GetParameter: { Parameter: { Name: argv[argv.indexOf('--name') + 1], Type: 'String', Value: 'arn:aws:lambda:us-east-1:094274105915:layer:AWSLambdaPowertoolsTypeScriptV2:44' } },
      DescribeStacks: { Stacks: [{ StackName: STACK_NAME, StackStatus: 'UPDATE_COMPLETE', CreationTime: '2026-01-01T00:00:00Z', Outputs: Object.entries(outputs).map(([OutputKey, OutputValue]) => ({ OutputKey, OutputValue })) }] },
      ListStackResources: {
        StackResourceSummaries: Object.entries(template.Resources).map(([id, r]) => ({
          LogicalResourceId: id,
          PhysicalResourceId: `${STACK_NAME}-${id}-EXAMPLE`,
          ResourceType: r.Type,
          LastUpdatedTimestamp: '2026-01-01T00:00:00Z',
          ResourceStatus: 'CREATE_COMPLETE',
        })),
      },
      // Validated at once, so `aws acm wait certificate-validated` returns on its first look.
      DescribeCertificate: {
        Certificate: {
          CertificateArn: CERTIFICATE_ARN,
          DomainValidationOptions: [{ DomainName: 'api.example.com', ValidationStatus: 'SUCCESS', ResourceRecord: { Name: '_x1.api.example.com.', Type: 'CNAME', Value: '_x2.acm-validations.aws.' } }],
        },
      },
      InvokeModel: { body: { $stream: '{"images":["iVBORw0KGgo="],"finish_reasons":[null]}' }, contentType: 'application/json' },
    };
  }

  function cdkList(context: Record<string, string>) {
    const outdir = mkdtempSync(path.join(tmpdir(), 'runbook-cdk-'));
    const args = ['cdk', 'ls', ...Object.entries(context).flatMap(([k, v]) => ['-c', `${k}=${v}`]), '-o', outdir, '--no-notices'];
    return run('npx', args, { cwd: ROOT, timeout: 180_000, env: OFFLINE_CDK }).then(({ stdout, stderr }) => ({ stdout, stderr, outdir }));
  }

  const callsOf = (service: string, operation: string) =>
    awsCalls.flatMap((c) => (c.result?.calls ?? []).filter((x) => x.service === service && x.operation === operation).map((call) => ({ ...c, call })));

  it('reads the runbook under one rule: the spans and block lines that are commands', () => {
    expect(commands.length).toBeGreaterThan(40);
    expect(commands.some((c) => c.text.includes('aws ssm get-parameter --name') && c.step === 2)).toBe(true);
    expect(commands.some((c) => 'block' in c.where && c.text.startsWith('MACHINE=$(aws cloudformation describe-stacks') && c.step === 16)).toBe(true);
    // A span broken over two lines of the runbook is one command.
    expect(commands.some((c) => c.text === 'aws service-quotas list-requested-service-quota-change-history-by-quota --service-code lambda --quota-code L-B99A9384')).toBe(true);
  });

  it('runs every command or says why not', () => {
    const unhandled = commands.filter((c) => handling(c) === undefined).map(where);
    expect(unhandled, 'neither run nor classified: add a check here, or to NOT_RUN with the reason').toEqual([]);
    const stale = Object.keys(NOT_RUN).filter((text) => !commands.some((c) => c.text === text));
    expect(stale, 'NOT_RUN names commands the runbook no longer has').toEqual([]);
    const unused = PLACEHOLDERS.filter(([pattern]) => !commands.some((c) => new RegExp(pattern.source).test(c.text))).map(([p]) => p.source);
    expect(unused, 'PLACEHOLDERS the runbook no longer has').toEqual([]);
  });

  it('npm install: .ci/run installs with it before the tests', () => {
    expect(readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8')).toMatch(/^npm install$/m);
  });

  it("every variable a command reads is one of the stack's outputs (or the job id step 16 starts from)", () => {
    expect(variables.size).toBeGreaterThan(0);
    expect([...variables].filter((v) => v !== 'JOB_ID' && !(v in template.Outputs))).toEqual([]);
  });

  it('what a new account meets: the runbook quotes both refusals, and the distribution it names is the one every stack has', () => {
    const section = runbookSection();
    expect(section).toContain("`AccessDenied. User doesn't have permission to call ssm:GetParameters`");
    expect(section).toContain('`Your account must be verified before you can add new CloudFront resources.');
    const distributions = Object.entries(template.Resources).filter(([, r]) => r.Type === 'AWS::CloudFront::Distribution').map(([id]) => id);
    expect(distributions).toHaveLength(1);
    expect(distributions[0]).toMatch(/^AssetsDistribution/);
    expect(section).toContain('`AssetsDistribution`');
  });

  it('each shell command runs cleanly (exit 0, nothing on stderr) and calls aws or npx cdk', () => {
    const failed = units
      .filter((u) => u.result!.code !== 0 || u.result!.stderr !== '' || u.result!.calls.length === 0)
      .map((u) => ({ script: u.script, code: u.result!.code, stderr: u.result!.stderr, calls: u.result!.calls.length }));
    expect(failed).toEqual([]);
  });

  describe('aws commands, through the AWS CLI with canned answers', () => {
    it('each is a real service, operation and options, and calls AWS', () => {
      const failed = awsCalls
        .filter((c) => c.result!.code !== 0 || c.result!.stderr !== '' || c.result!.calls.length === 0)
        .map((c) => ({ argv: c.argv.join(' '), code: c.result!.code, stderr: c.result!.stderr.slice(-400) }));
      expect(failed).toEqual([]);
      expect(awsCalls.length).toBeGreaterThan(30);
    });

    it('step 2: the Powertools check asks for the very parameter the synthesised template resolves, at the installed version', () => {
      const installed = (JSON.parse(readFileSync(path.join(ROOT, 'node_modules/@aws-lambda-powertools/logger/package.json'), 'utf8')) as { version: string }).version;
      const inTemplate = Object.values(template.Parameters)
        .filter((p) => p.Type === 'AWS::SSM::Parameter::Value<String>' && p.Default?.startsWith('/aws/service/powertools/'))
        .map((p) => p.Default);
      expect(inTemplate).toEqual([`/aws/service/powertools/typescript/generic/all/${installed}`]);
      expect(powertoolsParameter).toBe(inTemplate[0]);
      const checks = callsOf('ssm', 'GetParameter').filter((c) => String(c.call.params.Name).startsWith('/aws/service/powertools/'));
      expect(checks.map((c) => c.call.params.Name)).toEqual([inTemplate[0]]);
      expect(checks[0].result!.stdout.trim()).toBe('"arn:aws:lambda:us-east-1:094274105915:layer:AWSLambdaPowertoolsTypeScriptV2:44"');
    });

    it('step 2: the published versions are listed under the path the parameter sits in', () => {
      const listing = callsOf('ssm', 'GetParametersByPath').filter((c) => String(c.call.params.Path).startsWith('/aws/service/powertools/'));
      expect(listing.map((c) => `${c.call.params.Path}/`)).toEqual([powertoolsParameter.replace(/[^/]+$/, '')]);
    });

    it('steps 6 and 10: the keys generated on the spot are what the service reads', async () => {
      const config = parseStackConfig(CDK_CONTEXT);
      const secretString = (name: string) => {
        const created = callsOf('secretsmanager', 'CreateSecret').filter((c) => c.call.params.Name === name);
        expect(created, name).toHaveLength(1);
        return String(created[0].call.params.SecretString);
      };
      expect(secretString(config.serviceKeySecretName)).toMatch(/^[0-9a-f]{64}$/);
      expect(secretString(config.offerSigningKeySecretName)).toMatch(/^[0-9a-f]{64}$/);
      const jwk = JSON.parse(secretString(config.ap2MerchantKeySecretName)) as JWK;
      expect(jwk).toMatchObject({ kty: 'EC', crv: 'P-256', kid: expect.stringMatching(/.+/), d: expect.any(String), x: expect.any(String), y: expect.any(String) });
      // As lambdas/payments/ap2/merchant.ts takes it.
      await expect(importJWK(jwk, 'ES256')).resolves.toBeDefined();
    });

    it('every secret created is one the stack reads: a default secret name, or one a runbook option names', () => {
      const config = parseStackConfig(CDK_CONTEXT) as unknown as Record<string, unknown>;
      const named = new Set<string>();
      for (const [key, value] of Object.entries(config)) if (key.endsWith('SecretName') && typeof value === 'string') named.add(value);
      for (const d of deploys) for (const [key, value] of Object.entries(d.context)) if (key.endsWith('SecretName')) named.add(value);
      const created = callsOf('secretsmanager', 'CreateSecret').map((c) => String(c.call.params.Name));
      expect(created.filter((name) => !named.has(name))).toEqual([]);
    });

    it("every --stack-name is the stack cdk.json deploys, or CDK's bootstrap stack", () => {
      const names = awsCalls.flatMap((c) => (c.result?.calls ?? []).map((x) => x.params.StackName)).filter((n) => n !== undefined);
      expect(names.length).toBeGreaterThan(0);
      expect(names.filter((n) => n !== STACK_NAME && n !== 'CDKToolkit')).toEqual([]);
    });

    it("step 16: the execution's ARN is the image machine's output with :execution: and the job id", () => {
      const [stacks] = callsOf('cloudformation', 'DescribeStacks');
      expect(stacks.result!.stdout.trim()).toBe(outputs.ImageStateMachineArn);
      const expected = `${outputs.ImageStateMachineArn.replace(':stateMachine:', ':execution:')}:${JOB_ID}`;
      expect(callsOf('stepfunctions', 'DescribeExecution').map((c) => c.call.params.executionArn)).toEqual([expected]);
      expect(callsOf('stepfunctions', 'GetExecutionHistory').map((c) => c.call.params.executionArn)).toEqual([expected]);
    });

    it("step 18: the listing before cdk destroy names the stack's tables and buckets, and nothing else", () => {
      const [listing] = callsOf('cloudformation', 'ListStackResources');
      const retained = Object.entries(template.Resources).filter(([, r]) => ['AWS::DynamoDB::Table', 'AWS::S3::Bucket'].includes(r.Type));
      expect(retained.length).toBeGreaterThan(5);
      for (const [id] of retained) expect(listing.result!.stdout).toContain(`${STACK_NAME}-${id}-EXAMPLE`);
      const others = Object.entries(template.Resources).filter(([, r]) => !['AWS::DynamoDB::Table', 'AWS::S3::Bucket'].includes(r.Type));
      for (const [id] of others) expect(listing.result!.stdout).not.toContain(`${STACK_NAME}-${id}-EXAMPLE`);
    });
  });

  describe('deploy options (npx cdk deploy -c …, and every -c option the runbook names)', () => {
    it('every key is one the stack reads (an unknown key would be ignored without a word)', () => {
      const keys = new Set(deploys.flatMap((d) => Object.keys(d.context)));
      expect(keys.size).toBeGreaterThan(20);
      // stackName is bin/app.ts's, the rest lib/config.ts's.
      expect([...keys].filter((k) => k !== 'stackName' && !(CONFIG_KEYS as string[]).includes(k))).toEqual([]);
    });

    it('every option set synthesises (merged where they do not collide)', () => {
      // The runbook says these are either-or.
      const exclusive = [['rpcUrl', 'rpcUrlSecretName']];
      const groups: { context: Record<string, string>; members: string[] }[] = [];
      for (const d of deploys) {
        const fits = (g: Record<string, string>) =>
          Object.entries(d.context).every(([k, v]) => g[k] === undefined || g[k] === v) &&
          !exclusive.some((pair) => pair.some((a) => a in g && pair.some((b) => b !== a && b in d.context)));
        const group = groups.find((g) => fits(g.context)) ?? groups[groups.push({ context: {}, members: [] }) - 1];
        Object.assign(group.context, d.context);
        group.members.push(d.unit.script);
      }
      expect(groups.length).toBeLessThanOrEqual(4);
      for (const group of groups) {
        try {
          synthGeneration(CDK_CONTEXT, group.context);
        } catch (error) {
          // Name the option set that fails, not only the merged one.
          for (const d of deploys.filter((x) => group.members.includes(x.unit.script))) {
            expect(() => synthGeneration(CDK_CONTEXT, d.context), d.unit.script).not.toThrow();
          }
          throw error;
        }
      }
    });

    it('step 11 through the pinned CDK CLI: the app runs with the staging options, the stack is named and nag finds nothing', async () => {
      expect(cliSynth, 'the runbook has no deploy naming a stackName').toBeDefined();
      const { stdout, outdir } = await cliSynth!;
      expect(stdout.trim().split('\n')).toEqual(['PaycallStaging']);
      const manifest = readFileSync(path.join(outdir, 'manifest.json'), 'utf8');
      expect(manifest).not.toContain('"aws:cdk:error"');
      const staged = JSON.parse(readFileSync(path.join(outdir, 'PaycallStaging.template.json'), 'utf8')) as typeof template;
      // Its metrics and alarms are its own (step 11), and its layer is the one step 2 checks.
      expect(JSON.stringify(staged.Resources)).toContain('Paycall/PaycallStaging');
      expect(Object.values(staged.Parameters).map((p) => p.Default)).toContain(powertoolsParameter);
      expect(readdirSync(outdir)).toContain('PaycallStaging.template.json');
    }, 200_000);

    it('step 2: npx cdk bootstrap takes the environment (the pinned CLI prints its template)', async () => {
      expect(bootstraps).toHaveLength(1);
      const { stdout } = await run('npx', ['cdk', ...bootstraps[0].argv, '--show-template', '--no-notices'], { cwd: ROOT, env: OFFLINE_CDK });
      expect(stdout).toContain('CdkBootstrapVersion');
    });
  });
});
