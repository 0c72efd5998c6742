/** Small DSP toolkit for the synthesisers: filters, pan/mix helpers and PCM conversion. */

export const SAMPLE_RATE = 44_100;

export interface Stereo {
  left: Float32Array;
  right: Float32Array;
}

export function stereo(frames: number): Stereo {
  return { left: new Float32Array(frames), right: new Float32Array(frames) };
}

export function midiToHz(midi: number): number {
  return 440 * 2 ** ((midi - 69) / 12);
}

/** RBJ-cookbook biquad; coefficients can be retuned while running (formant glides, wind sweeps). */
export class Biquad {
  private b0 = 1;
  private b1 = 0;
  private b2 = 0;
  private a1 = 0;
  private a2 = 0;
  private z1 = 0;
  private z2 = 0;

  constructor(
    private readonly kind: 'lowpass' | 'highpass' | 'bandpass',
    freq: number,
    q = Math.SQRT1_2,
    private readonly sampleRate = SAMPLE_RATE,
  ) {
    this.tune(freq, q);
  }

  tune(freq: number, q: number): void {
    const w0 = (2 * Math.PI * Math.min(freq, this.sampleRate * 0.45)) / this.sampleRate;
    const cos = Math.cos(w0);
    const alpha = Math.sin(w0) / (2 * q);
    const a0 = 1 + alpha;
    let b0: number, b1: number, b2: number;
    if (this.kind === 'lowpass') {
      b0 = (1 - cos) / 2;
      b1 = 1 - cos;
      b2 = b0;
    } else if (this.kind === 'highpass') {
      b0 = (1 + cos) / 2;
      b1 = -(1 + cos);
      b2 = b0;
    } else {
      // Constant 0 dB peak gain, so formant amplitudes are set by explicit gains rather than by Q.
      b0 = alpha;
      b1 = 0;
      b2 = -alpha;
    }
    this.b0 = b0 / a0;
    this.b1 = b1 / a0;
    this.b2 = b2 / a0;
    this.a1 = (-2 * cos) / a0;
    this.a2 = (1 - alpha) / a0;
  }

  process(x: number): number {
    // Transposed direct form II: two state variables, numerically fine in float64.
    const y = this.b0 * x + this.z1;
    this.z1 = this.b1 * x - this.a1 * y + this.z2;
    this.z2 = this.b2 * x - this.a2 * y;
    return y;
  }
}

/** Adds a mono source into a stereo bus with equal-power panning (pan -1 left .. +1 right). */
export function addMono(bus: Stereo, src: Float32Array, start: number, gain: number, pan = 0): void {
  const angle = ((pan + 1) * Math.PI) / 4;
  const gl = Math.cos(angle) * gain * Math.SQRT2;
  const gr = Math.sin(angle) * gain * Math.SQRT2;
  const from = Math.max(0, start);
  const to = Math.min(bus.left.length, start + src.length);
  for (let i = from; i < to; i++) {
    const s = src[i - start];
    bus.left[i] += s * gl;
    bus.right[i] += s * gr;
  }
}

/** Linear below 0.5, then a tanh knee towards ±1: dense mixes are rounded off instead of wrapping. */
export function softClip(x: number): number {
  const a = x < 0 ? -x : x;
  if (a <= 0.5) return x;
  const y = 0.5 + 0.5 * Math.tanh((a - 0.5) * 2);
  return x < 0 ? -y : y;
}

/**
 * Interleaved signed 16-bit little-endian PCM, the format piped to ffmpeg, with fades at both ends so the
 * file neither starts nor stops with a click.
 */
export function toPcm16(bus: Stereo, fadeInSeconds = 0.02, fadeOutSeconds = 0.05, sampleRate = SAMPLE_RATE): Buffer {
  const frames = bus.left.length;
  const pcm = new Int16Array(frames * 2);
  const fadeIn = Math.max(1, Math.round(fadeInSeconds * sampleRate));
  const fadeOut = Math.max(1, Math.round(fadeOutSeconds * sampleRate));
  for (let i = 0; i < frames; i++) {
    const env = Math.min(1, i / fadeIn, (frames - 1 - i) / fadeOut);
    pcm[2 * i] = Math.round(softClip(bus.left[i]) * env * 32767);
    pcm[2 * i + 1] = Math.round(softClip(bus.right[i]) * env * 32767);
  }
  // Int16Array is host-endian; every platform we run on (x64, arm64 Lambda) is little-endian.
  return Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength);
}
