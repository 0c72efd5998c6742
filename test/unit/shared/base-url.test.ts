/**
 * The base URL a surface names (documents, 402 resources) and the origin a sign-in must name: the configured public
 * base URL, else the API's own domain from the request context, never the client's Host or X-Forwarded-Proto.
 */
import { describe, expect, it, vi } from 'vitest';
import type { HttpEvent } from '../../../lambdas/shared/http.js';

const event = (domainName: string, headers: Record<string, string> = {}) => ({ headers, requestContext: { domainName } }) as unknown as HttpEvent;

async function freshBaseUrl(env: Record<string, string> = {}) {
  vi.resetModules();
  vi.unstubAllEnvs();
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  return (await import('../../../lambdas/shared/http.js')).baseUrl;
}

describe('the base URL is the deployment’s, never a request header', () => {
  it('the API’s own domain over HTTPS, whatever Host and X-Forwarded-Proto say', async () => {
    const baseUrl = await freshBaseUrl();
    expect(baseUrl(event('abc123.execute-api.us-east-1.amazonaws.com'))).toBe('https://abc123.execute-api.us-east-1.amazonaws.com');
    expect(baseUrl(event('api.example.com', { host: 'evil.example', 'x-forwarded-proto': 'http', 'x-forwarded-host': 'evil.example' }))).toBe('https://api.example.com');
  });

  it('the embedded gateway’s loopback listen address over plain HTTP', async () => {
    const baseUrl = await freshBaseUrl();
    expect(baseUrl(event('127.0.0.1:3000', { host: 'evil.example', 'x-forwarded-proto': 'https' }))).toBe('http://127.0.0.1:3000');
    expect(baseUrl(event('localhost:3001'))).toBe('http://localhost:3001');
    expect(baseUrl(event('[::1]:3001'))).toBe('http://[::1]:3001');
    // A name that only starts like a loopback address is not one.
    expect(baseUrl(event('127.0.0.1.evil.example'))).toBe('https://127.0.0.1.evil.example');
  });

  it('the configured public base URL of the surface wins', async () => {
    const baseUrl = await freshBaseUrl({ PUBLIC_BASE_URL: 'https://api.example.com/', AGENTS_PUBLIC_BASE_URL: 'https://agents.example.com' });
    expect(baseUrl(event('abc.execute-api.us-east-1.amazonaws.com', { host: 'evil.example' }))).toBe('https://api.example.com');
    expect(baseUrl(event('abc.execute-api.us-east-1.amazonaws.com'), { baseUrlEnv: 'AGENTS_PUBLIC_BASE_URL' })).toBe('https://agents.example.com');
  });
});
