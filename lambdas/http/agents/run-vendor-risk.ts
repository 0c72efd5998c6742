/** Vendor risk's fixed run route (see run-entry.ts): its function is built from its family alone, one engine. */
import { agentsOf } from '../../agents/definition.js';
import { VENDOR_RISK } from '../../agents/engines/vendor-risk/family.js';
import { agentRunEntry } from './run-entry.js';

export const handler = agentRunEntry(agentsOf({ 'vendor-risk': VENDOR_RISK }));
