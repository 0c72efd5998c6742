/**
 * Veo on the Gemini API fake: the three calls a video adapter makes, in the shapes the real API uses (and
 * `@google/genai` reads: generateVideosParametersToMldev / generateVideosOperationFromMldev).
 *
 *   POST /v1beta/models/{model}:predictLongRunning   {instances:[{prompt}], parameters:{aspectRatio, durationSeconds,
 *                                                     resolution, sampleCount?, negativePrompt?, ...}} → {name}
 *   GET  /v1beta/{operationName}                     {name} until done, then {name, done: true, response:
 *                                                     {generateVideoResponse: {generatedSamples: [{video: {uri}}]}}}
 *                                                     or {generateVideoResponse: {raiMediaFilteredCount, raiMediaFilteredReasons}}
 *   GET  /v1beta/files/{id}:download?alt=media       302 to the file (as the real API redirects to its storage)
 *
 * The video is a real 8 s H.264/AAC MP4 made by the local synthesiser at the requested aspect ratio. What the real
 * API refuses, this refuses the same way: an aspect ratio other than 16:9 / 9:16, a duration other than 4, 6 or 8 s,
 * 1080p under 8 s, and `generateAudio` ("not supported in Gemini API": audio is always on).
 */
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import type { VideoRequest } from '../../../lambdas/products/catalog.js';
import { renderVideo } from '../../../lambdas/render/local/video/render-video.js';
import { fakeMarker, googleError, type GeminiContext, type GeminiReply, type GeminiRoute } from './gemini.js';

export interface VeoFakeOptions {
  /** Polls of a finished operation answered "not done" before it reports done (default 2). */
  pollsBeforeDone?: number;
  /** Added to the fake's busy time for each render (the bench subtracts it). */
  onRenderMs?: (ms: number) => void;
}

const KNOWN_PARAMETERS = new Set(['aspectRatio', 'durationSeconds', 'resolution', 'sampleCount', 'negativePrompt', 'personGeneration', 'enhancePrompt']);

interface Operation {
  name: string;
  model: string;
  prompt: string;
  polls: number;
  video?: Buffer;
  failed?: unknown;
}

