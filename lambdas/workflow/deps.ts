/**
 * Task dependencies built once per cold start. Only the two tasks that call a render provider (Submit render, Check
 * render) get the provider registry (renderTaskDeps, ./render-deps.ts): it carries every adapter's SDK, which the
 * other tasks' bundles then leave out.
 */
import { JobStore } from '../store/jobs.js';
import { assetStoreFromConfig } from '../store/assets.js';
import type { TaskDeps } from './tasks.js';
import { assetConfig } from '../shared/config.js';
import { renderConfig } from '../render/config.js';

let deps: TaskDeps | undefined;
export function taskDeps(): TaskDeps {
  renderConfig();
  assetConfig();
  deps ??= { jobs: new JobStore(), assets: assetStoreFromConfig };
  return deps;
}
