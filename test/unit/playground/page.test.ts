import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { playgroundPage } from '../../../lambdas/playground/page.js';
import { AGENT_STUDIO, GENERATION } from '../../../lambdas/surfaces/surface.js';
import { ROUTES } from '../../../lambdas/surfaces/routes.js';

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

describe('the playground page', () => {
  for (const surface of [GENERATION, AGENT_STUDIO]) {
    describe(surface.id, () => {
      const page = playgroundPage(surface);
      const script = /<script>([\s\S]*)<\/script>/.exec(page.html)![1];
      const style = /<style>([\s\S]*)<\/style>/.exec(page.html)![1];

      it('pins its only script and style by hash, and allows nothing inline besides', () => {
        expect(page.html.match(/<script/g)).toHaveLength(1);
        expect(page.html.match(/<style/g)).toHaveLength(1);
        expect(page.html).not.toMatch(/\son[a-z]+=|style="/i); // no inline handlers or style attributes
        expect(page.contentSecurityPolicy).toContain(`script-src ${sha256(script)};`);
        expect(page.contentSecurityPolicy).toContain(`style-src ${sha256(style)};`);
        expect(page.contentSecurityPolicy).toContain("connect-src 'self'");
        expect(page.contentSecurityPolicy).not.toContain('unsafe');
      });

      it('reads its list from a GET document route of its own surface', () => {
        const config = JSON.parse(/\)\((\{.*\})\);$/.exec(script.trim())![1]);
        expect(config.surface).toBe(surface.id);
        const listRoute = ROUTES.find((route) => route.path === config.listPath && route.surface === surface.id && route.method === 'GET');
        expect(listRoute?.access).toBe('none');
      });

      it('labels every control the page itself writes', () => {
        for (const id of ['offer']) expect(page.html).toContain(`<label for="${id}">`);
        expect(page.html).toContain('role="status"');
        expect(page.html).toContain('<html lang="en">');
      });
    });
  }

  it('is served on both surfaces by a function with no AWS access', () => {
    const pages = ROUTES.filter((route) => route.path === '/playground');
    expect(pages.map((route) => [route.surface, route.method, route.access ?? 'read'])).toEqual([
      ['generation', 'GET', 'none'],
      ['agents', 'GET', 'none'],
    ]);
  });
});
