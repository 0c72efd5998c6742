/**
 * The edge (lib/edge.ts; docs/deploy.md runbook, "Edge protection"): off by default; with `edge=cloudfront-waf` each HTTP API sits behind its
 * own CloudFront distribution (no caching, every method, every viewer header but Host) that one WAF web ACL of
 * scope CLOUDFRONT guards with a per-IP rate-based rule answering 429 `rate_limited`; the documents name the
 * distributions, and the stack must live in us-east-1.
 */
import { App } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import { beforeAll, describe, expect, it } from 'vitest';
import { PaycallStack, PROJECT_ROOT } from '../../lib/paycall-stack.js';
import { EDGE_DEFAULT_RATE_LIMIT, parseStackConfig, readCdkJsonContext, StackConfigError } from '../../lib/config.js';
import { EDGE_RATE_LIMITED_BODY, EDGE_RATE_RULE, EDGE_TOTAL_RULE } from '../../lib/edge.js';
import { ENV } from '../../lambdas/shared/config.js';
import { EDGE_TOKEN_HEADER } from '../../lambdas/shared/http.js';
import { synthGeneration } from '../support/synth.js';
import { ofType, type Resources } from '../support/template.js';

const US_EAST_1 = { account: '123456789012', region: 'us-east-1' };
const EDGE = { edge: 'cloudfront-waf' };

let cdkContext: Record<string, unknown>;
let off: ReturnType<typeof synthGeneration>;
let on: ReturnType<typeof synthGeneration>;

beforeAll(async () => {
  cdkContext = await readCdkJsonContext(PROJECT_ROOT);
  off = synthGeneration(cdkContext);
  on = synthGeneration(cdkContext, { ...EDGE, edgeRateLimit: '300', edgeTotalRateLimit: '4000' }, { env: US_EAST_1 });
});

const distributions = (resources: Resources) => ofType(resources, 'AWS::CloudFront::Distribution');
const apiIds = (resources: Resources) => ofType(resources, 'AWS::ApiGatewayV2::Api').map(([id]) => id);
/** The distributions in front of an API: those whose origin's domain is taken from that API's endpoint. */
const fronting = (resources: Resources, apiId: string) =>
  distributions(resources).filter(([, d]) => JSON.stringify(d.Properties.DistributionConfig.Origins).includes(`"${apiId}"`));

describe('off by default', () => {
  it('adds no distribution in front of an API, no web ACL, no edge output and no variable', () => {
    expect(parseStackConfig({}).edge).toBe('none');
    for (const api of apiIds(off.resources)) expect(fronting(off.resources, api)).toEqual([]);
    expect(ofType(off.resources, 'AWS::WAFv2::WebACL')).toEqual([]);
    expect(ofType(off.resources, 'AWS::CloudFront::Function')).toEqual([]);
    expect(Object.keys(off.template.toJSON().Outputs)).not.toContain('EdgeUrl');
    expect(Object.keys(off.template.toJSON().Rules ?? {})).toEqual(['CheckBootstrapVersion']);
    for (const id of Object.keys(off.stack.functionEntries)) {
      const vars = off.resources[id].Properties.Environment.Variables;
      expect(vars[ENV.edgeOriginToken], id).toBeUndefined();
      expect(vars[ENV.publicBaseUrl], id).toBeUndefined();
    }
  });
});

