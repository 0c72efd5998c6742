/**
 * Approvals required for kinds of expense the policy names rather than a category ("TSA PreCheck, Global Entry and
 * NEXUS application or renewal fees are reimbursable … only with the prior written approval of the employee's Vice
 * President attached"): an item whose own text names one of them is held (flag, nothing paid now) until the approval is
 * attached. A line saying the approval is still pending, requested or to follow is no approval.
 */
import type { ItemResult } from './claim.js';
import { policySource, type Policy } from './policy.js';
import { thingIn } from './things.js';

export interface ApprovalThing {
  phrase: string;
  approver: string;
  text: string;
}

/** The things the sentence's subject lists ("tsa precheck", "global entry", "nexus application", "renewal fees"). */
export function approvalThings(s: string, original: string, approver: string): ApprovalThing[] {
  const verb = /\b(?:are|is|require|requires|need|needs|must|may|will|can)\b/.exec(s);
  if (!verb || verb.index === 0) return [];
  const parts = s.slice(0, verb.index).replace(/\([^)]*\)/g, ' ').split(/,|;|\band\b|\bor\b|\bsuch as\b|\bincluding\b/);
  return parts.map((p) => p.replace(/\b(?:all|any|the|a|an|of|for|your|our)\b/g, ' ').replace(/\s+/g, ' ').trim())
    .filter((p) => p.length >= 3 && p.split(' ').length <= 5 && /[a-z]{3,}/.test(p))
    .map((phrase) => ({ phrase, approver, text: original }));
}

const GIVEN = /\b(?:approval|approved)\b[^.;\n]{0,40}\b(?:attached|granted|given|received|on file)\b|\bapproved by\b/i;
const NOT_YET = /\b(?:pending|requested|awaiting|to follow|not yet|will attach|still waiting)\b/i;

export function approvalThingCheck(results: ItemResult[], policy: Policy, m: (cents: bigint) => string): void {
  if (policy.approvalThings.length === 0) return;
  for (const r of results) {
    if (!r.open) continue;
    const own = [r.item.merchant, r.item.heading, r.item.text ?? r.item.evidence ?? r.item.label].filter(Boolean).join('\n');
    const rule = policy.approvalThings.find((t) => thingIn(t.phrase, own.toLowerCase()));
    if (!rule) continue;
    if (GIVEN.test(own) && !NOT_YET.test(own)) continue;
    const said = NOT_YET.exec(own);
    r.findings.push({
      severity: 'flag', kind: 'approval required', sources: [...r.item.at, policySource(policy, rule.text)],
      text: `${rule.phrase} requires ${rule.approver} ("${rule.text}")${said ? `; the expense says it is "${said[0]}"` : ', none is shown'}: ${m(r.allowed)} withheld until approved`,
    });
    r.allowed = 0n;
    r.open = false;
  }
}