export function veoRoutes(context: GeminiContext, options: VeoFakeOptions = {}): { routes: GeminiRoute[]; idle(): Promise<void> } {
  const pollsBeforeDone = options.pollsBeforeDone ?? 2;
  const operations = new Map<string, Operation>();
  const files = new Map<string, Buffer>();
  // Renders are deterministic: one per prompt and frame shape.
  const renders = new Map<string, Promise<Buffer>>();
  const pending = new Set<Promise<unknown>>();
  const require = createRequire(import.meta.url);
  const ffmpeg = () => (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;

  function render(prompt: string, aspectRatio: '16:9' | '9:16'): Promise<Buffer> {
    const key = `${aspectRatio}\n${prompt}`;
    let made = renders.get(key);
    if (!made) {
      const started = performance.now();
      made = renderVideo({ prompt, aspectRatio, durationSeconds: 8 } as VideoRequest, ffmpeg()).then((video) => {
        options.onRenderMs?.(performance.now() - started);
        return video.video;
      });
      renders.set(key, made);
      made.catch(() => renders.delete(key));
    }
    return made;
  }

  const predict: GeminiRoute = {
    method: 'POST',
    path: /^\/v1beta\/models\/([^/:]+):predictLongRunning$/,
    handle(request, match) {
      const model = match[1];
      if (!/^veo-[a-z0-9.-]+$/.test(model)) return googleError(404, 'NOT_FOUND', `models/${model} is not found for API version v1beta, or is not supported for predictLongRunning.`);
      let body: { instances?: { prompt?: unknown }[]; parameters?: Record<string, unknown> };
      try {
        body = JSON.parse(request.body.toString('utf8'));
      } catch {
        return googleError(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.');
      }
      const prompt = body.instances?.[0]?.prompt;
      if (!Array.isArray(body.instances) || body.instances.length !== 1 || typeof prompt !== 'string' || !prompt) {
        return googleError(400, 'INVALID_ARGUMENT', 'A text prompt is required in instances[0].prompt.');
      }
      const refused = refuseParameters(body.parameters ?? {});
      if (refused) return googleError(400, 'INVALID_ARGUMENT', refused);
      const marker = fakeMarker(prompt);
      if (marker === '429') return googleError(429, 'RESOURCE_EXHAUSTED', 'You exceeded your current quota, please check your plan and billing details.');
      if (marker === '500') return googleError(500, 'INTERNAL', 'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting');

      const name = `models/${model}/operations/${randomBytes(6).toString('hex')}`;
      const operation: Operation = { name, model, prompt, polls: 0 };
      operations.set(name, operation);
      if (!marker) {
        const aspectRatio = (body.parameters?.aspectRatio as '16:9' | '9:16' | undefined) ?? '16:9';
        const work = render(prompt, aspectRatio).then(
          (video) => void (operation.video = video),
          (error) => void (operation.failed = error),
        );
        pending.add(work);
        void work.finally(() => pending.delete(work));
      }
      context.log(`[gemini-fake] ${name} started${marker ? ` (marker ${marker})` : ''}`);
      return { status: 200, json: { name } };
    },
  };

  const poll: GeminiRoute = {
    method: 'GET',
    path: /^\/v1beta\/(models\/[^/]+\/operations\/[a-z0-9]+)$/,
    handle(_request, match) {
      const operation = operations.get(match[1]);
      if (!operation) return googleError(404, 'NOT_FOUND', `Operation ${match[1]} not found.`);
      operation.polls += 1;
      const marker = fakeMarker(operation.prompt);
      const ready = marker ? marker !== 'hang' : operation.video !== undefined || operation.failed !== undefined;
      if (!ready || operation.polls <= pollsBeforeDone) return { status: 200, json: { name: operation.name } };
      return finished(operation, marker);
    },
  };

  function finished(operation: Operation, marker: string | undefined): GeminiReply {
    const typed = '@type';
    const response = (generateVideoResponse: unknown) => ({
      status: 200,
      json: { name: operation.name, done: true, response: { [typed]: 'type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningResponse', generateVideoResponse } },
    });
    if (marker === 'malformed') return { status: 200, contentType: 'application/json; charset=UTF-8', body: `{"name": "${operation.name}", "done": true, "response": {"generateVideoResponse": {"generatedSa` };
    if (marker === 'content-filter') {
      return response({
        raiMediaFilteredCount: 1,
        raiMediaFilteredReasons: ["Sorry, we can't create videos from input images containing photorealistic children. Please update your input and try again. (fake: content filter)"],
      });
    }
    if (operation.failed !== undefined) {
      return { status: 200, json: { name: operation.name, done: true, error: { code: 13, message: 'Video generation failed due to an internal error.' } } };
    }
    const id = randomBytes(6).toString('hex');
    files.set(id, operation.video!);
    return response({ generatedSamples: [{ video: { uri: `${context.baseUrl}/v1beta/files/${id}:download?alt=media` } }] });
  }

  const download: GeminiRoute = {
    method: 'GET',
    path: /^\/v1beta\/files\/([a-z0-9]+):download$/,
    handle(request, match) {
      if (request.url.searchParams.get('alt') !== 'media' || !files.has(match[1])) return googleError(404, 'NOT_FOUND', `File ${match[1]} not found.`);
      return { status: 302, headers: { location: `${context.baseUrl}/fake-storage/${match[1]}.mp4` } };
    },
  };

  // Where the download redirects (a signed storage URL on the real API): no API key.
  const media: GeminiRoute = {
    method: 'GET',
    path: /^\/fake-storage\/([a-z0-9]+)\.mp4$/,
    authenticated: false,
    handle(_request, match) {
      const video = files.get(match[1]);
      if (!video) return { status: 404, contentType: 'text/plain', body: 'Not Found' };
      return { status: 200, contentType: 'video/mp4', body: video };
    },
  };

  return {
    routes: [predict, poll, download, media],
    idle: async () => void (await Promise.all([...pending])),
  };
}

/** The real API's refusals of video parameters (Gemini API, Veo 3.x). */
function refuseParameters(parameters: Record<string, unknown>): string | undefined {
  if ('generateAudio' in parameters) return 'generateAudio parameter is not supported in Gemini API.';
  const unknown = Object.keys(parameters).find((name) => !KNOWN_PARAMETERS.has(name));
  if (unknown) return `Invalid JSON payload received. Unknown name "${unknown}" at 'parameters': Cannot find field.`;
  const { aspectRatio = '16:9', durationSeconds = 8, resolution = '720p', sampleCount = 1 } = parameters;
  if (aspectRatio !== '16:9' && aspectRatio !== '9:16') return `Aspect ratio ${String(aspectRatio)} is not supported; use 16:9 or 9:16.`;
  if (![4, 6, 8].includes(durationSeconds as number)) return `The number value for \`durationSeconds\` is out of bound. Please provide a value between 4 and 8, inclusive.`;
  if (resolution !== '720p' && resolution !== '1080p') return `Resolution ${String(resolution)} is not supported; use 720p or 1080p.`;
  if (resolution === '1080p' && durationSeconds !== 8) return '1080p is only supported for 8 second videos.';
  if (sampleCount !== 1) return 'sampleCount must be 1 for this model.';
  return undefined;
}
