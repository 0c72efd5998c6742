/*
 * What the functions bundle in place of `google-auth-library` (lib/bundling/aliases.ts). `@google/genai`'s Node build
 * imports it at the top for Vertex AI's credentials, but our adapters (google-veo, google-lyria) authenticate with an
 * API key, and with one the SDK never constructs GoogleAuth (NodeAuth returns before it). Dropping it leaves gaxios,
 * node-fetch and its stream polyfills out of the bundle too (about 250 KiB). Constructing it fails loudly.
 * test/unit/bundling/vendor-aliases.test.ts bundles the SDK with this alias and calls the Gemini API through it.
 */
export class GoogleAuth {
  constructor() {
    throw new Error('google-auth-library is not bundled: the Gemini adapters authenticate with an API key (lib/bundling/aliases.ts)');
  }
}
