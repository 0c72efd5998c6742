/**
 * The edge (context `edge=cloudfront-waf`, off by default): a CloudFront distribution in front of each HTTP API and
 * one AWS WAF web ACL on both, whose per-IP rate-based rules refuse an anonymous flood before it reaches API
 * Gateway's stage throttling, which is per route and shared by every caller (docs/deploy.md runbook, "Edge protection"): one counts an
 * address's requests that carry no payment (the unpaid-probe quota, so a buyer who pays often is never its target),
 * the other all its requests (a higher ceiling, for floods with made-up payment headers).
 *
 * - Region: a web ACL of scope CLOUDFRONT can only be created in us-east-1, so the whole stack must be deployed there
 *   (a literal other region fails synthesis naming `edge`; an environment-agnostic stack carries a template rule that
 *   fails the deployment anywhere else). Simpler than a second stack with cross-region references, and the APIs'
 *   region is not latency-critical behind CloudFront.
 * - Requests pass through unchanged: no caching, every method, every viewer header and query string except Host
 *   (API Gateway routes by its own host name).
 * - Who called: behind CloudFront, the connection's address is CloudFront's. A viewer-request function writes the
 *   viewer's address into VIEWER_ADDRESS_HEADER (over anything the viewer sent), and the origin adds EDGE_TOKEN_HEADER
 *   with the stack's unguessable id, which the functions compare with EDGE_ORIGIN_TOKEN before believing the address
 *   (lambdas/shared/http.ts clientId).
 */
import { CfnOutput, CfnRule, Fn, Aws, Stack, Token } from 'aws-cdk-lib';
import type * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import type * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';
import { EDGE_TOKEN_HEADER, VIEWER_ADDRESS_HEADER } from '../lambdas/shared/http.js';
import { EDGE_WINDOW_SECONDS, StackConfigError } from './config.js';

/** CloudFront web ACLs exist in us-east-1 only. */
export const EDGE_REGION = 'us-east-1';
/** Requests of an address that carry no payment (the unpaid-probe quota), and all its requests (a ceiling). */
export const EDGE_RATE_RULE = 'UnpaidPerIp';
export const EDGE_TOTAL_RULE = 'AllPerIp';
/** What carries a payment: an x402 payment (v2, v1) or a workspace's bearer (credit billing). WAF wants lower case. */
export const PAYMENT_HEADERS = ['payment-signature', 'x-payment', 'authorization'] as const;
/** The body of the edge's 429, in the spec's error shape (as the functions' `rate_limited`). */
export const EDGE_RATE_LIMITED_BODY = { detail: 'Too many requests from this address; retry later', code: 'rate_limited' };

export interface EdgeApi {
  /** '' for the generation surface, else the surface's PascalCase prefix (construct ids and outputs). */
  prefix: string;
  api: apigwv2.HttpApi;
  /** The surface's custom domain (lib/custom-domain.ts): the distribution's alternate name, with its certificate. */
  domain?: { name: string; certificate: acm.ICertificate };
}

export interface Edge {
  webAcl: wafv2.CfnWebACL;
  /** By prefix: each API's distribution and its https base URL. */
  distributions: Record<string, { distribution: cloudfront.Distribution; url: string }>;
  /** What the route functions compare EDGE_TOKEN_HEADER with (EDGE_ORIGIN_TOKEN). */
  originToken: string;
}

/** The stack must be in us-east-1: checked at synthesis when the region is known, else by a template rule at deployment. */
export function requireEdgeRegion(stack: Stack): void {
  if (Token.isUnresolved(stack.region)) {
    new CfnRule(stack, 'EdgeRegion', {
      assertions: [{ assert: Fn.conditionEquals(Aws.REGION, EDGE_REGION), assertDescription: `context key "edge" cloudfront-waf needs the stack in ${EDGE_REGION} (a CloudFront web ACL exists only there)` }],
    });
  } else if (stack.region !== EDGE_REGION) {
    throw new StackConfigError(
      `Invalid stack configuration: context key "edge" cloudfront-waf needs the stack in ${EDGE_REGION}, where CloudFront's web ACLs live (got region ${stack.region}); deploy there or leave edge unset`,
    );
  }
}

/** Viewer-request function: the viewer's address, as CloudFront saw it, replaces whatever the viewer sent. */
const VIEWER_ADDRESS_CODE = `function handler(event) {
  event.request.headers['${VIEWER_ADDRESS_HEADER}'] = { value: event.viewer.ip };
  return event.request;
}`;

/** What every surface's distribution shares, made once in the core stack. */
export interface EdgeShared {
  webAcl: wafv2.CfnWebACL;
  viewerAddress: cloudfront.IFunction;
  /** The core stack's unguessable id: a surface's nested stack receives it as a parameter, never its own. */
  originToken: string;
  rateLimit: number;
  totalRateLimit: number;
  logBucket: s3.IBucket;
}

