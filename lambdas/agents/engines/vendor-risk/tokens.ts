/**
 * The vendor profile read as tokens for the denial readers (negation.ts, answers.ts): words (lower case), the
 * jurisdiction mentions (one token each, "North Korea" included), separators (, and or nor & / ( ) : -), sentence
 * and cell ends (. ! ? ; | tab and a CSV cell's closing `",`) and tick boxes. One regex pass over a line.
 */

export interface Mention {
  start: number;
  end: number;
}

export type Tok =
  | { k: 'word'; w: string; at: number; end: number }
  | { k: 'mention'; m: number; at: number; end: number }
  | { k: 'sep'; s: string; at: number; end: number }
  | { k: 'stop'; s: string; at: number; end: number }
  | { k: 'box'; at: number; end: number };

export const words = (s: string) => new Set(s.split(' '));
/**
 * Denial words, with those of the forms' other languages (German, French, Spanish, Portuguese, Dutch), whose turns,
 * exceptions, subjects and verbs negation.ts reads beside the English ones, so a denial in German ends where one in
 * English would. Italian "mai" is left out: German writes "Mai" for May.
 */
export const DENIAL = words(
  'no not never none without zero neither nor cannot nothing nowhere ' +
    'kein keine keinen keinem keiner keines nicht nie niemals ohne ' +
    'aucun aucune aucuns aucunes jamais sans ningun ninguna ninguno ningunos ningunas nunca sin nenhum nenhuma geen nooit zonder',
);
export const SUBJECT = words('we i they he she you it there wir ich sie nous ils elles nosotros nosotras ellos ellas wij');
export const AUX = words(
  'is are was were am be been has have had will would shall should can could may might must do does did ' +
    'ist sind war waren hat haben wird werden est sont ont son tiene tienen heeft hebben',
);
/** Words whose dot ends no sentence. Not "no", "inc" or "etc": those end sentences often enough ("Sanctions: No."). */
const ABBREVIATION = words('incl approx vs dept');
/** "and", "or", "nor" and their German, French and Spanish forms, each read as the English word (not Dutch "en" and "of": French "in" and English "of"). */
const COORDINATOR = new Map(Object.entries({ and: 'and', or: 'or', nor: 'nor', und: 'and', oder: 'or', et: 'and', ou: 'or', ni: 'nor' }));

/** Asides that sit between commas inside one statement: "we do not, directly or indirectly, have…". */
const ASIDE =
  /,\s*(?:(?:whether|either)\s+)?(?:directly\s+or\s+indirectly|indirectly\s+or\s+directly|to\s+(?:the\s+best\s+of\s+)?(?:our|my)\s+knowledge|currently|presently|at\s+present|at\s+this\s+time|now|ever|in\s+any\s+(?:way|capacity|form))\s*,/giu;

const TOKEN =
  /(\[\s*[xX✓✔*•]?\s*\]|\(\s*[xX✓✔*•]?\s*\)|[☐□☒☑■✅])|((?<![\p{L}\p{N}])(?:[eE]\.[gG]|[iI]\.[eE])\.?|[\p{L}\p{N}]+(?:['_-][\p{L}\p{N}]+)*)|(\.|!|\?|;|\||\t|",)|(,|&|\/|\(|\)|:|-)/gu;

/** The tokens of one line (`text` starts at offset `base`); `first` is the first mention that may lie in it. */
export function tokenize(text: string, base: number, mentions: Mention[], first: number): Tok[] {
  const toks: Tok[] = [];
  let next = first;
  // Blanked, not removed, so token offsets stay those of the text.
  const line = text.replace(ASIDE, (m) => ' '.repeat(m.length));
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(line); m; m = TOKEN.exec(line)) {
    const at = base + m.index;
    const end = at + m[0].length;
    while (next < mentions.length && mentions[next].end <= at) next++;
    if (next < mentions.length && mentions[next].start <= at) {
      // Every token inside a mention ("North Korea") becomes the one mention token.
      const last = toks[toks.length - 1];
      if (!(last?.k === 'mention' && last.m === next)) toks.push({ k: 'mention', m: next, at: mentions[next].start, end: mentions[next].end });
      continue;
    }
    if (m[1] !== undefined) toks.push({ k: 'box', at, end });
    else if (m[2] !== undefined) {
      const w = m[2].toLowerCase().replace(/\./g, '');
      const coordinator = COORDINATOR.get(w);
      toks.push(coordinator ? { k: 'sep', s: coordinator, at, end } : { k: 'word', w, at, end });
    } else if (m[3] !== undefined) {
      // "e.g. Iran", "U.S. or Iran", "Reg. No. 4123": a dot after an abbreviation or a single letter ends nothing.
      const prev = toks[toks.length - 1];
      const abbrev = m[3] === '.' && prev?.k === 'word' && (prev.w.length === 1 || ABBREVIATION.has(prev.w));
      const midWord = m[3] === '.' && /[\p{L}\p{N}]/u.test(line.charAt(m.index + 1));
      // "(Russia, Iran, Cuba...)", "Syria, etc.) ?": dots before a closing bracket, a comma or the question mark
      // trail a list ("and so on"); the statement goes on to its answer.
      const trailing = m[3] === '.' && /^\.*\s*[),?]/.test(line.slice(m.index + 1, m.index + 12));
      if (!abbrev && !midWord && !trailing) toks.push({ k: 'stop', s: m[3], at, end });
    } else toks.push({ k: 'sep', s: m[4], at, end });
  }
  return toks;
}

