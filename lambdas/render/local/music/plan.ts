/**
 * The song plan: tempo, key, groove, bar count and the sung phrases, all decided from the request before any
 * sample is made. Its duration is the length rule (musicDurationSeconds), a pure function of the request.
 */
import type { MusicRequest } from '../../../products/catalog.js';
import { intBetween, pick, rng, seedFrom, type Rng } from '../seed.js';
import { mentions, titleFrom, words } from '../text.js';
import { lyricLines, syllablesOfLine, type Syllable, type Vowel } from './lyrics.js';

export const MIN_SONG_SECONDS = 20;
export const MAX_SONG_SECONDS = 90;
export const INTRO_BARS = 2;
export const OUTRO_BARS = 2;
/** One sung syllable per eighth note, so a 4/4 bar holds 8; the last 2 eighths of a line are a breath. */
export const SYLLABLES_PER_BAR = 8;
const BREATH = 2;

export type Groove = 'four' | 'backbeat' | 'halftime' | 'sparse';

export interface Phrase {
  startBar: number;
  bars: number;
  syllables: Syllable[];
}

export interface SongPlan {
  seed: number;
  title: string;
  genre?: string;
  bpm: number;
  barSeconds: number;
  bars: number;
  durationSeconds: number;
  /** Tonic as a MIDI note number in octave 3 (48..59). */
  tonic: number;
  minor: boolean;
  /** Scale degrees (0-based) of the chord on each bar, cycling. */
  progression: number[];
  groove: Groove;
  voice: { gender: 'm' | 'f'; phrases: Phrase[] } | null;
  /** Lyric lines that fit under MAX_SONG_SECONDS and are sung (all of them unless the lyrics are very long). */
  sungLines: number;
}

const STYLE_TEMPO: [string[], [number, number], Groove][] = [
  [['drum and bass', 'dnb', 'jungle'], [168, 176], 'backbeat'],
  [['edm', 'house', 'techno', 'trance', 'dance', 'disco', 'club', 'electro', 'synthwave'], [118, 128], 'four'],
  [['punk', 'metal', 'rock', 'grunge'], [120, 150], 'backbeat'],
  [['hip hop', 'hip-hop', 'hiphop', 'rap', 'trap', 'lofi', 'lo-fi', 'boom bap'], [80, 95], 'halftime'],
  [['ballad', 'ambient', 'lullaby', 'piano', 'acoustic', 'slow', 'chill', 'sleep'], [66, 82], 'sparse'],
  [['jazz', 'soul', 'r&b', 'rnb', 'blues', 'reggae', 'funk'], [88, 108], 'halftime'],
  [['pop', 'country', 'folk', 'indie', 'happy', 'upbeat'], [100, 124], 'backbeat'],
];
const MINOR_WORDS = ['sad', 'dark', 'melancholy', 'melancholic', 'moody', 'minor', 'lonely', 'haunting', 'rain', 'night', 'blues', 'tragic', 'heartbreak', 'eerie'];
const MAJOR_WORDS = ['happy', 'upbeat', 'bright', 'sunny', 'joyful', 'summer', 'cheerful', 'major', 'uplifting', 'party', 'love'];
const PROGRESSIONS_MAJOR = [[0, 4, 5, 3], [0, 5, 3, 4], [5, 3, 0, 4], [0, 3, 4, 3]];
const PROGRESSIONS_MINOR = [[0, 5, 2, 6], [0, 3, 4, 0], [0, 6, 5, 6], [0, 5, 3, 4]];
const VOCABLES = ['la', 'na', 'da', 'oh', 'ah', 'hey', 'yeah', 'ooh', 'mm', 'do'];

/** "30 seconds", "45-sec", "1 minute", "2 mins" in the prompt; bare "s" is skipped so "80s synthpop" is a decade. */
function explicitSeconds(text: string): number | undefined {
  const m = text.toLowerCase().match(/(\d+(?:\.\d+)?)\s*-?\s*(seconds?|secs?|minutes?|mins?)\b/);
  if (!m) return undefined;
  return Number(m[1]) * (m[2].startsWith('m') ? 60 : 1);
}