/** The web ACL and the viewer-address function both surfaces' distributions use (in the core stack). */
export function createEdgeShared(scope: Construct, props: { rateLimit: number; totalRateLimit: number; logBucket: s3.IBucket }): EdgeShared {
  const stack = Stack.of(scope);
  requireEdgeRegion(stack);
  const webAcl = webAclOf(scope, props.rateLimit, props.totalRateLimit);
  // The stack's own id (stack.stackId is scoped to it, unlike Aws.STACK_ID, which each template reads as its own).
  const originToken = Fn.select(2, Fn.split('/', stack.stackId));
  const viewerAddress = new cloudfront.Function(scope, 'EdgeViewerAddress', {
    code: cloudfront.FunctionCode.fromInline(VIEWER_ADDRESS_CODE),
    runtime: cloudfront.FunctionRuntime.JS_2_0,
    comment: 'Writes the viewer address for the API functions (lambdas/shared/http.ts clientId)',
  });
  new CfnOutput(scope, 'EdgeWebAclArn', { value: webAcl.attrArn, description: 'The edge web ACL (per-IP rate-based rules)' });
  return { webAcl, viewerAddress, originToken, ...props };
}

/** One API's distribution (in its surface's stack), behind the shared web ACL. */
export function createEdgeDistribution(scope: Construct, shared: EdgeShared, edgeApi: EdgeApi, comment: string): { distribution: cloudfront.Distribution; url: string } {
  const { prefix, api, domain } = edgeApi;
  const distribution = new cloudfront.Distribution(scope, `${prefix}EdgeDistribution`, {
    comment,
    defaultBehavior: {
      origin: new origins.HttpOrigin(Fn.select(2, Fn.split('/', api.apiEndpoint)), {
        protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
        customHeaders: { [EDGE_TOKEN_HEADER]: shared.originToken },
      }),
      allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
      cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
      originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
      functionAssociations: [{ function: shared.viewerAddress, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
    },
    webAclId: shared.webAcl.attrArn,
    ...(domain ? { domainNames: [domain.name], certificate: domain.certificate, minimumProtocolVersion: cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021 } : {}),
    enableLogging: true,
    logBucket: shared.logBucket,
    logFilePrefix: `edge${prefix ? `-${prefix.toLowerCase()}` : ''}/`,
  });
  return { distribution, url: `https://${distribution.distributionDomainName}` };
}

/** The edge's outputs, in the core stack, where an operator reads them. */
export function edgeOutput(scope: Construct, prefix: string, url: string): void {
  new CfnOutput(scope, `${prefix}EdgeUrl`, { value: url, description: `Base URL of the ${prefix || 'generation'} surface through the CloudFront edge (give buyers this one)` });
}

function webAclOf(scope: Construct, rateLimit: number, totalRateLimit: number): wafv2.CfnWebACL {
  const metric = (name: string) => ({ cloudWatchMetricsEnabled: true, sampledRequestsEnabled: true, metricName: name });
  const rateLimited = {
    block: {
      customResponse: {
        responseCode: 429,
        customResponseBodyKey: 'rate_limited',
        // WAF lifts the block once the address's rate over the window falls under the limit.
        responseHeaders: [{ name: 'Retry-After', value: '60' }],
      },
    },
  };
  const perIp = (limit: number, scopeDownStatement?: wafv2.CfnWebACL.StatementProperty) => ({
    rateBasedStatement: { limit, aggregateKeyType: 'IP', evaluationWindowSec: EDGE_WINDOW_SECONDS, ...(scopeDownStatement ? { scopeDownStatement } : {}) },
  });
  // A request carries a payment when one of PAYMENT_HEADERS is present (WAF cannot tell a good one from a made-up one:
  // the functions do, and count refused payments as unpaid; the ceiling bounds the rest).
  const carriesPayment: wafv2.CfnWebACL.StatementProperty = {
    orStatement: {
      statements: PAYMENT_HEADERS.map((name) => ({
        sizeConstraintStatement: { fieldToMatch: { singleHeader: { Name: name } }, comparisonOperator: 'GT', size: 0, textTransformations: [{ priority: 0, type: 'NONE' }] },
      })),
    },
  };
  return new wafv2.CfnWebACL(scope, 'EdgeWebAcl', {
    scope: 'CLOUDFRONT',
    defaultAction: { allow: {} },
    visibilityConfig: metric(`${Stack.of(scope).stackName}-Edge`),
    customResponseBodies: {
      rate_limited: { contentType: 'APPLICATION_JSON', content: JSON.stringify(EDGE_RATE_LIMITED_BODY) },
    },
    rules: [
      { name: EDGE_RATE_RULE, priority: 0, statement: perIp(rateLimit, { notStatement: { statement: carriesPayment } }), action: rateLimited, visibilityConfig: metric(EDGE_RATE_RULE) },
      { name: EDGE_TOTAL_RULE, priority: 1, statement: perIp(totalRateLimit), action: rateLimited, visibilityConfig: metric(EDGE_TOTAL_RULE) },
      {
        // Counted only (never blocks): its matches show in the metrics before anyone decides to enforce it.
        name: 'AWSManagedRulesCommonRuleSet',
        priority: 2,
        statement: { managedRuleGroupStatement: { vendorName: 'AWS', name: 'AWSManagedRulesCommonRuleSet' } },
        overrideAction: { count: {} },
        visibilityConfig: metric('AWSManagedRulesCommonRuleSet'),
      },
    ],
  });
}
