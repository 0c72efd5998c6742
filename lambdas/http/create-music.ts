/** POST create-music — paid create_music (x402 v2 exact); 202 with a poll URL, or 200 with the asset for `?async=false`. */
import { paidEntry } from './paid-entry.js';

export const handler = paidEntry('create_music');
