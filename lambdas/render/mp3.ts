/**
 * The length of an MP3 read from its frame headers, so a song's `duration` is the file the buyer downloads, never a
 * vendor's claim. Walks every MPEG audio frame (ID3v2 tag skipped, ID3v1 / APE trailers stop the walk); a leading
 * Xing/Info frame (LAME's, written by ffmpeg too) is metadata, not audio, so it is not counted.
 */

const BITRATES_KBPS: Record<string, number[]> = {
  // [version][layer]: MPEG-1 and MPEG-2/2.5 tables, index 1..14 (0 = free format, 15 = invalid).
  '1-1': [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  '1-2': [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  '1-3': [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  '2-1': [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  '2-2': [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  '2-3': [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const SAMPLE_RATES: Record<number, number[]> = { 1: [44100, 48000, 32000], 2: [22050, 24000, 16000], 25: [11025, 12000, 8000] };

interface FrameHeader {
  length: number;
  samples: number;
  sampleRate: number;
  /** Where a Xing/Info tag would start inside this frame (after the side information). */
  xingOffset: number;
}

/** The frame header at `at`, or null when the four bytes there are not one. */
function frameAt(bytes: Uint8Array, at: number): FrameHeader | null {
  if (at + 4 > bytes.length) return null;
  const [b0, b1, b2, b3] = [bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]];
  if (b0 !== 0xff || (b1 & 0xe0) !== 0xe0) return null;
  const versionBits = (b1 >> 3) & 3;
  const layerBits = (b1 >> 1) & 3;
  const bitrateIndex = b2 >> 4;
  const rateIndex = (b2 >> 2) & 3;
  if (versionBits === 1 || layerBits === 0 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return null;
  const version = versionBits === 3 ? 1 : versionBits === 2 ? 2 : 25;
  const layer = 4 - layerBits;
  const bitrate = BITRATES_KBPS[`${version === 1 ? 1 : 2}-${layer}`][bitrateIndex] * 1000;
  const sampleRate = SAMPLE_RATES[version][rateIndex];
  const padding = (b2 >> 1) & 1;
  const mono = b3 >> 6 === 3;
  let samples: number;
  let length: number;
  if (layer === 1) {
    samples = 384;
    length = (Math.floor((12 * bitrate) / sampleRate) + padding) * 4;
  } else {
    samples = layer === 3 && version !== 1 ? 576 : 1152;
    length = Math.floor(((samples / 8) * bitrate) / sampleRate) + padding;
  }
  const sideInfo = version === 1 ? (mono ? 17 : 32) : mono ? 9 : 17;
  return { length, samples, sampleRate, xingOffset: 4 + sideInfo };
}

function id3v2Length(bytes: Uint8Array): number {
  if (bytes.length < 10 || bytes[0] !== 0x49 || bytes[1] !== 0x44 || bytes[2] !== 0x33) return 0; // "ID3"
  const size = ((bytes[6] & 0x7f) << 21) | ((bytes[7] & 0x7f) << 14) | ((bytes[8] & 0x7f) << 7) | (bytes[9] & 0x7f);
  const footer = bytes[5] & 0x10 ? 10 : 0;
  return 10 + size + footer;
}

const ascii = (bytes: Uint8Array, at: number, n: number) => String.fromCharCode(...bytes.subarray(at, at + n));

export class NotMp3Error extends Error {
  override name = 'NotMp3Error';
}

/**
 * Seconds of audio in an MP3 (frames × samples per frame / sample rate). Throws NotMp3Error when no run of valid
 * frames is found (a vendor that answered with something else).
 */
export function mp3DurationSeconds(bytes: Uint8Array): number {
  let at = id3v2Length(bytes);
  // Some encoders pad before the first frame: find the first header that a second one follows.
  while (at < bytes.length) {
    const first = frameAt(bytes, at);
    if (first && frameAt(bytes, at + first.length)) break;
    at++;
  }
  const first = frameAt(bytes, at);
  if (!first) throw new NotMp3Error('no MPEG audio frame found');

  const xing = ascii(bytes, at + first.xingOffset, 4);
  if (xing === 'Xing' || xing === 'Info') {
    const flags = new DataView(bytes.buffer, bytes.byteOffset).getUint32(at + first.xingOffset + 4);
    if (flags & 1) {
      const frames = new DataView(bytes.buffer, bytes.byteOffset).getUint32(at + first.xingOffset + 8);
      if (frames > 0) return (frames * first.samples) / first.sampleRate;
    }
    at += first.length; // a tag without a frame count: skip it and count the audio frames
  }

  let seconds = 0;
  let frames = 0;
  while (at < bytes.length) {
    const frame = frameAt(bytes, at);
    if (!frame) {
      const tail = ascii(bytes, at, 3);
      if (tail === 'TAG' || tail === 'APE' || tail === 'LYR') break;
      at++; // resynchronise after junk between frames
      continue;
    }
    seconds += frame.samples / frame.sampleRate;
    frames++;
    at += frame.length;
  }
  if (frames === 0) throw new NotMp3Error('no MPEG audio frame found');
  return seconds;
}
