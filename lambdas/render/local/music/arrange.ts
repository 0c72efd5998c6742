/**
 * Places the backing band on the plan's grid: drums by groove, bass on the chord roots, a pad holding each
 * bar's chord and a plucked arpeggio. The intro has no drums and the outro lets the pad ring out.
 */
import { SAMPLE_RATE, addMono, stereo, type Stereo } from '../dsp.js';
import { rng } from '../seed.js';
import { bassNote, hat, kick, padNote, pluckNote, snare } from './instruments.js';
import { INTRO_BARS, OUTRO_BARS, type Groove, type SongPlan } from './plan.js';
import { fitRange, triad } from './theory.js';

const SR = SAMPLE_RATE;

interface DrumPattern {
  kick: number[];
  snare: number[];
  hat: number[];
  openHat: number[];
  bass: number[];
}

/** Sixteenth-note steps (0..15) of each part per bar. */
const PATTERNS: Record<Groove, DrumPattern> = {
  four: { kick: [0, 4, 8, 12], snare: [4, 12], hat: [0, 4, 8, 12], openHat: [2, 6, 10, 14], bass: [2, 6, 10, 14] },
  backbeat: { kick: [0, 8, 10], snare: [4, 12], hat: [0, 2, 4, 6, 8, 10, 12, 14], openHat: [], bass: [0, 2, 4, 6, 8, 10, 12, 14] },
  halftime: { kick: [0, 7, 10], snare: [4, 12], hat: [0, 2, 4, 6, 8, 10, 12, 14], openHat: [], bass: [0, 7, 10] },
  sparse: { kick: [0], snare: [8], hat: [], openHat: [], bass: [0, 8] },
};

export function chordOfBar(plan: SongPlan, bar: number): number[] {
  return triad(plan.tonic, plan.minor, plan.progression[bar % plan.progression.length]);
}

export function arrangeBacking(plan: SongPlan): Stereo {
  const frames = Math.round(plan.durationSeconds * SR);
  const bus = stereo(frames);
  const r = rng(plan.seed ^ 0x5eed);
  const sixteenth = plan.barSeconds / 16;
  const swing = plan.groove === 'halftime' ? sixteenth / 3 : 0;
  const at = (bar: number, step: number) =>
    Math.round((bar * plan.barSeconds + step * sixteenth + (step % 2 === 1 ? swing : 0)) * SR);
  const pattern = PATTERNS[plan.groove];
  const sounds = { kick: kick(), snare: snare(r), hat: hat(r), open: hat(r, true) };
  const sparse = plan.groove === 'sparse';

  for (let bar = 0; bar < plan.bars; bar++) {
    const chord = chordOfBar(plan, bar);
    const drums = bar >= INTRO_BARS && bar < plan.bars - OUTRO_BARS;
    if (drums) {
      for (const s of pattern.kick) addMono(bus, sounds.kick, at(bar, s), 0.55);
      for (const s of pattern.snare) addMono(bus, sounds.snare, at(bar, s), sparse ? 0.15 : 0.3);
      for (const s of pattern.hat) addMono(bus, sounds.hat, at(bar, s), s % 4 === 0 ? 0.1 : 0.07, 0.35);
      for (const s of pattern.openHat) addMono(bus, sounds.open, at(bar, s), 0.06, 0.35);
    }
    if (bar >= INTRO_BARS - 1 && bar < plan.bars - 1) {
      const root = fitRange(chord[0], 33, 44);
      const steps = pattern.bass;
      steps.forEach((s, i) => {
        const next = i + 1 < steps.length ? steps[i + 1] : 16;
        addMono(bus, bassNote(root, (next - s) * sixteenth * 0.9), at(bar, s), 0.3);
      });
    }
    // The pad overlaps into the next bar by its release so chord changes do not click.
    const padSeconds = bar === plan.bars - 1 ? plan.barSeconds : plan.barSeconds + 0.2;
    chord.forEach((note, i) => addMono(bus, padNote(fitRange(note, 55, 67), padSeconds), at(bar, 0), 0.07, i - 1));
    const arpStep = sparse ? 4 : 2;
    for (let s = 0, k = 0; s < 16; s += arpStep, k++) {
      const note = fitRange(chord[k % 3] + (k >= 3 ? 12 : 0), 67, 84);
      addMono(bus, pluckNote(note, arpStep * sixteenth * 1.5), at(bar, s), 0.06, -0.4);
    }
  }
  return bus;
}
