/** Bank reconciliation's fixed run route (see run-entry.ts): its function is built from its family alone, one engine. */
import { agentsOf } from '../../agents/definition.js';
import { BANK_REC } from '../../agents/engines/bank-rec/family.js';
import { agentRunEntry } from './run-entry.js';

export const handler = agentRunEntry(agentsOf({ 'bank-rec': BANK_REC }));