function tempoAndGroove(text: string, r: Rng): { bpm: number; groove: Groove; genre?: string } {
  for (const [keys, [lo, hi], groove] of STYLE_TEMPO) {
    const found = keys.find((k) => mentions(text, [k]));
    if (found) return { bpm: intBetween(r, lo, hi), groove, genre: found };
  }
  return { bpm: intBetween(r, 92, 120), groove: pick(r, ['backbeat', 'halftime'] as const) };
}

export function planSong(request: MusicRequest): SongPlan {
  // make_instrumental and vocal_gender are not part of the seed: a song and its instrumental version share
  // one arrangement, the only difference being the voice.
  const seed = seedFrom('music', request.prompt, request.style);
  const r = rng(seed);
  const text = `${request.style ?? ''} ${request.prompt}`;
  const { bpm, groove, genre } = tempoAndGroove(text, r);
  const barSeconds = (4 * 60) / bpm;
  const minor = mentions(text, MINOR_WORDS) ? true : mentions(text, MAJOR_WORDS) ? false : r() < 0.4;
  const tonic = 48 + intBetween(r, 0, 11);
  const progression = pick(r, minor ? PROGRESSIONS_MINOR : PROGRESSIONS_MAJOR);
  const gender = request.vocal_gender ?? (r() < 0.5 ? 'm' : 'f');
  const minBars = Math.ceil(MIN_SONG_SECONDS / barSeconds);
  const maxBars = Math.floor(MAX_SONG_SECONDS / barSeconds);

  const lines = request.custom_mode && request.lyrics ? lyricLines(request.lyrics) : [];
  let bars: number;
  let phrases: Phrase[];
  let sungLines = 0;
  if (lines.length > 0) {
    phrases = [];
    let bar = INTRO_BARS;
    for (const line of lines) {
      const syllables = syllablesOfLine(line);
      const lineBars = Math.max(1, Math.ceil((syllables.length + BREATH) / SYLLABLES_PER_BAR));
      if (bar + lineBars + OUTRO_BARS > maxBars) break;
      phrases.push({ startBar: bar, bars: lineBars, syllables });
      bar += lineBars;
      sungLines++;
    }
    bars = Math.max(minBars, bar + OUTRO_BARS);
  } else {
    const target = explicitSeconds(text) ??
      (mentions(text, ['short', 'jingle', 'sting', 'loop', 'intro', 'snippet']) ? 24
        : mentions(text, ['long', 'epic', 'extended', 'full-length']) ? MAX_SONG_SECONDS
          : 30 + Math.min(30, words(request.prompt).length));
    bars = Math.min(maxBars, Math.max(minBars, Math.round(target / barSeconds)));
    phrases = vocablePhrases(r, bars);
  }

  const title = lines.length > 0 ? titleFrom(lines[0], 'Untitled', 5) : titleFrom(request.prompt, 'Untitled Song');
  return {
    seed,
    title,
    genre: request.style?.trim() || genre,
    bpm,
    barSeconds,
    bars,
    durationSeconds: bars * barSeconds,
    tonic,
    minor,
    progression,
    groove,
    voice: request.make_instrumental ? null : { gender, phrases },
    sungLines,
  };
}

/** Without lyrics the singer improvises on vocables: two sung bars, one answer bar, one bar of rest. */
function vocablePhrases(r: Rng, bars: number): Phrase[] {
  const phrases: Phrase[] = [];
  for (let bar = INTRO_BARS; bar + OUTRO_BARS < bars; bar += 4) {
    for (const [offset, length] of [[0, 2], [2, 1]] as const) {
      if (bar + offset + length > bars - OUTRO_BARS) break;
      const count = intBetween(r, 3 * length, (SYLLABLES_PER_BAR - BREATH) * length);
      const syllables = Array.from({ length: count }, () => {
        const text = pick(r, VOCABLES);
        const vowel = (text.match(/[aeiou]/)?.[0] ?? 'a') as Vowel;
        return { text, vowel, onset: text[0] === 'h' ? ('fricative' as const) : /[aeiou]/.test(text[0]) ? ('none' as const) : ('voiced' as const) };
      });
      phrases.push({ startBar: bar + offset, bars: length, syllables });
    }
  }
  return phrases;
}

/** The length rule, as seconds: see planSong (lyrics → one bar per ≤ 6 syllables per line, else from the prompt). */
export function musicDurationSeconds(request: MusicRequest): number {
  return planSong(request).durationSeconds;
}
