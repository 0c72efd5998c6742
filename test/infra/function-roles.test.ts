/**
 * Every synthesised function's IAM policy is exactly what its role's entry in lib/roles.ts grants: no more, no less.
 * The expectation is computed here from the table's data alone (not by lib/role-binder.ts), and each template
 * resource is read back to what it names (a table or one of its indexes, a secret by name, a machine or its
 * executions, the bucket or its objects). Once with cdk.json's context, once with every optional secret and the
 * reasoning model configured. The render functions keep grants of their own (their provider's): theirs must hold
 * RENDER_GRANTS at least.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/paycall-stack.js';
import { readCdkJsonContext } from '../../lib/config.js';
import { ROUTE_FUNCTIONS, routeFunctions } from '../../lib/function-map.js';
import { OTHER_ROLES, RENDER_GRANTS, ROLES, ROUTE_ROLES, type RoleGrants } from '../../lib/roles.js';
import { SECRET_USE } from '../../lib/role-binder.js';
import { CANCELLING_PROVIDERS, providerSecret } from '../../lambdas/render/providers.js';
import { routeTable, SIGN_IN_AUTHORIZER, SWEEPER, WORKFLOW_TASKS } from '../../lambdas/surfaces/routes.js';
import { RENDER_FUNCTIONS } from '../../lambdas/workflow/render-functions.js';
import { SECRET_READERS_CONTEXT, synthGeneration } from '../support/synth.js';
import type { Resources } from '../support/template.js';

type Synth = ReturnType<typeof synthGeneration>;

const EVERY_READER = { ...SECRET_READERS_CONTEXT, agentReasoning: 'vendor-risk-read-q0jjq' };

/** The names of the secrets the stack imports, by the role table's name for each (unset: not configured). */
function secretNames(s: Synth): Record<string, string | undefined> {
  const c = s.stack.config;
  return {
    settlerKey: c.facilitatorMode === 'self' ? c.settlerKeySecretName : undefined,
    tokenSellerKey: c.tokenIssuer ? c.tokenSellerKeySecretName : undefined,
    refundKey: c.refundKeySecretName,
    serviceKey: c.serviceKeySecretName,
    offerSigningKey: c.offerSigningKeySecretName,
    ap2MerchantKey: c.ap2MerchantKeySecretName,
    rpcUrl: c.rpcUrlSecretName,
    preconfRpcUrl: c.preconfRpcUrlSecretName,
  };
}

/** What a template resource names, in the words of the expectation. */
function describeResource(s: Synth, resource: unknown): string {
  const json = JSON.stringify(resource);
  const id = (construct: { node: { defaultChild?: unknown } }) => s.stack.getLogicalId(construct.node.defaultChild as any);
  if (resource === '*') return '*';
  for (const [name, table] of Object.entries(s.stack.tables)) {
    if (!json.includes(`"${id(table)}"`)) continue;
    const index = /\/index\/([A-Za-z0-9]+)/.exec(json);
    return index ? `table:${name}/index/${index[1]}` : `table:${name}`;
  }
  const machines: [string, any][] = [...Object.entries(s.stack.stateMachines), ['webhook', s.stack.webhookMachine]];
  for (const [product, machine] of machines) {
    const ref = s.stack.getLogicalId(machine.node.defaultChild);
    if (json === JSON.stringify({ Ref: ref })) return `machine:${product}`;
    if (json.includes(`"${ref}"`)) return `executions:${product}`;
  }
  const bucket = id(s.stack.assetsBucket);
  if (json.includes(`"${bucket}"`)) return json.includes('/*') ? 'bucket/*' : 'bucket';
  const names = [...Object.values(secretNames(s)), ...Object.values(s.stack.config.providerSecretNames)].filter((name): name is string => name !== undefined);
  const secret = names.sort((a, b) => b.length - a.length).find((name) => json.includes(`:secret:${name}`));
  if (secret) return `secret:${secret}`;
  if (json.includes('foundation-model')) return 'model';
  return json;
}

/** The function's grants as `action resource` lines. */
function actual(s: Synth, logicalId: string): string[] {
  const resources = s.resources as Resources;
  const roleRef = resources[logicalId].Properties.Role['Fn::GetAtt'][0] as string;
  const out = new Set<string>();
  for (const policy of Object.values(resources)) {
    if (policy.Type !== 'AWS::IAM::Policy' || !policy.Properties.Roles.some((r: any) => r.Ref === roleRef)) continue;
    for (const st of policy.Properties.PolicyDocument.Statement) {
      expect(st.Effect).toBe('Allow');
      for (const action of [st.Action].flat()) for (const resource of [st.Resource].flat()) out.add(`${action} ${describeResource(s, resource)}`);
    }
  }
  return [...out].sort();
}

