import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { musicRequestSchema, type MusicRequest } from '../../../lambdas/products/catalog.js';
import { LocalRenderProvider } from '../../../lambdas/render/local/provider.js';
import { lyricLines, syllablesOfLine } from '../../../lambdas/render/local/music/lyrics.js';
import { MAX_SONG_SECONDS, MIN_SONG_SECONDS, musicDurationSeconds, planSong } from '../../../lambdas/render/local/music/plan.js';
import { sing, writeMelody } from '../../../lambdas/render/local/music/voice.js';
import type { RenderStatus } from '../../../lambdas/render/provider.js';
import { FileAssetStore } from '../../../lambdas/store/file-assets.js';
import { decodeAudio, ffmpegPath, probe, readPng, rms } from './media.js';

const dir = mkdtempSync(join(tmpdir(), 'music-render-'));
const store = new FileAssetStore(dir, 'http://127.0.0.1:9/assets');
const provider = new LocalRenderProvider(store, ffmpegPath);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function render(jobId: string, body: Record<string, unknown>) {
  const request = musicRequestSchema.parse(body);
  await provider.submit({ jobId, product: 'create_music', request });
  const status = (await provider.check(jobId, 'create_music')) as Extract<RenderStatus, { state: 'done' }>;
  expect(status.state).toBe('done');
  const file = async (role: string) => Buffer.from((await store.get(status.outputs.find((o) => o.role === role)!.key!))!.body);
  return { request, status, audio: await file('audio'), cover: await file('cover') };
}

const LYRICS = ['[Verse]', 'I walk alone through the city rain', 'Searching for your face again', '', '[Chorus]', 'Streetlights hum a quiet song', 'Telling me where I belong'].join('\n');

describe('Music request body: custom_mode with lyrics renders a tagged MP3 with cover art', () => {
  let song: Awaited<ReturnType<typeof render>>;
  beforeAll(async () => {
    song = await render('song-lyrics', {
      prompt: 'melancholy lofi hip hop about a rainy city',
      style: 'lofi hip hop',
      custom_mode: true,
      lyrics: LYRICS,
      vocal_gender: 'f',
      tags: 'rain, city, late night',
    });
  });

  it('is an MP3 whose length follows the length rule', () => {
    const info = probe(song.audio, 'mp3');
    const audio = info.streams.find((s) => s.codec_type === 'audio')!;
    expect(info.format.format_name).toBe('mp3');
    expect(audio.codec_name).toBe('mp3');
    expect(audio.sample_rate).toBe('44100');
    const expected = musicDurationSeconds(song.request);
    expect(Number(info.format.duration)).toBeGreaterThan(expected - 0.3);
    expect(Number(info.format.duration)).toBeLessThan(expected + 0.3);
    expect(song.status.metadata.durationSeconds).toBeCloseTo(expected, 1);
    expect(song.status.metadata.modelVersion).toBe('local-synth-1');
  });

  it('carries ID3 title, artist, genre = style and comment = tags', () => {
    const tags = probe(song.audio, 'mp3').format.tags ?? {};
    expect(tags.title).toBe(song.status.metadata.title);
    expect(tags.title).toMatch(/walk alone/i);
    expect(tags.artist).toBeTruthy();
    expect(tags.genre).toBe('lofi hip hop');
    expect(tags.comment).toBe('rain, city, late night');
  });

  it('embeds the cover as an attached picture and stores it as a 512×512 PNG', () => {
    const pic = probe(song.audio, 'mp3').streams.find((s) => s.codec_type === 'video')!;
    expect(pic.codec_name).toBe('png');
    expect(pic.disposition?.attached_pic).toBe(1);
    expect({ width: pic.width, height: pic.height }).toEqual({ width: 512, height: 512 });
    expect(readPng(song.cover)).toMatchObject({ width: 512, height: 512 });
  });
});

