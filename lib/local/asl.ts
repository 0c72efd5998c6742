/**
 * The single source of the embedded runtime's state machines and tables: the CDK stack (lib/paycall-stack.ts),
 * synthesised in-process with bundling skipped, read back from the CloudFormation template. Never a hand copy.
 *
 * Synthesis costs ~5 s (about 1 s to import aws-cdk-lib, ~4 s to build and synthesise the stack), so the result is
 * cached as JSON under `cacheDir`, keyed by a hash of everything that shapes it (lib/*.ts, this file, cdk.json, the
 * catalog and ENV names, the aws-cdk-lib version). A cache hit never imports aws-cdk-lib.
 */
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ProductId } from '../../lambdas/products/catalog.js';
import type { FunctionEntry } from '../paycall-stack.js';
import { WORKFLOW_TASKS, type TaskFunctionDef } from '../../lambdas/surfaces/routes.js';
import { RENDER_FUNCTIONS } from '../../lambdas/workflow/render-functions.js';
import type { PolicyStatement } from './iam/policy.js';
import { WEBHOOK_MACHINE_ENV } from '../../lambdas/shared/config.js';
import { flattenNested, type CfnTemplate } from '../nested-templates.js';

const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const LOCAL_REGION = 'local';
export const LOCAL_ACCOUNT = '000000000000';
/** The local stand-in for the stack's asset bucket (on AWS CloudFormation names it). */
export const LOCAL_ASSETS_BUCKET = 'paycall-assets';
/** Used only so the template needs no SSM lookup; the embedded runtime sets its own PAY_TO_ADDRESS. */
const PLACEHOLDER_PAY_TO = '0x0000000000000000000000000000000000000001';
const CACHE_FORMAT = 8;
/** The token issuer configuration of the local synthesis (the values are the local issuer's, set at run time). */
const LOCAL_TOKEN_CONFIG = {
  tokenIssuer: 'local',
  tokenJwksUrl: 'https://issuer.local/.well-known/jwks.json',
  tokenChargeUrl: 'https://issuer.local/charge',
  tokenSellerId: 'local',
};

/** ASL as synthesised (JSONPath). */
export interface AslDefinition {
  StartAt: string;
  States: Record<string, Record<string, unknown> & { Type: string }>;
  TimeoutSeconds?: number;
  Comment?: string;
  [key: string]: unknown;
}

export interface LocalStateMachine {
  product: ProductId;
  /** Local name, e.g. `MusicWorkflow` (on AWS CloudFormation generates one). */
  name: string;
  /** `arn:aws:states:local:000000000000:stateMachine:<name>` */
  stateMachineArn: string;
  /** Logical id of the AWS::StepFunctions::StateMachine. */
  logicalId: string;
  /** Environment variable the functions read this machine's ARN from (e.g. MUSIC_STATE_MACHINE_ARN). */
  envVar: string;
  /** The ASL, Lambda ARNs replaced by `arn:aws:lambda:local:000000000000:function:<TaskId>`. */
  definition: AslDefinition;
  /** Task state name → the WORKFLOW_TASKS or RENDER_FUNCTIONS entry whose handler runs it. */
  taskStates: Record<string, TaskFunctionDef>;
  /** Task state name → entry file (project-relative) exporting `handler`; same mapping as taskStates. */
  taskEntries: Record<string, string>;
}

export interface LocalTableDefinition {
  logicalId: string;
  /** Environment variable holding this table's name (e.g. JOBS_TABLE), read from the functions' environments. */
  envName: string;
  keySchema: { AttributeName: string; KeyType: 'HASH' | 'RANGE' }[];
  attributeDefinitions: { AttributeName: string; AttributeType: 'S' | 'N' | 'B' }[];
  /** PAY_PER_REQUEST for every table today. */
  billingMode: string | undefined;
  /** TTL attribute name when TTL is enabled (`expiresAt`). */
  ttlAttribute: string | undefined;
  globalSecondaryIndexes?: unknown[];
  localSecondaryIndexes?: unknown[];
}

