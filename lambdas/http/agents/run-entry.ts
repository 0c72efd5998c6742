/**
 * POST /api/agents/{agent}/run and the fixed run route of each concrete agent. The Middy chain, in order:
 * frame (errors) ▸ agent (404 for an unknown or unpublished one) ▸ probe rate limit (unpaid calls: 402s, dry runs,
 * free runs) ▸ idempotency ▸ payment, for a priced live run only (402 before the body is validated) ▸ validation
 * (400) ▸ run. The handler hands the verified payment and the valid input to the run use case and presents its
 * outcome: 200 with the run result (or, for a relay, the resource-run envelope), the offer's 402, or an Error body.
 */
import type { Context } from 'aws-lambda';
import middy from '@middy/core';
import { frame } from '../../middleware/http-frame.js';
import { probeRateLimit } from '../../middleware/rate-limit.js';
import { idempotency } from '../../middleware/idempotency.js';
import { offerReceipts } from '../../middleware/offer-receipt.js';
import { payment, paymentHeaderOf, refusedPurchase } from '../../middleware/payment.js';
import { validateBody } from '../../middleware/validation.js';
import { ap2Authorization, offeredCheckout, successReceipt } from '../../middleware/ap2.js';
import { CheckoutNonceStore } from '../../store/ap2-checkouts.js';
import type { AuthorizedCheckout } from '../../payments/ap2/verify.js';
import { runBodyMandates, saleOf } from './ap2.js';
import type { HttpMiddleware, HttpRequest } from '../../middleware/types.js';
import { RateWindowStore } from '../../store/rate-limit.js';
import { IdempotencyStore } from '../../store/idempotency.js';
import { DynamoPaymentLedger } from '../../store/ledger.js';
import { RunStore } from '../../store/runs.js';
import { paymentTerms, x402PaymentCore } from '../../payments/x402-backend.js';
import { payingParty } from '../../payments/core/party.js';
import type { AcceptedPayment } from '../../payments/core/types.js';
import { encodeBase64Json } from '../../payments/types.js';
import { LEGACY_RESPONSE_HEADER } from '../../payments/core/header.js';
import { answerDeadline, baseUrl, json, rawBody, type HttpEvent, type HttpResult } from '../../shared/http.js';
import { checkAtColdStart, paymentConfig, storeConfig } from '../../shared/config.js';
import { AgentInputError, NotFoundError, SettlementPendingError } from '../../shared/errors.js';
import { AGENT_STUDIO } from '../../surfaces/surface.js';
import { matchPath, RUN_PATHS } from '../../surfaces/paths.js';
import { ap2ModeOf, type AgentDefinition } from '../../agents/definition.js';
import { findIn } from '../../agents/listing.js';
import { agentOffer, runRequestSchema } from '../../agents/offers.js';
import { runAgent, type RunAnswer, type RunDeps, type RunOutcome } from '../../agents/run.js';
import { reasoningConfig } from '../../agents/reasoning/config.js';
import { configuredReasoner } from '../../agents/reasoning/converse.js';

/** What the chain hands the handler (Middy passes (event, context), so it rides on the context under one key). */
interface RunContext extends Context {
  run: {
    agent: AgentDefinition;
    body: { input: Record<string, unknown>; dryRun?: boolean };
    payment?: AcceptedPayment;
    /** The payment came as x402 v1 (`X-PAYMENT`): the receipt goes back in `X-PAYMENT-RESPONSE`. */
    legacy: boolean;
  };
  /** AP2 mandates verified for this priced live run (lambdas/middleware/ap2.ts). */
  ap2?: AuthorizedCheckout;
}

let deps: RunDeps | undefined;
/** The run use case's dependencies, built once per instance (the A2A send entry shares them). */
export function runDeps(): RunDeps {
  deps ??= { runs: new RunStore(), ledger: new DynamoPaymentLedger(), settle: (p, o) => x402PaymentCore().settle(p, o), reasoner: configuredReasoner() };
  return deps;
}

