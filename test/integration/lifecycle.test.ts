/**
 * The embedded default as a process: clean shutdown on SIGTERM/SIGINT, jobs that survive a restart, and a render
 * that fails ending its job `failed` (final) rather than stuck. Each case runs its own instance and state dir.
 */
import { describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startEmbeddedProcess } from '../support/embedded.js';
import { fetchFrom, payingFetch, pollUntil } from '../support/buyer.js';
import { fundFromState } from '../../bin/fund.js';

const IP = '127.0.0.13';
const json = { 'Content-Type': 'application/json' };

async function buyerFor(stateDir: string) {
  const privateKey = generatePrivateKey();
  await fundFromState(stateDir, privateKeyToAccount(privateKey).address, 20_000_000n);
  return payingFetch(privateKey, IP);
}

describe('Embedded default: shutdown and restart', () => {
  it('shuts down cleanly on SIGTERM and SIGINT, and a job accepted before a restart completes after it', async () => {
    const first = await startEmbeddedProcess();
    const pay = await buyerFor(first.stateDir);
    const response = await pay(`${first.info.baseUrl}/create-music`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ prompt: 'slow piano ballad', custom_mode: true, lyrics: 'la la la\nstay with me tonight\nla la la' }),
    });
    expect(response.status).toBe(202);
    const { songId } = (await response.json()) as { songId: string };
    expect(await first.stop('SIGTERM')).toBe(0);
    expect(first.output()).toContain('shutting down');

    const second = await startEmbeddedProcess({ stateDir: first.stateDir });
    try {
      const song = await pollUntil(fetchFrom(IP), `${second.info.baseUrl}/api/songs/${songId}`, (b) => b.model_version !== 'pending', 90_000);
      expect(song.id).toBe(songId);
      expect(song.model_version).not.toBe('failed');
      expect(song.duration).toBeGreaterThan(0);
      expect(second.info.buyers.map((b) => b.address)).toEqual(first.info.buyers.map((b) => b.address));
    } finally {
      expect(await second.stop('SIGINT')).toBe(0);
    }
  }, 180_000); // two full starts, each starting its functions' instances on first use
});

describe('Rendering: a failed render ends the job failed (final), never stuck', () => {
  it('fails video and music jobs whose renderer cannot run, with the spec failure signals', async () => {
    const broken = await startEmbeddedProcess({ env: { FFMPEG_PATH: '/nonexistent/ffmpeg' } });
    try {
      const pay = await buyerFor(broken.stateDir);
      const video = await pay(`${broken.info.baseUrl}/agent/video`, { method: 'POST', headers: json, body: JSON.stringify({ prompt: 'waves on rocks' }) });
      expect(video.status).toBe(202);
      const { pollUrl } = (await video.json()) as { pollUrl: string };
      const failed = await pollUntil(fetchFrom(IP), pollUrl, (b) => b.status === 'completed' || b.status === 'failed');
      expect(failed).toMatchObject({ status: 'failed', videoUrl: null, pollUrl: null, error: expect.stringContaining('Generation failed') });

      const music = await pay(`${broken.info.baseUrl}/create-music`, { method: 'POST', headers: json, body: JSON.stringify({ prompt: 'jazz trio' }) });
      const accepted = (await music.json()) as { pollUrl: string };
      const song = await pollUntil(fetchFrom(IP), accepted.pollUrl, (b) => b.model_version !== 'pending');
      expect(song.model_version).toBe('failed');
      expect(song.duration).toBe(0);
    } finally {
      await broken.stop();
    }
  }, 180_000);
});
