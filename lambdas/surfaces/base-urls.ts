/**
 * The variable that pins each surface's public base URL (else the API's own domain, requestContext.domainName): the
 * surfaces (./surface.ts) name theirs from here, and the sign-in authorizer, which serves both APIs, reads it without
 * loading the surfaces' routes and error presenters. Plain constants: a property read in surface.ts's object literals would
 * keep esbuild from dropping the surfaces a bundle does not use.
 */
export const GENERATION_BASE_URL_ENV = 'PUBLIC_BASE_URL';
export const AGENTS_BASE_URL_ENV = 'AGENTS_PUBLIC_BASE_URL';
export const BASE_URL_ENV = { generation: GENERATION_BASE_URL_ENV, agents: AGENTS_BASE_URL_ENV } as const;