/**
 * The run handler for `agents`: the generic route's entry passes every agent (lambdas/agents/registry.ts), a fixed
 * route's entry the agents of its own family, so that function's bundle carries one engine.
 */
export function agentRunEntry(agents: readonly AgentDefinition[]) {
  checkAtColdStart(storeConfig, paymentConfig, reasoningConfig);
  const surface = AGENT_STUDIO;
  return middy<HttpEvent, HttpResult, Error, RunContext>()
    .use(frame(surface))
    .use(resolveAgent(agents))
    .use(probeRateLimit({ counter: new RateWindowStore() }))
    .use(
      idempotency({
        store: new IdempotencyStore(),
        scope: (request) => `run:${agentOf(request).slug}`,
        party: (request) => payingParty(paymentHeaderOf(request), paymentTerms()),
      }),
    )
    .use(offerReceipts({ network: () => paymentTerms().network }))
    .use(whenPriced(payment({ offer: (request) => agentOffer(agentOf(request), baseUrl(request.event, surface)), core: x402PaymentCore }), isDryRun))
    .use(validateRun())
    .use(ap2Authorization({ ...ap2Options(isDryRun), mandates: runBodyMandates, scope: (request) => `run:${agentOf(request).slug}` }))
    .handler(async (event, context) => {
      const { agent, body, payment: paid, legacy } = context.run;
      const outcome = await runAgent(runDeps(), { agent, input: body.input, dryRun: body.dryRun === true, payment: paid, deadline: answerDeadline(event, context) });
      return presentRun(outcome, agent, baseUrl(event, surface), legacy, await ap2Answer(outcome, agent, context.ap2));
    });
}

function agentOf(request: HttpRequest): AgentDefinition {
  return request.internal.agent as AgentDefinition;
}

/** AP2 on the agent studio's run entries (docs/protocols.md, "AP2"): priced live runs only; where the mandates are is the entry's. */
export function ap2Options(dryRun: (request: HttpRequest) => boolean) {
  return {
    applies: (request: HttpRequest) => agentOf(request).price > 0n && !dryRun(request),
    mode: (request: HttpRequest) => ap2ModeOf(agentOf(request)),
    sale: (request: HttpRequest) => saleOf(agentOf(request)),
    nonces: new CheckoutNonceStore(),
  };
}

/**
 * The AP2 member of a done run's answer: the signed Success receipt of a run authorized by mandates, or, with a
 * priced agent's dry run, the checkout its live run would be bought on.
 */
export async function ap2Answer(outcome: RunOutcome, agent: AgentDefinition, authorized: AuthorizedCheckout | undefined): Promise<Record<string, unknown> | undefined> {
  if (outcome.type !== 'done') return undefined;
  if (authorized) return { checkoutReceipt: await successReceipt(authorized, outcome.answer.runId) };
  if (outcome.answer.dryRun && agent.price > 0n) {
    const checkout = await offeredCheckout(saleOf(agent));
    return checkout ? { checkout } : undefined;
  }
  return undefined;
}

/** The agent the path names (generic route) or the fixed route is for, by slug or legacy id; 404 otherwise. */
function resolveAgent(agents: readonly AgentDefinition[]): HttpMiddleware {
  return {
    name: 'agent',
    before: (request) => {
      const named = request.event.pathParameters?.agent ?? matchPath(RUN_PATHS.RunAgent, request.event.rawPath)?.agent;
      const agent = named ? findIn(agents, named) : undefined;
      if (!agent) throw new NotFoundError(`No published agent '${named ?? ''}'`);
      request.internal.agent = agent;
      request.internal.legacyV1 = true;
    },
  };
}

/**
 * Runs the payment middleware only for a priced live run: free agents and dry runs need no payment. The agent is
 * the one `request.internal.agent` holds; `dryRun` tells a dry run from the request (read before validation).
 */
