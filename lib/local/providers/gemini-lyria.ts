/**
 * Lyria on the Gemini API fake: the one call a music adapter makes, in the shape the real API uses (and
 * `@google/genai` reads: generateContentResponseFromMldev).
 *
 *   POST /v1beta/models/{lyria model}:generateContent   {contents: [{role, parts: [{text}]}], generationConfig?}
 *        → {candidates: [{content: {role: "model", parts: [{text: lyrics/structure}, {inlineData: {mimeType:
 *           "audio/mpeg", data: base64 MP3}}]}, finishReason: "STOP"}], modelVersion, responseId, usageMetadata}
 *
 * The song is a real MP3 made by the local synthesiser from what the prompt asks, read back as Lyria would read it:
 * "instrumental, no vocals", "female/male lead vocals" and the lyrics after "Lyrics (sing exactly):" (sung as given).
 * The text part is the sung lyrics under a section tag (or the structure of an instrumental).
 *
 * Markers: `[fake:content-filter]` → 200 with `promptFeedback.blockReason: PROHIBITED_CONTENT` and no candidates (as
 * the API answers a blocked prompt); `[fake:429]` → 429 RESOURCE_EXHAUSTED; `[fake:500]` → 500 INTERNAL; `[fake:hang]`
 * → never answers; `[fake:malformed]` → a truncated JSON body. A model that is not a Lyria one → 404 NOT_FOUND.
 */
import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';
import type { MusicRequest } from '../../../lambdas/products/catalog.js';
import { renderMusic } from '../../../lambdas/render/local/music/render-music.js';
import { fakeMarker, googleError, type GeminiContext, type GeminiReply, type GeminiRoute } from './gemini.js';

const LYRICS_HEADING = 'Lyrics (sing exactly):';

export function lyriaRoutes(_context: GeminiContext): { routes: GeminiRoute[] } {
  const require = createRequire(import.meta.url);
  const ffmpeg = () => (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;

  const generateContent: GeminiRoute = {
    method: 'POST',
    path: /^\/v1beta\/models\/(lyria-[^/:]+):generateContent$/,
    async handle(request, match): Promise<GeminiReply> {
      const model = match[1];
      let body: { contents?: { role?: string; parts?: { text?: string }[] }[] };
      try {
        body = JSON.parse(request.body.toString('utf8')) as typeof body;
      } catch {
        return googleError(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.');
      }
      const prompt = (body.contents ?? []).flatMap((c) => c.parts ?? []).map((p) => p.text ?? '').join('\n').trim();
      if (!prompt) return googleError(400, 'INVALID_ARGUMENT', '* GenerateContentRequest.contents: contents is not specified\n');
      const marker = fakeMarker(prompt);
      if (marker === 'content-filter') {
        return { status: 200, json: { promptFeedback: { blockReason: 'PROHIBITED_CONTENT' }, modelVersion: model, responseId: responseId() } };
      }
      if (marker === '429') return googleError(429, 'RESOURCE_EXHAUSTED', 'You exceeded your current quota, please check your plan and billing details.');
      if (marker === '500') return googleError(500, 'INTERNAL', 'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting');
      if (marker === 'hang') return new Promise<never>(() => {});
      if (marker === 'malformed') return { status: 200, contentType: 'application/json; charset=UTF-8', body: '{"candidates": [{"content": {"parts": [{"inlineData": {"mimeType": "audio/mpeg", "data": "SUQz' };

      const music = musicRequestOf(prompt);
      const song = await renderMusic(music, ffmpeg());
      const text = music.make_instrumental ? '[Intro]\n[Main theme]\n[Outro]' : music.lyrics ? `[Verse 1]\n${music.lyrics}` : '[Verse 1]\n(ooh, ah)\n[Chorus]\n(la la la)';
      return {
        status: 200,
        json: {
          candidates: [
            {
              content: { role: 'model', parts: [{ text }, { inlineData: { mimeType: 'audio/mpeg', data: song.audio.toString('base64') } }] },
              finishReason: 'STOP',
              index: 0,
            },
          ],
          usageMetadata: { promptTokenCount: Math.ceil(prompt.length / 4), totalTokenCount: Math.ceil(prompt.length / 4) },
          modelVersion: model,
          responseId: responseId(),
        },
      };
    },
  };
  return { routes: [generateContent] };
}

/** The synthesiser's request for what the prompt asks (the lyrics after the heading sung as written). */
function musicRequestOf(prompt: string): MusicRequest {
  const at = prompt.indexOf(LYRICS_HEADING);
  const lyrics = at >= 0 ? prompt.slice(at + LYRICS_HEADING.length).trim() : '';
  const description = at >= 0 ? prompt.slice(0, at) : prompt;
  const instrumental = /\binstrumental, no vocals\b/i.test(description);
  const gender = /\bfemale lead vocals\b/i.test(description) ? 'f' : /\bmale lead vocals\b/i.test(description) ? 'm' : undefined;
  return {
    prompt: description.trim(),
    make_instrumental: instrumental,
    ...(lyrics && !instrumental ? { custom_mode: true, lyrics } : {}),
    ...(gender ? { vocal_gender: gender } : {}),
  } as MusicRequest;
}

function responseId(): string {
  return randomBytes(12).toString('base64url');
}
