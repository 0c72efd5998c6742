/**
 * Rule 4 of RULES.md, young company: the founding date against the review date (the document's own, or the rules'
 * constant), both read from the profile.
 */
import { B, E, type DaySpan, type Finding, clauseAfter, dayNumber, firstDate, isoDay, lineOf, matches } from './text.js';

/** The reference date when the profile states none ("as of 2026-11-01"): the publication date of rules@1. */
export const REFERENCE_DATE = '2026-11-01';
const AS_OF = /(?<![\p{L}])(?:as\s+(?:of|at)|review\s+date|reviewed(?:\s+on)?|date\s+of\s+review|assessment\s+date)\s*[:-]?\s*/giu;

/** A date the document itself carries (an e-mail's Date header, a form's submission time), as the review date. */
export interface DocumentDate {
  day: number;
  text: string;
}

/**
 * The review date: a stated "as of" / review date; else the document's own date (the e-mail's Date header, the
 * form's submission time, a "Submitted:" / "received" / "Date:" label); else the rules' constant. A numeric date
 * that could be read day-first or month-first takes its earlier reading (the company then looks younger).
 */
export function referenceDay(text: string, documentDate?: DocumentDate): { day: number; stated: boolean; text: string } {
  const d = labelledDay(AS_OF, text) ?? documentDate ?? labelledDay(DOC_DATE, text);
  if (d) return { day: d.day, stated: true, text: d.text };
  const [y, mo, da] = REFERENCE_DATE.split('-').map(Number);
  return { day: dayNumber(y, mo, da), stated: false, text: REFERENCE_DATE };
}

/** The first date to the day after one of the labels; numeric dates that read either way take the earlier day. */
function labelledDay(re: RegExp, text: string): DocumentDate | undefined {
  for (const m of matches(re, text)) {
    const d = firstDate(text.slice(m.index + m[0].length, m.index + m[0].length + 24));
    if (d && dayPrecise(d)) return { day: d.earliest, text: d.text };
  }
  return undefined;
}

/** A date to the day, or a numeric one that could be read either way (not a month or a year alone). */
const dayPrecise = (d: DaySpan) => d.earliest === d.latest || /\d{1,2}[./-]\d{1,2}[./-]\d{4}/.test(d.text);

/**
 * Labels of the date a vendor document was made or received ("Submitted: 02/10/2026", "received 01/21/2026",
 * "Submitted by Dana Reyes on 2026-03-11"), or printed for review from the buyer's portal ("Printed: 2026-03-12").
 * Case counts ("Date" capitalised is left out): "Registration Date: 2010-04-01" is a founding date, not the review.
 */
