/** Rules scoped to what they name: a class rule about flights is no rule for a train, a taxi's tip cap no dinner's. */
import type { Policy } from './policy.js';
import type { Category, FareClass } from './words.js';

/** The modes of travel a class rule names: air ("fly", "flights", "air") or rail ("train", "Acela"). */
export function travelModes(s: string): Category[] {
  const modes: Category[] = [];
  if (/\b(?:air|airfare|fly|flying|flights?|airlines?|plane|planes)\b/.test(s)) modes.push('airfare');
  if (/\b(?:rail|railway|trains?|amtrak|acela|eurostar|sncf|bahn|tgv)\b/.test(s)) modes.push('rail');
  return modes;
}

/**
 * The policy as it applies to an item of that category: a fare-class rule about one mode of travel does not apply to
 * another ("Business class air is not reimbursable" is no rule for a train). An item of no known category is held to
 * every class rule.
 */
export function forCategory(policy: Policy, category: Category | undefined): Policy {
  const applies = (text: string) => {
    const scope = policy.classScope.get(text) ?? [];
    return scope.length === 0 || category === undefined || scope.includes(category);
  };
  const keep = <V>(m: Map<FareClass, V>, text: (v: V) => string) => new Map([...m].filter(([, v]) => applies(text(v))));
  // A tip cap naming its categories ("taxis … including a tip up to 15%") is theirs only; naming none, it is every item's.
  const tips = policy.tipCap?.categories ?? [];
  return {
    ...policy,
    tipCap: tips.length === 0 || (category !== undefined && tips.includes(category)) ? policy.tipCap : undefined,
    forbiddenClasses: keep(policy.forbiddenClasses, (t) => t),
    approvalClasses: keep(policy.approvalClasses, (v) => v.text),
    // A rule naming the item's own mode before one naming none.
    allowedClasses: policy.allowedClassRules.find((r) => category !== undefined && (policy.classScope.get(r.text) ?? []).includes(category)) ??
      policy.allowedClassRules.find((r) => applies(r.text)),
  };
}
