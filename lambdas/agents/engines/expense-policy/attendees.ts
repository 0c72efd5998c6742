/**
 * "At least one person from outside the company must attend" (a client meal, business entertainment): a hosted meal is
 * one only when someone the company does not employ sat at it. A practitioner reads the attendee list the claim gives
 * with the meal ("Asistentes (4): - Marta Gil · Grupo Hidrotec · …, - Lucía Bermejo · Aguas del Tajo Medio · …"): the
 * rule is met when an attendee is named as a client or guest, or when the list names two organisations or more (the
 * company's and another's). A list naming one organisation only, or its employees only, does not meet it; no list at
 * all shows nothing: either way the meal is held for a reviewer (flag, its amount withheld), never paid on a guess.
 * The rule is read in the languages whose policies are read (languages.ts), from the sentence as printed.
 */
import type { ItemResult } from './claim.js';
import { policySource, type Policy } from './policy-types.js';
import { categoriesIn, type Category } from './words.js';

export interface OutsideRule {
  text: string;
  categories: Category[];
  /** The rule is about hosted meals (its sentence or heading names clients, representation, entertainment): only
   * items naming such a meal are held to it. */
  hosted: boolean;
}

/** "At least one" in the languages read; Japanese writes it after its noun ("社外の者1名以上"). */
const AT_LEAST_ONE = /\b(?:at least one|a minimum of one|one or more)\b|(?<![\p{L}])(?:al menos|como mínimo|por lo menos) (?:un|una|uno)(?![\p{L}])|(?<![\p{L}])au moins (?:un|une)(?![\p{L}])|(?<![\p{L}])(?:pelo menos|no mínimo) (?:um|uma)(?![\p{L}])|(?<![\p{L}])(?:almeno|come minimo) (?:un|una|uno)(?![\p{L}])|(?<![\p{L}])(?:co najmniej|przynajmniej) (?:jed(?:en|na|no))(?![\p{L}])|(?<![\p{L}])mindestens (?:ein|eine|einer)(?![\p{L}])|(?<![\p{L}])(?:ten minste|minstens|tenminste) (?:één|een)(?![\p{L}])|[1１一]\s?名以上/iu;
/** Someone the company does not employ: "outside", "external", "a client", "ajena al grupo", "extérieure", "spoza firmy", "社外". */
const OUTSIDE = /\b(?:outside|external|non-employees?|third[- ]part(?:y|ies)|clients?|customers?|guests?|business (?:partners?|contacts?)|not (?:an? )?(?:employee|staff member)s?)\b|(?<![\p{L}])(?:ajen[oa]s?|extern[oa]s?|de fuera|clientes?|invitad[oa]s?|extérieure?s?|externes?|étrangère?s? à|invitée?s?|alhei[oa]s?|de fora|convidad[oa]s?|estern[oa]s?|esterne|ospiti|ospite|spoza|zewnętrzn\w*|gość|goście|klien\w*|externe[rn]?|betriebsfremde\w*|geschäftspartner\w*|kunden?|gäste?|niet-medewerkers?|relaties?|klanten?)(?![\p{L}])|社外|取引先|来賓|顧客/iu;
/** Being there: "must attend", "be present", "participate", "be among the guests", "include". */
const ATTEND = /\b(?:attend|attends|attending|present|participate|participates|among|include|includes|included)\b|(?<![\p{L}])(?:asistir|asista|asistan|estar presente|participar|participe|assister|assiste|participer|participe|être présente?|présente?|comparecer|participar|estar presente|presente|partecipare|partecipi|essere presente|uczestniczyć|uczestniczy|obecn\w+|teilnehmen|teilnimmt|anwesend|dabei sein|aanwezig|deelnemen)(?![\p{L}])|出席|参加|同席/iu;
/** A hosted meal's words: the kind of meal a rule of this form is about, and an item's sign of being one. */
export const HOSTED = /\b(?:clients?|customers?|guests?|entertain\w*|hosted|hospitality|business (?:meals?|dinners?|lunch(?:es)?))\b|(?<![\p{L}])(?:representación|representacion|clientes?|invitad[oa]s?|représentation|repas d'affaires|invités?|representação|convidad[oa]s?|rappresentanza|ospiti|reprezentac\w*|kontrahent\w*|klien\w*|bewirtung\w*|geschäftsessen|kunden\w*|zakenlunch\w*|zakendiner\w*|relatie\w*)(?![\p{L}])|接待|交際|会食/iu;

/** The rule, when the sentence states it; its categories are the sentence's, else its heading's. */
export function readOutsideAttendee(sentence: string, english: string, policy: Policy, context: Category[], under: string | undefined): number {
  const s = sentence.normalize('NFKC');
  if (!AT_LEAST_ONE.test(s) && !AT_LEAST_ONE.test(english)) return 0;
  if (!(OUTSIDE.test(s) || OUTSIDE.test(english)) || !(ATTEND.test(s) || ATTEND.test(english))) return 0;
  // What one attends is a meal or an event: a client meal is filed as either, whatever the heading calls it.
  const categories = [...new Set<Category>([...categoriesIn(english), ...context, 'meals', 'entertainment'])];
  const hosted = HOSTED.test(s.replace(OUTSIDE_ONLY, ' ')) || (under !== undefined && HOSTED.test(under));
  (policy.outsideAttendees ??= []).push({ text: sentence, categories, hosted });
  return 1;
}
/** The rule's own outside-person words are no sign of what kind of meal it is about. */
const OUTSIDE_ONLY = /\b(?:at least one|one or more) (?:\w+ ){0,3}?(?:client|customer|guest)s?\b/giu;

/** Words saying an attendee is the company's own (an employee), in the languages read. */
const INTERNAL = /\b(?:employee|staff|colleague|internal)\b|(?<![\p{L}])(?:emplead[oa]s?|trabajador[ae]?s?|colaborador[ae]?s?|salariée?s?|collaborat(?:eur|rice)s?|interne?s?|funcionári[oa]s?|colaborador[ae]?s?|dipendente|dipendenti|collega|pracowni\w*|mitarbeiter\w*|kolleg\w*|medewerkers?|collega's)(?![\p{L}])|社員|従業員/iu;
/** The head of an attendee list: "Attendees (4):", "Asistentes:", "Convives :", "Teilnehmer:", "出席者：". */
const LIST_HEAD = /^\s*[-•*]?\s*(?:attendees|guests|participants|asistentes|participantes|comensales|convives|invités|teilnehmer(?:innen)?|bewirtete personen|partecipanti|deelnemers|uczestnicy|osoby|出席者|参加者)\b[^:\n]{0,30}:\s*(.*)$/iu;

export interface Attendee {
  name: string;
  org?: string;
  outside: boolean;
  internal: boolean;
}

/** The attendees an item's text lists: each with its organisation (the second cell of "Name · Org · Role", the last
 * part of "Name (Role, Org)") and whether it is said to be a client or guest, or an employee. */
export function attendeesIn(text: string): Attendee[] | undefined {
  const lines = text.split(/\r?\n/);
  const at = lines.findIndex((l) => LIST_HEAD.test(l));
  if (at < 0) return undefined;
  const head = LIST_HEAD.exec(lines[at])!;
  const indent = /^\s*/.exec(lines[at])![0].length;
  const entries: string[] = head[1].trim() !== '' ? head[1].split(/;|,(?![^()]*\))/).map((e) => e.trim()).filter((e) => e !== '') : [];
  for (const line of lines.slice(at + 1)) {
    if (line.trim() === '' || /^\s*[-•*]?\s*\S[^:]{0,40}:/.test(line.replace(/^\s*[-•*]\s*/, '')) && !/^\s*[-•*]/.test(line)) break;
    const own = /^\s*/.exec(line)![0].length;
    if (own <= indent && !/^\s*[-•*]\s/.test(line)) break;
    entries.push(line.replace(/^\s*[-•*]\s*/, '').trim());
  }
  return entries.map(attendeeOf);
}

function attendeeOf(entry: string): Attendee {
  const cells = entry.split(/\s+[·|–—]\s+|\s+-\s+|\t|\s{2,}/).map((c) => c.trim()).filter((c) => c !== '');
  const bracket = /\(([^)]*)\)\s*$/.exec(entry);
  const org = cells.length >= 2 ? cells[1] : bracket ? bracket[1].split(',').pop()!.trim() : undefined;
  const rest = cells.slice(1).join(' ') + (bracket ? ` ${bracket[1]}` : '');
  return { name: cells[0] ?? entry, org: org && !INTERNAL.test(org) ? org : undefined, outside: HOSTED_PERSON.test(rest), internal: INTERNAL.test(rest) };
}
/** An attendee said to be a client, guest or an outside party. */
const HOSTED_PERSON = /\b(?:client|customer|guest|external|prospect|supplier|vendor|partner)\b|(?<![\p{L}])(?:cliente|invitad[oa]|externo|externa|invité|invitée|convidad[oa]|ospite|gość|klient|kunde|gast|extern|klant)(?![\p{L}])|社外|取引先|顧客/iu;

