/** vitest globalSetup of the integration project: one embedded service shared by the HTTP integration files. */
import type { TestProject } from 'vitest/node';
import { startEmbeddedProcess, type EmbeddedProcess, type RuntimeInfo } from './embedded.js';

declare module 'vitest' {
  export interface ProvidedContext {
    runtime: RuntimeInfo;
    stateDir: string;
  }
}

let embedded: EmbeddedProcess | undefined;

export async function setup(project: TestProject): Promise<void> {
  embedded = await startEmbeddedProcess({ env: { BLOCKING_WAIT_MS: '20000' } });
  project.provide('runtime', embedded.info);
  project.provide('stateDir', embedded.stateDir);
}

export async function teardown(): Promise<void> {
  const code = await embedded?.stop();
  if (code !== 0 && code !== null) console.error(`embedded runtime exited with ${code}:\n${embedded?.output()}`);
}
