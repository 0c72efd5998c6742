/** The Middy entry serving a surface's playground page (a cached document with its security headers). */
import { documentEntry } from '../protocols/discovery/serve.js';
import type { Surface } from '../surfaces/surface.js';
import { playgroundPage } from './page.js';

export function playgroundEntry(surface: Surface) {
  const page = playgroundPage(surface);
  return documentEntry({
    surface,
    build: () => ({ body: page.html, contentType: 'text/html; charset=utf-8' }),
    headers: () => ({
      'Content-Security-Policy': page.contentSecurityPolicy,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'X-Frame-Options': 'DENY',
    }),
  });
}
