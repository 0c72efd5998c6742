/** Scheduled Lambda: the job sweeper (see sweeper.ts). */
import { sweep } from './sweeper.js';
import { JobStore } from '../store/jobs.js';
import { WorkflowStarter } from '../store/workflow.js';

const deps = { jobs: new JobStore(), workflow: new WorkflowStarter() };

/** Jobs untouched for this long are looked at; renders update their job when they start and end. */
export const IDLE_SECONDS = 120;

export const handler = async () => sweep(deps, IDLE_SECONDS);
