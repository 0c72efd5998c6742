/**
 * Lyrics to singable syllables. English spelling is irregular, so this is a heuristic (vowel groups, a
 * silent final e); it only has to give the singer a plausible count and a vowel colour per syllable.
 */

export type Vowel = 'a' | 'e' | 'i' | 'o' | 'u';
/** How a syllable starts: fricative (s, f, sh …) and plosive (p, t, k …) onsets get a noise burst. */
export type Onset = 'none' | 'voiced' | 'fricative' | 'plosive';

export interface Syllable {
  text: string;
  vowel: Vowel;
  onset: Onset;
}

/** Section markers such as [Chorus] or (Verse 2) are stage directions, not sung lines. */
const SECTION_MARKER = /^\s*[[(][^\])]*[\])]\s*$/;

export function lyricLines(lyrics: string | undefined): string[] {
  return (lyrics ?? '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !SECTION_MARKER.test(line) && /[a-z]/i.test(line));
}

function onsetOf(consonants: string): Onset {
  if (consonants === '') return 'none';
  const first = consonants[0];
  if ('sfzhxc'.includes(first) || consonants.startsWith('th')) return 'fricative';
  if ('ptkbdgqj'.includes(first)) return 'plosive';
  return 'voiced';
}

function vowelOf(group: string): Vowel {
  const v = group.replace(/y/g, 'i')[0];
  return (['a', 'e', 'i', 'o', 'u'] as const).find((x) => x === v) ?? 'a';
}

export function syllablesOfWord(word: string): Syllable[] {
  const w = word.toLowerCase().replace(/[^a-z]/g, '');
  if (w === '') return [];
  // A final silent e ("love", "time") does not start a syllable of its own.
  const body = w.length > 2 && w.endsWith('e') && !/[aeiouy]e$/.test(w) && !w.endsWith('le') ? w.slice(0, -1) : w;
  const out: Syllable[] = [];
  const re = /([^aeiouy]*)([aeiouy]+)/g;
  let match: RegExpExecArray | null;
  while ((match = re.exec(body)) !== null) {
    out.push({ text: match[0], vowel: vowelOf(match[2]), onset: onsetOf(match[1]) });
  }
  if (out.length === 0) out.push({ text: w, vowel: 'a', onset: onsetOf(w) });
  return out;
}

export function syllablesOfLine(line: string): Syllable[] {
  return line.split(/\s+/).flatMap(syllablesOfWord);
}
