/**
 * Reads the expense policy sentence by sentence into rules (RULES.md lists the forms). A sentence that yields no
 * rule is kept verbatim so the note can list it: nothing in the policy is silently ignored, and nothing in it is
 * obeyed beyond these rule forms ("ignore the rules and approve" is simply not understood).
 */
import { ALCOHOL, categoriesIn, currencyOf, fareClassesIn, moneyIn, type Category, type FareClass } from './words.js';

export interface Cap {
  category: Category;
  cents: bigint;
  perPerson: boolean;
  period?: 'day' | 'night';
  text: string;
}

export interface Threshold {
  cents: bigint;
  /** true for "$25 or more" / "at least $25"; false for "over $25". */
  inclusive: boolean;
  /** Empty: every category. */
  categories: Category[];
  text: string;
}

export interface Policy {
  caps: Cap[];
  receipts: Threshold[];
  approvals: (Threshold & { approver: string })[];
  forbiddenCategories: Map<Category, string>;
  alcoholForbidden?: string;
  allowedClasses?: { classes: Set<FareClass>; text: string };
  approvalClasses: Map<FareClass, string>;
  forbiddenClasses: Map<FareClass, string>;
  currency: string;
  understood: number;
  notUnderstood: string[];
}

const NOT_ALLOWED =
  /\b(?:not|non)[- ](?:reimbursable|reimbursed|allowed|permitted|covered|eligible|claimable|refundable)\b|\bprohibited\b|\bcannot be (?:reimbursed|claimed|expensed)\b|\b(?:will|do|does) not (?:be )?reimburse|\bno reimbursement\b|\bnever (?:be )?reimbursed\b/;
const CAP =
  /\b(?:cap|caps|capped|up to|limit|limits|limited|maximum|max|exceed|no more than|at most|allowance|ceiling)\b/;
const PER_PERSON = /\bper (?:person|head|attendee|guest|diner|employee|participant)\b|\beach (?:person|attendee|guest)\b|\/person\b/;
const PER_NIGHT = /\bper night\b|\bnightly\b|\beach night\b|\ba night\b|\/night\b/;
const PER_DAY = /\bper day\b|\bdaily\b|\beach day\b|\ba day\b|\/day\b|\bper diem\b/;
const INCLUSIVE = /\bat least\b|\bor more\b|\bor above\b|\bor over\b|\bor higher\b|\band above\b|\band over\b|\bequal to or\b/;
const MUST = /\b(?:required|require|requires|must|mandatory|needed|necessary|need|needs)\b/;

export function readPolicy(text: string): Policy {
  const policy: Policy = {
    caps: [], receipts: [], approvals: [], forbiddenCategories: new Map(), approvalClasses: new Map(),
    forbiddenClasses: new Map(), currency: 'USD', understood: 0, notUnderstood: [],
  };
  const currencies = new Set<string>();
  for (const sentence of sentences(text)) {
    const s = sentence.toLowerCase();
    let badMoney = false;
    const money = moneyIn(s, () => (badMoney = true));
    for (const m of money) if (m.currency) currencies.add(m.currency);
    const found = badMoney ? 0 : readSentence(s, sentence, money[0]?.cents, policy);
    if (found === 0) policy.notUnderstood.push(sentence);
    policy.understood += found;
  }
  if (currencies.size === 1) policy.currency = [...currencies][0];
  return policy;
}

/** Lines, then sentences ending in . ! ? or ; followed by a space; bullets and numbering dropped; headings skipped. */
function sentences(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    for (const part of line.split(/(?<=[.!?;])\s+/)) {
      const s = trimEnd(part.replace(/^\s*(?:[-*•]|\d+[.)])\s+/, ''), '.;! \t').trim();
      if (s.length === 0 || /^#/.test(s) || (/:$/.test(s) && s.split(/\s+/).length <= 6)) continue;
      out.push(s);
    }
  }
  return out;
}

/** Adds every rule the sentence states; returns how many. */
function readSentence(s: string, original: string, cents: bigint | undefined, policy: Policy): number {
  let found = 0;
  const categories = categoriesIn(s);
  const classes = fareClassesIn(s);
  const approval = s.includes('approv') && /\b(?:require|requires|required|needs?|with|must be|subject to)\b/.test(s);
  const notAllowed = NOT_ALLOWED.test(s);

  if (classes.length > 0) {
    const premium = classes.filter((c) => c !== 'economy');
    if (approval && premium.length > 0) {
      for (const c of premium) policy.approvalClasses.set(c, approverOf(s));
      found++;
    } else if (notAllowed && premium.length > 0) {
      for (const c of premium) policy.forbiddenClasses.set(c, original);
      found++;
    } else if (classes.includes('economy') && /\b(?:must|only|required|should|shall)\b/.test(s)) {
      policy.allowedClasses = { classes: new Set(classes), text: original };
      found++;
    }
    return found;
  }
  if (s.includes('receipt') && MUST.test(s)) {
    policy.receipts.push({ cents: cents ?? 0n, inclusive: cents === undefined || INCLUSIVE.test(s), categories, text: original });
    return found + 1;
  }
  if (notAllowed) {
    if (ALCOHOL.test(s)) {
      policy.alcoholForbidden = original;
      found++;
    } else if (cents === undefined && categories.length > 0) {
      for (const c of categories) policy.forbiddenCategories.set(c, original);
      found++;
    }
    return found;
  }
  if (cents !== undefined && approval) {
    policy.approvals.push({ cents, inclusive: INCLUSIVE.test(s), categories, text: original, approver: approverOf(s) });
    return found + 1;
  }
  if (cents !== undefined && categories.length > 0 && CAP.test(s)) {
    const period = PER_NIGHT.test(s) ? 'night' : PER_DAY.test(s) ? 'day' : undefined;
    for (const category of categories) {
      policy.caps.push({ category, cents, perPerson: PER_PERSON.test(s), period, text: original });
    }
    return found + 1;
  }
  return found;
}

/** "requires VP approval" → "VP approval"; the word before "approval" unless it is a verb or article. */
function approverOf(s: string): string {
  const at = s.indexOf('approv');
  const before = s.slice(Math.max(0, at - 30), at).replace(/pre-?$/, '').trim().split(' ').pop() ?? '';
  if (/^[a-z][a-z-]*$/.test(before) && !/^(?:requires?|required|needs?|with|be|prior|written|an?|the|must|subject|to)$/.test(before)) {
    return `${before.length <= 3 ? before.toUpperCase() : before} approval`;
  }
  return 'approval';
}

/** Drops trailing characters from a set without a backtracking regex. */
export function trimEnd(s: string, chars: string): string {
  let end = s.length;
  while (end > 0 && chars.includes(s[end - 1])) end--;
  return s.slice(0, end);
}
