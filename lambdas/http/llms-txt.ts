/** GET /llms.txt and /llms-full.txt — llmstxt.org summaries; the path picks the variant. */
import { documentEntry, textDocument } from '../protocols/discovery/serve.js';
import { llmsFullTxt, llmsTxt } from '../protocols/discovery/llms.js';

export const handler = documentEntry({
  variant: (event) => (event.rawPath.endsWith('/llms-full.txt') ? 'full' : 'summary'),
  build: (ctx, variant) => textDocument(variant === 'full' ? llmsFullTxt(ctx) : llmsTxt(ctx)),
});
