/**
 * The generation stack synthesised in-process for infra tests, with cdk.json's context and no bundling. `template` and
 * `resources` are the core stack's with each surface's nested template folded in (lib/nested-templates.ts), so an
 * assertion reads the whole service as one template; `core` is the core stack's own.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { App, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { PaycallStack, type PaycallStackProps } from '../../lib/paycall-stack.js';
import { flattenNested, type CfnTemplate } from '../../lib/nested-templates.js';
import type { Resources } from './template.js';

export function synthGeneration(cdkContext: Record<string, unknown>, context: Record<string, unknown> = {}, props: PaycallStackProps = {}) {
  const app = new App({ context: { ...cdkContext, 'aws:cdk:bundling-stacks': [], ...context } });
  const stack = new PaycallStack(app, 'Gen', { allowMissingEntries: true, ...props });
  const flat = flatTemplate(stack);
  const template = Template.fromJSON(flat);
  return { stack, template, resources: flat.Resources as Resources, core: Template.fromStack(stack) };
}

/** The stack's template with its surfaces' nested templates folded in (synthesises the app). */
export function flatTemplate(stack: PaycallStack): CfnTemplate {
  const assembly = (stack.node.root as App).synth();
  const core = assembly.getStackArtifact(stack.artifactId).template as CfnTemplate;
  const nested = Object.fromEntries(
    stack.surfaceStacks.map((s) => [stack.getLogicalId(s.nestedStackResource as CfnElement), JSON.parse(readFileSync(path.join(assembly.directory, s.templateFile), 'utf8')) as CfnTemplate]),
  );
  return flattenNested(core, nested);
}

/** Template.fromStack of the whole service: the stack with its surfaces folded in. */
export function flatTemplateOf(stack: PaycallStack): Template {
  return Template.fromJSON(flatTemplate(stack));
}

/**
 * The context that names every optional secret a function may read beyond the always-present keys: the RPC URLs' and
 * the token seller's (the infra tests of secrets and of role grants synthesise with it).
 */
export const SECRET_READERS_CONTEXT = {
  rpcUrlSecretName: 'paycall/rpc-url',
  preconfRpcUrlSecretName: 'paycall/preconf-rpc-url',
  tokenIssuer: 'https://issuer.example.com',
  tokenJwksUrl: 'https://issuer.example.com/jwks.json',
  tokenChargeUrl: 'https://issuer.example.com/charge',
  tokenSellerId: 'seller-1',
};
