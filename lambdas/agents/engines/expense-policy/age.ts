/**
 * The submission deadline: "Expenses submitted more than 60 days after the expense date are not reimbursable". An
 * item dated more than that many days before the claim's submission date is refused. Only a deadline the policy
 * says refuses the expense is applied; "Submit within 30 days" alone states no consequence and is not applied.
 * Without a submission date in the claim nothing can be decided and nothing is refused (the note says why).
 */
import { readDate } from '../text/dates.js';
import type { ItemResult } from './claim.js';
import { policySource, type Policy } from './policy.js';

const REFUSES = /\b(?:not (?:be )?(?:reimbursable|reimbursed|paid|accepted|eligible)|will be (?:rejected|denied|refused)|are (?:rejected|denied|refused)|cannot be (?:reimbursed|paid|claimed))\b/;

/** "submitted more than 60 days after the expense date are not reimbursable" → 60. */
export function readAgeLimit(s: string, original: string, policy: Policy): number {
  const after = /\b(?:more than|over|later than|beyond|older than|after)\s+(\d{1,3})\s+(?:calendar\s+)?days\b/.exec(s);
  if (!after || !/\bsubmi(?:t|tted|ssion)\b|\bclaimed\b|\bolder\b/.test(s) || !REFUSES.test(s)) return 0;
  policy.ageLimit = { days: Number(after[1]), text: original };
  return 1;
}

/** The claim's submission date: a "Submitted Date" column's first value, or "Submitted: 03/09/2026" in the text. */
function submittedDay(text: string): number | undefined {
  const lines = text.split(/\r?\n/, 3);
  const header = lines[0]?.split(/[,;\t|]/).map((c) => c.replace(/"/g, '').trim().toLowerCase()) ?? [];
  const col = header.findIndex((c) => /^(?:submitted|submit|submission)(?: date| on)?$/.test(c));
  if (col >= 0 && lines[1]) return readDate(lines[1].split(/[,;\t|]/)[col]?.replace(/"/g, '') ?? '', 'mdy');
  const m = /\b(?:submitted|submit date|submission date|date submitted)\s*(?:on)?\s*:?\s*([0-9]{1,4}[/.-][0-9]{1,2}[/.-][0-9]{2,4}|[0-9]{1,2} [a-z]{3,9}\.? [0-9]{4}|[a-z]{3,9}\.? [0-9]{1,2},? [0-9]{4})/i.exec(text.slice(0, 20_000));
  return m ? readDate(m[1], 'mdy') : undefined;
}

export function lateItems(results: ItemResult[], policy: Policy, text: string, assumptions: Set<string>): void {
  const limit = policy.ageLimit;
  if (!limit) return;
  const submitted = submittedDay(text);
  if (submitted === undefined) {
    assumptions.add(`the claim shows no submission date, so the ${limit.days}-day deadline could not be checked`);
    return;
  }
  for (const r of results) {
    const day = r.item.date ? readDate(r.item.date, 'mdy') : undefined;
    if (day === undefined || submitted - day <= limit.days) continue;
    r.findings.push({ severity: 'reject', kind: 'submitted late', sources: [...r.item.at, policySource(policy, limit.text)],
      text: `dated ${r.item.date}, submitted ${submitted - day} days later, past the ${limit.days}-day limit ("${limit.text}")`,
      arithmetic: `${submitted - day} days > ${limit.days}` });
    r.allowed = 0n;
  }
}
