/**
 * CDK assertions for the RPC URL kept in Secrets Manager (docs/deploy.md, runbook step 9): with `rpcUrlSecretName`
 * no function's environment holds an RPC URL, every function is told the secret's name, and exactly the functions
 * that reach the chain (paid, run, top-up and poll routes, the refund task, the sweeper) may GetSecretValue on that
 * secret, nothing more; the security packs report nothing new. Without it, RPC_URL is the URL, as before.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { PaycallStack, PROJECT_ROOT, type FunctionEntry } from '../../lib/paycall-stack.js';
import { parseStackConfig, readCdkJsonContext } from '../../lib/config.js';
import { applyNag } from '../../lib/nag.js';
import { ENV } from '../../lambdas/shared/config.js';
import { NETWORKS } from '../../lambdas/shared/networks.js';
import { SWEEPER } from '../../lambdas/surfaces/routes.js';
import { actionsOf, ofType, type Resources } from '../support/template.js';
import { flatTemplateOf } from '../support/synth.js';

const SECRET = 'paycall/rpc-url';

let cdkContext: Record<string, unknown>;
beforeAll(async () => {
  cdkContext = await readCdkJsonContext(PROJECT_ROOT);
});

function synth(extra: Record<string, unknown> = {}, nag = false) {
  const app = new App({ context: { ...cdkContext, ...extra, 'aws:cdk:bundling-stacks': [] } });
  const stack = new PaycallStack(app, 'Gen', { allowMissingEntries: true });
  if (nag) applyNag(app, stack);
  const assembly = app.synth();
  return { stack, assembly, resources: flatTemplateOf(stack).toJSON().Resources as Resources };
}

/** The functions that send chain requests: verify and settle, reconcile, refund, and Mark completed (ADR 0021). */
function touchesChain(entry: FunctionEntry): boolean {
  if (entry.kind === 'route') return ['paid', 'run', 'topup', 'poll'].includes(entry.role);
  return entry.kind === 'sweeper' || (entry.kind === 'task' && (entry.id === 'RefundPayment' || entry.id === 'MarkCompleted'));
}

/** The grants of a function that name the RPC URL's secret. */
const rpcSecretGrants = (resources: Resources, logicalId: string) =>
  actionsOf(resources, logicalId).filter((g) => JSON.stringify(g.resource).includes(`secret:${SECRET}`));

describe('PaycallStack: the RPC URL read from Secrets Manager (rpcUrlSecretName)', () => {
  let s: ReturnType<typeof synth>;
  beforeAll(() => {
    s = synth({ rpcUrlSecretName: SECRET });
  });

  it('no function carries an RPC URL: each is told the secret’s name instead', () => {
    const publicUrls = Object.values(NETWORKS).map((network) => network.rpcUrl);
    const functions = ofType(s.resources, 'AWS::Lambda::Function').filter(([, fn]) => fn.Properties.Environment?.Variables?.[ENV.network]);
    expect(functions.length).toBeGreaterThan(10);
    for (const [logicalId, fn] of functions) {
      const vars = fn.Properties.Environment.Variables as Record<string, unknown>;
      expect(vars[ENV.rpcUrl], logicalId).toBeUndefined();
      expect(vars[ENV.rpcUrlSecretId], logicalId).toBe(SECRET);
      for (const url of publicUrls) expect(JSON.stringify(vars), logicalId).not.toContain(url);
    }
  });

  it('exactly the functions that reach the chain may read it, with GetSecretValue on that secret alone', () => {
    const readers = Object.entries(s.stack.functionEntries).filter(([logicalId]) => rpcSecretGrants(s.resources, logicalId).length > 0);
    const chain = Object.entries(s.stack.functionEntries).filter(([, entry]) => touchesChain(entry));
    expect(readers.map(([id]) => id).sort()).toEqual(chain.map(([id]) => id).sort());
    expect(chain.map(([, e]) => e.id)).toEqual(expect.arrayContaining(['RefundPayment', 'MarkCompleted', SWEEPER.id]));
    for (const [logicalId, entry] of chain) {
      const grants = rpcSecretGrants(s.resources, logicalId);
      expect(grants.map((g) => g.action), entry.id).toEqual(['secretsmanager:GetSecretValue']);
      // The secret's own ARN, any of its six-character suffixes: no other secret whose name starts the same.
      expect(JSON.stringify(grants[0].resource), entry.id).toMatch(new RegExp(`:secret:${SECRET}-\\?\\?\\?\\?\\?\\?"`));
    }
  });

  it('the AwsSolutions and Serverless packs report nothing for it', () => {
    const nagged = synth({ rpcUrlSecretName: SECRET }, true);
    const report = JSON.parse(readFileSync(path.join(nagged.assembly.directory, 'validation-report.json'), 'utf8')) as {
      pluginReports: { violations: { ruleName: string; violatingConstructs: { constructPath: string }[] }[] }[];
    };
    const findings = report.pluginReports.flatMap((r) => r.violations.flatMap((v) => v.violatingConstructs.map((c) => `${v.ruleName} at ${c.constructPath}`)));
    expect(findings).toEqual([]);
  });
});

