/** POST /api/agents/{agent}/run (slug or legacy id): any published agent, so every engine (see run-entry.ts). */
import { AGENTS } from '../../agents/registry.js';
import { agentRunEntry } from './run-entry.js';

export const handler = agentRunEntry(AGENTS);
