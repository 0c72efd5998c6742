/**
 * One surface of the service in a nested stack of its own (aws-cdk-lib NestedStack): its HTTP API, its route
 * functions and their integrations, their alarms, and its edge distribution or custom domain when configured. The
 * core stack (lib/paycall-stack.ts) keeps everything that holds state or money and hands a surface what it needs as
 * props; CDK turns each reference to a core resource into a parameter of the nested template.
 *
 * Why: one template holding both surfaces came near CloudFormation's 500 resources per stack; a surface's share
 * grows with its routes, the core's does not.
 *
 * The sign-in authorizer stays in the core stack and is named here by its ARN, built from its fixed name rather than
 * referenced: with the edge, the authorizer's environment names this stack's distribution, so a reference back to it
 * would be a dependency cycle between the two stacks. Its invoke permission is the core stack's (lib/paycall-stack.ts).
 */
import { createHash } from 'node:crypto';
import { ArnFormat, NestedStack, Stack, type NestedStackProps } from 'aws-cdk-lib';
import type * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { ENV } from '../lambdas/shared/config.js';
import type { Surface } from '../lambdas/surfaces/surface.js';
import { SIGN_IN_AUTHORIZER } from '../lambdas/surfaces/routes.js';
import { pascal, type Alarms } from './alarms.js';
import { createApiDomain, importCertificate, type CustomDomain } from './custom-domain.js';
import { createEdgeDistribution, type EdgeShared } from './edge.js';
import type { RouteFunction } from './function-map.js';
import type { FunctionFactory } from './functions.js';
import { SurfaceApi } from './surface-api.js';

/** The construct id of a surface's nested stack: GenerationSurface, AgentsSurface. */
export function surfaceStackId(surface: string): string {
  return `${pascal(surface)}Surface`;
}

/**
 * The sign-in authorizer's function name: fixed, so a surface's stack names it without a reference. The stack's name
 * keeps two stacks of an account apart; a long one is cut and made unique again by a hash (Lambda allows 64).
 */
export function authorizerName(stackName: string): string {
  const name = `${stackName}-${SIGN_IN_AUTHORIZER.id}`;
  if (name.length <= 64) return name;
  const hash = createHash('sha256').update(stackName).digest('hex').slice(0, 8);
  return `${stackName.slice(0, 64 - SIGN_IN_AUTHORIZER.id.length - hash.length - 2)}-${hash}-${SIGN_IN_AUTHORIZER.id}`;
}

export interface SurfaceStackProps extends NestedStackProps {
  surface: Surface;
  /** Its slice of the function map (lib/function-map.ts). */
  routeFunctions: RouteFunction[];
  /** The core stack's factory: this stack's functions join the one record of the service's functions. */
  functions: FunctionFactory;
  environment: Record<string, string>;
  bind: (fn: lambda.Function, routeFunction: RouteFunction) => void;
  /** The core stack's sign-in authorizer, by its fixed name (not a reference: see above). */
  signInAuthorizerName: string;
  throttle: { rateLimit: number; burstLimit: number };
  logRetention: logs.RetentionDays;
  alarms: Alarms;
  /** The surface's custom domain (lib/custom-domain.ts), when configured. */
  domain?: CustomDomain;
  /** The edge's shared parts, with `edge=cloudfront-waf`: this surface then gets a distribution of its own. */
  edge?: EdgeShared;
  /** True when publicBaseUrl or the custom domain already names the surface's base URL (the edge's URL then is not). */
  pinned: boolean;
  /** The core stack's name (a nested stack's own name is a token CloudFormation makes up). */
  coreStackName: string;
  /** Where the surface's outputs go (the core stack: an operator reads the core stack's outputs). */
  outputs: Construct;
}

export class SurfaceStack extends NestedStack {
  readonly surfaceApi: SurfaceApi;
  /** The edge's distribution of this surface, with the edge. */
  readonly edgeDistribution?: { distribution: cloudfront.Distribution; url: string };

  constructor(scope: Construct, id: string, props: SurfaceStackProps) {
    super(scope, id, { description: `${props.coreStackName}: the ${props.surface.id} surface (its API, route functions and alarms)`, ...props });
    const { surface } = props;
    const authorizerArn = Stack.of(this).formatArn({ service: 'lambda', resource: 'function', resourceName: props.signInAuthorizerName, arnFormat: ArnFormat.COLON_RESOURCE_NAME });
    const signInAuthorizer = lambda.Function.fromFunctionAttributes(this, 'SignInAuthorizerFunction', { functionArn: authorizerArn, sameEnvironment: true, skipPermissions: true });
    const surfaceApi = (this.surfaceApi = new SurfaceApi(this, {
      surface,
      routeFunctions: props.routeFunctions,
      functions: props.functions.forStack(this),
      environment: props.environment,
      bind: props.bind,
      signInAuthorizer,
      throttle: props.throttle,
      logRetention: props.logRetention,
      outputs: props.outputs,
    }));
    const { prefix, api } = surfaceApi;
    // With the edge, the domain names the distribution instead, so its calls pass the web ACL.
    if (props.domain && !props.edge) createApiDomain(this, prefix, api, props.domain, props.outputs);
    if (props.edge) {
      const domain = props.domain ? { name: props.domain.name, certificate: importCertificate(this, prefix, props.domain) } : undefined;
      const edge = (this.edgeDistribution = createEdgeDistribution(this, props.edge, { prefix, api, domain }, `${props.coreStackName} ${prefix || 'Generation'} API edge`));
      for (const fn of surfaceApi.functions) {
        if (!props.pinned) fn.addEnvironment(surface.baseUrlEnv, edge.url);
        fn.addEnvironment(ENV.edgeOriginToken, props.edge.originToken);
      }
    }
    props.alarms.apiAlarm(this, surface.id, api);
    for (const fn of surfaceApi.functions) props.alarms.functionAlarm(this, fn.node.id, fn, new Set([surface.id]));
  }
}