describe('edge=cloudfront-waf', () => {
  it('puts one distribution in front of each HTTP API: its execute-api host, HTTPS, no cache, every method, every header but Host', () => {
    const apis = apiIds(on.resources);
    expect(apis).toHaveLength(2);
    for (const api of apis) {
      const found = fronting(on.resources, api);
      expect(found, api).toHaveLength(1);
      const config = found[0][1].Properties.DistributionConfig;
      expect(config.Origins).toHaveLength(1);
      expect(config.Origins[0].DomainName).toEqual({ 'Fn::Select': [2, { 'Fn::Split': ['/', { 'Fn::GetAtt': [api, 'ApiEndpoint'] }] }] });
      expect(config.Origins[0].CustomOriginConfig.OriginProtocolPolicy).toBe('https-only');
      const behavior = config.DefaultCacheBehavior;
      expect(behavior.CachePolicyId).toBe(cloudfront.CachePolicy.CACHING_DISABLED.cachePolicyId);
      expect(behavior.OriginRequestPolicyId).toBe(cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER.originRequestPolicyId);
      expect(behavior.AllowedMethods.sort()).toEqual(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT']);
      expect(behavior.ViewerProtocolPolicy).toBe('https-only');
      expect(behavior.FunctionAssociations).toEqual([{ EventType: 'viewer-request', FunctionARN: expect.anything() }]);
      expect(config.Logging.Bucket['Fn::GetAtt'][0]).toMatch(/^AccessLogsBucket/);
    }
  });

  it('guards both with one CLOUDFRONT web ACL whose per-IP rule blocks over the configured limit with 429 rate_limited', () => {
    const acls = ofType(on.resources, 'AWS::WAFv2::WebACL');
    expect(acls).toHaveLength(1);
    const [aclId, acl] = acls[0];
    expect(acl.Properties.Scope).toBe('CLOUDFRONT');
    expect(acl.Properties.DefaultAction).toEqual({ Allow: {} });
    expect(acl.Properties.VisibilityConfig.CloudWatchMetricsEnabled).toBe(true);
    const rate = acl.Properties.Rules.find((r: any) => r.Name === EDGE_RATE_RULE);
    // The unpaid-probe quota: requests of an address that carry none of the payment headers.
    const header = (name: string) => ({
      SizeConstraintStatement: { FieldToMatch: { SingleHeader: { Name: name } }, ComparisonOperator: 'GT', Size: 0, TextTransformations: [{ Priority: 0, Type: 'NONE' }] },
    });
    expect(rate.Statement.RateBasedStatement).toEqual({
      Limit: 300,
      AggregateKeyType: 'IP',
      EvaluationWindowSec: 300,
      ScopeDownStatement: { NotStatement: { Statement: { OrStatement: { Statements: ['payment-signature', 'x-payment', 'authorization'].map(header) } } } },
    });
    // And a ceiling on all of an address's requests, paid or not.
    const total = acl.Properties.Rules.find((r: any) => r.Name === EDGE_TOTAL_RULE);
    expect(total.Statement.RateBasedStatement).toEqual({ Limit: 4000, AggregateKeyType: 'IP', EvaluationWindowSec: 300 });
    for (const rule of [rate, total]) {
      expect(rule.Action.Block.CustomResponse).toEqual({ ResponseCode: 429, CustomResponseBodyKey: 'rate_limited', ResponseHeaders: [{ Name: 'Retry-After', Value: '60' }] });
      expect(rule.VisibilityConfig.CloudWatchMetricsEnabled).toBe(true);
    }
    const body = acl.Properties.CustomResponseBodies.rate_limited;
    expect(body.ContentType).toBe('APPLICATION_JSON');
    expect(JSON.parse(body.Content)).toEqual({ detail: expect.any(String), code: 'rate_limited' });
    expect(JSON.parse(body.Content)).toEqual(EDGE_RATE_LIMITED_BODY);
    // The managed common rule set is only counted.
    const common = acl.Properties.Rules.find((r: any) => r.Name === 'AWSManagedRulesCommonRuleSet');
    expect(common.OverrideAction).toEqual({ Count: {} });
    for (const [, d] of distributions(on.resources).filter(([, d]) => d.Properties.DistributionConfig.WebACLId)) {
      expect(d.Properties.DistributionConfig.WebACLId).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
    }
    expect(distributions(on.resources).filter(([, d]) => d.Properties.DistributionConfig.WebACLId)).toHaveLength(2);
  });

  it('defaults the unpaid limit to the probe quota over five minutes (20 per 60 s: 100), the ceiling to 3000', () => {
    expect(EDGE_DEFAULT_RATE_LIMIT).toBe(100);
    expect(parseStackConfig(EDGE)).toMatchObject({ edgeRateLimit: 100, edgeTotalRateLimit: 3000 });
    const { resources } = synthGeneration(cdkContext, EDGE, { env: US_EAST_1 });
    const [[, acl]] = ofType(resources, 'AWS::WAFv2::WebACL');
    const limits = Object.fromEntries(acl.Properties.Rules.filter((r: any) => r.Statement.RateBasedStatement).map((r: any) => [r.Name, r.Statement.RateBasedStatement.Limit]));
    expect(limits).toEqual({ [EDGE_RATE_RULE]: 100, [EDGE_TOTAL_RULE]: 3000 });
  });

  it("makes each distribution its surface's public base URL and gives every route function the origin token", () => {
    const outputs = on.template.toJSON().Outputs;
    const urlOf = (prefix: string) => outputs[`${prefix}EdgeUrl`].Value;
    expect(urlOf('')).toEqual({ 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [expect.stringMatching(/^EdgeDistribution/), 'DomainName'] }]] });
    expect(urlOf('Agents')).toEqual({ 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [expect.stringMatching(/^AgentsEdgeDistribution/), 'DomainName'] }]] });
    expect(outputs.EdgeWebAclArn).toBeDefined();
    const token = { 'Fn::Select': [2, { 'Fn::Split': ['/', { Ref: 'AWS::StackId' }] }] };
    for (const [id, entry] of Object.entries(on.stack.functionEntries)) {
      const vars = on.resources[id].Properties.Environment.Variables;
      if (entry.kind !== 'route') {
        expect(vars[ENV.edgeOriginToken], entry.id).toBeUndefined();
        continue;
      }
      expect(vars[ENV.edgeOriginToken], entry.id).toEqual(token);
      const base = vars[ENV.publicBaseUrl] ?? vars[ENV.agentsPublicBaseUrl];
      expect([urlOf(''), urlOf('Agents')], entry.id).toContainEqual(base);
    }
    for (const [, d] of distributions(on.resources).filter(([, d]) => d.Properties.DistributionConfig.WebACLId)) {
      expect(d.Properties.DistributionConfig.Origins[0].OriginCustomHeaders).toEqual([{ HeaderName: EDGE_TOKEN_HEADER, HeaderValue: token }]);
    }
  });

  it('keeps a custom domain given with publicBaseUrl as the generation base URL', () => {
    const { stack, resources } = synthGeneration(cdkContext, { ...EDGE, publicBaseUrl: 'https://api.example.com' }, { env: US_EAST_1 });
    const bases = Object.entries(stack.functionEntries)
      .filter(([, e]) => e.kind === 'route')
      .map(([id]) => resources[id].Properties.Environment.Variables[ENV.publicBaseUrl])
      .filter((v) => v !== undefined);
    expect(bases.length).toBeGreaterThan(0);
    expect(new Set(bases)).toEqual(new Set(['https://api.example.com']));
  });

  it('stays under the 500 resources of a CloudFormation stack', () => {
    expect(Object.keys(on.resources).length).toBeLessThan(500);
  });
});

