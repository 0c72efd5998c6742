/**
 * The agent studio's catalog as the documents read it: who each agent is, what it costs, where it is deployed, its
 * tags and review boundaries, and which engine family runs it; no schema library and no engine. The documents
 * function (lambdas/http/agents/documents.ts) is built from this, lambdas/agents/published.ts and the generated
 * JSON Schemas and examples, so it carries neither zod nor the engines' code; lambdas/agents/registry.ts adds each
 * family's zod schemas and engine to these entries for the run path. Every price and name is written here once.
 *
 * Kinds: a `published` agent is sold to anyone; a `company-employee` works inside one company (listed in the
 * catalog, never an MCP tool); a `relay` service is run by an upstream resource and answered in the resource-run
 * envelope. Deployment: `live` names the version that runs (immutable or not); `null` means not published: the agent
 * is in no document and its routes answer 404.
 */
import type { RunRouteId } from '../surfaces/paths.js';
import type { AGENT_EXAMPLES } from './examples.js';

export type AgentKind = 'published' | 'company-employee' | 'relay';

/** The engine folder an agent runs (lambdas/agents/engines/<family>): its schemas, engine and example. */
export type AgentFamily = keyof typeof AGENT_EXAMPLES;

export interface AgentDeployment {
  /** The version label that runs, e.g. `v1`. */
  version: string;
  /** An immutable Live deployment never changes under a version label (MCP lists only these). */
  immutable: boolean;
}

export interface AgentListing {
  slug: string;
  /** The id of the agent before slugs (accepted wherever a slug is). */
  legacyId: string;
  name: string;
  description: string;
  /** USDC base units per successful paid call; 0n = free. */
  price: bigint;
  /** Its schemas, engine and example (agents of one family share them). */
  family: AgentFamily;
  /** Where its RULES.md lives in the repository (shown in documents as the engine's rules). */
  rules: string;
  tags: readonly string[];
  /** What a person must still decide or check; the agent's answer is advisory there. */
  humanReview: readonly string[];
  kind: AgentKind;
  deployment: AgentDeployment | null;
  /** The route id of its fixed run route (lambdas/surfaces/paths.ts RUN_PATHS), if it has one. */
  route?: Exclude<RunRouteId, 'RunAgent'>;
  /** A relay's upstream resource: what served the run (the resource-run envelope names it). */
  relay?: { resource: string; provider: string };
  /**
   * AP2 v0.2 merchant authorization (experimental; absent = 'optional'): 'required' refuses a priced live run
   * without valid mandates; dry runs and free agents never need them (docs/protocols.md, "AP2").
   */
  ap2?: 'optional' | 'required';
}

const LIVE_V1: AgentDeployment = { version: 'v1', immutable: true };