const key = (org: string) => org.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\b(?:s\.?l\.?|s\.?a\.?|gmbh|ltd|inc|llc|sp\. z o\.o\.|spa|srl|ltda)\b|[^\p{L}\p{N}]+/gu, ' ').trim();

/** Whether the attendees meet the rule: someone named as outside, or two organisations or more. */
export function outsideMet(attendees: Attendee[]): { met: boolean; why: string } {
  const outside = attendees.find((a) => a.outside && !a.internal);
  if (outside) return { met: true, why: `${outside.name} is named as an outside attendee` };
  const orgs = [...new Map(attendees.filter((a) => a.org !== undefined).map((a) => [key(a.org!), a.org!])).values()];
  if (orgs.length >= 2) return { met: true, why: `the attendees are of ${orgs.length} organisations (${orgs.join(', ')})` };
  if (attendees.length > 0 && attendees.every((a) => a.internal && !a.outside)) return { met: false, why: 'every attendee listed is named as an employee' };
  if (orgs.length === 1) return { met: false, why: `every attendee listed is of ${orgs[0]}` };
  return { met: false, why: 'the attendee list names no organisation, so no attendee is shown to be from outside' };
}

/** The item's own text and its numbered detail block in the report ("[4] Comida de representación · …"). */
function ownText(r: ItemResult, claimText: string, single: boolean): string {
  const parts = [r.item.heading, r.item.text ?? r.item.evidence ?? r.item.label];
  for (const block of claimText.split(/\r?\n(?=\s*\[\d{1,3}\]\s)/)) {
    const n = /^\s*\[(\d{1,3})\]\s/.exec(block);
    if (n && Number(n[1]) === r.item.index) parts.push(block.split(/\r?\n\s*-{5,}/)[0]);
  }
  if (single) parts.push(claimText);
  return parts.filter(Boolean).join('\n');
}

/** Each open hosted meal the rule bears on: held unless its attendees show someone from outside. */
export function outsideAttendeeCheck(results: ItemResult[], policy: Policy, claimText: string, m: (cents: bigint) => string): void {
  for (const rule of policy.outsideAttendees ?? []) {
    for (const r of results) {
      if (!r.open || r.item.category === undefined || !rule.categories.includes(r.item.category)) continue;
      const own = ownText(r, claimText, results.length === 1);
      if (rule.hosted && !HOSTED.test(own)) continue;
      const attendees = attendeesIn(own);
      const verdict = attendees ? outsideMet(attendees) : { met: false, why: 'the claim lists no attendees with the meal' };
      if (verdict.met) continue;
      r.findings.push({
        severity: 'flag', kind: 'outside attendee not shown', sources: [...r.item.at, policySource(policy, rule.text)],
        text: `the policy requires at least one attendee from outside the company ("${rule.text}"); ${verdict.why}: ${m(r.allowed)} withheld until a reviewer confirms who attended`,
      });
      r.allowed = 0n;
      r.open = false;
    }
  }
}
