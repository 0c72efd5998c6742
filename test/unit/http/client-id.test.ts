/**
 * Who a request counts against (lambdas/shared/http.ts clientId), for the edge (lib/edge.ts). Behind the CloudFront edge the
 * connection's address is CloudFront's, so the viewer's comes in a header the edge writes; it is believed only with
 * the stack's edge token beside it, so nobody picks the address they are counted under, with the edge on (a direct
 * call to execute-api) or off (no token configured).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clientId, EDGE_TOKEN_HEADER, VIEWER_ADDRESS_HEADER } from '../../../lambdas/shared/http.js';
import { httpEvent } from '../../support/events.js';

const TOKEN = '0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0';
const SOURCE = '198.51.100.20'; // CloudFront's address, or a direct caller's

describe('the client address', () => {
  it('is the connection address when the edge is off, whatever headers the caller sends', () => {
    const event = httpEvent({ sourceIp: SOURCE, headers: { [VIEWER_ADDRESS_HEADER]: '203.0.113.99', [EDGE_TOKEN_HEADER]: TOKEN } });
    expect(clientId(event)).toBe(SOURCE); // no EDGE_ORIGIN_TOKEN in this process
  });

  it("behind the edge, is the viewer's address the edge wrote when the request carries the edge token", () => {
    const event = httpEvent({ sourceIp: SOURCE, headers: { [VIEWER_ADDRESS_HEADER]: '203.0.113.99', [EDGE_TOKEN_HEADER]: TOKEN } });
    expect(clientId(event, TOKEN)).toBe('203.0.113.99');
    expect(clientId(httpEvent({ sourceIp: SOURCE, headers: { 'X-Paycall-Viewer-Address': '2001:db8::1', 'X-Paycall-Edge': TOKEN } }), TOKEN)).toBe('2001:db8::1');
  });

  it('with the edge on, a request without the token (or with another) is counted under its connection address', () => {
    expect(clientId(httpEvent({ sourceIp: SOURCE, headers: { [VIEWER_ADDRESS_HEADER]: '203.0.113.99' } }), TOKEN)).toBe(SOURCE);
    expect(clientId(httpEvent({ sourceIp: SOURCE, headers: { [VIEWER_ADDRESS_HEADER]: '203.0.113.99', [EDGE_TOKEN_HEADER]: 'guess' } }), TOKEN)).toBe(SOURCE);
    // Through the edge but with no viewer address (it always writes one): the connection address, never an empty id.
    expect(clientId(httpEvent({ sourceIp: SOURCE, headers: { [EDGE_TOKEN_HEADER]: TOKEN, [VIEWER_ADDRESS_HEADER]: ' ' } }), TOKEN)).toBe(SOURCE);
  });

  describe('reads the token from EDGE_ORIGIN_TOKEN (set by the stack only with the edge on)', () => {
    afterEach(() => {
      vi.unstubAllEnvs();
      vi.resetModules();
    });

    it('believes the viewer address only with the configured token', async () => {
      vi.stubEnv('EDGE_ORIGIN_TOKEN', TOKEN);
      vi.resetModules();
      const http = await import('../../../lambdas/shared/http.js');
      expect(http.clientId(httpEvent({ sourceIp: SOURCE, headers: { [VIEWER_ADDRESS_HEADER]: '203.0.113.99', [EDGE_TOKEN_HEADER]: TOKEN } }))).toBe('203.0.113.99');
      expect(http.clientId(httpEvent({ sourceIp: SOURCE, headers: { [VIEWER_ADDRESS_HEADER]: '203.0.113.99' } }))).toBe(SOURCE);
    });
  });
});
