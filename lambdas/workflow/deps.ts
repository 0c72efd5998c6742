/** Task dependencies built once per cold start. */
import { JobStore } from '../store/jobs.js';
import { assetStoreFromConfig } from '../store/assets.js';
import { renderProviderFromConfig } from './render-provider.js';
import type { TaskDeps } from './tasks.js';
import { assetConfig, renderConfig } from '../shared/config.js';

let deps: TaskDeps | undefined;
export function taskDeps(): TaskDeps {
  renderConfig();
  assetConfig();
  deps ??= { jobs: new JobStore(), provider: renderProviderFromConfig, assets: assetStoreFromConfig };
  return deps;
}
