/**
 * Things paid only on trips of some length: "Laundry and dry cleaning. Reimbursable only on trips of five (5) or more
 * consecutive nights", "Not reimbursed: minibar, laundry on trips under 5 nights". A reviewer counts the trip's nights
 * (its hotel nights, else the days its expenses span) and refuses the thing on a shorter trip; when the claim shows
 * no length the item is held for a reviewer, its amount withheld.
 */
import type { ItemResult } from './claim.js';
import { policySource, type Policy } from './policy.js';
import { categoriesIn, countOf } from './words.js';

export interface TripRule {
  /** The things ("laundry", "dry cleaning"). */
  things: string[];
  /** The fewest nights a trip needs for them to be paid. */
  nights: bigint;
  text: string;
  /** "… or when the traveller carries company equipment (demo kits, tools, samples)": words of the other condition
   * under which the things are paid whatever the trip's length; the claim naming one meets it. */
  unless?: string[];
}

const N = '(\\w+)(?:\\s*\\(\\d+\\))?';
const SHORTER = new RegExp(`([\\p{L}][\\p{L} -]{2,40}?)\\s+(?:on|for|during) (?:trips|stays|travel|journeys)\\s+(?:of\\s+)?(?:under|shorter than|fewer than|less than|below)\\s+${N}\\s+(?:consecutive\\s+)?nights?`, 'u');
const ONLY = new RegExp(`\\bonly (?:on|for) (?:trips|stays|travel|journeys) of\\s+${N}\\s+(?:or more|\\+|and (?:more|longer)|nights? or (?:more|longer))\\s*(?:consecutive\\s+)?(?:nights?)?`, 'u');

const thingsOf = (phrase: string) =>
  phrase.toLowerCase().replace(/\b(?:is|are|costs?|expenses?|fees?|charges?)\b/g, ' ').split(/\s*(?:,|;|:|\band\b|\bor\b|&|\/)\s*/)
    .map((p) => p.replace(/\s+/g, ' ').trim()).filter((p) => /\p{L}{3}/u.test(p) && p.split(' ').length <= 3);

/** "Checked baggage fees are reimbursed when the trip lasts three nights or more, or when the traveller carries
 * company equipment (demo kits, tools, samples)". */
const WHEN = new RegExp(`\\b(?:are|is) (?:only )?(?:reimbursed|reimbursable|paid|allowed|claimable) (?:only )?(?:when|if|where) the (?:trip|stay|journey|travel) (?:lasts|is|covers) ${N}\\s+(?:consecutive\\s+)?nights? or (?:more|longer)(?:,? or (?:when|if|where) ([^.;]{3,200}))?`, 'u');

/** The telling words of the other condition: what it names in brackets, else its last word ("company equipment"). */
function conditionWords(condition: string): string[] {
  const listed = /\(([^)]+)\)/.exec(condition)?.[1];
  const head = condition.replace(/\([^)]*\)/g, ' ').trim().split(/\s+/).pop() ?? '';
  const words = [...(listed?.split(/\s*(?:,|\bor\b|\band\b)\s*/) ?? []), head];
  return words.map((w) => w.replace(/\b(?:etc|e\.g)\.?$/, '').replace(/s$/, '').trim()).filter((w) => /\p{L}{3}/u.test(w));
}

