/*
 * What the functions bundle in place of `ws` (lib/bundling/aliases.ts): `@google/genai`'s Node build imports it for the
 * Live API's WebSocket, which no render uses (Veo and Lyria are plain HTTPS calls). Opening one fails loudly.
 */
export class WebSocket {
  constructor() {
    throw new Error('ws is not bundled: no function opens a WebSocket (lib/bundling/aliases.ts)');
  }
}
export default WebSocket;
