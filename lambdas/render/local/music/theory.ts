/** Just enough music theory for the arranger and the singer: scales, chords and register fitting. */

const MAJOR = [0, 2, 4, 5, 7, 9, 11];
const MINOR = [0, 2, 3, 5, 7, 8, 10];

/** MIDI note of a scale degree (any integer; wraps into higher or lower octaves). */
export function degreeToMidi(tonic: number, minor: boolean, degree: number): number {
  const scale = minor ? MINOR : MAJOR;
  const octave = Math.floor(degree / 7);
  return tonic + 12 * octave + scale[((degree % 7) + 7) % 7];
}

/** Root-position triad on a degree, as MIDI notes. */
export function triad(tonic: number, minor: boolean, degree: number): number[] {
  return [degree, degree + 2, degree + 4].map((d) => degreeToMidi(tonic, minor, d));
}

/** Moves a note by octaves into [lo, hi] (hi - lo must span at least an octave). */
export function fitRange(midi: number, lo: number, hi: number): number {
  let m = midi;
  while (m < lo) m += 12;
  while (m > hi) m -= 12;
  return m;
}
