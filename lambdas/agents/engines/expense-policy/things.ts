/** How a refused or personal thing the policy names is found on an expense's lines and in its own text. */

/** A listed phrase as a pattern: its words in order, each singular or plural ("seat upgrades" finds "Seat Upgrade"). */
export function phraseIn(phrase: string): RegExp {
  const words = phrase.toLowerCase().split(/[^a-z0-9+]+/).filter((w) => w !== '').map((w) => `${w.replace(/(?:(?<=ss|x|ch|sh)es|(?<!s)s)$/, '').replace(/[+]/g, '\\+')}(?:e?s)?`);
  return new RegExp(`\\b${words.join('\\W+')}(?![a-z])`);
}

/** Words of a refused thing that only say where or whose it is: "airport lounge day passes" is a lounge day pass. */
const LOOSE = /^(?:airport|airline|hotel|personal|use|purchases?|for|on|of|the|in|at|a|an|any|all|other|fees?|charges?|costs?|expenses?|items?)$/;

/**
 * Whether an expense's own text (merchant, description, heading) names a refused thing, whatever category it was
 * filed under: the whole phrase, or, for a thing of two or more telling words, each of them ("Sky Club one-day pass …
 * worked in the lounge" names a lounge day pass). A word after "no"/"not"/"without" is not named.
 */
export function thingIn(phrase: string, text: string): boolean {
  if (phraseIn(phrase).test(text)) return !negated(text, phraseIn(phrase));
  const other = OTHER_NAMES[phrase.toLowerCase().trim()];
  if (other?.test(text)) return !negated(text, other);
  const telling = phrase.toLowerCase().split(/[^a-z0-9+]+/).filter((w) => w.length > 1 && !LOOSE.test(w));
  if (telling.length < 2) return false;
  return telling.every((w) => {
    const re = SAME[w.replace(/s$/, '')] ?? phraseIn(w);
    return re.test(text) && !negated(text, re);
  });
}

/** Names a receipt gives a refused thing without its word: an airline's lounge is sold as its club. */
const SAME: Record<string, RegExp> = {
  lounge: /\b(?:lounges?|(?:sky|admirals|united|polaris|centurion|maple leaf) club|priority pass)\b/,
};

/** A refused thing sold under another name: the hotel room's fridge bar is the "frigobar" in Italy and Brazil. */
const OTHER_NAMES: Record<string, RegExp> = {
  minibar: /\b(?:mini-?bar|frigo-?bar|honou?r bar)s?\b/,
};

function negated(text: string, re: RegExp): boolean {
  const at = re.exec(text)?.index ?? 0;
  return /\b(?:no|not|non|without|excluding|except|never)\b[\s\w-]{0,20}$/.test(text.slice(Math.max(0, at - 24), at));
}

export function personalWord(w: string): RegExp {
  if (OTHER_NAMES[w]) return OTHER_NAMES[w];
  return new RegExp(`\\b${w.replace(/-/g, '[- ]?')}s?\\b`);
}