describe('PaycallStack: the RPC URL in the context (rpcUrl, or the network’s public endpoint)', () => {
  it('is every function’s RPC_URL, with no secret named or granted', () => {
    const s = synth({ rpcUrl: 'https://base.example.com' });
    for (const [logicalId, entry] of Object.entries(s.stack.functionEntries)) {
      const vars = s.resources[logicalId].Properties.Environment.Variables;
      expect(vars[ENV.rpcUrl], entry.id).toBe('https://base.example.com');
      expect(vars[ENV.rpcUrlSecretId], entry.id).toBeUndefined();
      expect(rpcSecretGrants(s.resources, logicalId), entry.id).toEqual([]);
    }
  });

  it('is refused together with rpcUrlSecretName, and the refusal does not quote the URL', () => {
    const keyed = 'https://base-mainnet.example.com/v2/the-api-key';
    expect(() => parseStackConfig({ rpcUrl: keyed, rpcUrlSecretName: SECRET })).toThrow(/context key "rpcUrlSecretName" must not be set with rpcUrl/);
    expect(() => parseStackConfig({ rpcUrl: keyed, rpcUrlSecretName: SECRET })).not.toThrow(/the-api-key/);
    expect(() => parseStackConfig({ rpcUrlSecretName: 'paycall/rpc url' })).toThrow(/context key "rpcUrlSecretName" must be a Secrets Manager secret name/);
  });
});

describe('PaycallStack: a preconfirmation endpoint (ADR 0021)', () => {
  const PRECONF_SECRET = 'paycall/preconf-rpc-url';
  const preconfGrants = (resources: Resources, logicalId: string) => actionsOf(resources, logicalId).filter((g) => JSON.stringify(g.resource).includes(`secret:${PRECONF_SECRET}`));
  const paid = (entry: FunctionEntry) => entry.kind === 'route' && entry.role === 'paid';

  it('preconfRpcUrlSecretName: the paid generation routes alone are told its name and may GetSecretValue on it', () => {
    const s = synth({ preconfRpcUrlSecretName: PRECONF_SECRET });
    const entries = Object.entries(s.stack.functionEntries);
    // The three paid routes and MCP's function (its token-paid tool buys a job; a token is never preconfirmed).
    expect(entries.filter(([, e]) => paid(e)).map(([, e]) => e.id).sort()).toEqual(['AgentImage', 'AgentVideo', 'CreateMusic', 'Mcp']);
    for (const [logicalId, entry] of entries) {
      const vars = s.resources[logicalId].Properties.Environment.Variables;
      expect(vars[ENV.preconfRpcUrlSecretId], entry.id).toBe(paid(entry) ? PRECONF_SECRET : undefined);
      expect(vars[ENV.preconfRpcUrl], entry.id).toBeUndefined();
      const grants = preconfGrants(s.resources, logicalId);
      expect(grants.map((g) => g.action), entry.id).toEqual(paid(entry) ? ['secretsmanager:GetSecretValue'] : []);
    }
  });

  it('preconfRpcUrl: the paid generation routes alone get the URL; without either, nothing changes; both are refused', () => {
    const s = synth({ preconfRpcUrl: 'https://preconf.example.com' });
    for (const [logicalId, entry] of Object.entries(s.stack.functionEntries)) {
      expect(s.resources[logicalId].Properties.Environment.Variables[ENV.preconfRpcUrl], entry.id).toBe(paid(entry) ? 'https://preconf.example.com' : undefined);
    }
    const plain = synth();
    for (const [logicalId] of Object.entries(plain.stack.functionEntries)) {
      const vars = plain.resources[logicalId].Properties.Environment.Variables;
      expect(vars[ENV.preconfRpcUrl]).toBeUndefined();
      expect(vars[ENV.preconfRpcUrlSecretId]).toBeUndefined();
    }
    expect(() => parseStackConfig({ preconfRpcUrl: 'https://preconf.example.com', preconfRpcUrlSecretName: PRECONF_SECRET })).toThrow(/preconfRpcUrlSecretName/);
  });
});
