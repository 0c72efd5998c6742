/** GET /.well-known/ai-plugin.json — plugin manifest: auth none, the OpenAPI document and the MCP endpoint. */
import { documentEntry, jsonDocument } from '../protocols/discovery/serve.js';
import { aiPluginManifest } from '../protocols/discovery/agents.js';

export const handler = documentEntry({ build: (ctx) => jsonDocument(aiPluginManifest(ctx)) });
