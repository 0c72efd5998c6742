/**
 * Limits per place: a policy's table of cities ("Bengaluru, India | 210" under "City / country | Nightly cap (USD)",
 * "Chicago, Washington DC, Seattle, LA ...... $275" under "Nightly cap including room tax:", "Lyon, Marseille, Nice
 * ..... 140,00 EUR" under "Hotels (per night …)", "Melbourne    300.00" under "City   Cap per night"). A reviewer holds
 * a hotel to the cap of the city it is in: the city its own line names, else the one the claim names, else the row for
 * "any other city" (else the lowest listed, the place not being known: said in the finding).
 */
import { parseCents } from '../text/amount.js';
import type { ItemResult } from './claim.js';
import type { Src } from './evidence.js';
import type { Policy } from './policy.js';
import { roomAmount } from './folio-lines.js';
import { gradeCaps } from './grades.js';
import { inCountry } from './countries.js';
import { languageOf, toEnglish } from './languages.js';
import { categoriesIn, type Category } from './words.js';

export interface PlaceCap {
  /** The places the row names ("Chicago", "Washington DC", …); empty for the row of every other place. */
  places: string[];
  fallback: boolean;
  cents: bigint;
  category: Category;
  period?: 'night' | 'day';
  /** The row as printed, cited as the rule. */
  text: string;
  line: number;
}

export interface PlaceTables {
  caps: PlaceCap[];
  /** 0-based lines read as the tables: their rows, header and the lead sentences introducing them. */
  lines: Set<number>;
}

