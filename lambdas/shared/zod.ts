/**
 * zod for the functions' hot paths: `zod/mini` (the same parser core and checks as `zod`, without the chainable
 * classic API that costs every bundle ~440 KB), with zod's English messages switched on as `zod` itself does when
 * it loads, so an issue reads the same whichever of the two built the schema. Every schema a paid request crosses
 * (the products' request bodies, the x402 payload, the token claims and configuration) is built with this.
 * Import it as a namespace (`import * as z from '…/shared/zod.js'`) so the bundler keeps only what is used.
 */
import { config } from 'zod/mini';
import en from 'zod/v4/locales/en.js';

config(en());

export * from 'zod/mini';