export const AGENT_LISTINGS: readonly AgentListing[] = [
  {
    slug: 'vendor-risk-read-q0jjq',
    legacyId: 'agt_q0jjq',
    name: 'Vendor risk read',
    description:
      'Reads a vendor profile (onboarding form, email or notes) for the red flags a procurement team checks: sanctioned ' +
      'or high-risk jurisdictions, missing tax id / W-9, a very young company, a PO-box-only address, third-party payment ' +
      'or bank-detail changes, upfront payment demands and unverifiable identity; grades the risk, decides onboard / hold / ' +
      'decline and lists the documents still to collect.',
    price: 80_000n,
    family: 'vendor-risk',
    rules: 'lambdas/agents/engines/vendor-risk/RULES.md',
    tags: ['procurement', 'vendor onboarding', 'risk', 'compliance'],
    humanReview: [
      'A decline or hold is a recommendation: a person confirms it before the vendor is told.',
      'Sanctions hits are screened against the official lists by compliance; the agent reads only the profile text.',
    ],
    kind: 'published',
    deployment: LIVE_V1,
    route: 'RunVendorRisk',
  },
  {
    slug: 'bank-rec-discrepancy-finder-bw0tt',
    legacyId: 'agt_bw0tt',
    name: 'Bank reconciliation discrepancy finder',
    description:
      'Reconciles a bank statement export against the cash book (CSV or JSON): matches by check number, reference, ' +
      'amount and date window, and reports every exception (missing in books, missing on bank, outstanding checks, ' +
      'duplicates, amount mismatches, timing differences) with the amount that explains the difference.',
    price: 60_000n,
    family: 'bank-rec',
    rules: 'lambdas/agents/engines/bank-rec/RULES.md',
    tags: ['accounting', 'bank reconciliation', 'month-end close'],
    humanReview: [
      'Adjusting entries for the exceptions are posted by an accountant, not by the agent.',
      'A deposit that covers several receipts (or the reverse) is reported as separate exceptions for a person to pair.',
    ],
    kind: 'published',
    deployment: LIVE_V1,
    route: 'RunBankRec',
  },
  {
    slug: 'expense-policy-check-l8o5i',
    legacyId: 'agt_l8o5i',
    name: 'Expense policy check',
    description:
      'Checks an expense (JSON or a line of text) against a policy written in plain sentences: per-category caps per ' +
      'person, per day or per night, receipt thresholds, forbidden items and travel class rules; answers approve / flag / ' +
      'reject, the reimbursable amount and one violation per broken rule.',
    price: 40_000n,
    family: 'expense-policy',
    rules: 'lambdas/agents/engines/expense-policy/RULES.md',
    tags: ['expenses', 'policy', 'finance operations'],
    humanReview: [
      'A flag or reject goes to the approver; policy sentences the agent could not read are listed in its note.',
    ],
    kind: 'published',
    deployment: LIVE_V1,
    route: 'RunExpensePolicy',
  },
  {
    slug: 'po-match-gate-mkgu0',
    legacyId: 'agt_mkgu0',
    name: 'PO match gate',
    description:
      'Matches an invoice against its purchase order (JSON or plain text): PO number, vendor, currency, lines by SKU or ' +
      'description, quantities, unit prices, line totals and document totals, within a documented tolerance; passes the ' +
      'invoice or holds it with one discrepancy per problem.',
    price: 50_000n,
    family: 'po-match',
    rules: 'lambdas/agents/engines/po-match/RULES.md',
    tags: ['accounts payable', 'purchase orders', 'invoice matching'],
    humanReview: ['A held invoice is released or rejected by accounts payable; the agent never approves a payment.'],
    kind: 'published',
    deployment: LIVE_V1,
    route: 'RunPoMatch',
  },
  {
    slug: 'export-to-transactions-x7f3a',
    legacyId: 'agt_x7f3a',
    name: 'Export to transactions',
    description:
      'Free: turns a pasted bank or ledger export (CSV with any common column names, or JSON) into clean structured ' +
      'transactions with ISO dates, signed amounts and references, plus totals in and out.',
    price: 0n,
    family: 'export-to-transactions',
    rules: 'lambdas/agents/engines/export-to-transactions/RULES.md',
    tags: ['accounting', 'data cleanup', 'free'],
    humanReview: ['Column meanings the agent had to assume (debit/credit direction) are stated in its note.'],
    kind: 'published',
    deployment: LIVE_V1,
  },
  {
    // A company employee: published to its company's catalog, run like any agent, never an MCP tool.
    slug: 'ap-clerk-month-end-c4n8e',
    legacyId: 'emp_c4n8e',
    name: 'AP clerk (month-end bank check)',
    description:
      "A company employee agent: the accounts-payable clerk's month-end bank check, the bank reconciliation engine with " +
      "the company's own review boundary. Run through the generic route.",
    price: 60_000n,
    family: 'bank-rec',
    rules: 'lambdas/agents/engines/bank-rec/RULES.md',
    tags: ['company employee', 'accounting'],
    humanReview: ['The controller signs off the month-end reconciliation.'],
    kind: 'company-employee',
    deployment: LIVE_V1,
  },
  {
    // A relay-backed service: an upstream resource serves it; answered in the resource-run envelope.
    slug: 'ledger-normalizer-relay-r2d7k',
    legacyId: 'svc_r2d7k',
    name: 'Ledger normalizer (relay)',
    description:
      'A relay-backed service: forwards a ledger export to the export-to-transactions resource and answers its result in ' +
      'the resource-run envelope.',
    price: 0n,
    family: 'export-to-transactions',
    rules: 'lambdas/agents/engines/export-to-transactions/RULES.md',
    tags: ['relay', 'accounting'],
    humanReview: ['As the export-to-transactions agent.'],
    kind: 'relay',
    deployment: LIVE_V1,
    relay: { resource: 'export-to-transactions-x7f3a', provider: 'Paycall agent studio' },
  },
  {
    // Live, but its deployment is mutable (a working draft published for a pilot): runnable, not an MCP tool.
    slug: 'expense-policy-draft-p9w2m',
    legacyId: 'agt_p9w2m',
    name: 'Expense policy check (pilot)',
    description: 'The expense policy check under a mutable pilot deployment: its rules may change under the same label.',
    price: 40_000n,
    family: 'expense-policy',
    rules: 'lambdas/agents/engines/expense-policy/RULES.md',
    tags: ['expenses', 'pilot'],
    humanReview: ['As the expense policy check.'],
    kind: 'published',
    deployment: { version: 'pilot', immutable: false },
    // The pilot is bought under AP2 v0.2 mandates only (experimental): a priced live run without valid ones is refused.
    ap2: 'required',
  },
  {
    // Not published: no Live deployment. In no document; its routes answer 404.
    slug: 'vendor-risk-next-z5v1q',
    legacyId: 'agt_z5v1q',
    name: 'Vendor risk read (next)',
    description: 'The next vendor risk rules, not yet deployed.',
    price: 80_000n,
    family: 'vendor-risk',
    rules: 'lambdas/agents/engines/vendor-risk/RULES.md',
    tags: ['procurement'],
    humanReview: [],
    kind: 'published',
    deployment: null,
  },
];

/** Agents that are published (have a Live deployment), in the order given. */
export function publishedIn<A extends AgentListing>(agents: readonly A[]): A[] {
  return agents.filter((agent) => agent.deployment !== null);
}

/** The published agent a path names, by slug or legacy id; undefined when unknown or not published. */
export function findIn<A extends AgentListing>(agents: readonly A[], idOrSlug: string): A | undefined {
  return publishedIn(agents).find((agent) => agent.slug === idOrSlug || agent.legacyId === idOrSlug);
}

/** Agents that are published, in catalog order. */
export function publishedAgents(): AgentListing[] {
  return publishedIn(AGENT_LISTINGS);
}

/** The published agent a path names, by slug or legacy id; undefined when unknown or not published. */
export function findAgent(idOrSlug: string): AgentListing | undefined {
  return findIn(AGENT_LISTINGS, idOrSlug);
}

/** MCP and A2A skill eligibility (spec): published agents with an immutable Live deployment, not employees or relays. */
export function isToolEligible(agent: AgentListing): boolean {
  return agent.kind === 'published' && agent.deployment?.immutable === true;
}
