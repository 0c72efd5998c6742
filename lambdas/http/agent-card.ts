/** GET /.well-known/agent-card.json and /.well-known/agent.json — the A2A 1.0 agent card (same bytes on both). */
import { documentEntry, jsonDocument } from '../protocols/discovery/serve.js';
import { agentCard } from '../protocols/discovery/agents.js';

export const handler = documentEntry({ build: (ctx) => jsonDocument(agentCard(ctx)) });
