/**
 * Which skill a SendMessage targets. The agent card's skill ids are the product ids (spec, "What the service
 * does" point 4). A2A 1.0 has no message field naming a skill, so, in order:
 *   1. `message.metadata.skillId` (the explicit form; what the agent card documents),
 *   2. `metadata.skillId` of the SendMessage request itself,
 *   3. otherwise the text parts, when they name exactly one skill id (for agents that only send text).
 * A named id that is not a skill, no skill at all, or two skills named in text are all invalid params.
 */
import { PRODUCT_IDS, isProductId, type ProductId } from '../../products/products.js';
import { RPC, RpcError } from './jsonrpc.js';

export const SKILL_METADATA_KEY = 'skillId';

const SKILL_IN_TEXT = new RegExp(`\\b(${PRODUCT_IDS.join('|')})\\b`, 'g');

interface MessageLike {
  metadata?: unknown;
  parts?: unknown;
}

export function selectSkill(message: MessageLike, requestMetadata: unknown): ProductId {
  const named = metadataSkill(message.metadata) ?? metadataSkill(requestMetadata);
  if (named !== undefined) {
    if (!isProductId(named)) {
      throw new RpcError(RPC.invalidParams, `Unknown skill '${named}'`, { skills: [...PRODUCT_IDS] });
    }
    return named;
  }
  const mentioned = new Set<string>();
  for (const part of Array.isArray(message.parts) ? message.parts : []) {
    const text = (part as { text?: unknown } | null)?.text;
    if (typeof text === 'string') for (const match of text.matchAll(SKILL_IN_TEXT)) mentioned.add(match[1]);
  }
  if (mentioned.size === 1) return [...mentioned][0] as ProductId;
  const why = mentioned.size === 0 ? 'No skill named' : `More than one skill named (${[...mentioned].join(', ')})`;
  throw new RpcError(RPC.invalidParams, `${why}: set message.metadata.${SKILL_METADATA_KEY} to one of ${PRODUCT_IDS.join(', ')}`, {
    skills: [...PRODUCT_IDS],
  });
}

function metadataSkill(metadata: unknown): string | undefined {
  if (typeof metadata !== 'object' || metadata === null) return undefined;
  const value = (metadata as Record<string, unknown>)[SKILL_METADATA_KEY];
  return typeof value === 'string' ? value : undefined;
}
