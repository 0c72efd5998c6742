/** GET /api/v1/catalog — schema.org ItemList of the three products plus the flat `products` array. */
import { documentEntry, jsonDocument } from '../protocols/discovery/serve.js';
import { catalogDocument } from '../protocols/discovery/catalog.js';

export const handler = documentEntry({ build: (ctx) => jsonDocument(catalogDocument(ctx)) });
