/**
 * How every function of the stack is built: Node.js 22 (arm64, or x86_64 with the bundled ffmpeg), bundled with
 * local esbuild (no Docker), traced, with AWS's Powertools layer and its own log group; and the record of what each synthesised function runs,
 * which the embedded runtime reads to map the template back to handler entries.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Duration, RemovalPolicy, Size, type Stack } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat, SourceMapMode } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as ssm from 'aws-cdk-lib/aws-ssm';
import { ENV } from '../lambdas/shared/config.js';
import { bundleAliasArgs, bundlePathOf, MAIN_FIELDS, type BundlePath } from './bundling/aliases.js';
import { BUNDLE_EXTERNALS, powertoolsLayerParameter, powertoolsVersion } from './bundling/externals.js';
import type { RouteDef, TaskFunctionDef } from '../lambdas/surfaces/routes.js';
import type { RouteRole } from './function-map.js';

/** A route function's role: lib/roles.ts ROUTE_ROLES lists what each may do. */
export type { RouteRole };

/** What a deployed function runs: the local runner maps synthesised logical ids back to these entries. */
export type FunctionEntry =
  /** `route`: the first route it serves (lib/function-map.ts), whose memory and timeout are the function's. */
  | { kind: 'route'; id: string; entry: string; role: RouteRole; route: RouteDef }
  | { kind: 'task'; id: string; entry: string; task: TaskFunctionDef }
  | { kind: 'authorizer'; id: string; entry: string; task: TaskFunctionDef }
  | { kind: 'sweeper'; id: string; entry: string };

/**
 * Render functions that run ffmpeg (RenderFunctionDef.ffmpeg: the synthesiser encodes audio and video, the video
 * vendors crop a finished 1:1 clip). There is no arm64 ffmpeg installed and no Docker to fetch one, so these run on
 * x86_64 with the static linux-x64 binary that @ffmpeg-installer already put in node_modules, copied into the bundle
 * as bin/ffmpeg (FFMPEG_PATH).
 */
const FFMPEG_SOURCE = 'node_modules/@ffmpeg-installer/linux-x64/ffmpeg';
const FFMPEG_LAMBDA_PATH = '/var/task/bin/ffmpeg';

export interface FunctionFactoryOptions {
  projectRoot: string;
  logRetention: logs.RetentionDays;
  /** Inline placeholders for missing entry files (assertion tests only). */
  allowMissingEntries?: boolean;
}

export class FunctionFactory {
  /** Functions by route/task id (and the sweeper's id). */
  readonly functions: Record<string, NodejsFunction> = {};
  /** Synthesised logical id of each AWS::Lambda::Function → what it runs. */
  readonly entries: Record<string, FunctionEntry> = {};

  private powertools?: lambda.ILayerVersion;

  constructor(
    private readonly stack: Stack,
    private readonly options: FunctionFactoryOptions,
  ) {}

  /**
   * The same factory building into another stack (a surface's nested stack): one record of functions and entries
   * for the whole service, and the core stack's Powertools layer, so the layer's SSM parameter is resolved once, by
   * the core stack, and handed down as a plain parameter.
   */
  forStack(stack: Stack): FunctionFactory {
    const other = new FunctionFactory(stack, this.options);
    Object.assign(other, { functions: this.functions, entries: this.entries });
    other.powertools = this.powertoolsLayer();
    return other;
  }

  /**
   * AWS's Powertools layer at the installed version (lib/bundling/externals.ts, docs/decisions/0022): its ARN in the
   * stack's region is the value of AWS's public SSM parameter for that version, resolved by CloudFormation at deploy.
   */
  private powertoolsLayer(): lambda.ILayerVersion {
    this.powertools ??= lambda.LayerVersion.fromLayerVersionArn(
      this.stack,
      'PowertoolsLayer',
      ssm.StringParameter.valueForStringParameter(this.stack, powertoolsLayerParameter(powertoolsVersion(this.options.projectRoot))),
    );
    return this.powertools;
  }

