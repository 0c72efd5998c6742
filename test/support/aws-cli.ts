/**
 * The AWS CLI without an AWS account: the CLI (v1) and botocore's service models that aws-cdk-lib ships as an npm
 * package (@aws-cdk/asset-awscli-v1, the layer of its AwsCustomResource), run by python3 with every API call
 * answered by a canned response (test/support/aws-cli.py). A command gets the real CLI's checks: the service and
 * operation exist, every option is one of the operation's (spelled in full), required ones are given, values parse
 * (JSON, shorthand, timestamps, lengths, types), `--query` compiles and applies to the canned answer.
 *
 * The CLI is v1; operators run v2. The runbook's commands are common to both except v2's `--cli-binary-format`,
 * whose value `raw-in-base64-out` asks v2 for what v1 always does (a blob argument is raw bytes): it is dropped here.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');

export interface AwsCliResult {
  code: number;
  stdout: string;
  stderr: string;
  calls: { service: string; operation: string; params: Record<string, unknown> }[];
}

export interface AwsCliJob {
  argv: string[];
  /** Canned answers by operation name (`GetParameter`); an operation without one answers `{}`. */
  responses?: Record<string, unknown>;
}

/** The CLI's package, unpacked once per version under node_modules/.cache; returns the directory python imports from. */
async function cliHome(): Promise<string> {
  const fromCdkLib = createRequire(createRequire(import.meta.url).resolve('aws-cdk-lib'));
  const packageJson = fromCdkLib.resolve('@aws-cdk/asset-awscli-v1/package.json');
  const { version } = JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string };
  const home = path.join(ROOT, 'node_modules', '.cache', 'paycall-awscli', version);
  if (!existsSync(path.join(home, 'awscli', 'awscli', 'clidriver.py'))) {
    mkdirSync(path.dirname(home), { recursive: true });
    const unpacking = mkdtempSync(`${home}.unpacking-`);
    try {
      await run('python3', ['-m', 'zipfile', '-e', path.join(path.dirname(packageJson), 'lib', 'layer.zip'), unpacking]);
      // Another worker may have finished first: its copy is the same.
      if (!existsSync(home)) renameSync(unpacking, home);
    } finally {
      rmSync(unpacking, { recursive: true, force: true });
    }
  }
  return path.join(home, 'awscli');
}

export function dropV2Options(argv: string[]): string[] {
  const i = argv.indexOf('--cli-binary-format');
  if (i < 0) return argv;
  if (argv[i + 1] !== 'raw-in-base64-out') throw new Error(`--cli-binary-format ${argv[i + 1]}: only raw-in-base64-out is v1's own behaviour`);
  return [...argv.slice(0, i), ...argv.slice(i + 2)];
}

/** Runs the jobs in one python process (the CLI takes about a second to start, a command then a few milliseconds). */
export async function runAwsCli(jobs: AwsCliJob[]): Promise<AwsCliResult[]> {
  const pythonPath = await cliHome();
  const dir = mkdtempSync(path.join(tmpdir(), 'aws-cli-'));
  try {
    const input = path.join(dir, 'jobs.json');
    const output = path.join(dir, 'results.json');
    writeFileSync(input, JSON.stringify(jobs.map((j) => ({ ...j, argv: dropV2Options(j.argv) }))));
    await run('python3', [path.join(import.meta.dirname, 'aws-cli.py'), input, output], {
      cwd: dir,
      timeout: 120_000,
      env: {
        PATH: process.env.PATH,
        PYTHONPATH: pythonPath,
        HOME: dir,
        // Never the machine's own configuration or credentials, and never a metadata endpoint: nothing leaves here.
        AWS_CONFIG_FILE: path.join(dir, 'none'),
        AWS_SHARED_CREDENTIALS_FILE: path.join(dir, 'none'),
        AWS_ACCESS_KEY_ID: 'AKIAEXAMPLEEXAMPLE00',
        AWS_SECRET_ACCESS_KEY: 'example-secret-access-key',
        AWS_DEFAULT_REGION: 'us-east-1',
        AWS_EC2_METADATA_DISABLED: 'true',
      },
    });
    return JSON.parse(readFileSync(output, 'utf8')) as AwsCliResult[];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
