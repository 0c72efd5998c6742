/** POST /api/agents/{agent}/run (slug or legacy id) and each concrete agent's fixed run route: see run-entry.ts. */
import { agentRunEntry } from './run-entry.js';

export const handler = agentRunEntry();
