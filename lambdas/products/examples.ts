/** Example responses, published in the 402's discovery extension and (later) the discovery documents. */
import type { ProductId } from './catalog.js';

const JOB = '3f1c2a4e-8b7d-4c1e-9a2f-0d5e6b7c8a91';

export const ACCEPTED_EXAMPLES: Record<ProductId, Record<string, unknown>> = {
  create_music: {
    status: 'queued',
    shareUrl: `https://api.example.com/song/${JOB}`,
    songId: JOB,
    pollUrl: `https://api.example.com/api/songs/${JOB}`,
  },
  agent_video: {
    jobId: JOB,
    status: 'queued',
    provider: 'local',
    videoUrl: null,
    pollUrl: `https://api.example.com/agent/video/${JOB}`,
  },
  agent_image: {
    jobId: JOB,
    status: 'queued',
    provider: 'local',
    imageUrl: null,
    pollUrl: `https://api.example.com/agent/image/${JOB}`,
  },
};