describe('Music length rule (lyrics: one 4/4 bar per 6 sung syllables per line; else from the prompt; 20..90 s)', () => {
  const lyrics = (lines: number) => Array.from({ length: lines }, (_, i) => `line number ${i} of a song we sing tonight`).join('\n');
  const custom = (text: string): MusicRequest => musicRequestSchema.parse({ prompt: 'pop ballad', custom_mode: true, lyrics: text });

  it('grows with the number of lyric lines', () => {
    const a = musicDurationSeconds(custom(lyrics(6)));
    const b = musicDurationSeconds(custom(lyrics(12)));
    expect(b).toBeGreaterThan(a);
    const plan = planSong(custom(lyrics(12)));
    expect(plan.voice?.phrases).toHaveLength(12);
    expect(b).toBeCloseTo(plan.bars * plan.barSeconds, 6);
  });

  it('stays within 20..90 s for tiny and huge lyrics, singing only the lines that fit', () => {
    expect(musicDurationSeconds(custom('la'))).toBeGreaterThanOrEqual(MIN_SONG_SECONDS);
    const huge = custom(lyrics(200));
    expect(musicDurationSeconds(huge)).toBeLessThanOrEqual(MAX_SONG_SECONDS);
    expect(planSong(huge).sungLines).toBeLessThan(200);
  });

  it('without lyrics follows the prompt: explicit seconds, "short", and the same length with or without vocals', () => {
    const explicit = musicDurationSeconds({ prompt: 'a 45 second funk groove' });
    expect(Math.abs(explicit - 45)).toBeLessThan(3);
    const short = musicDurationSeconds({ prompt: 'a short jingle' });
    expect(short).toBeGreaterThanOrEqual(MIN_SONG_SECONDS);
    expect(short).toBeLessThan(30);
    expect(musicDurationSeconds({ prompt: 'epic long rock anthem' })).toBeLessThanOrEqual(MAX_SONG_SECONDS);
    expect(musicDurationSeconds({ prompt: 'a short jingle', make_instrumental: true })).toBe(short);
  });

  it('sings one note per lyric syllable', () => {
    const request = custom('hello beautiful world\nsing');
    const notes = writeMelody(planSong(request), 'm');
    const expected = lyricLines(request.lyrics).reduce((n, line) => n + syllablesOfLine(line).length, 0);
    expect(notes).toHaveLength(expected);
    expect(expected).toBe(7); // hel-lo beau-ti-ful world / sing
  });
});

describe('Music request body: make_instrumental and vocal_gender', () => {
  const base = { prompt: 'a 20 second upbeat pop jingle about coffee', tags: 'coffee' };
  let vocal: Buffer;
  let instrumental: Buffer;
  beforeAll(async () => {
    vocal = (await render('song-vocal', { ...base, vocal_gender: 'f' })).audio;
    instrumental = (await render('song-instrumental', { ...base, make_instrumental: true })).audio;
  });

  it('the vocal version is the instrumental plus a voice: a large difference, concentrated in the 1–3 kHz formant band', () => {
    const a = decodeAudio(vocal, 'mp3');
    const b = decodeAudio(instrumental, 'mp3');
    const n = Math.min(a.length, b.length);
    const diff = new Float64Array(n);
    for (let i = 0; i < n; i++) diff[i] = a[i] - b[i];
    expect(rms(diff) / rms(b)).toBeGreaterThan(0.3);
    const band = 'highpass=f=1000,lowpass=f=3000';
    expect(rms(decodeAudio(vocal, 'mp3', 22_050, band))).toBeGreaterThan(2 * rms(decodeAudio(instrumental, 'mp3', 22_050, band)));
  });

  it('tags the instrumental as such in the comment', () => {
    expect(probe(instrumental, 'mp3').format.tags?.comment).toBe('coffee, instrumental');
    expect(probe(vocal, 'mp3').format.tags?.comment).toBe('coffee');
  });

  it('sings in a male range for m and a female range for f (autocorrelation pitch of the voice track)', () => {
    const median = (gender: 'm' | 'f') => {
      const plan = planSong(musicRequestSchema.parse({ ...base, vocal_gender: gender }));
      const track = sing(writeMelody(plan, gender), gender, Math.round(plan.durationSeconds * 44_100), plan.seed);
      const pitches: number[] = [];
      // 70–700 Hz search range, on 2048-sample windows every ~0.4 s that hold voice.
      for (let s = 0; s + 2048 < track.length; s += 16_384) {
        if (rms(track, s, s + 2048) < 0.01) continue;
        let best = 0;
        let bestLag = 0;
        for (let lag = 63; lag <= 630; lag++) {
          let c = 0;
          for (let i = 0; i < 2048 - lag; i++) c += track[s + i] * track[s + i + lag];
          if (c > best) [best, bestLag] = [c, lag];
        }
        pitches.push(44_100 / bestLag);
      }
      return pitches.sort((x, y) => x - y)[pitches.length >> 1];
    };
    expect(median('m')).toBeLessThan(230);
    expect(median('m')).toBeGreaterThan(80);
    expect(median('f')).toBeGreaterThan(250);
  });
});
