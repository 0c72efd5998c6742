/**
 * How an agent_video request becomes a Veo call, and what the buyer gets back (docs/providers.md):
 *
 *   prompt          → instances[0].prompt (the spec asks buyers to name the sounds: Veo generates audio from it)
 *   durationSeconds → always 8 (the product is the 8 s clip; Veo also does 4 and 6, never 3–15); the requested value
 *                     stays on the job's request and the rendered one is the job's durationSeconds
 *   aspectRatio     → 16:9 and 9:16 as is; 1:1 (which Veo does not make) is rendered 16:9 and centre-cropped to 720x720
 *   resolution      → "720p"
 *   audio           → not sent: the Gemini API refuses `generateAudio` and always generates audio
 *
 * The frame plan, the crop and the stored file are every video adapter's (../video-shared.ts).
 */
import type { GenerateVideosParameters } from '@google/genai';
import type { VideoRequest } from '../../products/catalog.js';
import { planVideoFrame, renderedAspectRatio, VIDEO_RESOLUTION, VIDEO_SECONDS, type VideoFrame } from '../video-shared.js';

export interface VeoPlan extends VideoFrame {
  /** The SDK call's parameters (model filled in by the adapter). */
  params: Omit<GenerateVideosParameters, 'model'>;
}

export function planVeoRender(request: VideoRequest): VeoPlan {
  const frame = planVideoFrame(request);
  return {
    params: {
      source: { prompt: request.prompt },
      config: { aspectRatio: renderedAspectRatio(frame), durationSeconds: VIDEO_SECONDS, resolution: VIDEO_RESOLUTION, numberOfVideos: 1 },
    },
    ...frame,
  };
}
