/**
 * The workspace bearer of the agent studio's credit routes (spec Authentication 5): `Authorization: Bearer <key>`
 * must name a workspace; anything else is a 401 (InvalidWorkspaceKeyError), answered before any payment is read,
 * verified or charged. A malformed key is refused without a lookup; a well-formed one costs one GetItem by its hash.
 */
import { hashWorkspaceKey, readBearer } from '../../credits/keys.js';
import type { CreditStore, Workspace } from '../../store/credits.js';
import { InvalidWorkspaceKeyError } from '../../shared/errors.js';
import { header } from '../../shared/http.js';
import type { HttpMiddleware } from '../../middleware/types.js';

export function workspaceBearer(store: () => Pick<CreditStore, 'findWorkspace'>, options: { optional?: boolean } = {}): HttpMiddleware {
  return {
    name: 'workspaceBearer',
    before: async (request) => {
      const bearer = readBearer(header(request.event, 'authorization'));
      // Optional (MCP: free tools and listing need no key): no Authorization at all is no workspace; a bad one is a 401.
      if (bearer.kind === 'missing' && options.optional) return;
      if (bearer.kind !== 'key') throw new InvalidWorkspaceKeyError(bearer.kind === 'malformed');
      const workspace = await store().findWorkspace(hashWorkspaceKey(bearer.key));
      if (!workspace) throw new InvalidWorkspaceKeyError(true);
      // Middy hands the handler (event, context): the workspace rides on the context, under one key.
      Object.assign(request.context, { workspace });
    },
  };
}

/** The workspace the bearer named (after workspaceBearer ran; undefined only when it was optional and absent). */
export function workspaceOf(context: unknown): Workspace {
  return (context as { workspace: Workspace }).workspace;
}

export function optionalWorkspaceOf(context: unknown): Workspace | undefined {
  return (context as { workspace?: Workspace }).workspace;
}
