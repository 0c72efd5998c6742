/** The generation stack synthesised in-process for infra tests, with cdk.json's context and no bundling. */
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { GenerationStack, type GenerationStackProps } from '../../lib/generation-stack.js';
import type { Resources } from './template.js';

export function synthGeneration(cdkContext: Record<string, unknown>, context: Record<string, unknown> = {}, props: GenerationStackProps = {}) {
  const app = new App({ context: { ...cdkContext, 'aws:cdk:bundling-stacks': [], ...context } });
  const stack = new GenerationStack(app, 'Gen', { allowMissingEntries: true, ...props });
  const template = Template.fromStack(stack);
  return { stack, template, resources: template.toJSON().Resources as Resources };
}