export function whenPriced(inner: HttpMiddleware, dryRun: (request: HttpRequest) => boolean): HttpMiddleware {
  return {
    name: 'payment',
    before: async (request) => {
      if (agentOf(request).price === 0n || dryRun(request)) return;
      await inner.before!(request);
    },
    // A payment verified before the body was refused: the chain's refusal still answers first (402 before 400/422).
    ...(inner.onError ? { onError: inner.onError } : {}),
  };
}

/** `dryRun: true` in the body (read leniently: the body is validated after the payment check). */
function isDryRun(request: HttpRequest): boolean {
  try {
    const body = JSON.parse(rawBody(request.event)) as { dryRun?: unknown };
    return body?.dryRun === true;
  } catch {
    return false;
  }
}

/** The run request of the agent; an absent body is an empty one (its `input` is then missing: 400). */
function validateRun(): HttpMiddleware {
  const byAgent = new Map<string, HttpMiddleware>();
  return {
    name: 'validateRun',
    before: async (request) => {
      const agent = agentOf(request);
      if (!request.event.body) request.event.body = '{}';
      let validator = byAgent.get(agent.slug);
      if (!validator) byAgent.set(agent.slug, (validator = validateBody(runRequestSchema(agent))));
      await validator.before!(request);
      const paid = paymentHeaderOf(request);
      const run: RunContext['run'] = { agent, body: request.internal.body as RunContext['run']['body'], payment: request.internal.payment, legacy: paid.kind === 'x402' && paid.legacy === true };
      Object.assign(request.context, { run });
    },
  };
}

function presentRun(outcome: RunOutcome, agent: AgentDefinition, base: string, legacy: boolean, ap2?: Record<string, unknown>): HttpResult {
  const done = completedRun(outcome, agent, base, legacy);
  const body = agent.kind === 'relay' ? resourceRun(done.answer, agent) : done.answer;
  return json(200, ap2 ? { ...body, ap2 } : body, done.headers);
}

/**
 * A run's outcome as the run route answers it, for every presenter of runs (the run route, A2A): a run that moved no
 * money is the offer's 402 or a 503, input the agent cannot read a 400 naming the field, a transfer without a receipt
 * a 503 naming the run (all thrown, for the frame's presenter); a done run is its answer and the receipt's header
 * (`X-PAYMENT-RESPONSE` when it was paid with x402 v1).
 */
export function completedRun(outcome: RunOutcome, agent: AgentDefinition, base: string, legacy: boolean): { answer: RunAnswer; headers: Record<string, string> } {
  switch (outcome.type) {
    case 'refused':
    case 'unavailable':
      return refusedPurchase(outcome, agentOffer(agent, base), x402PaymentCore);
    case 'invalid-input':
      throw new AgentInputError(outcome.field, outcome.message.replace(`${outcome.field}: `, ''));
    case 'settlement-unknown':
      throw new SettlementPendingError(outcome.runId, outcome.reason, `${base}/api/runs/${outcome.runId}`);
    case 'done': {
      const headers: Record<string, string> = outcome.receipt
        ? { [legacy ? LEGACY_RESPONSE_HEADER : 'PAYMENT-RESPONSE']: encodeBase64Json(outcome.receipt) }
        : {};
      return { answer: outcome.answer, headers };
    }
  }
}

/**
 * The resource-run envelope of a relay-backed service (its fields are not in the spec): the run id and status,
 * the resource that served it, its result, the cost and whether it settled.
 */
export function resourceRun(answer: RunAnswer, agent: AgentDefinition) {
  return {
    runId: answer.runId,
    status: answer.status,
    resource: { id: agent.relay!.resource, provider: agent.relay!.provider, kind: 'relay', service: agent.slug },
    result: answer.result,
    totalCostUsdc: answer.totalCostUsdc,
    settled: answer.settled,
  };
}
