/**
 * The runbook (docs/deploy.md) step 16 finds a job's execution from its id through the stack's outputs: every state machine of the
 * template, each product's and the webhook delivery machine, is named by one.
 */
import { App } from 'aws-cdk-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { PaycallStack, PROJECT_ROOT, stateMachineOutputId } from '../../lib/paycall-stack.js';
import { readCdkJsonContext } from '../../lib/config.js';
import { WEBHOOK_STATE_MACHINE_OUTPUT } from '../../lib/webhook-workflow.js';
import { ofType, type Resources } from '../support/template.js';
import { flatTemplateOf } from '../support/synth.js';

describe('every state machine is a stack output', () => {
  let stack: PaycallStack;
  let template: { Resources: Resources; Outputs: Record<string, { Value: unknown }> };
  beforeAll(async () => {
    const app = new App({ context: { ...(await readCdkJsonContext(PROJECT_ROOT)), 'aws:cdk:bundling-stacks': [] } });
    stack = new PaycallStack(app, 'Gen', { allowMissingEntries: true });
    template = flatTemplateOf(stack).toJSON() as typeof template;
  });

  it('each AWS::StepFunctions::StateMachine has an output whose value is its ARN', () => {
    const machines = ofType(template.Resources, 'AWS::StepFunctions::StateMachine').map(([id]) => id);
    expect(machines.length).toBe(Object.keys(stack.products).length + 1);
    const named = (id: string) => Object.keys(template.Outputs).filter((output) => JSON.stringify(template.Outputs[output].Value) === JSON.stringify({ Ref: id }));
    for (const id of machines) expect(named(id), id).toHaveLength(1);
  });

  it('the products as MusicStateMachineArn, …, the webhook delivery machine as WebhookStateMachineArn', () => {
    const arnOf = (machine: { node: { defaultChild?: unknown } }) => ({ Ref: stack.getLogicalId(machine.node.defaultChild as any) });
    for (const product of Object.values(stack.products)) {
      expect(template.Outputs[stateMachineOutputId(product)].Value).toEqual(arnOf(stack.stateMachines[product.id]));
    }
    expect(WEBHOOK_STATE_MACHINE_OUTPUT).toBe('WebhookStateMachineArn');
    expect(template.Outputs[WEBHOOK_STATE_MACHINE_OUTPUT].Value).toEqual(arnOf(stack.webhookMachine));
  });
});
