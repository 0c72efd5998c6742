/**
 * What a policy is read into (policy.ts reads it): its rules, the sentences they come from, and the words of a rule
 * shared by the readers of its sentences.
 */
import type { Src } from './evidence.js';
import type { Schedules } from './per-diem.js';
import type { PlaceTables } from './places.js';
import type { Grades } from './grades.js';
import type { TripRule } from './trip-length.js';
import type { ApprovalThing } from './named.js';
import type { ProofRule } from './proof-rules.js';
import type { OutsideRule } from './attendees.js';
import type { AbsenceRates } from './absence-rates.js';
import type { GradeLine } from './grade-line.js';
import type { MealCuts, ReturnDay } from './allowance-rates.js';
import type { Category, FareClass } from './words.js';

export interface Cap {
  category: Category;
  cents: bigint;
  perPerson: boolean;
  period?: 'day' | 'night';
  text: string;
  /** A table row's limit: the words of the row's first cell ("team meal internal staff only"), to pick the row an
   * expense is filed under among several of one category (breakfast, lunch, team meal, client meal). */
  scope?: string[];
  /** A limit for some places ("USD 140 per day in Zurich, London"): the places; with `group`, the limits of one rule
   * by place, the one without places being for everywhere else (place-sentences.ts). */
  places?: string[];
  group?: string;
  /** A cap on one kind of folio line ("Hotel parking … up to $60 per night"): folio-lines.ts. */
  kind?: string;
  /** The words of the heading the limit is stated under, kept as its scope when another heading limits the same category. */
  headingScope?: string[];
}

export interface Threshold {
  cents: bigint;
  /** true for "$25 or more" / "at least $25"; false for "over $25". */
  inclusive: boolean;
  /** Empty: every category. */
  categories: Category[];
  text: string;
  /** A receipt rule asking for an itemised receipt: a card slip or statement line alone does not meet it. */
  itemised?: boolean;
}

export interface Rate {
  /** Cents per unit with two extra decimals (0.725 → 7250), so rates below a cent stay exact. */
  milli: bigint;
  unit: 'mile' | 'km';
  /** The tier: units already claimed in the year up to which (from `after`) this rate applies. */
  after: bigint;
  upTo?: bigint;
  /** A rate for another vehicle than a car ("motorcycles"): a car's log is not paid at it. */
  vehicle?: string;
  text: string;
}

export interface TipCap {
  bp: bigint;
  text: string;
  categories: Category[];
}

