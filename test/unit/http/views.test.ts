import { describe, expect, it } from 'vitest';
import { acceptedBody, mediaJob, musicBlockingBody, songRow, titleFromPrompt, unknownMediaJob } from '../../../lambdas/jobs/views.js';

import { job, urls } from '../fixtures/jobs.js';

describe('Song row (poll response of music)', () => {
  it('is pending with audio_url = the placeholder cover image and duration 0 until ready', () => {
    expect(songRow(job({}), urls)).toEqual({
      id: 'j1',
      model_version: 'pending',
      audio_url: 'https://cdn.test/static/cover.png',
      title: 'Dreamy Lo-fi Beats',
      prompt: 'dreamy lo-fi beats',
      genre: 'lofi',
      image_url: 'https://cdn.test/static/cover.png',
      duration: 0,
      share_id: 'j1',
      is_public: true,
      created_at: '2026-11-22T00:00:00.000Z',
    });
  });
  it('carries the version label, the MP3 and the cover art when completed', () => {
    const row = songRow(
      job({ status: 'completed', assets: { audio: 'a.mp3', cover: 'c.png' }, metadata: { modelVersion: 'local-synth-1', durationSeconds: 31.2, title: 'Night Drive' } }),
      urls,
    );
    expect(row).toMatchObject({ model_version: 'local-synth-1', audio_url: 'https://cdn.test/a.mp3', image_url: 'https://cdn.test/c.png', duration: 31.2, title: 'Night Drive' });
  });
  it('is final `failed` on a failed render', () => {
    expect(songRow(job({ status: 'failed', error: 'boom' }), urls)).toMatchObject({ model_version: 'failed', error: 'boom', duration: 0 });
  });
});

describe('Video and image jobs (accepted and poll responses)', () => {
  it('accepts with pollUrl and a null asset', () => {
    expect(acceptedBody(job({ product: 'agent_video' }), urls)).toEqual({
      jobId: 'j1',
      status: 'queued',
      provider: 'local',
      videoUrl: null,
      pollUrl: 'https://api.test/agent/video/j1',
    });
    expect(acceptedBody(job({}), urls)).toEqual({ status: 'queued', shareUrl: 'https://api.test/song/j1', songId: 'j1', pollUrl: 'https://api.test/api/songs/j1' });
  });
  it('polls with pollUrl null, the asset once completed, an error once failed; reserved reads as queued', () => {
    expect(mediaJob(job({ product: 'agent_image', status: 'reserved' }), urls)).toMatchObject({ status: 'queued', imageUrl: null, pollUrl: null });
    expect(mediaJob(job({ product: 'agent_image', status: 'completed', assets: { image: 'i.png' } }), urls)).toEqual({
      jobId: 'j1',
      status: 'completed',
      provider: 'local',
      imageUrl: 'https://cdn.test/i.png',
      pollUrl: null,
    });
    expect(mediaJob(job({ product: 'agent_video', status: 'failed', error: 'x' }), urls)).toMatchObject({ status: 'failed', videoUrl: null, error: 'x' });
  });
  it('an unknown id is failed with pollUrl null and a generic error', () => {
    expect(unknownMediaJob('agent_image', 'zz')).toEqual({ jobId: 'zz', status: 'failed', imageUrl: null, pollUrl: null, error: expect.stringContaining('failed'), etaSeconds: null });
  });
  it('music blocking body has shareUrl, title, imageUrl', () => {
    const body = musicBlockingBody(job({ status: 'completed', assets: { audio: 'a.mp3', cover: 'c.png' } }), urls);
    expect(body).toMatchObject({ shareUrl: 'https://api.test/song/j1', title: expect.any(String), imageUrl: 'https://cdn.test/c.png', audioUrl: 'https://cdn.test/a.mp3' });
  });
  it('titles are derived from the prompt', () => {
    expect(titleFromPrompt('  ')).toBe('Untitled');
  });
});
