/** Expense policy's fixed run route (see run-entry.ts): its function is built from its family alone, one engine. */
import { agentsOf } from '../../agents/definition.js';
import { EXPENSE_POLICY } from '../../agents/engines/expense-policy/family.js';
import { agentRunEntry } from './run-entry.js';

export const handler = agentRunEntry(agentsOf({ 'expense-policy': EXPENSE_POLICY }));
