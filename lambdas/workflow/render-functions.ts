/**
 * The render functions (ADR 0016), one per provider: their ids, entries and limits, the state names of their steps.
 * CDK (lib/paycall-stack.ts, lib/workflow.ts), the embedded runtime (lib/local/asl.ts) and the bench read it; a
 * RenderFunctionDef has the shape of a workflow task's function (lambdas/surfaces/routes.ts TaskFunctionDef).
 */
import { PROVIDER_NAMES, type ProviderName } from '../render/providers.js';

/**
 * One render function per provider (ADR 0016): it runs that provider's "Submit render (<provider>)" and "Check render
 * (<provider>)" states in every product machine the provider can render, the step named in its payload. Its bundle
 * carries only its own adapter and SDK (a music vendor's also the image adapters, for the song's cover), its
 * concurrency is its own, and the machine picks it from the provider the job recorded, so a job in flight finishes
 * on its provider after the operator chooses another.
 */
export interface RenderFunctionDef {
  id: string;
  provider: ProviderName;
  /** Project-relative entry exporting `handler`. */
  entry: string;
  timeoutSeconds: number;
  memoryMb: number;
  /** Runs ffmpeg (x86_64 with the bundled binary): the synthesiser encodes, the video vendors crop a square clip. */
  ffmpeg: boolean;
}

/** The state names of a provider's render steps (one pair per provider in each machine). */
export const RENDER_STATES = { submit: 'Submit render', check: 'Check render' } as const;
export type RenderStep = keyof typeof RENDER_STATES;

export function renderStateName(step: RenderStep, provider: ProviderName): string {
  return `${RENDER_STATES[step]} (${provider})`;
}

/** `RenderFalVeo` for `fal-veo`. */
export function renderFunctionId(provider: ProviderName): string {
  return `Render${provider.replace(/(^|-)([a-z])/g, (_, __, c: string) => c.toUpperCase())}`;
}

// A submit may call a vendor for up to MUSIC_CALL_TIMEOUT_MS (240 s) and store the result; a video check may
// download a clip (≤ 60 s) and crop it (≤ 90 s): 300 s covers both steps of every provider. The synthesiser encodes
// with ffmpeg: its memory buys the CPU (Lambda's CPU grows with memory).
const RENDER_LIMITS: Record<ProviderName, { memoryMb: number; ffmpeg: boolean }> = {
  local: { memoryMb: 2048, ffmpeg: true },
  'bedrock-stability': { memoryMb: 1024, ffmpeg: false },
  'google-veo': { memoryMb: 1024, ffmpeg: true },
  'fal-veo': { memoryMb: 1024, ffmpeg: true },
  'google-lyria': { memoryMb: 1024, ffmpeg: false },
  'minimax-music': { memoryMb: 1024, ffmpeg: false },
};

export const RENDER_FUNCTIONS: RenderFunctionDef[] = /* @__PURE__ */ PROVIDER_NAMES.map((provider) => ({
  id: renderFunctionId(provider),
  provider,
  entry: `lambdas/workflow/render/${provider}.ts`,
  timeoutSeconds: 300,
  ...RENDER_LIMITS[provider],
}));