export interface LocalDefinitions {
  /** Hash of the inputs this was synthesised from (the cache key). */
  hash: string;
  synthesizedAt: string;
  /** Milliseconds the synthesis took (0 on a cache hit is never stored: this is the original cost). */
  synthMs: number;
  stateMachines: Record<ProductId, LocalStateMachine>;
  /** The webhook delivery machine (docs/decisions/0018, lib/webhook-workflow.ts). */
  webhookMachine: Omit<LocalStateMachine, 'product'>;
  tables: LocalTableDefinition[];
  /** Function logical id → what it runs (route / task / sweeper). */
  functions: Record<string, FunctionEntry>;
  /** Function id (route / task / sweeper id) → its execution role's statements, resolved to local ARNs. */
  policies: Record<string, PolicyStatement[]>;
  /**
   * Function id → the environment its template gives it: each variable's literal value, or null where the value is
   * a reference (a table name, a state machine ARN, an SSM parameter), which the embedded runtime supplies locally.
   */
  environments: Record<string, Record<string, string | null>>;
  /** Function id → its reserved concurrency, where the template sets one (ReservedConcurrentExecutions > 0). */
  reservedConcurrency: Record<string, number>;
  /** What the local resources are called: tables by environment variable (JOBS_TABLE → `jobs`), the asset bucket. */
  localNames: { tables: Record<string, string>; assetsBucket: string };
}

export interface SynthesizeForLocalOptions {
  /** Directory for the JSON cache (created if missing). No caching without it. */
  cacheDir?: string;
  /** Extra CDK context (the render providers chosen for this run); part of the cache key. */
  context?: Record<string, string>;
}

export function localLambdaArn(taskId: string): string {
  return `arn:aws:lambda:${LOCAL_REGION}:${LOCAL_ACCOUNT}:function:${taskId}`;
}

export function localStateMachineArn(name: string): string {
  return `arn:aws:states:${LOCAL_REGION}:${LOCAL_ACCOUNT}:stateMachine:${name}`;
}

/** Local DynamoDB table name of the table whose name a function reads from `envName`: JOBS_TABLE → `jobs`. */
export function localTableName(envName: string): string {
  return envName.toLowerCase().replace(/_table$/, '');
}

export function localTableArn(tableName: string): string {
  return `arn:aws:dynamodb:${LOCAL_REGION}:${LOCAL_ACCOUNT}:table/${tableName}`;
}

/** A secret's local ARN: Secrets Manager appends `-` and 6 random characters, which grants match as `-??????`. */
export function localSecretArn(name: string): string {
  return `arn:aws:secretsmanager:${LOCAL_REGION}:${LOCAL_ACCOUNT}:secret:${name}-local0`;
}

