/** GET /openapi.json — the OpenAPI 3.1.0 document of the six generation operations. */
import { documentEntry, jsonDocument } from '../protocols/discovery/serve.js';
import { openApiDocument } from '../protocols/discovery/openapi.js';

export const handler = documentEntry({ build: (ctx) => jsonDocument(openApiDocument(ctx)) });
