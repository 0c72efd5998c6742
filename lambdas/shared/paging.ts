/**
 * Paged lists newest first (the workspace ledger, a wallet's purchases): `limit` from the query, and the cursor — a
 * DynamoDB LastEvaluatedKey handed out as opaque base64url JSON — taken back only when it is a key of the same shape
 * whose owner attribute is the caller's (a workspace, a wallet), so a cursor cannot reach into another's list.
 */
import { ValidationError } from './errors.js';

export const PAGE = { default: 20, max: 100 } as const;

/** `limit`: an integer from 1 to PAGE.max, PAGE.default when absent. */
export function pageLimit(query: Record<string, string | undefined>): number {
  const text = query.limit ?? String(PAGE.default);
  if (!/^[1-9][0-9]{0,2}$/.test(text) || Number(text) > PAGE.max) {
    throw new ValidationError([{ loc: ['query', 'limit'], msg: `limit is an integer from 1 to ${PAGE.max}`, type: 'int_range' }]);
  }
  return Number(text);
}

export function pageCursor(key: Record<string, unknown> | undefined): string | null {
  return key ? Buffer.from(JSON.stringify(key)).toString('base64url') : null;
}

/**
 * The key `cursor` stands for: exactly the attributes `names`, each a string, `owner`'s being the caller's. Anything
 * else is a 4xx naming `query.cursor` (`what` says whose list it is).
 */
export function readPageCursor(cursor: string, names: readonly string[], owner: { name: string; value: string }, what: string): Record<string, string> {
  const invalid = () => new ValidationError([{ loc: ['query', 'cursor'], msg: `cursor is not one ${what} returned`, type: 'invalid_cursor' }]);
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (typeof key !== 'object' || key === null || Array.isArray(key)) throw invalid();
  const k = key as Record<string, unknown>;
  if (Object.keys(k).sort().join(',') !== [...names].sort().join(',')) throw invalid();
  if (!Object.values(k).every((value) => typeof value === 'string') || k[owner.name] !== owner.value) throw invalid();
  return k as Record<string, string>;
}
