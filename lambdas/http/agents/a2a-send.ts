/**
 * POST /api/agents/{agent}/a2a/message:send and POST /api/a2a/message:send (the agent named in the metadata member
 * `x-service.agent`): A2A 1.0 SendMessage over HTTP+JSON, run as the run route runs (lambdas/http/agents/run-entry.ts)
 * with the same pieces: frame (A2A's presenter) ▸ A2A version (400) ▸ agent (404) ▸ a named task (404 TaskNotFound:
 * none are kept, so none is known, and nothing is verified or charged) ▸ probe rate limit ▸ duplicate
 * key = the message id, per agent and payer ▸ payment for a priced live run (402: the run route's challenge) ▸ the
 * SendMessage request (one data part holding the agent's input: 400) ▸ run ▸ a direct ROLE_AGENT message whose one
 * data part is the agent's result; the run's facts ride in the message metadata (`x-service`).
 */
import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import middy from '@middy/core';
import { frame } from '../../middleware/http-frame.js';
import { a2aVersion } from '../../middleware/a2a-version.js';
import { probeRateLimit } from '../../middleware/rate-limit.js';
import { idempotency } from '../../middleware/idempotency.js';
import { offerReceipts } from '../../middleware/offer-receipt.js';
import { payment, paymentHeaderOf } from '../../middleware/payment.js';
import type { HttpMiddleware, HttpRequest } from '../../middleware/types.js';
import { RateWindowStore } from '../../store/rate-limit.js';
import { IdempotencyStore } from '../../store/idempotency.js';
import { paymentTerms, x402PaymentCore } from '../../payments/x402-backend.js';
import { payingParty } from '../../payments/core/party.js';
import type { AcceptedPayment } from '../../payments/core/types.js';
import { answerDeadline, baseUrl, header, json, rawBody, type HttpEvent, type HttpResult } from '../../shared/http.js';
import { checkAtColdStart, paymentConfig, storeConfig } from '../../shared/config.js';
import { NotFoundError } from '../../shared/errors.js';
import { AGENT_STUDIO, AGENTS_A2A } from '../../surfaces/surface.js';
import { A2A_BASES, a2aSendPath, matchPath } from '../../surfaces/paths.js';
import { ap2ModeOf, findAgent, type AgentDefinition } from '../../agents/registry.js';
import { agentOffer } from '../../agents/offers.js';
import { runAgent } from '../../agents/run.js';
import { reasoningConfig } from '../../agents/reasoning/config.js';
import { A2A_CONTENT_TYPE, namedTask, requestMalformed, SERVICE_METADATA_KEY, taskNotFound } from '../../shared/a2a.js';
import { messageIdOf, parseSendRequest, serviceParameter, validSend, type SendRequest, type ValidSend } from './a2a-request.js';
import { ap2Answer, ap2Options, completedRun, runDeps, whenPriced } from './run-entry.js';
import { ap2Authorization } from '../../middleware/ap2.js';
import type { AuthorizedCheckout } from '../../payments/ap2/verify.js';
import { activatesAp2, sendMandates } from './ap2.js';
import { AP2_EXTENSION_URI } from '../../shared/a2a.js';

interface SendContext extends Context {
  send: { agent: AgentDefinition; request: ValidSend; dryRun: boolean; payment?: AcceptedPayment; legacy: boolean; ap2Activated: boolean };
  /** AP2 mandates verified for this priced live send (lambdas/middleware/ap2.ts). */
  ap2?: AuthorizedCheckout;
}

checkAtColdStart(storeConfig, paymentConfig, reasoningConfig);

