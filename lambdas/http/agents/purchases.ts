/** GET /api/purchases on the agent studio: the signed-in wallet's paid runs (lambdas/purchases/entry.ts). */
import { purchasesEntry, price } from '../../purchases/entry.js';
import { BUYER_RUNS_INDEX, BUYER_RUNS_KEY, type RunRecord } from '../../store/runs.js';
import { storeConfig } from '../../shared/config.js';
import { routePath } from '../../surfaces/routes.js';
import { AGENT_STUDIO } from '../../surfaces/surface.js';

export const handler = purchasesEntry<RunRecord>(AGENT_STUDIO, {
  index: () => ({ table: storeConfig().runsTable ?? '', indexName: BUYER_RUNS_INDEX, keyName: 'runId', keys: BUYER_RUNS_KEY }),
  view: (run, base) => ({
    kind: 'run',
    id: run.runId,
    item: run.agent,
    status: run.status,
    ...price(run.cost),
    transaction: run.transaction ?? null,
    url: `${base}${routePath('GetRun').replace('{runId}', encodeURIComponent(run.runId))}`,
    createdAt: run.createdAt,
  }),
});
