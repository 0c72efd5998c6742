/**
 * Workspace keys: a random UUID shown once at creation, stored only as its SHA-256 (docs/decisions/0013). A bearer
 * is read from `Authorization: Bearer <key>` only (never the query string, as MCP's authorization rules ask).
 */
import { createHash, randomUUID } from 'node:crypto';
import { bearerToken } from '../shared/http.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function newWorkspaceKey(): string {
  return randomUUID();
}

/** The stored form of a key: SHA-256 (hex) of its lower-case text, so `ABC…` and `abc…` are the same key. */
export function hashWorkspaceKey(key: string): string {
  return createHash('sha256').update(key.toLowerCase()).digest('hex');
}

/** What an Authorization header holds: nothing, something that is not a workspace key, or a well-formed key. */
export type Bearer = { kind: 'missing' } | { kind: 'malformed' } | { kind: 'key'; key: string };

export function readBearer(authorization: string | undefined): Bearer {
  if (authorization === undefined || authorization.trim() === '') return { kind: 'missing' };
  const token = bearerToken(authorization);
  if (!token || !UUID.test(token)) return { kind: 'malformed' };
  return { kind: 'key', key: token.toLowerCase() };
}