export const handler = middy<HttpEvent, HttpResult, Error, SendContext>()
  .use(frame(AGENTS_A2A))
  .use(a2aVersion())
  .use(resolveAgent())
  .use(noTaskNamed())
  .use(probeRateLimit({ counter: new RateWindowStore() }))
  .use(
    idempotency({
      store: new IdempotencyStore(),
      scope: (request) => `a2a:${agentOf(request).slug}`,
      party: (request) => payingParty(paymentHeaderOf(request), paymentTerms()),
      key: { read: (request) => messageIdOf(sendRequestOf(request)), name: 'message.messageId', loc: ['message', 'messageId'] },
    }),
  )
  .use(offerReceipts({ network: () => paymentTerms().network }))
  .use(whenPriced(payment({ offer: (request) => agentOffer(agentOf(request), baseUrl(request.event, AGENT_STUDIO)), core: x402PaymentCore }), isDryRun))
  .use(validateSend())
  .use(ap2Authorization({ ...ap2Options(isDryRun), mandates: mandatesOf, scope: (request) => `a2a:${agentOf(request).slug}` }))
  .handler(async (event, context) => {
    const { agent, request, dryRun, payment: paid, legacy, ap2Activated } = context.send;
    const outcome = await runAgent(runDeps(), { agent, input: request.input, dryRun, payment: paid, deadline: answerDeadline(event, context) });
    const { answer, headers } = completedRun(outcome, agent, baseUrl(event, AGENT_STUDIO), legacy);
    // AP2's answer rides in the message metadata under the extension's URI, as its request does.
    const ap2 = await ap2Answer(outcome, agent, context.ap2);
    const ap2Metadata = ap2 ? { [AP2_EXTENSION_URI]: ap2.checkout ? { 'ap2.checkout': ap2.checkout } : { 'ap2.CheckoutReceipt': ap2.checkoutReceipt } } : {};
    const extensions: Record<string, string> = ap2Activated || context.ap2 ? { 'A2A-Extensions': AP2_EXTENSION_URI } : {};
    const { result, ...facts } = answer;
    const reply = {
      messageId: randomUUID(),
      contextId: request.contextId ?? randomUUID(),
      role: 'ROLE_AGENT',
      parts: [{ data: result, mediaType: 'application/json' }],
      metadata: {
        [SERVICE_METADATA_KEY]: {
          agent: agent.slug,
          ...facts,
          ...(agent.kind === 'relay' ? { resource: { id: agent.relay!.resource, provider: agent.relay!.provider, kind: 'relay', service: agent.slug } } : {}),
        },
        ...ap2Metadata,
      },
    };
    return json(200, { message: reply }, { ...headers, ...extensions, 'Content-Type': A2A_CONTENT_TYPE });
  });

function agentOf(request: HttpRequest): AgentDefinition {
  return request.internal.agent as AgentDefinition;
}

/** The body, parsed once and leniently (the strict read comes after payment). */
function sendRequestOf(request: HttpRequest): SendRequest | undefined {
  if (!('a2aSend' in request.internal)) request.internal.a2aSend = parseSendRequest(rawBody(request.event));
  return request.internal.a2aSend as SendRequest | undefined;
}

/**
 * The send's AP2 mandates. An agent that requires AP2 takes them only with the extension activated (the spec's
 * required mode: "the extension header and valid mandates"); others take the samples' data parts without it.
 */
function mandatesOf(request: HttpRequest) {
  const send = sendRequestOf(request);
  if (ap2ModeOf(agentOf(request)) === 'required' && !activatesAp2(request, send)) return undefined;
  return sendMandates(request, send);
}

function isDryRun(request: HttpRequest): boolean {
  return serviceParameter(sendRequestOf(request), 'dryRun') === true;
}

/** The agent of the path, or at the root the one `x-service.agent` names; unknown or unpublished: 404. */
function resolveAgent(): HttpMiddleware {
  return {
    name: 'agent',
    before: (request) => {
      const { event } = request;
      const atRoot = matchPath(a2aSendPath(A2A_BASES.root), event.rawPath) !== null;
      let named: string | undefined;
      if (atRoot) {
        const value = serviceParameter(sendRequestOf(request), 'agent');
        if (typeof value !== 'string' || value === '') {
          throw requestMalformed(`Name the agent (slug or id) in message.metadata["${SERVICE_METADATA_KEY}"].agent`, [
            { field: `message.metadata.${SERVICE_METADATA_KEY}.agent`, description: 'required at the root interface' },
          ]);
        }
        named = value;
      } else {
        named = event.pathParameters?.agent ?? matchPath(a2aSendPath(A2A_BASES.agent), event.rawPath)?.agent;
      }
      const agent = named ? findAgent(named) : undefined;
      if (!agent) throw new NotFoundError(`No published agent '${named ?? ''}'`);
      request.internal.agent = agent;
      request.internal.legacyV1 = true;
    },
  };
}

/**
 * A send that continues a task (or refers to tasks) names tasks this interface never created: it keeps none. Refused
 * before the payment is read, so a paid send naming one is neither verified nor settled.
 */
function noTaskNamed(): HttpMiddleware {
  return {
    name: 'noTaskNamed',
    before: (request) => {
      const taskId = namedTask(sendRequestOf(request)?.message);
      if (taskId !== undefined) throw taskNotFound(taskId);
    },
  };
}

function validateSend(): HttpMiddleware {
  return {
    name: 'validateSend',
    before: (request) => {
      const agent = agentOf(request);
      const valid = validSend(header(request.event, 'content-type'), sendRequestOf(request), agent.inputSchema);
      const paid = paymentHeaderOf(request);
      const send = {
        agent,
        request: valid,
        dryRun: isDryRun(request),
        payment: request.internal.payment,
        legacy: paid.kind === 'x402' && paid.legacy === true,
        ap2Activated: activatesAp2(request, sendRequestOf(request)),
      };
      Object.assign(request.context, { send });
    },
  };
}
