/**
 * What the chosen render providers need in the stack besides their API keys (lib/generation-stack.ts grants those):
 * their settings as environment variables of the tasks that call them, and their IAM statements, scoped to exactly
 * the models configured. Only a provider chosen for some product contributes anything.
 */
import * as iam from 'aws-cdk-lib/aws-iam';
import type { Stack } from 'aws-cdk-lib';
import type { StackConfig } from './config.js';
import type { ProviderName } from '../lambdas/render/providers.js';

/** A provider's own Wait between render checks, where the global one does not suit it (the context can override). */
export const PROVIDER_CHECK_SECONDS: Partial<Record<ProviderName, number>> = {
  // Veo renders take tens of seconds to minutes; the notes advise polling every 10–15 s.
  'google-veo': 10,
  // The same model through fal's queue.
  'fal-veo': 10,
};

/**
 * The objects a check task that stores the finished file writes: the clip of a job, `renders/<jobId>/video.mp4`
 * (videoKey, lambdas/render/video-shared.ts; a job id has no `/`). Nothing else: the submit task writes the records.
 */
export const CHECK_RENDER_WRITES = 'renders/*/video.mp4';

/** Providers whose check stores the finished file itself (download, crop): their check task writes CHECK_RENDER_WRITES. */
export function checkWritesRenders(config: StackConfig): boolean {
  return Object.values(config.renderProviders).some((name) => name === 'google-veo' || name === 'fal-veo');
}

/** The variables the adapters read (model ids, regions); none for the local synthesiser. */
export function providerEnvironment(config: StackConfig): Record<string, string> {
  const chosen = new Set(Object.values(config.renderProviders));
  const env: Record<string, string> = {};
  if (chosen.has('bedrock-stability')) {
    env.BEDROCK_REGION = config.bedrockRegion;
    env.BEDROCK_IMAGE_MODEL_ID = config.bedrockImageModel;
  }
  if (chosen.has('google-lyria')) env.LYRIA_MODEL = config.lyriaModel;
  if (chosen.has('minimax-music')) env.MINIMAX_MUSIC_MODEL = config.minimaxModel;
  if (chosen.has('google-veo')) env.VEO_MODEL = config.veoModel;
  if (chosen.has('fal-veo')) env.FAL_VIDEO_MODEL = config.falVideoModel;
  return env;
}

/** IAM statements of the tasks that call a provider (Submit render, Check render). */
export function providerStatements(stack: Stack, config: StackConfig): iam.PolicyStatement[] {
  const chosen = new Set(Object.values(config.renderProviders));
  const statements: iam.PolicyStatement[] = [];
  if (chosen.has('bedrock-stability')) {
    statements.push(
      new iam.PolicyStatement({
        actions: ['bedrock:InvokeModel'],
        resources: [stack.formatArn({ service: 'bedrock', region: config.bedrockRegion, account: '', resource: 'foundation-model', resourceName: config.bedrockImageModel })],
      }),
    );
  }
  return statements;
}
