/**
 * Reads a video prompt once for both senses: which sound layers to synthesise and which particles to animate.
 * Only words that name a sound (or an obvious sound source) add audio, so a still, silent scene stays quiet.
 */
import { mentions } from '../text.js';
import { between, intBetween, rng, seedFrom } from '../seed.js';

export const SOUND_WORDS = {
  rain: ['rain', 'rainy', 'raining', 'rainfall', 'drizzle', 'downpour', 'storm', 'rainstorm', 'thunderstorm', 'shower'],
  thunder: ['thunder', 'thunderstorm', 'lightning', 'storm'],
  wind: ['wind', 'windy', 'breeze', 'gust', 'blizzard', 'howling', 'storm', 'gale'],
  ocean: ['ocean', 'wave', 'surf', 'sea', 'beach', 'shore', 'tide', 'seaside'],
  stream: ['stream', 'river', 'creek', 'brook', 'waterfall', 'fountain', 'babbling'],
  fire: ['fire', 'campfire', 'fireplace', 'bonfire', 'flame', 'crackling', 'burning', 'embers'],
  birds: ['bird', 'birdsong', 'chirping', 'seagull', 'songbird', 'tweeting', 'dawn chorus'],
  music: ['music', 'song', 'melody', 'band', 'piano', 'guitar', 'dj', 'concert', 'dance', 'singing', 'drums'],
  traffic: ['engine', 'car', 'motor', 'motorcycle', 'truck', 'traffic', 'highway', 'train', 'racing', 'jet', 'airplane'],
  crowd: ['crowd', 'people', 'chatter', 'applause', 'cheering', 'audience', 'market', 'cafe', 'stadium', 'party'],
  bells: ['bell', 'chime', 'church bell', 'wind chime'],
} as const;

export type SoundLayer = keyof typeof SOUND_WORDS;

export function soundsIn(prompt: string): SoundLayer[] {
  return (Object.keys(SOUND_WORDS) as SoundLayer[]).filter((layer) => mentions(prompt, SOUND_WORDS[layer]));
}

export type Particles = 'rain' | 'snow' | 'embers' | 'motes';

export function particlesFor(prompt: string): Particles {
  if (mentions(prompt, SOUND_WORDS.rain)) return 'rain';
  if (mentions(prompt, ['snow', 'snowy', 'snowfall', 'snowflake', 'blizzard', 'winter'])) return 'snow';
  if (mentions(prompt, SOUND_WORDS.fire)) return 'embers';
  return 'motes';
}

/**
 * Lightning flash times in seconds; the thunder of each is heard 0.4 s later. Shared by the picture and the
 * soundtrack so flash and rumble line up.
 */
export function lightningTimes(prompt: string, seconds: number): number[] {
  if (!mentions(prompt, SOUND_WORDS.thunder)) return [];
  const r = rng(seedFrom('lightning', prompt));
  const count = intBetween(r, 1, 2);
  return Array.from({ length: count }, (_, i) => between(r, 0.8, seconds / count - 1.5) + (i * seconds) / count);
}

export const THUNDER_DELAY_SECONDS = 0.4;
