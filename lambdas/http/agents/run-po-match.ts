/** PO match's fixed run route (see run-entry.ts): its function is built from its family alone, one engine. */
import { agentsOf } from '../../agents/definition.js';
import { PO_MATCH } from '../../agents/engines/po-match/family.js';
import { agentRunEntry } from './run-entry.js';

export const handler = agentRunEntry(agentsOf({ 'po-match': PO_MATCH }));
