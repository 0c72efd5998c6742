/** GET /.well-known/agentic-commerce.json — seller, payment rails, network and USDC address, catalog URL. */
import { documentEntry, jsonDocument } from '../protocols/discovery/serve.js';
import { agenticCommerceDocument } from '../protocols/discovery/catalog.js';

export const handler = documentEntry({ build: (ctx) => jsonDocument(agenticCommerceDocument(ctx)) });