/** Everything whose content shapes the result. */
async function inputsHash(extraContext: Record<string, string>): Promise<string> {
  const hash = createHash('sha256');
  hash.update(`format:${CACHE_FORMAT}\n`);
  hash.update(`context:${JSON.stringify(Object.entries(extraContext).sort())}\n`);
  const libDir = path.join(PROJECT_ROOT, 'lib');
  const libFiles = (await readdir(libDir)).filter((f) => f.endsWith('.ts')).sort();
  const files = [
    ...libFiles.map((f) => path.join('lib', f)),
    'lib/local/asl.ts',
    'lib/local/iam/template.ts',
    'cdk.json',
    'lambdas/products/catalog.ts',
    'lambdas/shared/config.ts',
    'lambdas/render/providers.ts',
    'lambdas/surfaces/routes.ts',
    'lambdas/workflow/render-functions.ts',
    'lambdas/surfaces/surface.ts',
    'lambdas/payments/token/config.ts',
    'node_modules/aws-cdk-lib/package.json',
  ];
  for (const rel of files) {
    hash.update(`${rel}\n`);
    try {
      const text = await readFile(path.join(PROJECT_ROOT, rel), 'utf8');
      // Only the version of aws-cdk-lib matters, not the rest of its package.json.
      hash.update(rel.endsWith('aws-cdk-lib/package.json') ? String(JSON.parse(text).version) : text);
    } catch {
      hash.update('<missing>');
    }
    hash.update('\n');
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * The local state machines and tables, synthesised from the CDK stack (or read from the cache).
 */
export async function synthesizeForLocal(
  cacheDirOrOptions: string | SynthesizeForLocalOptions = {},
): Promise<LocalDefinitions> {
  const options = typeof cacheDirOrOptions === 'string' ? { cacheDir: cacheDirOrOptions } : cacheDirOrOptions;
  const extraContext = options.context ?? {};
  const hash = await inputsHash(extraContext);
  const cacheFile = options.cacheDir ? path.join(options.cacheDir, `local-definitions-${hash}.json`) : undefined;
  if (cacheFile) {
    try {
      const cached = JSON.parse(await readFile(cacheFile, 'utf8')) as LocalDefinitions;
      if (cached.hash === hash) return cached;
    } catch {
      // miss
    }
  }

  const definitions = await synthesize(hash, extraContext);

  if (cacheFile && options.cacheDir) {
    await mkdir(options.cacheDir, { recursive: true });
    const tmp = `${cacheFile}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(tmp, JSON.stringify(definitions, null, 2));
    await rename(tmp, cacheFile);
    // Drop stale entries.
    for (const f of await readdir(options.cacheDir)) {
      if (f.startsWith('local-definitions-') && f.endsWith('.json') && f !== path.basename(cacheFile)) {
        await unlink(path.join(options.cacheDir, f)).catch(() => undefined);
      }
    }
  }
  return definitions;
}

type CfnResource = { Type: string; Properties?: Record<string, any> };

async function synthesize(hash: string, extraContext: Record<string, string>): Promise<LocalDefinitions> {
  const started = performance.now();
  const [{ App }, { PaycallStack, STATE_MACHINE_ENV }, { readCdkJsonContext }, { functionPolicies }] = await Promise.all([
    import('aws-cdk-lib'),
    import('../paycall-stack.js'),
    import('../config.js'),
    import('./iam/template.js'),
  ]);

  const outdir = await mkdtemp(path.join(os.tmpdir(), 'paycall-local-synth-'));
  try {
    const context = {
      ...(await readCdkJsonContext(PROJECT_ROOT)),
      'aws:cdk:bundling-stacks': [],
      payTo: PLACEHOLDER_PAY_TO,
      ...extraContext,
    };
    const app = new App({ outdir, context });
    // Tokens on, as the embedded runtime runs an issuer: the paid routes' template then carries the TOKEN_*
    // variables and the seller-key grant, which the local issuer's values stand in for.
    const stack = new PaycallStack(app, 'PaycallLocal', { allowMissingEntries: true, config: LOCAL_TOKEN_CONFIG });
    const assembly = app.synth();
    // The core template with each surface's nested template folded in (lib/nested-templates.ts): a route function's
    // policy then names the core's tables and machines as the core template does.
    const core = assembly.getStackByName(stack.stackName).template as CfnTemplate;
    const nested = Object.fromEntries(
      await Promise.all(
        stack.surfaceStacks.map(async (s) => [
          stack.getLogicalId(s.nestedStackResource as import('aws-cdk-lib').CfnElement),
          JSON.parse(await readFile(path.join(assembly.directory, s.templateFile), 'utf8')) as CfnTemplate,
        ]),
      ),
    );
    const resources = flattenNested(core, nested).Resources as Record<string, CfnResource>;

    // Function logical id → fake local ARN (task id), for the Fn::GetAtt tokens in the ASL.
    const functionArns = new Map<string, string>();
    for (const [logicalId, entry] of Object.entries(stack.functionEntries)) {
      functionArns.set(logicalId, localLambdaArn(entry.id));
    }

    // Environment variable name that references each resource ({Ref: logicalId}) in any function.
    const envVarOf = new Map<string, string>();
    for (const res of Object.values(resources)) {
      if (res.Type !== 'AWS::Lambda::Function') continue;
      const vars = (res.Properties?.Environment?.Variables ?? {}) as Record<string, unknown>;
      for (const [name, value] of Object.entries(vars)) {
        const ref = (value as { Ref?: unknown } | null)?.Ref;
        if (typeof ref === 'string' && !envVarOf.has(ref)) envVarOf.set(ref, name);
      }
    }

    const resolve = (value: unknown): string => {
      if (typeof value === 'string') return value;
      const v = value as Record<string, any>;
      if (v && 'Fn::Join' in v) {
        const [sep, parts] = v['Fn::Join'] as [string, unknown[]];
        return parts.map(resolve).join(sep);
      }
      if (v && 'Fn::GetAtt' in v) {
        const [logicalId, attr] = v['Fn::GetAtt'] as [string, string];
        const arn = functionArns.get(logicalId);
        if (attr === 'Arn' && arn) return arn;
        throw new Error(`synthesizeForLocal: cannot resolve Fn::GetAtt ${logicalId}.${attr} in a state machine definition`);
      }
      if (v && 'Ref' in v) {
        switch (v.Ref) {
          case 'AWS::Partition':
            return 'aws';
          case 'AWS::Region':
            return LOCAL_REGION;
          case 'AWS::AccountId':
            return LOCAL_ACCOUNT;
          case 'AWS::URLSuffix':
            return 'amazonaws.com';
        }
      }
      throw new Error(`synthesizeForLocal: unsupported token in a state machine definition: ${JSON.stringify(value)}`);
    };

    const taskById = new Map<string, TaskFunctionDef>([...WORKFLOW_TASKS, ...RENDER_FUNCTIONS].map((t) => [t.id, t]));
    const localMachine = (machine: import('aws-cdk-lib/aws-stepfunctions').StateMachine, fallbackEnv: string) => {
      const logicalId = stack.getLogicalId(machine.node.defaultChild as import('aws-cdk-lib').CfnElement);
      const props = resources[logicalId]?.Properties;
      if (!props) throw new Error(`synthesizeForLocal: state machine ${logicalId} not in the template`);
      const definition = JSON.parse(resolve(props.DefinitionString)) as AslDefinition;

      const taskStates: Record<string, TaskFunctionDef> = {};
      for (const [stateName, state] of Object.entries(definition.States)) {
        if (state.Type !== 'Task') continue;
        const resource = String(state.Resource);
        const taskId = resource.startsWith(localLambdaArn('')) ? resource.slice(localLambdaArn('').length) : undefined;
        const task = taskId ? taskById.get(taskId) : undefined;
        if (!task) throw new Error(`synthesizeForLocal: task state "${stateName}" runs ${resource}, not a WORKFLOW_TASKS or RENDER_FUNCTIONS entry`);
        taskStates[stateName] = task;
      }

      const name = machine.node.scope!.node.id; // MusicWorkflow / VideoWorkflow / ImageWorkflow / WebhookWorkflow
      return {
        name,
        stateMachineArn: localStateMachineArn(name),
        logicalId,
        envVar: envVarOf.get(logicalId) ?? fallbackEnv,
        definition,
        taskStates,
        taskEntries: Object.fromEntries(Object.entries(taskStates).map(([stateName, t]) => [stateName, t.entry])),
      };
    };
    const stateMachines = {} as Record<ProductId, LocalStateMachine>;
    for (const [product, machine] of Object.entries(stack.stateMachines) as [ProductId, (typeof stack.stateMachines)[ProductId]][]) {
      stateMachines[product] = { product, ...localMachine(machine, STATE_MACHINE_ENV[product]) };
    }
    const webhookMachine = localMachine(stack.webhookMachine, WEBHOOK_MACHINE_ENV);

    const tables: LocalTableDefinition[] = [];
    for (const [logicalId, res] of Object.entries(resources)) {
      if (res.Type !== 'AWS::DynamoDB::Table') continue;
      const p = res.Properties ?? {};
      const envName = envVarOf.get(logicalId);
      if (!envName) throw new Error(`synthesizeForLocal: no function environment variable references table ${logicalId}`);
      tables.push({
        logicalId,
        envName,
        keySchema: p.KeySchema,
        attributeDefinitions: p.AttributeDefinitions,
        billingMode: p.BillingMode,
        ttlAttribute: p.TimeToLiveSpecification?.Enabled ? p.TimeToLiveSpecification.AttributeName : undefined,
        ...(p.GlobalSecondaryIndexes ? { globalSecondaryIndexes: p.GlobalSecondaryIndexes } : {}),
        ...(p.LocalSecondaryIndexes ? { localSecondaryIndexes: p.LocalSecondaryIndexes } : {}),
      });
    }

    // Each function's policy, every resource named as the embedded runtime names it.
    const localTables = Object.fromEntries(tables.map((t) => [t.envName, localTableName(t.envName)]));
    const policies = functionPolicies(resources, stack.functionEntries, {
      region: LOCAL_REGION,
      account: LOCAL_ACCOUNT,
      tables: Object.fromEntries(tables.map((t) => [t.logicalId, localTableName(t.envName)])),
      stateMachines: Object.fromEntries([...Object.values(stateMachines), webhookMachine].map((m) => [m.logicalId, m.stateMachineArn])),
      buckets: { [stack.getLogicalId(stack.assetsBucket.node.defaultChild as import('aws-cdk-lib').CfnElement)]: LOCAL_ASSETS_BUCKET },
      functions: Object.fromEntries(functionArns),
    });

    return {
      hash,
      synthesizedAt: new Date().toISOString(),
      synthMs: Math.round(performance.now() - started),
      stateMachines,
      webhookMachine,
      tables,
      functions: { ...stack.functionEntries },
      policies,
      environments: Object.fromEntries(
        Object.entries(stack.functionEntries).map(([logicalId, entry]) => {
          const vars = (resources[logicalId]?.Properties?.Environment?.Variables ?? {}) as Record<string, unknown>;
          return [entry.id, Object.fromEntries(Object.entries(vars).map(([name, value]) => [name, typeof value === 'string' ? value : null]))];
        }),
      ),
      reservedConcurrency: Object.fromEntries(
        Object.entries(stack.functionEntries).flatMap(([logicalId, entry]) => {
          const reserved = resources[logicalId]?.Properties?.ReservedConcurrentExecutions;
          return typeof reserved === 'number' && reserved > 0 ? [[entry.id, reserved]] : [];
        }),
      ),
      localNames: { tables: localTables, assetsBucket: LOCAL_ASSETS_BUCKET },
    };
  } finally {
    await rm(outdir, { recursive: true, force: true });
  }
}
