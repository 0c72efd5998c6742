/** The generation stack synthesised in-process for infra tests, with cdk.json's context and no bundling. */
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { PaycallStack, type PaycallStackProps } from '../../lib/paycall-stack.js';
import type { Resources } from './template.js';

export function synthGeneration(cdkContext: Record<string, unknown>, context: Record<string, unknown> = {}, props: PaycallStackProps = {}) {
  const app = new App({ context: { ...cdkContext, 'aws:cdk:bundling-stacks': [], ...context } });
  const stack = new PaycallStack(app, 'Gen', { allowMissingEntries: true, ...props });
  const template = Template.fromStack(stack);
  return { stack, template, resources: template.toJSON().Resources as Resources };
}
