/** Reading a synthesized CloudFormation template in infra tests: resources by type, and what a function's role may do. */
export type Resources = Record<string, { Type: string; Properties?: any; DeletionPolicy?: string; UpdateReplacePolicy?: string }>;

export function ofType(resources: Resources, type: string) {
  return Object.entries(resources).filter(([, r]) => r.Type === type);
}

/** Every IAM action granted to the role of a function (policies attached to that role). */
export function actionsOf(resources: Resources, functionLogicalId: string): { action: string; resource: unknown }[] {
  const roleRef = resources[functionLogicalId].Properties.Role['Fn::GetAtt'][0] as string;
  const out: { action: string; resource: unknown }[] = [];
  for (const [, policy] of ofType(resources, 'AWS::IAM::Policy')) {
    if (!policy.Properties.Roles.some((r: any) => r.Ref === roleRef)) continue;
    for (const st of policy.Properties.PolicyDocument.Statement) {
      if (st.Effect !== 'Allow') continue;
      const actions = Array.isArray(st.Action) ? st.Action : [st.Action];
      const res = Array.isArray(st.Resource) ? st.Resource : [st.Resource];
      for (const a of actions) for (const r of res) out.push({ action: a, resource: r });
    }
  }
  return out;
}

export const refersTo = (resource: unknown, logicalId: string) => JSON.stringify(resource).includes(`"${logicalId}"`);
