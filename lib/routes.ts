/**
 * THE route table. CDK creates one function and one API route per entry; the local gateway serves the same
 * entries by importing the same handler exports; the OpenAPI document lists the generation routes.
 * Paths are relative to the project root (entry files export `handler`).
 */
export type HttpMethod = 'GET' | 'POST';

export interface RouteDef {
  /** Stable id, used for construct ids and function names. */
  id: string;
  method: HttpMethod;
  /** API Gateway style path, parameters in braces; `{proxy+}` not used. */
  path: string;
  surface: 'generation' | 'agents';
  entry: string;
  operationId?: string;
  /** Paid routes are x402-protected POSTs. */
  paid?: boolean;
  /** Lambda timeout in seconds (defaults to 10). */
  timeoutSeconds?: number;
  memoryMb?: number;
}

export const ROUTES: RouteDef[] = [
  {
    id: 'CreateMusic',
    method: 'POST',
    path: '/create-music',
    surface: 'generation',
    entry: 'lambdas/http/create-music.ts',
    operationId: 'create_music',
    paid: true,
    timeoutSeconds: 30,
    memoryMb: 512,
  },
  {
    id: 'GetSong',
    method: 'GET',
    path: '/api/songs/{songId}',
    surface: 'generation',
    entry: 'lambdas/http/get-song.ts',
    operationId: 'create_music_result',
  },
  {
    id: 'AgentVideo',
    method: 'POST',
    path: '/agent/video',
    surface: 'generation',
    entry: 'lambdas/http/agent-video.ts',
    operationId: 'agent_video',
    paid: true,
    timeoutSeconds: 30,
    memoryMb: 512,
  },
  {
    id: 'GetVideo',
    method: 'GET',
    path: '/agent/video/{jobId}',
    surface: 'generation',
    entry: 'lambdas/http/get-video.ts',
    operationId: 'agent_video_status',
  },
  {
    id: 'AgentImage',
    method: 'POST',
    path: '/agent/image',
    surface: 'generation',
    entry: 'lambdas/http/agent-image.ts',
    operationId: 'agent_image',
    paid: true,
    timeoutSeconds: 30,
    memoryMb: 512,
  },
  {
    id: 'GetImage',
    method: 'GET',
    path: '/agent/image/{jobId}',
    surface: 'generation',
    entry: 'lambdas/http/get-image.ts',
    operationId: 'agent_image_status',
  },
  {
    // The browser share page a song's `shareUrl` points at; not an API operation (no operationId, not in OpenAPI).
    id: 'SongPage',
    method: 'GET',
    path: '/song/{songId}',
    surface: 'generation',
    entry: 'lambdas/http/song-page.ts',
  },
];

/**
 * Step Functions task handlers, shared by the three product state machines. The state names in the machine
 * are the `stateName`s here; the local runner maps each Lambda task to the handler of the same entry.
 */
export interface WorkflowTaskDef {
  id: string;
  stateName: string;
  entry: string;
  timeoutSeconds: number;
  memoryMb: number;
}

export const WORKFLOW_TASKS: WorkflowTaskDef[] = [
  { id: 'SubmitRender', stateName: 'Submit render', entry: 'lambdas/workflow/submit-render.ts', timeoutSeconds: 300, memoryMb: 2048 },
  { id: 'CheckRender', stateName: 'Check render', entry: 'lambdas/workflow/check-render.ts', timeoutSeconds: 30, memoryMb: 256 },
  { id: 'StoreAsset', stateName: 'Store asset', entry: 'lambdas/workflow/store-asset.ts', timeoutSeconds: 120, memoryMb: 1024 },
  { id: 'MarkCompleted', stateName: 'Mark completed', entry: 'lambdas/workflow/mark-completed.ts', timeoutSeconds: 10, memoryMb: 256 },
  { id: 'MarkFailed', stateName: 'Mark failed', entry: 'lambdas/workflow/mark-failed.ts', timeoutSeconds: 10, memoryMb: 256 },
];

/** Scheduled sweeper: restarts durable jobs whose execution never started, fails jobs stuck past their deadline. */
export const SWEEPER = { id: 'JobSweeper', entry: 'lambdas/workflow/sweep.ts', timeoutSeconds: 60, memoryMb: 256, everyMinutes: 5 };

/** Match a concrete path against a route path template; returns path parameters or null. */
export function matchPath(template: string, path: string): Record<string, string> | null {
  const t = template.split('/');
  const p = path.split('/');
  if (t.length !== p.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < t.length; i++) {
    const seg = t[i];
    if (seg.startsWith('{') && seg.endsWith('}')) {
      if (p[i] === '') return null;
      params[seg.slice(1, -1)] = decodeURIComponent(p[i]);
    } else if (seg !== p[i]) {
      return null;
    }
  }
  return params;
}
