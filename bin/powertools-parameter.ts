/**
 * `npx tsx bin/powertools-parameter.ts`: the name of AWS's public SSM parameter that holds the ARN of the Powertools
 * layer at the installed Powertools version, spelled by the same code the synth uses for the template's layer
 * (lib/bundling/externals.ts, lib/functions.ts). The deploy runbook's region check (docs/deploy.md, step 2) asks AWS for this
 * name, so it checks exactly what the deployment will resolve; test/infra/runbook.test.ts holds the two equal.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { powertoolsLayerParameter, powertoolsVersion } from '../lib/bundling/externals.js';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
try {
  console.log(powertoolsLayerParameter(powertoolsVersion(projectRoot)));
} catch (error) {
  // Printed alone: the name is read through $(…), where a stack trace would only bury the reason.
  console.error(`powertools-parameter: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
