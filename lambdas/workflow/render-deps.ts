/** The dependencies of the tasks that call a render provider: the common ones and the provider registry. */
import { taskDeps } from './deps.js';
import { renderProviderNamed } from './render-provider.js';
import type { TaskDeps } from './tasks.js';

let deps: TaskDeps | undefined;
export function renderTaskDeps(): TaskDeps {
  deps ??= { ...taskDeps(), provider: renderProviderNamed };
  return deps;
}