describe('the region rule and bad values', () => {
  it('refuses a stack in another region, naming the key', () => {
    const app = new App({ context: { ...cdkContext, 'aws:cdk:bundling-stacks': [], ...EDGE } });
    expect(() => new PaycallStack(app, 'Gen', { allowMissingEntries: true, env: { account: '123456789012', region: 'eu-west-1' } })).toThrow(StackConfigError);
    const again = new App({ context: { ...cdkContext, 'aws:cdk:bundling-stacks': [], ...EDGE } });
    expect(() => new PaycallStack(again, 'Gen', { allowMissingEntries: true, env: { account: '123456789012', region: 'eu-west-1' } })).toThrow(/context key "edge".*us-east-1.*eu-west-1/);
  });

  it('asserts us-east-1 in the template when the stack is environment-agnostic', () => {
    const { template } = synthGeneration(cdkContext, EDGE);
    const rules = template.toJSON().Rules as Record<string, any>;
    expect(Object.keys(rules).sort()).toEqual(['CheckBootstrapVersion', 'EdgeRegion']);
    expect(rules.EdgeRegion.Assertions).toEqual([{ Assert: { 'Fn::Equals': [{ Ref: 'AWS::Region' }, 'us-east-1'] }, AssertDescription: expect.stringMatching(/"edge"/) }]);
    // A literal us-east-1 needs no template rule.
    expect(Object.keys(on.template.toJSON().Rules)).toEqual(['CheckBootstrapVersion']);
  });

  it.each([
    [{ edge: 'cloudflare' }, /context key "edge" must be none or cloudfront-waf/],
    [{ edge: 'cloudfront-waf', edgeRateLimit: '5' }, /context key "edgeRateLimit" must be a whole number of requests from 10 to 2000000000 \(got "5"\)/],
    [{ edge: 'cloudfront-waf', edgeRateLimit: '2.5' }, /context key "edgeRateLimit"/],
    [{ edge: 'cloudfront-waf', edgeRateLimit: 'lots' }, /context key "edgeRateLimit"/],
    [{ edge: 'cloudfront-waf', edgeTotalRateLimit: '3000000000' }, /context key "edgeTotalRateLimit" must be a whole number/],
    [{ edge: 'cloudfront-waf', edgeRateLimit: '500', edgeTotalRateLimit: '200' }, /context key "edgeTotalRateLimit" must be at least edgeRateLimit \(500\)/],
  ])('refuses %j naming the key', (raw, message) => {
    expect(() => parseStackConfig(raw)).toThrow(StackConfigError);
    expect(() => parseStackConfig(raw)).toThrow(message);
  });
});
