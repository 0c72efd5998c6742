/**
 * The custom metrics of the service: one namespace, one name per fact. Functions emit them in Embedded Metric
 * Format (Powertools Metrics, or a plain EMF line as lambdas/payments/gas-metric.ts does); lib/monitoring.ts alarms
 * on and graphs the same constants, so a renamed metric cannot silently leave its alarm watching nothing.
 *
 * Dimensions are the emitter's choice (Powertools adds `service`; per-product metrics add METRIC_DIMENSIONS.product):
 * the alarms and graphs read these metrics with Metrics Insights over the whole namespace, so every dimension set
 * counts. The exceptions are the balances (gas, refund wallet), whose dimension sets are fixed by gas-metric.ts.
 *
 * The namespace is the stack's (`Paycall/<stack name>`, given to every function as METRICS_NAMESPACE_ENV): alarms
 * read a namespace whole, so a staging stack in the same account and region must not write into production's.
 */
/** The namespace's prefix, and the whole namespace where no stack named one (unit tests, the bench). */
export const METRIC_NAMESPACE = 'Paycall';

/** The variable the stack sets on every function to its own namespace (stackMetricNamespace). */
export const METRICS_NAMESPACE_ENV = 'PAYCALL_METRICS_NAMESPACE';

/** One stack's namespace: stack names are letters, digits and hyphens, all valid in a namespace. */
export function stackMetricNamespace(stackName: string): string {
  return `${METRIC_NAMESPACE}/${stackName}`;
}

/** The namespace this process writes under: the stack's, else METRIC_NAMESPACE. */
export function metricNamespace(env: NodeJS.ProcessEnv = process.env): string {
  return env[METRICS_NAMESPACE_ENV] || METRIC_NAMESPACE;
}

export const METRIC_NAMES = {
  /** A settlement refused or failed before any money moved (count). */
  settlementFailed: 'SettlementFailed',
  /** A settlement whose outcome is unknown: the transaction may land later (count). */
  settlementUnknownOutcome: 'SettlementUnknownOutcome',
  /** A paid request served (count, per product). */
  paidRequests: 'PaidRequests',
  /** Money taken, in USDC base units (6 decimals), per product. */
  revenueBaseUnits: 'RevenueBaseUnits',
  rendersCompleted: 'RendersCompleted',
  /** Renders that failed (count, per product and provider), content refusals excepted. */
  rendersFailed: 'RendersFailed',
  /**
   * Renders the model refused for their content (count, per product and provider): the job fails and is refunded as
   * any failed one, but it is the buyer's outcome, not an incident, so it is graphed and never alarmed.
   */
  rendersRefused: 'RendersRefused',
  /** From submit to stored asset, per product (seconds). */
  renderSeconds: 'RenderSeconds',
  http402: 'Http402',
  http429: 'Http429',
  /** Reserved jobs voided because their payment never landed (count). */
  jobsVoided: 'JobsVoided',
  /** Reserved jobs whose payment landed late and that were queued by the sweeper (count). */
  jobsReconciled: 'JobsReconciled',
  /** Jobs the sweeper failed because they stayed open past their product's limit (count). */
  jobsStuck: 'JobsStuck',
  /** Refunds of failed paid jobs sent back to the payer (count, per product) and their amount in base units. */
  refundsSent: 'RefundsSent',
  refundedBaseUnits: 'RefundedBaseUnits',
  /** Refund attempts that did not move the money (count, per product): retried by the sweeper, alarmed. */
  refundsFailed: 'RefundsFailed',
  /** Refunds recorded as owed with no way to pay them automatically (token payments), for an operator (count). */
  refundsOwed: 'RefundsOwed',
  /** Native gas balance of a settlement key, in wei (lambdas/payments/gas-metric.ts). */
  settlerGasWei: 'SettlerGasWei',
  /** 1 when a settlement key is below its floor and takes no settlement (lambdas/payments/gas-metric.ts). */
  settlerBelowFloor: 'SettlerBelowFloor',
  /** USDC the refund wallet holds, in base units, read after each refund attempt (lambdas/payments/gas-metric.ts). */
  refundWalletBaseUnits: 'RefundWalletBaseUnits',
} as const;

export type MetricName = (typeof METRIC_NAMES)[keyof typeof METRIC_NAMES];

export const METRIC_DIMENSIONS = {
  /** The product id (lambdas/products/catalog.ts) of per-product metrics. */
  product: 'product',
  /** The settlement key's address, the only dimension of the gas metrics. */
  settler: 'Settler',
  /** The refund wallet's address, the only dimension of its balance. */
  refundWallet: 'RefundWallet',
} as const;
