/** POST /a2a — the A2A 1.0 JSON-RPC interface of the generation surface's agent card. */
import middy from '@middy/core';
import { documentFrame } from '../middleware/document-frame.js';
import { GENERATION } from '../surfaces/surface.js';
import { baseUrl, header, json, rawBody, type HttpEvent, type HttpResult } from '../shared/http.js';
import { answerA2a } from '../protocols/a2a/dispatch.js';
import { checkAtColdStart, httpConfig, paymentConfig } from '../shared/config.js';

// Configuration is checked at cold start (the pointer publishes the payment terms).
checkAtColdStart(paymentConfig, httpConfig);

export const handler = middy<HttpEvent, HttpResult>()
  .use(documentFrame(GENERATION))
  .handler(async (event) => {
    const reply = answerA2a(rawBody(event), { baseUrl: baseUrl(event, GENERATION), version: header(event, 'a2a-version') });
    // JSON-RPC errors travel in a 200 body, as the A2A JSON-RPC binding and its clients expect.
    return reply ? json(200, reply) : { statusCode: 204, headers: {}, body: '' };
  });