const FALLBACK = /\b(?:(?:all|any) other|other (?:cities|locations|places|destinations|countries|areas)|elsewhere|rest of|all remaining|autres villes|other\b)|(?<![\p{L}])(?:übrigen?|sonstigen?|andere Länder|alle anderen|altre (?:località|città)|altrove|overige|andere (?:steden|plaatsen)|elders|otras (?:ciudades|localidades)|outras (?:cidades|localidades)|övriga)(?![\p{L}])|その他|他の地域|上記以外/iu;
const AMOUNT = /^(?:(?:[$€£₹]|[A-Z]{3}|A\$|C\$|US\$|RM|Rs\.?)\s?)?(\d{1,3}(?:[,.' ]\d{3})*(?:[.,]\d{2})?|\d+(?:[.,]\d{2})?)(?:\s?(?:[€£]|[A-Z]{3}|kr))?(?:\s*(?:per|\/|a|each)\s+(?:night|nacht|notte|nuit|noche|noite|natt))?$/;
/** A section's heading: "§ 4 Übernachtung", "4. Lodging", "## Hotels", "B. Meals". */
const HEADING = /^\s*(?:#+\s|§\s*\d+|\d+(?:\.\d+)*[.)]?\s+\S|[A-Z][.)]\s+\S)/;
const MEAL_WORDS = /\b(?:breakfast|lunch|dinner|meals?|frühstück|petit[- ]déjeuner|déjeuner|dîner|incidentals?)\b/i;

/** A row of a places table: its label and amount ("Sydney   330.00", "| Bengaluru, India | 210 |", "Lyon ..... 140,00 EUR"). */
function rowOf(line: string): { label: string; amount: string } | undefined {
  // "- Milano, Roma ..... EUR 160 a notte": a bulleted row is a row.
  const t = line.trim().replace(/^[-•*·]\s+(?=\p{Lu})/u, '');
  let cells: string[];
  if (t.includes('|')) cells = t.replace(/^\||\|$/g, '').split('|').map((c) => c.trim());
  // A leader cut short ("Bologna, Torino .. EUR 130") is a leader when it stands between spaces.
  else if (/\.{3,}|…|\s\.\.\s/.test(t)) cells = t.split(/\s*(?:\.{3,}|…|(?<=\s)\.\.(?=\s))[.…]*\s*/);
  else {
    // "Other towns:      up to KES  8,000": the label stands apart; the limit may be spaced out within.
    const parts = t.split(/\s{2,}/);
    cells = parts.length > 2 && /:$/.test(parts[0]) ? [parts[0], parts.slice(1).join(' ')] : parts;
  }
  // "東京23区・大阪市 12,000円": a Japanese row's columns may stand one space apart, the label in its own script.
  if (cells.length === 1) cells = CJK_ROW.exec(t)?.slice(1, 3) ?? cells;
  // "Tier 1 cities (London, Tokyo): up to USD 300.": a label closed by its colon, then the limit.
  if (cells.length === 1) cells = /^([^:]{3,160}):\s+(\S.{0,40})$/.exec(t)?.slice(1, 3) ?? cells;
  if (cells.length !== 2) return undefined;
  // "Milano, Roma, Venezia, Firenze:   up to EUR 180": the colon ends the label, "up to" only says it is a limit.
  const label = cells[0].replace(/\s*:$/, '');
  // "up to KES 12,000 (bed & breakfast)": what the limit includes, in brackets, is no part of the amount.
  const amount = yen(cells[1]).replace(/\*/g, '').trim().replace(LIMIT, '').replace(/\s*\([^()]*\)$/, '').replace(/\.$/, '');
  // A group's mark ("Tier 1 cities", "Zone 2") is no figure in the label.
  const words = label.replace(/\b(?:tier|zone|group|band|level|category)\s+\d\b/gi, '').replace(/\b[A-Z]{2,3}\b/g, '');
  // The row for every other place may be written in lower case ("altre località").
  const cjk = CJK.test(label);
  if (!AMOUNT.test(amount) || !(/^\p{Lu}/u.test(label) || cjk || FALLBACK.test(label)) || (/\d/.test(words) && !cjk)) return undefined;
  // "東京23区・大阪市": places joined by a middle dot are a list.
  return { label: cjk ? label.replace(/[・、]/g, ', ') : label, amount };
}

/** Words before a row's amount that only say it is a limit ("up to EUR 180", "max. 150,00 €"). */
const LIMIT = /^(?:up to|max(?:imum)?\.?|not (?:to )?exceed(?:ing)?|fino a|bis(?: zu)?|jusqu'à|hasta|at most)\s+/i;

/** A row's places: split on commas, slashes and "and"; a qualifier after the last comma (the country of "Bengaluru,
 * India", a state code, a name several rows share) is dropped. */
/** A label in Chinese or Japanese script: its names hold figures ("東京23区") and its places no capitals. */
const CJK = /^[\p{Script=Han}\p{Script=Katakana}\p{Script=Hiragana}]/u;
const CJK_ROW = /^([\p{Script=Han}\p{Script=Katakana}\p{Script=Hiragana}][^\s]{0,30})\s+((?:[¥￥]\s?)?\d[\d,]*\s*円?)$/u;
/** "12,000円", "¥12,000": a yen amount written the English way ("12000 JPY"). */
const yen = (a: string) => /円\s*$|^\s*[¥￥]/.test(a) ? `${a.replace(/[¥￥円,\s]/g, '')} JPY` : a;

/** Places a Japanese policy names by a region of wards: Tokyo's 23 wards ("東京23区", "東京都区部") are each of them. */
const WARDS: [RegExp, string[]][] = [[/^東京(?:23区|都区部|都23区)$/u, ['東京23区', '東京都区部', ...'千代田 中央 港 新宿 文京 台東 墨田 江東 品川 目黒 大田 世田谷 渋谷 中野 杉並 豊島 北 荒川 板橋 練馬 足立 葛飾 江戸川'.split(' ').map((w) => `${w}区`)]]];

function placesOf(label: string, qualified: boolean, shared: Set<string>): string[] {
  // "Tier 1 cities (Boston, Chicago, New York City)": a group named, its places listed in brackets.
  const listed = /\(([^()]*,[^()]*)\)/.exec(label)?.[1];
  if (listed !== undefined) return listed.split(/\s*(?:,|\/|;|\band\b|&)\s*/).map((p) => p.trim()).filter((p) => p !== '');
  const clean = label.replace(/\([^)]*\)/g, ' ');
  const comma = clean.lastIndexOf(',');
  const last = comma < 0 ? '' : clean.slice(comma + 1).trim();
  const drop = comma >= 0 && (qualified || shared.has(last.toLowerCase()) || (/^[A-Z]{2}$/.test(last) && !clean.slice(0, comma).includes(',')));
  const kept = drop ? clean.slice(0, comma) : clean;
  return kept.split(/\s*(?:,|\/|;|\band\b|\bet\b|\bund\b|\be\b|\ben\b|\by\b|&)\s*/).map((p) => p.trim()).filter((p) => p !== '');
}

export function readPlaceTables(text: string): PlaceTables {
  const out: PlaceTables = { caps: [], lines: new Set() };
  // A German, Dutch or Italian lead is read in the English forms ("je Nacht": per night).
  const language = languageOf(text);
  const lines = text.split(/\r\n|\r|\n/);
  for (let k = 0; k < lines.length; k++) {
    const rows: { label: string; amount: string; n: number }[] = [];
    let j = k;
    for (; j < lines.length; j++) {
      if (/^[\s|:+=-]*$/.test(lines[j]) && /[-=]{3,}/.test(lines[j])) continue;
      const row = rowOf(lines[j]);
      if (!row || categoriesIn(row.label.toLowerCase()).length > 0 || MEAL_WORDS.test(row.label)) break;
      rows.push({ ...row, n: j });
    }
    // The block is looked at once, whatever it turns out to be (keeps the scan linear).
    const end = j;
    if (rows.length < 2 || !rows.some((r) => !FALLBACK.test(r.label))) {
      if (rows.length > 0) k = end - 1;
      continue;
    }
    // The lead: the header row and the lines above it up to a blank line, and the section's heading above them.
    const lead: number[] = [];
    for (let h = k - 1; h >= 0 && lead.length < 6; h--) {
      if (lines[h].trim() === '') {
        // A table's header alone is no lead: the paragraph above it introduces the table.
        const headerOnly = lead.length === 1 && (/\|/.test(lines[lead[0]]) || /\S\s{2,}\S/.test(lines[lead[0]].trim()));
        if (lead.length > 0 && !headerOnly) break;
        continue;
      }
      lead.push(h);
      // The sentence right above the rows, closed by a colon, introduces them ("Hotels (per night, city tax
      // included):"): what precedes it is another rule.
      // A sentence wrapped over lines ("… für Mahlzeiten erstattet, je" / "Kalendertag höchstens:") is taken whole.
      if (lead.length === 1 && /:\s*$/.test(lines[h]) && !/\|/.test(lines[h])) {
        for (let w = h - 1; w >= 0 && lead.length < 4 && lines[w].trim() !== '' && !/[.:;!?]\s*$/.test(lines[w]) && !HEADING.test(lines[w]); w--) lead.push(w);
        break;
      }
      if (/^\s*(?:#+\s|\d+(?:\.\d+)*[.)]?\s+\S|[A-Z][.)]\s+\S)/.test(lines[h]) && lines[h].trim().split(/\s+/).length <= 8) break;
    }
    // A lead closed by its colon sits under its section's heading ("§ 4 Übernachtung", "4. Lodging"), which names
    // what the rows are limits of when the lead itself does not.
    const top = Math.min(...lead);
    const heading = top > 0 && HEADING.test(lines[top - 1]) && lines[top - 1].trim().split(/\s+/).length <= 8 ? [top - 1] : [];
    const leadOf = (at: number[]) => toEnglish(language, [...at].sort((a, b) => a - b).map((h) => lines[h]).join(' '), text).toLowerCase();
    const leadText = leadOf(lead);
    const named = (t: string) => categoriesIn(t).find((c) => c === 'lodging') ?? (/\b(?:nightly|per night|a night|room rate)\b/.test(t) ? 'lodging' : undefined);
    const daily = (t: string) => /\b(?:per (?:calendar )?day|daily|a day)\b/.test(t);
    // A daily limit of meals by place ("Meals, per calendar day, at most: Switzerland 70,00 EUR").
    const meals = (t: string) => (categoriesIn(t)[0] === 'meals' && daily(t) ? 'meals' : undefined);
    const category: Category | undefined = named(leadText) ?? meals(leadText) ?? (heading.length > 0 ? named(leadOf(heading)) ?? (daily(leadText) ? meals(leadOf(heading)) : undefined) : undefined);
    if (category === undefined) {
      k = end - 1;
      continue;
    }
    const period = category === 'meals' ? 'day' : /\b(?:nightly|per night|a night|each night|\/night|room rate)\b/.test(leadText) ? 'night' : daily(leadText) ? 'day' : 'night';
    const header = lead.map((h) => lines[h]).find((l) => /\|/.test(l) || /\s{2,}\S/.test(l.trim())) ?? '';
    const qualified = /\b(?:country|state|province|region)\b/i.test(header.split(/\||\s{2,}/).filter((c) => c.trim() !== '')[0] ?? '');
    const counts = new Map<string, number>();
    for (const r of rows) for (const p of r.label.split(/\s*,\s*/).slice(1)) counts.set(p.toLowerCase(), (counts.get(p.toLowerCase()) ?? 0) + 1);
    const shared = new Set([...counts].filter(([, c]) => c > 1).map(([p]) => p));
    for (const r of rows) {
      // The amount alone, its currency and unit dropped (the table's currency is the policy's), thousands dotted or not.
      const figure = r.amount.replace(/\s*(?:per|\/|a|each)\s+\p{L}+$/u, '').replace(/^(?:[$€£₹]|[A-Z]{3}|[AC]\$|US\$|RM|Rs\.?)\s?|\s?(?:[€£]|[A-Z]{3}|kr)$/g, '');
      const cents = parseCents(/^\d{1,3}(?:\.\d{3})+$/.test(figure) ? figure.replace(/\./g, '') : figure);
      if (cents === undefined) continue;
      // "Bologna, Torino, Napoli e altri capoluoghi": a row naming places first is theirs, whatever it adds.
      const fallback = FALLBACK.test(r.label) && !/^\p{Lu}[\p{L}.'-]*\s*(?:,|\/|\band\b|\be\b|\ben\b|\bet\b|\by\b|\bund\b|&)/u.test(r.label);
      out.caps.push({ places: fallback ? [] : placesOf(r.label, qualified, shared), fallback, cents, category, period, text: lines[r.n].trim(), line: r.n + 1 });
      out.lines.add(r.n);
    }
    for (const h of lead) out.lines.add(h);
    for (let s = k; s < j; s++) out.lines.add(s);
    k = j;
  }
  return out;
}

const plain = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '');

/** Whether a text names a place: as a whole word, accents aside; a short code ("LA", "DC") only as printed, in capitals. */
function names(text: string, place: string): boolean {
  // A country is named by its cities and its own currency too (countries.ts).
  const country = inCountry(text, place);
  if (country !== undefined) return country;
  // A Japanese or Chinese place is found inside the text (no spaces part words there); a region by its wards too.
  if (CJK.test(place)) {
    const parts = WARDS.find(([re]) => re.test(place))?.[1] ?? [place.replace(/[市都府県]$/u, '')];
    return parts.some((p) => text.includes(p));
  }
  // "Paris intra-muros", "Milano centro", "Boston metro area": the city named, with words for which part of it.
  const key = plain(place).replace(/\s+(?:city|intra-muros|centre|center|centro|city cent(?:re|er)|downtown|metro(?:politan)? area|area|stadtgebiet|innenstadt)$/i, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');
  if (key.length < 2) return false;
  const short = key.length <= 3 && /^[A-Z]+$/.test(key);
  return new RegExp(`(?<![\\p{L}\\d])${key}(?![\\p{L}\\d])`, short ? 'u' : 'iu').test(plain(text));
}

/** The row an expense is held to, and how it was chosen. */
export function placeCap(caps: PlaceCap[], own: string, claim: string): { cap: PlaceCap; how: string; placed: boolean } | undefined {
  if (caps.length === 0) return undefined;
  const named = (t: string) => caps.filter((c) => c.places.some((p) => names(t, p)));
  const found = named(own).length > 0 ? named(own) : named(claim);
  const lowest = (list: PlaceCap[]) => [...list].sort((a, b) => (a.cents < b.cents ? -1 : a.cents > b.cents ? 1 : 0))[0];
  if (found.length === 1) return { cap: found[0], how: `the cap for ${found[0].places.join(' / ')}`, placed: true };
  if (found.length > 1) {
    const cap = lowest(found);
    return { cap, how: `the lowest cap of the places named (${found.map((c) => c.places.join(' / ')).join('; ')})`, placed: true };
  }
  const fallback = caps.find((c) => c.fallback);
  if (fallback) return { cap: fallback, how: `the cap for "${fallback.text.split(/\s*(?:\||\.{3,}|…|\s{2,})\s*/).filter((x) => x !== '')[0]}", no listed place being named`, placed: true };
  const cap = lowest(caps);
  return { cap, how: `the lowest cap listed (${cap.places.join(' / ')}), no listed place being named`, placed: false };
}

export function capSource(cap: PlaceCap): Src {
  return { field: 'expensePolicy', line: cap.line, quote: cap.text };
}

/**
 * Each open item of a place table's category is held to its place's cap × its nights (1 where it names none, said in
 * the note); above it → flag, the cap is reimbursed.
 */
export function placeCaps(results: ItemResult[], policy: Policy, m: (cents: bigint) => string, claimText: string, assumptions: Set<string>): void {
  // A grade's entitlements by city tier are caps per place too (grades.ts).
  const caps = [...policy.places.caps, ...gradeCaps(policy.grades, claimText)];
  if (caps.length === 0) return;
  for (const r of results) {
    const { item } = r;
    const mine = caps.filter((c) => c.category === item.category);
    if (mine.length === 0 || !r.open || (item.currency ?? policy.currency) !== policy.currency) continue;
    const own = [item.merchant, item.heading, item.text ?? item.evidence, item.label].filter(Boolean).join('\n');
    const at = placeCap(mine, own, claimText);
    if (!at) continue;
    const periods = (at.cap.period === 'day' ? item.days ?? item.nights : item.nights ?? item.days) ?? 1n;
    if ((item.nights ?? item.days) === undefined) assumptions.add(`1 ${at.cap.period ?? 'night'} where the expense names none`);
    const allowance = at.cap.cents * periods;
    // Lines held to their own cap and taxes paid in addition are not the room's (folio-lines.ts).
    const room = roomAmount(item, r.allowed, policy, policy.caps.filter((c) => c.category === item.category));
    if (room <= allowance) continue;
    const excess = room - allowance;
    const working = `${m(at.cap.cents)} × ${periods} ${at.cap.period ?? 'night'}(s) = ${m(allowance)}`;
    if (!at.placed) {
      // Above the lowest cap and in no place the table lists (nor an "all other cities" row): which cap applies
      // cannot be told from the claim, so the whole amount waits for a reviewer to place it.
      r.findings.push({
        severity: 'flag', kind: 'place not found', sources: [...item.at, ...mine.map(capSource)],
        text: `${at.cap.category} of ${m(r.allowed)} is above the lowest cap for a place (${working}) and the claim names no place the policy's table lists; the cap that applies cannot be told, ${m(r.allowed)} withheld until a reviewer places it`,
        arithmetic: `${working} lowest cap; claimed ${m(r.allowed)}`,
      });
      r.allowed = 0n;
      r.open = false;
      continue;
    }
    r.findings.push({
      severity: 'flag', kind: 'over cap', sources: [...item.at, capSource(at.cap)],
      text: `${at.cap.category} over the cap for its place ("${at.cap.text}", ${at.how}): ${m(room)} > ${working}; ${m(excess)} not reimbursed`,
      arithmetic: `${working} cap; claimed ${m(room)} → ${m(excess)} over`,
    });
    r.allowed -= excess;
  }
}