  make(
    id: string,
    def: { entry: string; timeoutSeconds?: number; memoryMb?: number },
    environment: Record<string, string>,
    entry: FunctionEntry,
    withFfmpeg = false,
    limits: { reservedConcurrency?: number; functionName?: string } = {},
  ): NodejsFunction {
    const logGroup = new logs.LogGroup(this.stack, `${id}Logs`, { retention: this.options.logRetention, removalPolicy: RemovalPolicy.DESTROY });
    const entryPath = path.join(this.options.projectRoot, def.entry);
    const placeholder = this.options.allowMissingEntries && !existsSync(entryPath);
    const fn = new NodejsFunction(this.stack, id, {
      description: `${entry.kind} ${id} (${def.entry})`,
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: withFfmpeg ? lambda.Architecture.X86_64 : lambda.Architecture.ARM_64,
      memorySize: def.memoryMb ?? 256,
      // Encoding works in /tmp (see lambdas/render/local/workdir.ts).
      ...(withFfmpeg ? { ephemeralStorageSize: Size.gibibytes(2) } : {}),
      timeout: Duration.seconds(def.timeoutSeconds ?? 10),
      ...(limits.reservedConcurrency !== undefined ? { reservedConcurrentExecutions: limits.reservedConcurrency } : {}),
      ...(limits.functionName !== undefined ? { functionName: limits.functionName } : {}),
      tracing: lambda.Tracing.ACTIVE,
      // The Powertools packages every bundle leaves out (lib/bundling/externals.ts).
      layers: [this.powertoolsLayer()],
      logGroup,
      environment: { ...environment, ...(withFfmpeg ? { [ENV.ffmpegPath]: FFMPEG_LAMBDA_PATH } : {}) },
      projectRoot: this.options.projectRoot,
      depsLockFilePath: path.join(this.options.projectRoot, 'package-lock.json'),
      ...(placeholder ? placeholderCode(def.entry) : { entry: entryPath, handler: 'handler', bundling: bundling(withFfmpeg, this.options.projectRoot, bundlePathOf(entry.kind)) }),
    });
    this.functions[id] = fn;
    this.entries[this.stack.getLogicalId(fn.node.defaultChild as lambda.CfnFunction)] = entry;
    return fn;
  }
}

function placeholderCode(entry: string) {
  return {
    code: lambda.Code.fromInline(`exports.handler = async () => { throw new Error('placeholder: ${entry} was missing at synth'); };`),
    handler: 'index.handler',
  };
}

function bundling(withFfmpeg: boolean, projectRoot: string, bundlePath: BundlePath) {
  return {
    minify: true,
    sourceMap: true,
    sourceMapMode: SourceMapMode.DEFAULT,
    sourcesContent: false,
    target: 'node22',
    format: OutputFormat.ESM,
    // ES module builds first (lib/bundling/aliases.ts), as the bench and the bundle tests build.
    mainFields: MAIN_FIELDS,
    // ESM bundles of CommonJS dependencies still call require(): give them one.
    banner: "import { createRequire as __paycallCreateRequire } from 'node:module'; const require = __paycallCreateRequire(import.meta.url);",
    // The runtime ships AWS SDK v3 and the Powertools layer the rest (lib/bundling/externals.ts).
    externalModules: [...BUNDLE_EXTERNALS],
    // Stand-ins for what a buyer-path function never calls; none for a task or the sweeper (lib/bundling/aliases.ts).
    esbuildArgs: bundleAliasArgs(projectRoot, bundlePath),
    ...(withFfmpeg ? { commandHooks: ffmpegHooks() } : {}),
  };
}

function ffmpegHooks() {
  return {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (inputDir: string, outputDir: string) => [
      `test -x "${inputDir}/${FFMPEG_SOURCE}" || { echo "${FFMPEG_SOURCE} is missing: run npm ci (it ships the linux-x64 ffmpeg)" >&2; exit 1; }`,
      `mkdir -p "${outputDir}/bin"`,
      `cp "${inputDir}/${FFMPEG_SOURCE}" "${outputDir}/bin/ffmpeg"`,
      `chmod 755 "${outputDir}/bin/ffmpeg"`,
    ],
  };
}
