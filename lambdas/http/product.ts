/** GET /api/v1/products/{id} — one product; an unknown id is 404 naming the known ids (never cached). */
import { documentEntry, jsonDocument } from '../protocols/discovery/serve.js';
import { productDocument, unknownProductBody } from '../protocols/discovery/catalog.js';
import { isProductId, type ProductId } from '../products/products.js';
import { json } from '../shared/http.js';

export const handler = documentEntry({
  variant: (event) => event.pathParameters?.id ?? '',
  reject: (id, ctx) => (isProductId(id) ? undefined : json(404, unknownProductBody(id, ctx), { 'Cache-Control': 'no-store' })),
  build: (ctx, id) => jsonDocument(productDocument(id as ProductId, ctx)),
});
