/** Expense policy: what runs its agents (its zod schemas and engine), for the registry (every family) and a fixed run route's entry (this family alone). */
import type { AgentEngine } from '../port.js';
import type { FamilyRuntime } from '../../definition.js';
import { inputSchema, resultSchema } from './schema.js';
import { expensePolicyEngine } from './engine.js';

export const EXPENSE_POLICY: FamilyRuntime = { inputSchema, resultSchema, engine: expensePolicyEngine as AgentEngine<never, unknown> };
