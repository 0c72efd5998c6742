/**
 * Writes docs/functions.md from the function map (lib/function-map.ts) and the role table (lib/roles.ts): every route,
 * its function, the function's role and what that role may do. Run it after changing a route, a role or a function's
 * limits: `npx tsx bin/generate-function-map.ts`; test/unit/function-map.test.ts fails until the file matches.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FUNCTION_MAP_DOC, renderFunctionMap } from '../lib/function-map-doc.js';

const root = join(fileURLToPath(import.meta.url), '..', '..');
writeFileSync(join(root, FUNCTION_MAP_DOC), renderFunctionMap());
console.log(`wrote ${FUNCTION_MAP_DOC}`);