/** The policy's sentences, with the heading each sits under, read for the rules above. */
export function tripRule(sentence: string, under: string | undefined, previous: string | undefined): TripRule | undefined {
  const lower = sentence.toLowerCase();
  const shorter = SHORTER.exec(lower);
  if (shorter) {
    const nights = countOf(shorter[2]);
    const things = thingsOf(shorter[1].split(/[,:;]/).pop() ?? '');
    return nights && things.length > 0 ? { things, nights, text: sentence } : undefined;
  }
  const when = WHEN.exec(lower);
  if (when) {
    const nights = countOf(when[1]);
    const before = lower.slice(0, when.index).replace(/\([^)]*\)/g, ' ');
    const things = thingsOf(before !== '' ? before : under ?? '');
    const unless = when[2] ? conditionWords(when[2]) : undefined;
    return nights && things.length > 0 ? { things, nights, text: sentence, unless } : undefined;
  }
  const only = ONLY.exec(lower);
  if (!only) return undefined;
  const nights = countOf(only[1]);
  // Its subject: the words before it ("Laundry is reimbursable only on …"), else the short lead before the sentence
  // ("Laundry and dry cleaning. Reimbursable only …"), else its heading.
  const before = lower.slice(0, only.index).replace(/\b(?:is|are|be|will|reimbursable|reimbursed|paid|allowed|claimable)\b/g, ' ').trim();
  const subject = before !== '' ? before : previous !== undefined && previous.split(/\s+/).length <= 5 ? previous : under ?? '';
  const things = thingsOf(subject);
  return nights && things.length > 0 ? { things, nights, text: sentence } : undefined;
}

const plain = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** Each open item naming a thing of a rule, on a trip shorter than the rule's nights → refused; length unknown → held. */
export function tripLengthCheck(results: ItemResult[], policy: Policy, m: (cents: bigint) => string, claimText = ''): void {
  if (policy.tripRules.length === 0) return;
  const hotel = results.filter((r) => r.item.category === 'lodging' && r.item.nights !== undefined);
  let nights: bigint | undefined = hotel.length > 0 ? hotel.reduce((a, r) => a + r.item.nights!, 0n) : undefined;
  let how = 'its hotel nights';
  // "my trip to Vienna (3 nights, Mon 10.11. to Thu 13.11.)": the nights the claim states, with no hotel claimed.
  const stated = nights === undefined ? /\b(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten)\s+nights?\b/i.exec(claimText) : null;
  if (stated) {
    nights = countOf(stated[1].toLowerCase());
    how = `the nights the claim states ("${stated[0]}")`;
  }
  if (nights === undefined) {
    const days = results.map((r) => r.item.date).filter((d): d is string => d !== undefined).map((d) => Date.parse(`${d}T00:00:00Z`) / 86_400_000);
    if (days.length > 1) {
      nights = BigInt(Math.max(...days) - Math.min(...days));
      how = 'the days its expenses span';
    }
  }
  for (const r of results) {
    if (!r.open) continue;
    const own = plain([r.item.merchant, r.item.heading, r.item.text ?? r.item.evidence, r.item.label].filter(Boolean).join(' '));
    for (const rule of policy.tripRules) {
      // A thing naming a category ("checked baggage") is every item of it ("Lufthansa checked bag").
      const thing = rule.things.find((t) => new RegExp(`(?<![\\p{L}])${plain(t).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'u').test(own) ||
        (categoriesIn(t).length === 1 && categoriesIn(t)[0] === r.item.category));
      if (thing === undefined) continue;
      // The other condition met: the claim names what it asks for ("I carried the ultrasound demo kit").
      const met = rule.unless?.find((w) => new RegExp(`(?<![\\p{L}])${plain(w).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'u').test(plain(`${claimText}\n${own}`)));
      if (met !== undefined) continue;
      const sources = [...r.item.at, policySource(policy, rule.text)];
      if (nights === undefined) {
        r.findings.push({ severity: 'flag', kind: 'trip length unknown', sources,
          text: `${thing} is paid only on trips of ${rule.nights} or more nights ("${rule.text}") and the claim does not show the trip's length; ${m(r.allowed)} withheld until a reviewer confirms it` });
      } else if (nights < rule.nights) {
        r.findings.push({ severity: 'reject', kind: 'refused item', sources, arithmetic: `${nights} night(s) < ${rule.nights}`,
          text: `${thing} claimed on a trip of ${nights} night(s) (${how}); it is paid only on trips of ${rule.nights} or more nights ("${rule.text}"): ${m(r.allowed)} not reimbursed` });
      } else continue;
      r.allowed = 0n;
      r.open = false;
      break;
    }
  }
}
