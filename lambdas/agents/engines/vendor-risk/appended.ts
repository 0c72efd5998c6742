/**
 * The buyer's own note appended under a vendor's e-mail (RULES.md rule 6, "A change already verified"): accounts
 * payable pastes the request and writes under it, past a rule line, what it did ("INTERNAL NOTE added in AP change
 * log by <clerk>, <buyer>", "Verification log - Accounts Payable, <buyer>"). It is the buyer's record only when its
 * heading says it is an internal note or log and names the buyer: the company whose name is the domain the e-mail
 * was sent to ("Nordfjord Sjømat AS" for nordfjordsjomat.no), or an address on that domain. Anything else under the
 * vendor's signature is the vendor's own text, and verifies nothing.
 */

/** A rule line a paste puts between the message and the note: five or more dashes, equals signs or underscores. */
const RULE = /^[ \t]*[-=_*]{5,}[ \t]*$/;
/** The heading of an internal record. */
const HEADING =
  /^[ \t]*(?:[#*>=\[(-]+[ \t]*)?(?:internal\s+(?:note|memo|record|comment|log)s?|(?:for\s+)?internal\s+use(?:\s+only)?|(?:ap|a\/p|accounts\s+payable|purchase\s+ledger|payables|creditors|vendor\s+master|supplier\s+master|master\s+data|leverand\p{L}*)\s+(?:internal\s+)?(?:change[- ]?|verification\s+|call-?back\s+)?(?:log|note|record|memo)s?|change[- ]log\s+(?:note|entry)|verification\s+(?:log|record|note)s?)(?![\p{L}])/iu;
/** The letters of a name as a domain writes them: Nordic and German letters spelt out, everything else dropped. */
const letters = (s: string) =>
  s
    .toLowerCase()
    .replace(/[øö]/g, 'o')
    .replace(/æ|ä/g, 'ae')
    .replace(/å/g, 'a')
    .replace(/ü/g, 'u')
    .replace(/ß/g, 'ss')
    .normalize('NFD')
    .replace(/[^a-z0-9]/g, '');

/** Whether `text` names the buyer: an address on its domain, or a run of words whose letters are the domain's name. */
function namesBuyer(text: string, buyerDomains: Set<string>): boolean {
  const labels = [...buyerDomains].map((d) => d.split('.')[0].replace(/-/g, '')).filter((l) => l.length >= 4);
  if ([...buyerDomains].some((d) => new RegExp(`@(?:[\\w-]+\\.)*${d.replace(/\./g, '\\.')}(?![\\w.-])`, 'i').test(text))) return true;
  const words = text.split(/[^\p{L}\p{N}&'-]+/u).filter(Boolean);
  for (let i = 0; i < words.length; i++) {
    let joined = '';
    for (let j = i; j < Math.min(words.length, i + 4); j++) {
      joined += letters(words[j]);
      if (labels.includes(joined)) return true;
    }
  }
  return false;
}

/** Where the buyer's appended note starts in `body` (the e-mail's body), or undefined when there is none. */
export function appendedNote(body: string, buyerDomains: Set<string>): { at: number } | undefined {
  const lines = body.split('\n');
  let at = 0;
  let ruled = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (RULE.test(line)) ruled = true;
    else if (line.trim() !== '') {
      // The heading and the line under it name who wrote the note.
      if (ruled && HEADING.test(line) && namesBuyer(`${line}\n${lines[i + 1] ?? ''}`, buyerDomains)) {
        const rest = lines.slice(i).join('\n');
        // A message quoted after the note would make the note the middle of a thread, not the buyer's last word.
        if (/^[ \t]*(?:from|de|von)[ \t]*:[ \t]*\S.*@/im.test(rest)) return undefined;
        return { at };
      }
      ruled = false;
    }
    at += line.length + 1;
  }
  return undefined;
}

/**
 * The buyer's top message pointing to its own notes at the bottom of the forward ("Verification done, see my notes at
 * the bottom", "our checks are below"): the note it points to is the buyer's, as a note appended to the vendor's own
 * message is only when it names the buyer.
 */
const POINTER =
  /(?<![\p{L}])(?:(?:my|our)\s+(?:[\p{L}-]+\s+){0,2}(?:notes?|checks?|comments?|log|record)\s+(?:are\s+|is\s+)?(?:at\s+the\s+(?:bottom|end)|below|underneath|further\s+down)|see\s+(?:the\s+)?(?:notes?|checks?|log|record)\s+(?:at\s+the\s+(?:bottom|end)|below))(?![\p{L}])/iu;

/**
 * Where the notes the buyer's top message (`body` up to `topEnd`) points to start: the last block of the forward
 * under a rule line, headed as an internal note, log or record, with no message quoted after it.
 */
export function pointedNote(body: string, topEnd: number): { at: number } | undefined {
  if (!POINTER.test(body.slice(0, topEnd))) return undefined;
  const lines = body.split('\n');
  let at = 0;
  let ruled = false;
  let found: number | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (RULE.test(line)) ruled = true;
    else if (line.trim() !== '') {
      if (ruled && at > topEnd && HEADING.test(line)) found = at;
      ruled = false;
    }
    at += line.length + 1;
  }
  if (found === undefined || /^[ \t]*(?:from|de|von)[ \t]*:[ \t]*\S.*@/im.test(body.slice(found))) return undefined;
  return { at: found };
}
