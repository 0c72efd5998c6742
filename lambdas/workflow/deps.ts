/** Task dependencies built once per cold start. */
import { JobStore } from '../store/jobs.js';
import { assetStoreFromConfig } from '../store/assets.js';
import { renderProviderFromConfig } from './render-provider.js';
import type { TaskDeps } from './tasks.js';

let deps: TaskDeps | undefined;
export function taskDeps(): TaskDeps {
  deps ??= { jobs: new JobStore(), provider: renderProviderFromConfig, assets: assetStoreFromConfig };
  return deps;
}
