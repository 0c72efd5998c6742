/**
 * Custom domains and outputs (docs/deploy.md runbook, "Custom domain"), what an operator needs from the stack: outputs naming each product's state machine (a job's
 * execution is found from its id), and a custom domain per surface by context (lib/custom-domain.ts): an HTTP API
 * regional domain with the operator's certificate mapped to the right API, or with the edge the distribution's
 * alternate name; the surface's base URL follows the domain unless publicBaseUrl is given; nothing by default.
 */
import { App, type CfnElement } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { PaycallStack, PROJECT_ROOT, stateMachineOutputId } from '../../lib/paycall-stack.js';
import { parseStackConfig, readCdkJsonContext, StackConfigError } from '../../lib/config.js';
import { CLOUDFRONT_HOSTED_ZONE_ID } from '../../lib/custom-domain.js';
import { PRODUCT_IDS, PRODUCTS } from '../../lambdas/products/catalog.js';
import { ENV } from '../../lambdas/shared/config.js';
import { synthGeneration } from '../support/synth.js';
import { ofType } from '../support/template.js';

const EU_WEST_1 = { account: '123456789012', region: 'eu-west-1' };
const US_EAST_1 = { account: '123456789012', region: 'us-east-1' };
const CERT = (region: string, n: number) => `arn:aws:acm:${region}:123456789012:certificate/0000000${n}-1111-2222-3333-444444444444`;
const DOMAINS = (region: string) => ({
  domainName: 'api.example.com',
  certificateArn: CERT(region, 1),
  agentsDomainName: 'agents.example.com',
  agentsCertificateArn: CERT(region, 2),
});

let cdkContext: Record<string, unknown>;
let plain: ReturnType<typeof synthGeneration>;
let domains: ReturnType<typeof synthGeneration>;

beforeAll(async () => {
  cdkContext = await readCdkJsonContext(PROJECT_ROOT);
  plain = synthGeneration(cdkContext);
  domains = synthGeneration(cdkContext, DOMAINS('eu-west-1'), { env: EU_WEST_1 });
});

const outputs = (s: ReturnType<typeof synthGeneration>) => s.template.toJSON().Outputs as Record<string, { Value: unknown }>;
const logicalIdOf = (s: ReturnType<typeof synthGeneration>, construct: IConstruct) => s.stack.getLogicalId(construct.node.defaultChild as CfnElement);
const apiIdOf = (s: ReturnType<typeof synthGeneration>, prefix: string) => logicalIdOf(s, s.stack.surfaceStacks.find((surface) => surface.surfaceApi.prefix === prefix)!.surfaceApi.api);
const baseUrls = (s: ReturnType<typeof synthGeneration>, variable: string) =>
  new Set(Object.keys(s.stack.functionEntries).map((id) => s.resources[id].Properties.Environment.Variables[variable]).filter((v) => v !== undefined));
const routeFunctions = (s: ReturnType<typeof synthGeneration>, variable: string) =>
  Object.keys(s.stack.functionEntries).filter((id) => s.stack.functionEntries[id].kind === 'route').map((id) => s.resources[id].Properties.Environment.Variables[variable]);

describe('stack outputs naming each state machine', () => {
  it('outputs MusicStateMachineArn, VideoStateMachineArn and ImageStateMachineArn, each the ARN of its product machine', () => {
    expect(PRODUCT_IDS.map((product) => stateMachineOutputId(PRODUCTS[product])).sort()).toEqual(['ImageStateMachineArn', 'MusicStateMachineArn', 'VideoStateMachineArn']);
    for (const product of PRODUCT_IDS) {
      const machine = logicalIdOf(plain, plain.stack.stateMachines[product]);
      expect(plain.resources[machine].Type).toBe('AWS::StepFunctions::StateMachine');
      expect(machine).toMatch(new RegExp(`^${PRODUCTS[product].workflow.constructId}`));
      expect(outputs(plain)[stateMachineOutputId(PRODUCTS[product])].Value, product).toEqual({ Ref: machine });
    }
  });
});

