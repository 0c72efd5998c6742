/**
 * One HTTP API per surface (lambdas/surfaces/surface.ts), with one route and one function per entry of the route
 * table's slice for that surface. Route access is least privilege: the caller grants each function by its role.
 *
 * API Gateway path parameters take a whole segment, so a route template with a literal beside its parameter
 * (`/tasks/{taskId}:cancel`) is registered with the parameter alone and the handler matches the full template
 * with lambdas/surfaces/routes.ts matchPath, as the local gateway does.
 */
import { CfnOutput } from 'aws-cdk-lib';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import type { RouteDef } from '../lambdas/surfaces/routes.js';
import { surfaceRoutes, type Surface } from '../lambdas/surfaces/surface.js';
import type { FunctionFactory, RouteRole } from './functions.js';

export interface SurfaceApiProps {
  surface: Surface;
  functions: FunctionFactory;
  /** Environment of every route function of this surface. */
  environment: Record<string, string>;
  /** Grants a route function what its role may touch. */
  grant: (fn: lambda.IFunction, role: RouteRole) => void;
}

/** A route's access: `paid` for paid routes, else `read`, unless the route names one. */
export function routeRole(route: RouteDef): RouteRole {
  return route.access ?? (route.paid ? 'paid' : 'read');
}

/** The API Gateway route path of a template: `{param}:suffix` segments become `{param}`. */
export function gatewayPath(path: string): string {
  return path.replace(/[^/{}]*(\{[A-Za-z_][A-Za-z0-9_]*\})[^/{}]*/g, '$1');
}

export class SurfaceApi {
  readonly api: apigwv2.HttpApi;

  /** Construct ids stay those of the first surface's resources (`HttpApi`, `ApiUrl`); other surfaces are prefixed. */
  constructor(scope: Construct, props: SurfaceApiProps) {
    const { surface } = props;
    const prefix = surface.id === 'generation' ? '' : pascal(surface.id);
    this.api = new apigwv2.HttpApi(scope, `${prefix}HttpApi`, { description: surface.description, createDefaultStage: true });
    for (const route of surfaceRoutes(surface)) {
      const role = routeRole(route);
      const fn = props.functions.make(route.id, route, props.environment, { kind: 'route', id: route.id, entry: route.entry, role, route });
      props.grant(fn, role);
      this.api.addRoutes({
        path: gatewayPath(route.path),
        methods: [apigwv2.HttpMethod[route.method]],
        integration: new HttpLambdaIntegration(`${route.id}Integration`, fn),
      });
    }
    new CfnOutput(scope, `${prefix}ApiUrl`, { value: this.api.apiEndpoint, description: `Base URL of the ${surface.id} surface` });
  }
}

function pascal(id: string): string {
  return id.charAt(0).toUpperCase() + id.slice(1);
}
