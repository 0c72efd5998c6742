/**
 * How an agent_video request becomes a fal.ai queue request to Veo 3.1 Fast (`fal-ai/veo3.1/fast`; provider notes
 * §2, §7), and what the buyer gets back:
 *
 *   prompt          → input.prompt (the spec asks buyers to name the sounds: Veo generates audio from it)
 *   durationSeconds → input.duration "8s" always (the product is the 8 s clip; fal's Veo takes "4s" | "6s" | "8s");
 *                     the requested value is recorded with the render and the rendered one is the job's durationSeconds
 *   aspectRatio     → input.aspect_ratio "16:9" / "9:16" as is; 1:1 (which Veo does not make) is asked as "16:9" and
 *                     centre-cropped to 720x720 at check
 *   resolution      → input.resolution "720p"
 *   audio           → input.generate_audio true (fal prices audio separately and lets it be switched off)
 *
 * The frame plan, the crop and the stored file are every video adapter's (../video-shared.ts).
 */
import type { VideoRequest } from '../../products/catalog.js';
import { planVideoFrame, renderedAspectRatio, VIDEO_RESOLUTION, VIDEO_SECONDS, type VideoFrame } from '../video-shared.js';

export interface FalVeoInput {
  prompt: string;
  aspect_ratio: '16:9' | '9:16';
  duration: `${number}s`;
  resolution: string;
  generate_audio: boolean;
}

export interface FalVeoPlan extends VideoFrame {
  input: FalVeoInput;
}

export function planFalVeoRender(request: VideoRequest): FalVeoPlan {
  const frame = planVideoFrame(request);
  return {
    input: { prompt: request.prompt, aspect_ratio: renderedAspectRatio(frame), duration: `${VIDEO_SECONDS}s`, resolution: VIDEO_RESOLUTION, generate_audio: true },
    ...frame,
  };
}
