/**
 * Task dependencies built once per cold start. Only a provider's render function (./render-function.ts) adds its
 * provider: the other tasks' bundles carry no adapter or SDK.
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