/** What the role's table entry grants, computed from its data: tracing, then each kind of grant. */
function expected(s: Synth, role: RoleGrants, starts: readonly string[]): string[] {
  const out = new Set<string>(['xray:PutTraceSegments *', 'xray:PutTelemetryRecords *']);
  for (const [table, { actions, indexes = [] }] of Object.entries(role.tables ?? {})) {
    for (const action of actions) out.add(`dynamodb:${action} table:${table}`);
    for (const index of indexes) out.add(`dynamodb:Query table:${table}/index/${index}`);
  }
  const names = secretNames(s);
  const read = (name: string) => out.add(`secretsmanager:GetSecretValue secret:${name}`).add(`secretsmanager:DescribeSecret secret:${name}`);
  for (const secret of role.secrets ?? []) {
    if (secret === 'cancellingVendorKeys') {
      for (const provider of CANCELLING_PROVIDERS) {
        const which = providerSecret(provider);
        if (which) read(s.stack.config.providerSecretNames[which]);
      }
    } else if (secret === 'preconfRpcUrl') {
      if (names.preconfRpcUrl) out.add(`secretsmanager:GetSecretValue secret:${names.preconfRpcUrl}`);
    } else if (names[secret]) {
      if (SECRET_USE[secret].grant === 'read') read(names[secret]!);
      else out.add(`secretsmanager:GetSecretValue secret:${names[secret]}`);
    }
  }
  const products = Object.keys(s.stack.stateMachines);
  for (const product of role.start === 'all' ? products : role.start === 'own' ? starts : []) out.add(`states:StartExecution machine:${product}`);
  if (role.stop) for (const product of products) out.add(`states:StopExecution executions:${product}`);
  if (role.describe) for (const product of products) out.add(`states:DescribeExecution executions:${product}`);
  if (role.webhooks) out.add('states:StartExecution machine:webhook');
  if (role.bucket?.read) out.add('s3:GetObject bucket/*').add('s3:ListBucket bucket');
  if (role.bucket?.write) out.add('s3:PutObject bucket/*');
  if (role.reasoning && s.stack.node.tryGetContext('agentReasoning')) out.add('bedrock:InvokeModel model');
  return [...out].sort();
}

describe.each([
  ["cdk.json's context", {}],
  ['every optional secret and the reasoning model', EVERY_READER],
] as const)('each function is granted exactly its role (%s)', (_name, context) => {
  let s: Synth;
  beforeAll(async () => {
    s = synthGeneration(await readCdkJsonContext(PROJECT_ROOT), context);
  });

  it('every route function: its role in ROUTE_ROLES; the sweeper, the authorizer and each task: theirs in OTHER_ROLES', () => {
    const functions = routeFunctions(routeTable(s.stack.products));
    let checked = 0;
    for (const [logicalId, entry] of Object.entries(s.stack.functionEntries)) {
      if (entry.kind === 'task' && RENDER_FUNCTIONS.some((r) => r.id === entry.id)) continue;
      const role = entry.kind === 'route' ? ROUTE_ROLES[entry.role] : ROLES[entry.id as keyof typeof ROLES];
      expect(role, entry.id).toBeDefined();
      const starts = entry.kind === 'route' ? functions.find((fn) => fn.id === entry.id)!.starts : [];
      expect(actual(s, logicalId), entry.id).toEqual(expected(s, role, starts));
      checked++;
    }
    expect(checked).toBe(functions.length + Object.keys(OTHER_ROLES).length);
  });

  it('every render function holds RENDER_GRANTS (and its provider\'s own grants besides)', () => {
    for (const [logicalId, entry] of Object.entries(s.stack.functionEntries)) {
      if (!RENDER_FUNCTIONS.some((r) => r.id === entry.id)) continue;
      expect(actual(s, logicalId), entry.id).toEqual(expect.arrayContaining(expected(s, RENDER_GRANTS, [])));
    }
  });
});

describe('the role table', () => {
  it('names a role for each function that serves no route, by its id', () => {
    expect(Object.keys(OTHER_ROLES).sort()).toEqual([SWEEPER.id, SIGN_IN_AUTHORIZER.id, ...WORKFLOW_TASKS.map((t) => t.id)].sort());
  });

  it('has no route role that no route function takes', () => {
    const used = new Set(ROUTE_FUNCTIONS.map((fn) => fn.role));
    for (const role of Object.keys(ROUTE_ROLES)) expect(used.has(role as never), role).toBe(true);
  });
});
