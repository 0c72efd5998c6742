/**
 * One HTTP API per surface (lambdas/surfaces/surface.ts), with one route per entry of the route table's slice for that
 * surface and one function per entry of the function map's (lib/function-map.ts). Route access is least privilege: the
 * caller binds each function to its role (lib/roles.ts).
 *
 * API Gateway path parameters take a whole segment, so a route template with a literal beside its parameter
 * (`/tasks/{taskId}:cancel`) is registered with the parameter alone and the handler matches the full template
 * with lambdas/surfaces/routes.ts matchPath, as the local gateway does. Routes that share a function get one
 * function and one integration; two of them with the same route key (`tasks/{taskId}` and `tasks/{taskId}:cancel`)
 * are one API Gateway route.
 */
import { CfnOutput, Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { HttpLambdaAuthorizer, HttpLambdaResponseType } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import type { SurfaceId } from '../lambdas/surfaces/routes.js';
import type { Surface } from '../lambdas/surfaces/surface.js';
import type { FunctionFactory } from './functions.js';
import { surfacePrefix, type RouteFunction } from './function-map.js';
import { CORS_POLICY } from './cors.js';
import { SURFACE_STAGE_VARIABLE } from '../lambdas/sign-in/context.js';
import { SIGN_IN_IDENTITY_SOURCES } from './sign-in-authorizer.js';

export interface SurfaceApiProps {
  surface: Surface;
  /** Its slice of the stack's function map (lib/function-map.ts routeFunctions of the stack's route table). */
  routeFunctions: RouteFunction[];
  functions: FunctionFactory;
  /** Environment of every route function of this surface (its role's comes with its grants). */
  environment: Record<string, string>;
  /** Grants a route function its role and the settings that go with it (lib/role-binder.ts). */
  bind: (fn: lambda.Function, routeFunction: RouteFunction) => void;
  /** The sign-in authorizer's function (lambdas/http/sign-in-authorizer.ts), run before every `signIn` route. */
  signInAuthorizer?: lambda.IFunction;
  /** Stage throttling of every route (requests per second, burst). */
  throttle: { rateLimit: number; burstLimit: number };
  logRetention: logs.RetentionDays;
  /** Where its `<prefix>ApiUrl` output goes (default: `scope`). */
  outputs?: Construct;
}

/** The access log line of every request (JSON): who, what, how it ended, and how long the function took. */
const ACCESS_LOG_FORMAT = JSON.stringify({
  requestId: '$context.requestId',
  ip: '$context.identity.sourceIp',
  time: '$context.requestTimeEpoch',
  method: '$context.httpMethod',
  path: '$context.path',
  routeKey: '$context.routeKey',
  status: '$context.status',
  responseLength: '$context.responseLength',
  latencyMs: '$context.responseLatency',
  integrationLatencyMs: '$context.integrationLatency',
  integrationError: '$context.integrationErrorMessage',
});

/** The API Gateway route path of a template: `{param}:suffix` segments become `{param}`. */
export function gatewayPath(path: string): string {
  return path.replace(/[^/{}]*(\{[A-Za-z_][A-Za-z0-9_]*\})[^/{}]*/g, '$1');
}

export class SurfaceApi {
  readonly api: apigwv2.HttpApi;
  /** The surface it serves (lib/monitoring.ts names its 5xx alarm after it). */
  readonly surface: SurfaceId;
  /** '' for the generation surface, else the PascalCase surface id that prefixes its construct ids. */
  readonly prefix: string;
  /** The route functions of this API (one per shared entry). */
  readonly functions: lambda.Function[] = [];

  /** Construct ids stay those of the first surface's resources (`HttpApi`, `ApiUrl`); other surfaces are prefixed. */
  constructor(scope: Construct, props: SurfaceApiProps) {
    const { surface } = props;
    this.surface = surface.id;
    const prefix = (this.prefix = surfacePrefix(surface.id));
    this.api = new apigwv2.HttpApi(scope, `${prefix}HttpApi`, { description: surface.description, createDefaultStage: true, corsPreflight: corsPreflight() });
    // One authorizer per API (CDK binds an authorizer to one API), all of the one function: payload 2.0, simple
    // responses, never cached (a sign-in's nonce is used once: a cached answer would accept a replay), and an identity
    // source every request to its routes carries (lib/sign-in-authorizer.ts), so API Gateway never answers 401 for it.
    const signIn = props.signInAuthorizer
      ? new HttpLambdaAuthorizer(`${prefix}SignInAuthorizer`, props.signInAuthorizer, {
          responseTypes: [HttpLambdaResponseType.SIMPLE],
          resultsCacheTtl: Duration.seconds(0),
          identitySource: [...SIGN_IN_IDENTITY_SOURCES],
        })
      : undefined;
    const keys = new Map<string, string>();
    for (const routeFunction of props.routeFunctions) {
      const { id, routes } = routeFunction;
      const fn = props.functions.make(id, routeFunction, props.environment, { kind: 'route', id, entry: routeFunction.entry, role: routeFunction.role, route: routes[0] });
      props.bind(fn, routeFunction);
      this.functions.push(fn);
      // A shared function is invoked by any route of this API (one permission, not one per route).
      const integration = new HttpLambdaIntegration(`${id}Integration`, fn, routes.length > 1 ? { scopePermissionToRoute: false } : {});
      for (const route of routes) {
        const key = `${route.method} ${gatewayPath(route.path)}`;
        const owner = keys.get(key);
        if (owner !== undefined && owner !== id) throw new Error(`SurfaceApi: ${key} is served by both ${owner} and ${id}`);
        if (owner !== undefined) continue;
        keys.set(key, id);
        if (route.signIn && !signIn) throw new Error(`SurfaceApi: ${route.id} takes a sign-in but the ${surface.id} API has no sign-in authorizer`);
        this.api.addRoutes({
          path: gatewayPath(route.path),
          methods: [apigwv2.HttpMethod[route.method]],
          integration,
          ...(route.signIn ? { authorizer: signIn } : {}),
        });
      }
    }
    this.configureStage(scope, prefix, props);
    new CfnOutput(props.outputs ?? scope, `${prefix}ApiUrl`, { value: this.api.apiEndpoint, description: `Base URL of the ${surface.id} surface` });
  }

  /** Throttling and JSON access logs on the API's $default stage (the L2 construct exposes neither). */
  private configureStage(scope: Construct, prefix: string, props: SurfaceApiProps): void {
    const logGroup = new logs.LogGroup(scope, `${prefix}ApiAccessLogs`, { retention: props.logRetention, removalPolicy: RemovalPolicy.DESTROY });
    const stage = this.api.defaultStage!.node.defaultChild as apigwv2.CfnStage;
    stage.defaultRouteSettings = { throttlingRateLimit: props.throttle.rateLimit, throttlingBurstLimit: props.throttle.burstLimit };
    stage.accessLogSettings = { destinationArn: logGroup.logGroupArn, format: ACCESS_LOG_FORMAT };
    // The sign-in authorizer, shared by both APIs, learns from it which surface a request is on.
    stage.stageVariables = { [SURFACE_STAGE_VARIABLE]: props.surface.id };
  }
}

/** lib/cors.ts as API Gateway's CORS configuration: it then answers preflights itself and adds the headers. */
function corsPreflight(): apigwv2.CorsPreflightOptions {
  return {
    allowOrigins: [...CORS_POLICY.allowOrigins],
    allowMethods: CORS_POLICY.allowMethods.map((method) => apigwv2.CorsHttpMethod[method]),
    allowHeaders: CORS_POLICY.allowHeaders,
    exposeHeaders: CORS_POLICY.exposeHeaders,
    maxAge: Duration.seconds(CORS_POLICY.maxAgeSeconds),
  };
}
