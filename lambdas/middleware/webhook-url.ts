/**
 * The paid body's `webhook` (docs/decisions/0018), checked after the schema and before any money moves: a URL our network must
 * not be asked to reach (not https on AWS, a name resolving inside a network, a metadata address) is a 422 that
 * charges nothing, like any other invalid field. The delivery checks the address it connects to again
 * (lambdas/webhooks/post.ts): a name can resolve differently by then.
 */
import { ValidationError } from '../shared/errors.js';
import { checkWebhookUrl, webhookPolicy, type LookupAll } from '../webhooks/address.js';
import type { HttpMiddleware } from './types.js';

export function checkWebhook(lookup?: LookupAll): HttpMiddleware {
  return {
    name: 'checkWebhook',
    before: async (request) => {
      const body = request.internal.body as { webhook?: unknown } | undefined;
      if (typeof body?.webhook !== 'string') return;
      const checked = await checkWebhookUrl(body.webhook, webhookPolicy(), lookup);
      if (!checked.ok) throw new ValidationError([{ loc: ['body', 'webhook'], msg: checked.msg, type: 'url_refused' }]);
    },
  };
}