const DOC_DATE =
  /(?<![\p{L}])(?:[Ss]ubmitted|[Rr]eceived|opened|completed|returned|[Pp]rinted|generated|exported|fecha(?:\s*\/\s*date)?|date)(?:\s+(?:by\s+[\p{L}.' -]{1,40}?\s+)?on)?\s*[:-]?\s*(?=\d|[A-Z][a-z]{2})/gu;

/** Founding labels, with those of the registers of the forms' other languages (French RCS, German Handelsregister…). */
const FOUNDED = new RegExp(
  `${B}(?:incorporated|incorporation|founded|established|est\\.?|estd\\.?|formed|formation|registered\\s+(?:on|in|since)|registration\\s+date|date\\s+of\\s+registration|in\\s+business\\s+since|operating\\s+since|trading\\s+since` +
    `|immatricul(?:ation|ee?)|date\\s+de\\s+creation|creee?\\s+(?:le|en)|gegrundet|grundung(?:sdatum|sjahr)?|eingetragen\\s+(?:am|seit)|eintragungsdatum` +
    `|constituida|fecha\\s+de\\s+constitucion|costituita|data\\s+di\\s+costituzione|opgericht|oprichtingsdatum` +
    // The registers and tax certificates of the vendors' countries: the Brazilian CNPJ card's "data de abertura",
    // the Mexican Constancia's "fecha inicio de operaciones", the Polish KRS "data rejestracji / wpisu", the
    // Turkish "kuruluş tarihi", the Russian "дата регистрации", and the English "business commenced".
    `|data\\s+(?:de\\s+|da\\s+)?(?:abertura|constituicao|fundacao|inicio\\s+(?:de|das?)\\s+atividades?)|(?:fundada|constituida|aberta)\\s+em` +
    `|fecha\\s+(?:de\\s+)?(?:inicio\\s+de\\s+(?:operaciones|actividades?)|alta|inscripcion|fundacion)|inicio\\s+de\\s+(?:operaciones|actividades)|fundada\\s+en` +
    `|data\\s+(?:rejestracji|wpisu|powstania|za[łl]ozenia|rozpoczecia\\s+dzia[łl]alnosci)|za[łl]ozon[aey]\\s+w|zarejestrowan[aey]\\s+w` +
    `|data\\s+(?:di\\s+)?(?:iscrizione|inizio\\s+(?:dell'\\s*)?attivita)|datum\\s+(?:oprichting|inschrijving)|date\\s+de\\s+debut\\s+d'activite|registreringsdatum` +
    `|kurulu[sş]\\s+(?:tarihi|yılı|yili)|tescil\\s+tarihi|дата\\s+(?:государственнои\\s+)?(?:регистрации|создания|образования)` +
    `|(?:date\\s+)?business\\s+commenced|commenced\\s+(?:business|operations|trading)|commencement\\s+of\\s+business|date\\s+of\\s+commencement|start\\s+of\\s+operations)${E}` +
    // Korean, Japanese and Chinese write labels without spaces, so no word guard: 개업연월일, 설립일, 設立, 成立日期.
    `|(?:개업\\s*(?:연월일|일자|일)|(?:법인\\s*)?설립\\s*(?:연월일|일자|일)|設立(?:年月日|日)?|創業|創立|成立(?:日期|时间|時間|于|於)|注册日期|註冊日期)`.normalize('NFD'),
  'giu',
);

/**
 * A date that is when a copy of the register was printed, not when the company was formed: "Certificate of
 * incorporation: extract printed 12/10/2026", "Kbis daté du …", "Handelsregisterauszug vom …" (buyers ask for one
 * under three months old, so it is always recent).
 */
const PRINTED_BEFORE =
  /(?:(?<![\p{L}])(?:dated|issued|printed|extracted|generated|downloaded|retrieved|obtained|pulled|certified|edite|emis|imprime|delivre|ausgestellt|abgerufen|gedruckt|erstellt|emitido|expedido|rilasciato)(?:\s+(?:on|le|du|am|el|il|the))?|(?<![\p{L}])date(?:es?)?\s+du|(?<![\p{L}])(?:extract|extrait|auszug|copy|copie|kopie|printout|abstract)\s+(?:of|du|vom|del|from)?)\s*[:-]?\s*$/iu;

/** The founding date the clause after a founding label gives, unless that date is a copy's print date. */
function foundingDate(clause: string): DaySpan | undefined {
  const d = firstDate(clause);
  if (!d) return undefined;
  const i = clause.indexOf(d.text);
  return i >= 0 && PRINTED_BEFORE.test(clause.slice(Math.max(0, i - 40), i)) ? undefined : d;
}
const NUMBER_WORDS: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12, few: 3, couple: 2, several: 6 };
const COUNT = '(\\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|(?:a\\s+)?few|(?:a\\s+)?couple(?:\\s+of)?|several)';
const UNIT = '(day|week|month|year)s?';
const RELATIVE = new RegExp(
  `${B}(?:(?:incorporated|founded|established|formed|started|launched|registered|set\\s+up|opened)\\s+(?:just\\s+|only\\s+|about\\s+|around\\s+)?${COUNT}\\s+${UNIT}\\s+ago` +
    `|(?:in\\s+business|operating|trading|been\\s+around|existed)\\s+(?:for\\s+)?(?:just\\s+|only\\s+|about\\s+|around\\s+)?${COUNT}\\s+${UNIT}` +
    `|${COUNT}[- ]${UNIT.replace('s?', '')}[- ]old\\s+(?:company|business|firm|entity|start-?up|llc|ltd))${E}`,
  'giu',
);
const NEWLY = new RegExp(`${B}(?:newly|recently|just)\\s+(?:incorporated|formed|founded|established|registered|set\\s+up)${E}`, 'iu');

function months(count: string, unit: string): number {
  const c = /^\d/.test(count) ? Number(count) : NUMBER_WORDS[count.replace(/^a\s+|\s+of$/gi, '').toLowerCase()] ?? 3;
  const u = unit.toLowerCase();
  return u === 'year' ? c * 12 : u === 'month' ? c : u === 'week' ? c / 4.35 : c / 30.4;
}

/**
 * Why the vendor cannot be shown to be at least 12 months old, or undefined. Of several founding dates the oldest
 * counts (a company founded in 1998 and re-registered last year is not young).
 */
export function findYoungCompany(text: string, documentDate?: DocumentDate): Finding | undefined {
  const ref = referenceDay(text, documentDate);
  const refText = isoDay(ref.day);
  const oneYearBefore = ref.day - 365;
  let oldest: DaySpan | undefined;
  let oldestAt = 0;
  for (const m of matches(FOUNDED, text)) {
    const d = foundingDate(clauseAfter(text, m.index + m[0].length, 60));
    if (d && (!oldest || d.latest < oldest.latest)) [oldest, oldestAt] = [d, m.index];
  }
  let relMonths: number | undefined;
  let relAt = 0;
  for (const m of matches(RELATIVE, text)) {
    const count = m[1] ?? m[3] ?? m[5];
    const unit = m[2] ?? m[4] ?? m[6];
    const mo = months(count, unit);
    if (relMonths === undefined || mo > relMonths) [relMonths, relAt] = [mo, m.index];
  }
  if (relMonths !== undefined && relMonths >= 12) return undefined;
  if (oldest && oldest.latest <= oneYearBefore) return undefined;
  if (oldest) return { detail: `founded ${oldest.text}, not shown to be 12 months old on ${refText} ("${lineOf(text, oldestAt)}")`, at: oldestAt };
  if (relMonths !== undefined) return { detail: `in business about ${Math.max(0, Math.round(relMonths))} month(s) ("${lineOf(text, relAt)}")`, at: relAt };
  const newly = NEWLY.exec(text);
  if (newly) return { detail: `described as newly formed ("${lineOf(text, newly.index)}")`, at: newly.index };
  return undefined;
}

