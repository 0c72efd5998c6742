/**
 * The service's templates read as one: the core stack's with each surface's nested template folded in (lib/surface-stack.ts).
 * The embedded runtime (lib/local/asl.ts) and the infra tests read the flat template, so a function's policy, its
 * environment and the tables it names resolve as they did when the service was one template.
 *
 * Folding a nested template in: each `Ref` to one of its parameters becomes the value the core stack passes for it
 * (a `Ref`/`Fn::GetAtt` of a core resource, a core parameter), each `Fn::GetAtt <nested stack>.Outputs.<name>` in the
 * core template becomes that output's value, and the AWS::CloudFormation::Stack resource itself is dropped. Logical ids
 * are per template, so two that meet are refused rather than one silently replacing the other.
 */
export type CfnResource = { Type: string; Properties?: Record<string, any>; [key: string]: unknown };
export interface CfnTemplate {
  Resources: Record<string, CfnResource>;
  Parameters?: Record<string, unknown>;
  Outputs?: Record<string, { Value: unknown; [key: string]: unknown }>;
  [key: string]: unknown;
}

function mapTokens(value: unknown, replace: (node: Record<string, unknown>) => unknown | undefined): unknown {
  if (Array.isArray(value)) return value.map((item) => mapTokens(item, replace));
  if (value === null || typeof value !== 'object') return value;
  const node = value as Record<string, unknown>;
  const replaced = replace(node);
  if (replaced !== undefined) return replaced;
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, mapTokens(v, replace)]));
}

/** `nested`: each nested template by the logical id of its AWS::CloudFormation::Stack resource in `core`. */
export function flattenNested(core: CfnTemplate, nested: Record<string, CfnTemplate>): CfnTemplate {
  const resources: Record<string, CfnResource> = {};
  const outputs: Record<string, Record<string, unknown>> = {};
  for (const [stackId, template] of Object.entries(nested)) {
    const stackResource = core.Resources[stackId];
    if (stackResource?.Type !== 'AWS::CloudFormation::Stack') throw new Error(`flattenNested: ${stackId} is not a nested stack of the core template`);
    const passed = (stackResource.Properties?.Parameters ?? {}) as Record<string, unknown>;
    const parameters = template.Parameters ?? {};
    const substitute = (value: unknown) =>
      mapTokens(value, (node) => {
        const ref = node.Ref;
        if (Object.keys(node).length !== 1 || typeof ref !== 'string' || !(ref in parameters)) return undefined;
        if (!(ref in passed)) throw new Error(`flattenNested: ${stackId} is passed no value for its parameter ${ref}`);
        return passed[ref];
      });
    for (const [id, resource] of Object.entries(template.Resources)) {
      if (id in core.Resources || id in resources) throw new Error(`flattenNested: logical id ${id} of ${stackId} is taken`);
      resources[id] = substitute(resource) as CfnResource;
    }
    outputs[stackId] = Object.fromEntries(Object.entries(template.Outputs ?? {}).map(([name, output]) => [name, substitute(output.Value)]));
  }
  const fromNested = (value: unknown) =>
    mapTokens(value, (node) => {
      const getAtt = node['Fn::GetAtt'];
      if (Object.keys(node).length !== 1 || !Array.isArray(getAtt) || !(getAtt[0] in outputs)) return undefined;
      const name = String(getAtt[1]).replace(/^Outputs\./, '');
      if (!(name in outputs[getAtt[0]])) throw new Error(`flattenNested: ${getAtt[0]} has no output ${name}`);
      return outputs[getAtt[0]][name];
    });
  const coreResources = Object.fromEntries(Object.entries(core.Resources).filter(([id]) => !(id in nested)).map(([id, r]) => [id, fromNested(r) as CfnResource]));
  return { ...core, Resources: { ...coreResources, ...resources }, ...(core.Outputs ? { Outputs: fromNested(core.Outputs) as CfnTemplate['Outputs'] } : {}) };
}
