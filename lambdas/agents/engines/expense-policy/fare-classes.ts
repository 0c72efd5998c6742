/** Rules scoped to what they name: a class rule about flights is no rule for a train, a taxi's tip cap no dinner's. */
import type { Policy } from './policy.js';
import type { TipCap } from './policy-types.js';
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
  return {
    ...policy,
    tipCap: tipCapFor(policy.tipCaps ?? (policy.tipCap ? [policy.tipCap] : []), category),
    forbiddenClasses: keep(policy.forbiddenClasses, (t) => t),
    approvalClasses: keep(policy.approvalClasses, (v) => v.text),
    // A rule naming the item's own mode before one naming none.
    allowedClasses: policy.allowedClassRules.find((r) => category !== undefined && (policy.classScope.get(r.text) ?? []).includes(category)) ??
      policy.allowedClassRules.find((r) => applies(r.text)),
  };
}

/**
 * The tip cap an item of that category is held to. A cap naming categories ("taxis … including a tip up to 15%") is
 * theirs only; naming none, it is every item's. A cap naming the item's own category comes before one naming none
 * (the meal tip is held to the meal cap, not to the rideshare one); of several, the lowest share.
 */
function tipCapFor(caps: TipCap[], category: Category | undefined): TipCap | undefined {
  const lowest = (xs: TipCap[]) => xs.reduce<TipCap | undefined>((a, x) => (a === undefined || x.bp < a.bp ? x : a), undefined);
  const own = category === undefined ? [] : caps.filter((c) => c.categories.includes(category));
  return lowest(own) ?? lowest(caps.filter((c) => c.categories.length === 0));
}
