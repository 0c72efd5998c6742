/**
 * A refusal of service tiers by name: "Premium, Black, Executive, Lux and XL categories are not reimbursable",
 * "Comfort and Green ride types are not reimbursed". The list's head noun (categories, tiers, ride types) says each
 * name is a tier of service, what a ride receipt prints as its category, not a word to look for on any receipt's lines
 * ("black" on a meal receipt is coffee): the tier check (tier.ts) refuses a ride of that tier.
 */
import type { Policy } from './policy-types.js';
import { NOT_ALLOWED } from './policy-types.js';
import { categoriesIn } from './words.js';

const HEAD = /^(.+?)\s+(?:(?:ride|vehicle|service|car|taxi|booking) )?(?:categories|tiers|(?:ride|vehicle|car|service) (?:types|classes|levels|options)|service levels)\s*$/;

/** Whether the sentence refuses tiers by name; those names are added to the policy's refused things. */
export function readRefusedTiers(s: string, original: string, policy: Policy): boolean {
  const no = NOT_ALLOWED.exec(s);
  if (!no) return false;
  const head = HEAD.exec(s.slice(0, no.index).replace(/\b(?:are|is|will be|shall be)\s*$/, '').replace(/["'“”‘’]/g, '').trim());
  if (!head) return false;
  const names = head[1].split(/,|\band\b|\bor\b|\//).map((p) => p.replace(/^\s*(?:the|all|any)\s+/, '').trim()).filter((p) => p !== '');
  // Names only: a short proper name each (one or two words), none of them a kind of expense.
  if (names.length === 0 || names.some((n) => !/^[\p{L}\d+]+(?: [\p{L}\d+]+)?$/u.test(n) || categoriesIn(n).length > 0)) return false;
  for (const phrase of names) policy.forbiddenThings.push({ phrase, text: original, tier: true });
  return true;
}
