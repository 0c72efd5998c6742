/**
 * GET /api/runs/{runId} of the agent studio: a run by its id, which is a capability (as a job's poll id is): only
 * whoever holds it — the party the run's answer went to — can fetch it. 202 while the run's payment is pending (its
 * result withheld), 200 with the run's answer once it ended (lambdas/agents/run-answer.ts `fetchedRun`), 404 for an
 * id no run has. A run whose paying answer was lost (a 503 `settlement_pending`, a dropped connection) is fetched here
 * once the sweeper has seen its transfer land; one whose function died before it had a result is finished from its
 * kept input when first fetched (lambdas/agents/finish-run.ts). Free, never limited; the runs table alone (the
 * `run-read` role: Get, the conditional Update that records the result, the Delete of the kept input).
 */
import middy from '@middy/core';
import { frame } from '../../middleware/http-frame.js';
import { checkAtColdStart, storeConfig } from '../../shared/config.js';
import { NotFoundError } from '../../shared/errors.js';
import { json, type HttpEvent, type HttpResult } from '../../shared/http.js';
import { AGENT_STUDIO } from '../../surfaces/surface.js';
import { RunStore } from '../../store/runs.js';
import { fetchedRun } from '../../agents/run-answer.js';
import { finishFromKeptInput } from '../../agents/finish-run.js';
import { AGENTS } from '../../agents/registry.js';

/** What a run id looks like (`run_` and a UUID; a sweeper test's own ids too): anything else is no run's. */
const RUN_ID = /^run_[A-Za-z0-9-]{1,100}$/;
/** The sweeper looks at open runs every minute, and records one once it has been idle for two. */
export const RUN_RETRY_AFTER_SECONDS = 30;

checkAtColdStart(storeConfig);
const runs = new RunStore();

export const handler = middy<HttpEvent, HttpResult>()
  .use(frame(AGENT_STUDIO))
  .handler(async (event) => {
    const runId = event.pathParameters?.runId ?? '';
    const found = RUN_ID.test(runId) ? await runs.get(runId) : undefined;
    if (!found) throw new NotFoundError(`No run ${runId}`);
    // A paid run the sweeper recorded without its result (its function died) is finished from its kept input.
    const record = await finishFromKeptInput({ runs, agents: AGENTS }, found);
    const fetched = fetchedRun(record);
    // A run's record changes until it ends: never cached by a shared cache (the id is the buyer's capability).
    const headers: Record<string, string> = { 'Cache-Control': 'no-store' };
    if (fetched.status === 202) headers['Retry-After'] = String(RUN_RETRY_AFTER_SECONDS);
    return json(fetched.status, fetched.body, headers);
  });
