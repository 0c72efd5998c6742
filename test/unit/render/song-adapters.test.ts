/**
 * What the song adapters compute themselves: an MP3's length from its frame headers (the song's `duration`), the
 * prompt each vendor is sent, the title from a model's text, MiniMax's request body.
 */
import { describe, expect, it } from 'vitest';
import type { MusicRequest } from '../../../lambdas/products/catalog.js';
import { minimaxBody, minimaxLyrics } from '../../../lambdas/render/minimax-music/provider.js';
import { lyriaPrompt } from '../../../lambdas/render/google-lyria/provider.js';
import { NotMp3Error, mp3DurationSeconds } from '../../../lambdas/render/mp3.js';
import { songTitle } from '../../../lambdas/render/song.js';

/** MPEG-1 Layer III, 128 kbit/s, 44.1 kHz, joint stereo, no padding: 417-byte frames of 1152 samples. */
const HEADER = [0xff, 0xfb, 0x90, 0x40];
const FRAME = 417;

function frames(n: number): Buffer {
  const out = Buffer.alloc(n * FRAME);
  for (let i = 0; i < n; i++) out.set(HEADER, i * FRAME);
  return out;
}

function id3v2(payload: number): Buffer {
  const tag = Buffer.alloc(10 + payload);
  tag.write('ID3', 0, 'latin1');
  tag[3] = 3;
  // Syncsafe size: 7 bits per byte.
  tag[6] = (payload >> 21) & 0x7f;
  tag[7] = (payload >> 14) & 0x7f;
  tag[8] = (payload >> 7) & 0x7f;
  tag[9] = payload & 0x7f;
  return tag;
}

/** A LAME "Info" frame announcing `count` audio frames (flags: frame count present). */
function infoFrame(count: number): Buffer {
  const frame = frames(1);
  const at = 4 + 32; // MPEG-1 stereo side information
  frame.write('Info', at, 'latin1');
  frame.writeUInt32BE(1, at + 4);
  frame.writeUInt32BE(count, at + 8);
  return frame;
}

describe('mp3DurationSeconds: the length of the file, from its frames', () => {
  it('counts frames × 1152 / 44100 after an ID3v2 tag and stops at an ID3v1 trailer', () => {
    const file = Buffer.concat([id3v2(1000), frames(100), Buffer.from('TAG'), Buffer.alloc(125)]);
    expect(mp3DurationSeconds(file)).toBeCloseTo((100 * 1152) / 44100, 6);
  });

  it('uses the frame count of a Xing/Info frame and does not count that frame as audio', () => {
    expect(mp3DurationSeconds(Buffer.concat([infoFrame(250), frames(250)]))).toBeCloseTo((250 * 1152) / 44100, 6);
  });

  it('resynchronises over junk between frames', () => {
    expect(mp3DurationSeconds(Buffer.concat([frames(10), Buffer.alloc(7, 0x11), frames(10)]))).toBeCloseTo((20 * 1152) / 44100, 6);
  });

  it('refuses what is not an MP3 (a JSON error page, a PNG)', () => {
    expect(() => mp3DurationSeconds(Buffer.from('{"error":"nope"}'))).toThrow(NotMp3Error);
    expect(() => mp3DurationSeconds(Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'))).toThrow(NotMp3Error);
  });
});

const request = (r: Partial<MusicRequest>) => ({ prompt: 'a song about rain', ...r }) as MusicRequest;

describe('the prompt each vendor is sent', () => {
  it('Lyria: directives, then the prompt, then the lyrics verbatim in custom mode', () => {
    expect(lyriaPrompt(request({ style: 'folk', tags: ' rain,, roof ', vocal_gender: 'f', custom_mode: true, lyrics: 'one\ntwo' }))).toBe(
      'female lead vocals; style: folk; tags: rain, roof\na song about rain\n\nLyrics (sing exactly):\none\ntwo',
    );
    expect(lyriaPrompt(request({ lyrics: 'ignored without custom_mode' }))).toBe('a song about rain');
    expect(lyriaPrompt(request({ make_instrumental: true, vocal_gender: 'm', custom_mode: true, lyrics: 'dropped' }))).toBe('instrumental, no vocals\na song about rain');
  });

  it('MiniMax: prompt capped at 2000 characters with the directives kept; lyrics tagged once; the optimiser writes lyrics otherwise', () => {
    const body = minimaxBody(request({ prompt: 'x'.repeat(5000), vocal_gender: 'm' }), 'music-2.6');
    expect(body.prompt).toHaveLength(2000);
    expect(body.prompt.startsWith('male lead vocals\n')).toBe(true);
    expect(body).toMatchObject({ model: 'music-2.6', is_instrumental: false, lyrics_optimizer: true, audio_setting: { format: 'mp3' }, output_format: 'url' });
    expect(minimaxLyrics('la la')).toBe('[Verse]\nla la');
    expect(minimaxLyrics('[Chorus]\nla la')).toBe('[Chorus]\nla la');
    expect(minimaxBody(request({ make_instrumental: true }), 'music-2.6')).not.toHaveProperty('lyrics_optimizer');
  });
});

describe('songTitle', () => {
  it('takes a "Title:" line or a heading from the model’s text', () => {
    expect(songTitle(request({}), 'Title: Tin Roof Lullaby\n[Verse 1]\nrain')).toBe('Tin Roof Lullaby');
    expect(songTitle(request({}), '# Harbour Lights\n[Verse]\n...')).toBe('Harbour Lights');
  });

  it('else the first sung line (section tags skipped), else the prompt', () => {
    expect(songTitle(request({}), '[Verse 1]\nRain on the window pane\n[Chorus]')).toBe('Rain Window Pane');
    expect(songTitle(request({ custom_mode: true, lyrics: '[Intro]\nMorning over the bay' }))).toBe('Morning Bay');
    expect(songTitle(request({ prompt: 'upbeat synthwave night drive' }), '[Intro]\n[Outro]')).toBe('Upbeat Synthwave Night Drive');
  });
});
