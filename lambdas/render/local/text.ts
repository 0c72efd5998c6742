/** Prompt reading shared by the three renderers: word lists, keyword detection and titles. */

const STOPWORDS = new Set(
  (
    'a an the and or of to in on at by for with from into over under about as is are be it its this that these ' +
    'those my your our their his her some very really just song track music tune beat beats vibe vibes style ' +
    'instrumental feat featuring make create generate write please image picture photo video clip scene shot ' +
    'render of like sound sounds sounding kind type second seconds sec secs minute minutes min mins'
  ).split(' '),
);

export function words(text: string | undefined): string[] {
  return (text ?? '').toLowerCase().match(/[a-z0-9][a-z0-9'&-]*/g) ?? [];
}

/** True when any keyword appears as a word (multi-word keywords match as phrases). */
export function mentions(text: string, keywords: readonly string[]): boolean {
  const haystack = ` ${words(text).join(' ')} `;
  return keywords.some((k) => haystack.includes(` ${k} `) || haystack.includes(` ${k}s `));
}

/** Strips control characters and caps length so a value is safe as an ffmpeg argv tag value. */
export function cleanTag(value: string, max = 120): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\s+/g, ' ').trim().slice(0, max);
}

function titleCase(list: string[]): string {
  return list.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');
}

/** A short human title: the first few content words of the text, title-cased. */
export function titleFrom(text: string, fallback: string, maxWords = 4): string {
  const content = words(text).filter((w) => !STOPWORDS.has(w) && !/^\d+$/.test(w));
  if (content.length === 0) return fallback;
  return cleanTag(titleCase(content.slice(0, maxWords)), 60);
}