export interface Policy {
  /** "Tips are reimbursable up to 20% of the pre-tax food and beverage amount": basis points of the pre-tax amount.
   * The cap that holds an item (forCategory picks it from `tipCaps`). */
  tipCap?: TipCap;
  /** Every tip cap the policy states, each with the categories it names (none: every item's). */
  tipCaps?: TipCap[];
  perDiem?: { full?: bigint; partial?: bigint; partialBp?: bigint; text: string[] };
  /** Per-diem rates per place and each rate's meals, read from the policy's tables (per-diem.ts). */
  schedules: Schedules;
  /** Entitlements by grade and city tier (grades.ts). */
  grades?: Grades;
  /** Caps per place read from the policy's tables of cities (places.ts). */
  places: PlaceTables;
  /** "When a meal is furnished to you … deduct that meal's amount … from that day's M&IE": the sentence. */
  mealDeduction?: string;
  mileage: Rate[];
  /** The sentence saying the normal commute is not paid (deducted from a log's legs from home). */
  commute?: string;
  /** Words of personal charges the policy refuses ("minibar", "movie"): deducted from a receipt or folio. */
  personal: Map<string, string>;
  /** The sentence saying a claim that includes a personal charge is returned: those lines are then refused. */
  personalRefused?: string;
  /** "Expenses submitted more than 60 days after the expense date are not reimbursable": the days and the sentence. */
  ageLimit?: { days: number; text: string };
  /** "La dieta cubre todas las comidas del día": meals on an allowance day are not paid again (allowance-rates.ts). */
  mealsCovered?: string;
  /** The return day's cut-off hour and the rate of a day without an overnight stay (allowance-rates.ts). */
  returnDay?: ReturnDay;
  /** The cut of a day's allowance for each meal provided (allowance-rates.ts). */
  mealCuts?: MealCuts;
  /** A daily allowance by grade on one line (grade-line.ts). */
  gradeLine?: GradeLine;
  /** Day subsistence by hours of absence (absence-rates.ts). */
  absenceRates?: AbsenceRates;
  /** "At least one person from outside the company must attend": attendees.ts. */
  outsideAttendees?: OutsideRule[];
  /** Things paid only on trips of some length ("laundry on trips under 5 nights"): trip-length.ts. */
  tripRules: TripRule[];
  /** "Expenses not described in this policy are not reimbursable": the sentence. */
  scope?: string;
  /** Every category the policy's sentences name, for the scope rule. */
  described: Set<Category>;
  caps: Cap[];
  receipts: (Threshold & { except: Category[] })[];
  /** The sentence saying room taxes are paid at cost on top of the nightly cap (folio-lines.ts). */
  taxesExtra?: string;
  /** What is no receipt ("the terminal slip is NOT an itemized receipt"): proof-rules.ts. */
  proofRules: ProofRule[];
  /** "Any item … missing a required receipt is flagged for the Controller": the sentence; a missing receipt is then
   * a flag (held for review, nothing paid), not a refusal. */
  missingReceiptFlagged?: string;
  /** Categories a sentence says need no receipt ("No receipts are required for the allowance"). */
  receiptFree: Category[];
  /** "Train and bus fares under JPY 3,000 need no receipt": categories free of the receipt rules below an amount. */
  receiptFreeBelow?: { categories: Category[]; cents: bigint; text: string }[];
  approvals: (Threshold & { approver: string })[];
  /** Kinds of expense named as needing an approval ("Global Entry", "TSA PreCheck"): named.ts. */
  approvalThings: ApprovalThing[];
  forbiddenCategories: Map<Category, string>;
  /** Things refused by name in a not-reimbursable list ("seat upgrades", "Economy Plus", "Uber Black"), with the sentence. */
  forbiddenThings: { phrase: string; text: string; /** a tier of service ("XL categories"), found on a ride's tier only */ tier?: true }[];
  alcoholForbidden?: string;
  /** The sentence refusing the alcohol itself ("The alcohol on a meal receipt is refused", "Alcohol will be rejected"),
   * not only leaving it unpaid: itemised alcohol is then rejected (the claim is rejected, the rest of the receipt still
   * paid) rather than deducted with a flag. */
  alcoholRefused?: string;
  allowedClasses?: { classes: Set<FareClass>; text: string };
  /** Every "must be economy" rule, one per mode of travel ("Airfare must be economy", "Rail travel is in 2nd class
   * only"): `forCategory` keeps the one about the item's mode as `allowedClasses`. */
  allowedClassRules: { classes: Set<FareClass>; text: string }[];
  /** The approver each class needs ("VP approval") and the sentence saying so. */
  approvalClasses: Map<FareClass, { approver: string; text: string }>;
  forbiddenClasses: Map<FareClass, string>;
  /** The modes of travel each class rule is about (its sentence → airfare, rail); none: every mode. */
  classScope: Map<string, Category[]>;
  currency: string;
  /** The sentence that states the currency the policy pays in, when one does. */
  currencyText?: string;
  understood: number;
  notUnderstood: string[];
  /** Each sentence → the heading it sits under, for what a sentence with no subject of its own is about. */
  under: Map<string, string>;
  /** Each sentence read → its 1-based line in the policy, so a violation can cite the sentence it breaks. */
  lineOf: Map<string, number>;
}

export const NOT_ALLOWED =
  /\b(?:not|non)[- ](?:reimbursable|reimbursed|allowed|permitted|covered|eligible|claimable|refundable)\b|\bprohibited\b|\bcannot be (?:reimbursed|claimed|expensed)\b|\b(?:will|do|does) not (?:be )?reimburse|\b(?:don't|doesn't|won't|do not|does not) (?:pay for|cover|reimburse)|\bno reimbursement\b|\bnever (?:be )?reimbursed\b/;
export const CAP =
  /\b(?:cap|caps|capped|up to|limit|limits|limited|maximum|max|exceed|no more than|at most|allowance|ceiling)\b/;
export const PER_PERSON = /\bper (?:person|head|attendee|guest|diner|employee|participant|recipient)\b|\beach (?:person|attendee|guest)\b|\/person\b/;
export const PER_NIGHT = /\bper night\b|\bnightly\b|\beach night\b|\ba night\b|\/night\b/;
export const PER_DAY = /\bper (?:calendar |travel )?day\b|\bdaily\b|\beach day\b|\ba day\b|\/day\b|\bper diem\b/;
export const INCLUSIVE = /\bat least\b|\bor more\b|\bor above\b|\bor over\b|\bor higher\b|\band above\b|\band over\b|\bequal to or\b/;
export const MUST = /\b(?:required|require|requires|must|mandatory|needed|necessary|need|needs)\b/;

/** A policy sentence as evidence: the sentence and the line it was read from. */
export function policySource(policy: Policy, text: string): Src {
  return { field: 'expensePolicy', line: policy.lineOf.get(text), quote: text };
}
