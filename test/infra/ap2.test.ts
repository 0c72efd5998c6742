/**
 * CDK assertions for AP2 v0.2 merchant authorization (docs/protocols.md "AP2"): the merchant key secret is readable by exactly
 * the agent run functions (the run routes and A2A send), which get its name and the trusted issuers' key set; the
 * single-use checkout nonces go to the idempotency table those functions already write, so no other grant is added.
 */
import { App } from 'aws-cdk-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { PaycallStack, PROJECT_ROOT } from '../../lib/paycall-stack.js';
import { readCdkJsonContext } from '../../lib/config.js';
import { actionsOf, refersTo, type Resources } from '../support/template.js';
import { flatTemplateOf } from '../support/synth.js';

const TRUSTED = JSON.stringify({ keys: [{ kty: 'EC', crv: 'P-256', x: 'x', y: 'y', kid: 'issuer-1' }] });

function synth(extra: Record<string, unknown> = {}) {
  return readCdkJsonContext(PROJECT_ROOT).then((cdkContext) => {
    const app = new App({ context: { ...cdkContext, ...extra, 'aws:cdk:bundling-stacks': [] } });
    const stack = new PaycallStack(app, 'Gen', { allowMissingEntries: true });
    return { stack, resources: flatTemplateOf(stack).toJSON().Resources as Resources };
  });
}

describe('PaycallStack: AP2 v0.2 merchant authorization', () => {
  let s: Awaited<ReturnType<typeof synth>>;
  beforeAll(async () => {
    s = await synth({ ap2TrustedIssuers: TRUSTED });
  });
  const readsMerchantKey = (logicalId: string) =>
    actionsOf(s.resources, logicalId).some((g) => g.action === 'secretsmanager:GetSecretValue' && JSON.stringify(g.resource).includes('secret:paycall/ap2-merchant-key'));

  it('only the agent run functions (to sign) and the key set route (to publish its public half) read the merchant key; the runs are told its name and the trusted issuers', () => {
    const readers = Object.entries(s.stack.functionEntries).filter(([logicalId]) => readsMerchantKey(logicalId));
    const runFunctions = Object.entries(s.stack.functionEntries).filter(([, e]) => e.kind === 'route' && e.role === 'run');
    const keySet = Object.entries(s.stack.functionEntries).filter(([, e]) => e.kind === 'route' && e.role === 'merchant-key');
    expect(keySet.map(([, e]) => e.id)).toEqual(['AgentsJwks']);
    expect(readers.map(([id]) => id).sort()).toEqual([...runFunctions, ...keySet].map(([id]) => id).sort());
    expect(s.resources[keySet[0][0]].Properties.Environment.Variables.AP2_TRUSTED_ISSUERS).toBeUndefined();
    expect(runFunctions.map(([, e]) => e.kind === 'route' && e.route.id)).toEqual(expect.arrayContaining(['RunAgent', 'AgentA2aSend']));
    for (const [logicalId] of runFunctions) {
      const vars = s.resources[logicalId].Properties.Environment.Variables;
      expect(vars.AP2_MERCHANT_KEY_SECRET_ID).toBe('paycall/ap2-merchant-key');
      expect(vars.AP2_TRUSTED_ISSUERS).toBe(TRUSTED);
    }
  });

  it('the run functions may PutItem on the idempotency table (the single-use checkout nonces)', () => {
    const idempotency = s.stack.getLogicalId(s.stack.tables.idempotency.node.defaultChild as never);
    for (const [logicalId, entry] of Object.entries(s.stack.functionEntries)) {
      if (entry.kind !== 'route' || entry.role !== 'run') continue;
      const puts = actionsOf(s.resources, logicalId).filter((g) => g.action === 'dynamodb:PutItem' && refersTo(g.resource, idempotency));
      expect(puts.length, entry.id).toBeGreaterThan(0);
    }
  });

  it('without configured issuers the key set is empty (every mandate refused), and a malformed one fails synthesis', async () => {
    const bare = await synth();
    const [logicalId] = Object.entries(bare.stack.functionEntries).find(([, e]) => e.kind === 'route' && e.role === 'run')!;
    expect(bare.resources[logicalId].Properties.Environment.Variables.AP2_TRUSTED_ISSUERS).toBe('{"keys":[]}');
    await expect(synth({ ap2TrustedIssuers: '{"keys":[{"kty":"EC","crv":"P-256","d":"secret"}]}' })).rejects.toThrow(/ap2TrustedIssuers/);
  });
});
