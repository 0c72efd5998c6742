/** POST /api/mcp (and GET, answered 405) — the MCP endpoint of the generation surface. */
import middy from '@middy/core';
import { frame } from '../middleware/http-frame.js';
import { GENERATION } from '../surfaces/surface.js';
import type { HttpEvent, HttpResult } from '../shared/http.js';
import { generationMcp, handleMcp } from '../protocols/mcp/handle.js';
import { songReader } from '../protocols/mcp/songs.js';
import { payWithToken } from '../protocols/mcp/token-port.js';
import { tokenConfig } from '../payments/token/config.js';
import { checkAtColdStart, PURCHASE_CONFIG } from '../shared/config.js';
import { renderConfig } from '../render/config.js';

// Configuration is checked at cold start: the token tool purchases jobs like a paid route.
checkAtColdStart(...PURCHASE_CONFIG, renderConfig, tokenConfig);

const endpoint = generationMcp({ payWithToken, readSong: songReader() });

export const handler = middy<HttpEvent, HttpResult>()
  .use(frame(GENERATION))
  .handler((event) => handleMcp(event, endpoint));