describe('a custom domain per surface (domainName/certificateArn, agentsDomainName/agentsCertificateArn)', () => {
  it('adds nothing by default: no domain, no mapping, no domain output, no rule, no pinned base URL', () => {
    expect(ofType(plain.resources, 'AWS::ApiGatewayV2::DomainName')).toEqual([]);
    expect(ofType(plain.resources, 'AWS::ApiGatewayV2::ApiMapping')).toEqual([]);
    expect(Object.keys(outputs(plain)).filter((k) => k.includes('Domain'))).toEqual([]);
    expect(Object.keys(plain.template.toJSON().Rules ?? {})).toEqual(['CheckBootstrapVersion']);
    expect(baseUrls(plain, ENV.publicBaseUrl).size).toBe(0);
    expect(baseUrls(plain, ENV.agentsPublicBaseUrl).size).toBe(0);
  });

  it('creates a regional domain with the certificate for each surface, mapped to that surface’s API at the root', () => {
    const names = ofType(domains.resources, 'AWS::ApiGatewayV2::DomainName');
    expect(names).toHaveLength(2);
    const byName = Object.fromEntries(names.map(([id, r]) => [r.Properties.DomainName, { id, config: r.Properties.DomainNameConfigurations }]));
    expect(byName['api.example.com'].config).toEqual([{ CertificateArn: CERT('eu-west-1', 1), EndpointType: 'REGIONAL', SecurityPolicy: 'TLS_1_2' }]);
    expect(byName['agents.example.com'].config).toEqual([{ CertificateArn: CERT('eu-west-1', 2), EndpointType: 'REGIONAL', SecurityPolicy: 'TLS_1_2' }]);
    const mappings = ofType(domains.resources, 'AWS::ApiGatewayV2::ApiMapping').map(([, r]) => r.Properties);
    expect(mappings).toHaveLength(2);
    const mappedTo = (domainId: string) => mappings.find((m) => m.DomainName.Ref === domainId);
    expect(mappedTo(byName['api.example.com'].id)!.ApiId).toEqual({ Ref: apiIdOf(domains, '') });
    expect(mappedTo(byName['agents.example.com'].id)!.ApiId).toEqual({ Ref: apiIdOf(domains, 'Agents') });
    for (const m of mappings) {
      expect(m.ApiMappingKey).toBeUndefined();
      expect(m.Stage).toBe('$default');
    }
    expect(outputs(domains).DomainTarget.Value).toEqual({ 'Fn::GetAtt': [byName['api.example.com'].id, 'RegionalDomainName'] });
    expect(outputs(domains).DomainTargetZoneId.Value).toEqual({ 'Fn::GetAtt': [byName['api.example.com'].id, 'RegionalHostedZoneId'] });
    expect(outputs(domains).AgentsDomainTarget.Value).toEqual({ 'Fn::GetAtt': [byName['agents.example.com'].id, 'RegionalDomainName'] });
  });

  it('names https://<domain> as each surface’s base URL, unless publicBaseUrl names the generation surface’s', () => {
    expect(routeFunctions(domains, ENV.publicBaseUrl).filter(Boolean).length).toBeGreaterThan(0);
    expect(baseUrls(domains, ENV.publicBaseUrl)).toEqual(new Set(['https://api.example.com']));
    expect(baseUrls(domains, ENV.agentsPublicBaseUrl)).toEqual(new Set(['https://agents.example.com']));
    const pinned = synthGeneration(cdkContext, { ...DOMAINS('eu-west-1'), publicBaseUrl: 'https://buy.example.org' }, { env: EU_WEST_1 });
    expect(baseUrls(pinned, ENV.publicBaseUrl)).toEqual(new Set(['https://buy.example.org']));
    expect(baseUrls(pinned, ENV.agentsPublicBaseUrl)).toEqual(new Set(['https://agents.example.com']));
  });

  it('with the edge, the domain is the distribution’s alternate name (its certificate, TLS 1.2) and wins over the edge URL', () => {
    const s = synthGeneration(cdkContext, { ...DOMAINS('us-east-1'), edge: 'cloudfront-waf' }, { env: US_EAST_1 });
    expect(ofType(s.resources, 'AWS::ApiGatewayV2::DomainName')).toEqual([]);
    const edge = s.stack.edge!.distributions;
    for (const [prefix, domain, cert] of [['', 'api.example.com', CERT('us-east-1', 1)], ['Agents', 'agents.example.com', CERT('us-east-1', 2)]] as const) {
      const id = logicalIdOf(s, edge[prefix].distribution);
      const config = s.resources[id].Properties.DistributionConfig;
      expect(config.Aliases).toEqual([domain]);
      expect(config.ViewerCertificate).toEqual({ AcmCertificateArn: cert, MinimumProtocolVersion: 'TLSv1.2_2021', SslSupportMethod: 'sni-only' });
      expect(outputs(s)[`${prefix}DomainTarget`].Value).toEqual({ 'Fn::GetAtt': [id, 'DomainName'] });
      expect(outputs(s)[`${prefix}DomainTargetZoneId`].Value).toBe(CLOUDFRONT_HOSTED_ZONE_ID);
    }
    expect(baseUrls(s, ENV.publicBaseUrl)).toEqual(new Set(['https://api.example.com']));
    expect(baseUrls(s, ENV.agentsPublicBaseUrl)).toEqual(new Set(['https://agents.example.com']));
  });

  it('checks the certificate’s region: the stack’s when literal, a template rule when not, us-east-1 with the edge', () => {
    const synth = (context: Record<string, unknown>, env?: { account: string; region: string }) => () => {
      const app = new App({ context: { ...cdkContext, 'aws:cdk:bundling-stacks': [], ...context } });
      new PaycallStack(app, 'Gen', { allowMissingEntries: true, ...(env ? { env } : {}) });
    };
    expect(synth(DOMAINS('us-west-2'), EU_WEST_1)).toThrow(/context key "certificateArn" must be a certificate in the stack's region eu-west-1/);
    expect(synth({ ...DOMAINS('eu-west-1'), edge: 'cloudfront-waf' }, US_EAST_1)).toThrow(/context key "certificateArn" must be a certificate in us-east-1 with edge/);
    const agnostic = synthGeneration(cdkContext, DOMAINS('eu-west-1'));
    const rules = agnostic.template.toJSON().Rules;
    expect(rules.CertificateRegion.Assertions[0].Assert).toEqual({ 'Fn::Equals': [{ Ref: 'AWS::Region' }, 'eu-west-1'] });
    expect(rules.AgentsCertificateRegion.Assertions[0].AssertDescription).toMatch(/agentsCertificateArn/);
  });

  it.each([
    [{ domainName: 'https://api.example.com', certificateArn: CERT('us-east-1', 1) }, /context key "domainName" must be a host name/],
    [{ domainName: 'API.example.com', certificateArn: CERT('us-east-1', 1) }, /context key "domainName" must be a host name/],
    [{ domainName: 'localhost', certificateArn: CERT('us-east-1', 1) }, /context key "domainName" must be a host name/],
    [{ agentsDomainName: 'agents.example.com/x', agentsCertificateArn: CERT('us-east-1', 1) }, /context key "agentsDomainName" must be a host name/],
    [{ domainName: 'api.example.com', certificateArn: 'arn:aws:iam::123456789012:server-certificate/x' }, /context key "certificateArn" must be an ACM certificate ARN/],
    [{ agentsDomainName: 'agents.example.com', agentsCertificateArn: 'not-an-arn' }, /context key "agentsCertificateArn" must be an ACM certificate ARN/],
    [{ domainName: 'api.example.com' }, /context key "certificateArn" is required when domainName is set/],
    [{ certificateArn: CERT('us-east-1', 1) }, /context key "domainName" is required when certificateArn is set/],
    [{ agentsCertificateArn: CERT('us-east-1', 1) }, /context key "agentsDomainName" is required when agentsCertificateArn is set/],
    [{ ...DOMAINS('us-east-1'), agentsDomainName: 'api.example.com' }, /context key "agentsDomainName" must differ from domainName/],
  ])('refuses %j naming the key', (raw, message) => {
    expect(() => parseStackConfig(raw)).toThrow(StackConfigError);
    expect(() => parseStackConfig(raw)).toThrow(message);
  });

  it('accepts both pairs', () => {
    const config = parseStackConfig(DOMAINS('us-east-1'));
    expect([config.domainName, config.agentsDomainName]).toEqual(['api.example.com', 'agents.example.com']);
  });
});

