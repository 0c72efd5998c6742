/**
 * A custom domain per surface, by context (docs/deploy.md runbook, "Custom domain"): `domainName` + `certificateArn` for the generation API,
 * `agentsDomainName` + `agentsCertificateArn` for the agent studio. Nothing is added without them.
 *
 * - Without the edge: an API Gateway regional custom domain (AWS::ApiGatewayV2::DomainName) with the operator's ACM
 *   certificate, which must live in the stack's region, and an API mapping of the surface's HTTP API ($default stage)
 *   at its root.
 * - With the edge (lib/edge.ts): the domain is the distribution's alternate name instead, so buyers' calls go through
 *   the web ACL; CloudFront takes certificates from us-east-1 only, where the edge already puts the stack.
 *
 * The output `<prefix>DomainTarget` is the host name the operator's DNS record points at (CNAME, or a Route 53 alias
 * in the zone `<prefix>DomainTargetZoneId`). Which base URL the surface's documents name: lib/paycall-stack.ts
 * (publicBaseUrl > custom domain > edge > the request's host).
 */
import { Aws, CfnOutput, CfnRule, Fn, Stack, Token } from 'aws-cdk-lib';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import type { Construct } from 'constructs';
import type { SurfaceId } from '../lambdas/surfaces/routes.js';
import { certificateRegion, StackConfigError, type StackConfig } from './config.js';
import { EDGE_REGION } from './edge.js';

/** The context keys of each surface's domain. */
export const DOMAIN_KEYS: Record<SurfaceId, { domain: 'domainName' | 'agentsDomainName'; certificate: 'certificateArn' | 'agentsCertificateArn' }> = {
  generation: { domain: 'domainName', certificate: 'certificateArn' },
  agents: { domain: 'agentsDomainName', certificate: 'agentsCertificateArn' },
};

/** CloudFront's hosted zone, the target of every Route 53 alias to a distribution. */
export const CLOUDFRONT_HOSTED_ZONE_ID = 'Z2FDTNDATAQYW2';

export interface CustomDomain {
  name: string;
  certificateArn: string;
  /** The context key of the certificate, for errors. */
  certificateKey: string;
}

/** The surface's custom domain, when its two keys are set (lib/config.ts checks they come together). */
export function customDomainOf(config: StackConfig, surface: SurfaceId): CustomDomain | undefined {
  const keys = DOMAIN_KEYS[surface];
  const name = config[keys.domain];
  const certificateArn = config[keys.certificate];
  return name && certificateArn ? { name, certificateArn, certificateKey: keys.certificate } : undefined;
}

/**
 * The certificate must be where its user looks for it: CloudFront (the edge) in us-east-1, an HTTP API's regional
 * domain in the stack's region. Checked at synthesis when the region is known, else by a template rule at deployment.
 */
export function requireCertificateRegion(stack: Stack, prefix: string, domain: CustomDomain, edge: boolean): void {
  const region = certificateRegion(domain.certificateArn);
  if (edge) {
    if (region !== EDGE_REGION) {
      throw new StackConfigError(
        `Invalid stack configuration: context key "${domain.certificateKey}" must be a certificate in ${EDGE_REGION} with edge cloudfront-waf (CloudFront serves the domain and takes certificates only from there; got ${region})`,
      );
    }
    return;
  }
  if (Token.isUnresolved(stack.region)) {
    new CfnRule(stack, `${prefix}CertificateRegion`, {
      assertions: [{ assert: Fn.conditionEquals(Aws.REGION, region), assertDescription: `context key "${domain.certificateKey}" is a certificate in ${region}: deploy the stack there (an HTTP API's regional custom domain takes a certificate of its own region)` }],
    });
  } else if (stack.region !== region) {
    throw new StackConfigError(
      `Invalid stack configuration: context key "${domain.certificateKey}" must be a certificate in the stack's region ${stack.region} (an HTTP API's regional custom domain takes a certificate of its own region; got ${region})`,
    );
  }
}

/** The certificate, imported (no resource), for the edge's distribution. */
export function importCertificate(scope: Construct, prefix: string, domain: CustomDomain): acm.ICertificate {
  return acm.Certificate.fromCertificateArn(scope, `${prefix}DomainCertificate`, domain.certificateArn);
}

/** A regional custom domain mapped to the API's $default stage at its root, and the outputs DNS needs (in `outputs`). */
export function createApiDomain(scope: Construct, prefix: string, api: apigwv2.HttpApi, domain: CustomDomain, outputs: Construct = scope): apigwv2.DomainName {
  const domainName = new apigwv2.DomainName(scope, `${prefix}ApiDomain`, {
    domainName: domain.name,
    certificate: importCertificate(scope, prefix, domain),
    securityPolicy: apigwv2.SecurityPolicy.TLS_1_2,
  });
  new apigwv2.ApiMapping(scope, `${prefix}ApiDomainMapping`, { api, domainName, stage: api.defaultStage });
  domainOutputs(outputs, prefix, domain, domainName.regionalDomainName, domainName.regionalHostedZoneId);
  return domainName;
}

export function domainOutputs(scope: Construct, prefix: string, domain: CustomDomain, target: string, zoneId: string): void {
  new CfnOutput(scope, `${prefix}DomainTarget`, { value: target, description: `Point ${domain.name} here: a CNAME, or a Route 53 alias in the zone ${prefix}DomainTargetZoneId` });
  new CfnOutput(scope, `${prefix}DomainTargetZoneId`, { value: zoneId, description: `The hosted zone of ${prefix}DomainTarget (a Route 53 alias record's target zone)` });
}
