/**
 * A ride's service tier, as its receipt prints it ("Category: Premium", "Ride type: Uber Black"): what the whole ride
 * was, not one of its charges. A policy refusing that tier by name refuses the ride; a policy sentence this agent did
 * not read that refuses something named by the tier's word holds the ride for a reviewer, its amount withheld, rather
 * than paying a tier the policy may refuse.
 */
import type { Src } from './evidence.js';
import type { Item } from './expense.js';
import type { Finding } from './item.js';
import { NOT_ALLOWED, type Policy } from './policy.js';
import { phraseIn } from './things.js';

/** The findings on the item's tier, and whether they withhold it. */
export function tierFindings(item: Item, policy: Policy, cite: (rules: (string | undefined)[], lines?: Src[]) => Src[]): { findings: Finding[]; withheld: boolean } {
  const tier = item.tier;
  if (tier === undefined) return { findings: [], withheld: false };
  const line: Src[] = [{ field: 'expense', line: tier.line, quote: tier.text }];
  const word = tier.tier.toLowerCase();
  const refused = policy.forbiddenThings.find((t) => phraseIn(t.phrase).test(word));
  if (refused) {
    return {
      findings: [{ severity: 'reject', kind: 'refused item', text: `${refused.phrase} is not reimbursable ("${refused.text}"): the receipt says the ride was "${tier.text}"`, sources: cite([refused.text], line) }],
      withheld: false,
    };
  }
  // The tier's name before the sentence's refusal ("Premium, Black and Lux categories are not reimbursable").
  const named = new RegExp(`(?<![\\p{L}\\d])${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\d])`, 'iu');
  const unread = policy.notUnderstood.find((s) => {
    const lower = s.toLowerCase();
    const no = NOT_ALLOWED.exec(lower) ?? /\b(?:refused|rejected)\b/.exec(lower);
    const at = named.exec(lower);
    return no !== null && at !== null && at.index < no.index;
  });
  if (!unread) return { findings: [], withheld: false };
  return {
    findings: [{ severity: 'flag', kind: 'policy sentence not understood', text: `the receipt says the ride was "${tier.text}", a tier this policy names in a sentence the agent could not apply ("${unread}"): held for a reviewer, withheld until applied`, sources: cite([unread], line) }],
    withheld: true,
  };
}

export const PICKUP = /^(?:pick-?up|pickup location|from)\s*:/i;
export const DROPOFF = /^(?:drop-?off|dropoff location|destination|to)\s*:/i;

/** A ride's service tier as its receipt prints it ("Category: Premium", "Ride type: UberX", "Vehicle: Comfort"). */
export function tierOf(own: string[] | undefined): { text: string; tier: string } | undefined {
  if (!own?.some((l) => PICKUP.test(l)) || !own.some((l) => DROPOFF.test(l))) return undefined;
  for (const line of own) {
    const m = /^(?:category|ride type|ride class|vehicle(?: type| class)?|service(?: type| level)?|car type|class|tier|product)\s*:\s*(\p{L}[\p{L}\d +-]{0,30})$/iu.exec(line.trim());
    if (m) return { text: line.trim(), tier: m[1].trim() };
  }
  return undefined;
}
