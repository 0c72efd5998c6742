/** Export to transactions: what runs its agents (its zod schemas and engine), for the registry (every family) and a fixed run route's entry (this family alone). */
import type { AgentEngine } from '../port.js';
import type { FamilyRuntime } from '../../definition.js';
import { inputSchema, resultSchema } from './schema.js';
import { exportToTransactionsEngine } from './engine.js';

export const EXPORT_TO_TRANSACTIONS: FamilyRuntime = { inputSchema, resultSchema, engine: exportToTransactionsEngine as AgentEngine<never, unknown> };
