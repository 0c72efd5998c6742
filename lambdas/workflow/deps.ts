/** Task dependencies built once per cold start. */
import { JobStore } from '../store/jobs.js';
import { assetStoreFromConfig } from '../store/assets.js';
import { renderProviderNamed } from './render-provider.js';
import type { TaskDeps } from './tasks.js';
import { assetConfig } from '../shared/config.js';
import { renderConfig } from '../render/config.js';

let deps: TaskDeps | undefined;
export function taskDeps(): TaskDeps {
  renderConfig();
  assetConfig();
  deps ??= { jobs: new JobStore(), provider: renderProviderNamed, assets: assetStoreFromConfig };
  return deps;
}
