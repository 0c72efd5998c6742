/**
 * Colour words in the prompt steer the palette ("a red fox at sunset" is warm, "misty forest" is green-grey);
 * unnamed slots are filled with seeded hues harmonised with the named ones.
 */
import { words } from '../text.js';
import { between, type Rng } from '../seed.js';

export type Rgb = [number, number, number];

/** Each word contributes one or more colours; scene words carry a small palette of their own. */
const COLOUR_WORDS: Record<string, Rgb[]> = {
  red: [[200, 40, 45]],
  crimson: [[160, 20, 50]],
  orange: [[240, 130, 40]],
  yellow: [[245, 215, 70]],
  gold: [[225, 175, 60]],
  golden: [[230, 180, 70]],
  green: [[60, 160, 80]],
  emerald: [[30, 140, 100]],
  teal: [[30, 140, 150]],
  cyan: [[60, 200, 220]],
  blue: [[45, 95, 200]],
  navy: [[20, 35, 90]],
  purple: [[120, 60, 170]],
  violet: [[140, 90, 210]],
  magenta: [[210, 50, 170]],
  pink: [[240, 140, 180]],
  brown: [[120, 80, 50]],
  black: [[15, 15, 20]],
  white: [[240, 240, 245]],
  grey: [[130, 130, 135]],
  gray: [[130, 130, 135]],
  silver: [[190, 195, 205]],
  sunset: [[250, 140, 60], [220, 80, 110], [90, 50, 120]],
  sunrise: [[255, 190, 110], [240, 130, 130], [120, 150, 210]],
  dawn: [[250, 200, 160], [170, 160, 210]],
  dusk: [[200, 110, 120], [60, 50, 110]],
  forest: [[40, 110, 60], [90, 140, 70], [50, 70, 40]],
  jungle: [[30, 120, 50], [120, 170, 60]],
  ocean: [[20, 90, 160], [40, 160, 190], [10, 40, 90]],
  sea: [[30, 100, 170], [70, 170, 200]],
  beach: [[240, 220, 170], [60, 170, 210]],
  desert: [[230, 190, 130], [200, 140, 80]],
  snow: [[235, 240, 250], [170, 195, 230]],
  winter: [[210, 225, 245], [110, 140, 190]],
  ice: [[200, 230, 250], [120, 180, 220]],
  autumn: [[210, 110, 40], [170, 60, 30], [230, 170, 60]],
  fall: [[200, 100, 40], [160, 70, 30]],
  spring: [[170, 220, 120], [250, 190, 210]],
  fire: [[250, 110, 30], [200, 40, 20], [255, 200, 80]],
  lava: [[230, 60, 20], [40, 20, 20]],
  night: [[15, 20, 55], [50, 40, 100]],
  midnight: [[10, 10, 40], [40, 30, 90]],
  space: [[10, 10, 30], [70, 40, 120], [20, 60, 110]],
  galaxy: [[40, 20, 80], [150, 60, 170], [20, 40, 100]],
  neon: [[255, 50, 200], [40, 230, 255]],
  cyberpunk: [[250, 40, 160], [30, 220, 250], [30, 20, 60]],
  pastel: [[250, 200, 215], [200, 225, 250], [215, 245, 215]],
  mist: [[190, 200, 205], [150, 165, 175]],
  misty: [[190, 200, 205], [150, 165, 175]],
  storm: [[70, 80, 95], [40, 45, 60]],
  rain: [[100, 115, 135], [60, 75, 95]],
  city: [[60, 70, 90], [240, 180, 90]],
  mountain: [[90, 110, 140], [200, 210, 225]],
  sky: [[120, 180, 240]],
};

export interface Palette {
  skyTop: Rgb;
  skyBottom: Rgb;
  accent: Rgb;
  ground: Rgb;
  night: boolean;
}

function hsl(h: number, s: number, l: number): Rgb {
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    const a = s * Math.min(l, 1 - l);
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}

function hueOf([r, g, b]: Rgb): number {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  if (max === min) return 0;
  const d = max - min;
  const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return (h * 60 + 360) % 360;
}

export function mix(a: Rgb, b: Rgb, t: number): Rgb {
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
}

export function namedColours(prompt: string): Rgb[] {
  const found: Rgb[] = [];
  for (const word of words(prompt)) {
    const colours = COLOUR_WORDS[word] ?? COLOUR_WORDS[word.replace(/s$/, '')];
    if (colours) found.push(...colours);
  }
  return found;
}

export function paletteFor(prompt: string, r: Rng): Palette {
  const named = namedColours(prompt);
  const baseHue = named.length > 0 ? hueOf(named[0]) : between(r, 0, 360);
  const seeded = [
    hsl((baseHue + between(r, 20, 60)) % 360, between(r, 0.45, 0.75), between(r, 0.55, 0.75)),
    hsl((baseHue + 180 + between(r, -30, 30)) % 360, between(r, 0.4, 0.7), between(r, 0.35, 0.55)),
    hsl((baseHue + between(r, -40, -10) + 360) % 360, between(r, 0.35, 0.6), between(r, 0.2, 0.35)),
    hsl(baseHue, between(r, 0.5, 0.8), between(r, 0.45, 0.6)),
  ];
  const colours = [...named, ...seeded];
  const night = /\b(night|midnight|space|galaxy|stars?|starry|moon)\b/.test(prompt.toLowerCase());
  const skyTop = night ? mix(colours[0], [5, 5, 20], 0.75) : colours[0];
  const skyBottom = colours[1] ?? mix(colours[0], [255, 255, 255], 0.4);
  return {
    skyTop,
    skyBottom: night ? mix(skyBottom, [20, 20, 50], 0.5) : skyBottom,
    accent: colours[named.length > 2 ? 2 : named.length] ?? seeded[3],
    ground: colours[3] ?? seeded[2],
    night,
  };
}
