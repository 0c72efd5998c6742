/**
 * A daily meal allowance stated as the tax rules print it (Verpflegungsmehraufwand, dieta, ajuda de custo, per diem):
 * one amount for a full calendar day of 24 hours' absence ("28,00 € für jeden Kalendertag mit 24 Stunden
 * Abwesenheit") and one for the days of arrival and departure or a day of more than 8 hours ("14,00 € für den An- und
 * den Abreisetag"), and the cut for each meal provided free that day, as an amount ("Frühstück um 5,60 €") or a share of
 * the full day's rate ("um 20 % … der Pauschale für einen vollen Kalendertag (28,00 €)", "śniadanie – 25% diety").
 * A practitioner pays each day its rate less the cuts of the meals provided that day (never below nothing); the meals
 * provided are what the claim marks on the day ("breakfast provided") or what a hotel bill of the claim charges on that
 * date (a breakfast on the company's bill is a meal provided). A day claimed above that is paid at it (flag).
 */
import type { ItemResult } from './claim.js';
import type { Src } from './evidence.js';
import { englishNumbers } from './glossary.js';
import { policySource, type Policy } from './policy-types.js';

type MealName = 'breakfast' | 'lunch' | 'dinner';

export interface ReturnDay {
  /** Minutes after midnight: a return after it earns the partial rate, one before it nothing. */
  cutoff?: number;
  partial?: bigint;
  texts: string[];
}

export interface MealCuts {
  /** Per meal, the cut in cents or basis points of the full day's rate. */
  cuts: Partial<Record<MealName, { cents?: bigint; bp?: bigint }>>;
  texts: string[];
}

const ALLOWANCE = /pauschale|verpflegungsmehraufwand|tagegeld|per diem|daily (?:meal )?allowance|subsistence|\bdiet[ay]?\b|ajudas? de custo|indemnit|\bdietas?\b|vma\b/iu;
const FULL_DAY = /24\s*(?:stunden|std\.?|hours|h|godzin|horas|heures)|vollen kalendertag|full (?:calendar )?day|pełną dobę|(?<!niepełną, ale rozpoczętą )(?<!niepełną )za (?:każdą )?dobę(?: podróży)?(?! hotelow)|dia completo|journée complète|dieta completa|diária completa|con pernocta|with an overnight stay/iu;
const PART_DAY = /an-\s*und\s*(?:den\s*)?abreisetag|anreise|abreisetag|arrival and departure|first and last day|mehr als 8 stunden|more than 8 hours|ponad 8 godzin|media dieta|meia diária|sin pernocta|without an overnight stay/iu;
/** A partial rate for a day without an overnight stay ("Media dieta (día sin pernocta …)"): not the first day's. */
const NO_NIGHT = /sin pernocta|sem pernoita|without an overnight|no overnight|ohne übernachtung/iu;
/** The return day's cut-off: "se liquida como media dieta si la llegada … es posterior a las 15:00 h". */
const RETURN_DAY = /regreso|regresso|return day|day of return|dzień powrotu/iu;
const AFTER = /posterior a|después de|later than|after|nach|após|po godzinie/iu;
const CUT = /kürz|gekürzt|reduced|deduct|cut\b|zmniejsza|pomniejsz|potrąc|reduz|réduit|reducid|descont/iu;
const MEALS: [MealName, RegExp][] = [
  ['breakfast', /frühstück|breakfast|śniadani|pequeno-almoço|café da manhã|desayuno|petit[- ]déjeuner|colazione|ontbijt/iu],
  ['lunch', /mittag|lunch|obiad|almoço|almuerzo|comida|déjeuner|pranzo/iu],
  ['dinner', /abend|dinner|kolacj|jantar|\bcena\b|dîner|souper/iu],
];
const AMOUNT = /(\d+(?:\.\d{1,2})?)\s?(?:€|eur\b|zł|pln\b|£|gbp\b)|(?:€|£)\s?(\d+(?:\.\d{1,2})?)/iu;

/** A sentence stating the full or the partial day's rate (under a heading or lead naming the allowance). */
export function readAllowanceRate(sentence: string, under: string | undefined, previous: string | undefined, policy: Policy): number {
  const s = englishNumbers(sentence.normalize('NFKC').toLowerCase());
  if (!ALLOWANCE.test(s) && !ALLOWANCE.test(under ?? '') && !ALLOWANCE.test(previous ?? '')) return 0;
  const named = /dieta completa|media dieta|diária completa|meia diária/iu.test(s);
  if (CUT.test(s) || (!named && MEALS.some(([, re]) => re.test(s)))) return 0;
  // "… se liquida como media dieta si la llegada … es posterior a las 15:00 h": the return day's cut-off hour.
  // A time of day, never an amount: "15:00 h", "a las 15.00", "at 3.00 pm" (not "14.00 €").
  const cutoff = /(?:(?:a las|a la|at|um|às|o godzinie|à|alle)\s+)?\b([01]?\d|2[0-3]):([0-5]\d)(?!\d)(?!\s?(?:€|eur|zł|\$|£))|(?:a las|a la|at|um|às|o godzinie|à|alle)\s+([01]?\d|2[0-3])\.([0-5]\d)(?!\s?(?:€|eur|zł|\$|£))/iu.exec(s);
  if (cutoff && cutoff[1] === undefined) [cutoff[1], cutoff[2]] = [cutoff[3], cutoff[4]];
  if (RETURN_DAY.test(s) && cutoff && AFTER.test(s)) {
    policy.returnDay ??= { texts: [] };
    policy.returnDay.cutoff = Number(cutoff[1]) * 60 + Number(cutoff[2]);
    policy.returnDay.texts.push(sentence);
    return 1;
  }
  // "si la llegada es anterior a las 15:00 h no se devenga dieta": what the cut-off says of an earlier return.
  if (policy.returnDay && cutoff && Number(cutoff[1]) * 60 + Number(cutoff[2]) === policy.returnDay.cutoff && /anterior a|antes de|before|earlier than|vor /iu.test(s)) {
    policy.returnDay.texts.push(sentence);
    return 1;
  }
  const amounts = [...s.matchAll(new RegExp(AMOUNT.source, 'giu'))];
  if (amounts.length !== 1) return 0;
  const cents = BigInt(Math.round(Number(amounts[0][1] ?? amounts[0][2]) * 100));
  const full = FULL_DAY.test(s);
  const part = PART_DAY.test(s);
  if (full === part) return 0;
  if (part && NO_NIGHT.test(s)) {
    // A day without an overnight stay is paid this rate (the return day after its cut-off): not the first day's.
    policy.returnDay ??= { texts: [] };
    policy.returnDay.partial = cents;
    policy.returnDay.texts.push(sentence);
    return 1;
  }
  policy.perDiem ??= { text: [] };
  if (full) policy.perDiem.full ??= cents;
  else policy.perDiem.partial ??= cents;
  policy.perDiem.text.push(sentence);
  return 1;
}

/** "La dieta cubre todas las comidas del día: no se reembolsan tickets de restaurante adicionales", "Einzelbelege für
 * Mahlzeiten werden neben der Pauschale nicht erstattet": meals on a day the allowance pays are not paid again. */
export function readMealsCovered(sentence: string, policy: Policy): number {
  const s = sentence.normalize('NFKC').toLowerCase();
  const covers = /(?:dieta|pauschale|allowance|per diem|diária|ajuda de custo|dieta)\w*\s+(?:cubre|covers|deckt|incluye|includes|abrange|cobre|obejmuje)\b[^:;]*\b(?:comidas|meals|mahlzeiten|refeições|posiłki)|(?:einzelbelege für mahlzeiten|meal receipts)[^.]*neben der pauschale|neben der pauschale[^.]*(?:mahlzeiten)/iu;
  if (!covers.test(s)) return 0;
  policy.mealsCovered = sentence;
  return 1;
}

/** Each meal claimed on a day an allowance of the claim pays (not a client meal): held, the allowance covering it. */
export function mealsCoveredCheck(results: ItemResult[], policy: Policy, m: (cents: bigint) => string): void {
  const rule = policy.mealsCovered;
  if (!rule) return;
  const days = new Set(results.filter((r) => r.item.category === 'per diem' && r.item.date !== undefined).map((r) => r.item.date!));
  for (const r of results) {
    if (!r.open || r.item.category !== 'meals' || r.item.date === undefined || !days.has(r.item.date)) continue;
    if (/client|cliente|kunde|customer|bewirtung|representaci|représentation|rappresentanza|representação/i.test(r.item.text ?? r.item.label)) continue;
    r.findings.push({ severity: 'flag', kind: 'meal covered by the allowance', sources: [...r.item.at, policySource(policy, rule)],
      text: `a meal on ${r.item.date}, a day the claim's allowance pays, is covered by it ("${rule}"): ${m(r.allowed)} withheld for a reviewer` });
    r.allowed = 0n;
    r.open = false;
  }
}

/** A sentence (or a bullet under a lead saying the allowance is cut) giving the cut of each meal provided. */
export function readMealCuts(sentence: string, previous: string | undefined, policy: Policy): number {
  const s = englishNumbers(sentence.normalize('NFKC').toLowerCase());
  // A bullet goes on from the lead saying the allowance is cut, or from the bullet before it.
  const continuing = previous !== undefined && policy.mealCuts?.texts.at(-1) === previous;
  if (!CUT.test(s) && !CUT.test(previous ?? '') && !continuing) return 0;
  const named = MEALS.filter(([, re]) => re.test(s));
  // "Wird eine Mahlzeit gestellt, ist die Pauschale für diesen Tag zu kürzen:": the lead of the cuts listed below it.
  if (named.length === 0 && CUT.test(s) && /:\s*$/.test(sentence.trim()) && /mahlzeit|\bmeals?\b|posiłk|refeiç|comida|repas|pasto/iu.test(s)) {
    (policy.mealCuts ??= { cuts: {}, texts: [] }).texts.push(sentence);
    return 1;
  }
  if (named.length === 0) return 0;
  const cuts = (policy.mealCuts ??= { cuts: {}, texts: [] });
  let found = 0;
  // Each meal with the figure after it ("Frühstück um 5,60 €", "Mittag- oder Abendessen um je 11,20 €",
  // "śniadanie – 25% diety"); a figure after two meals ("Mittag- oder Abendessen um jeweils 40 %") is each one's.
  const at = named.map(([meal, re]) => ({ meal, index: re.exec(s)!.index })).sort((a, b) => a.index - b.index);
  at.forEach((m, k) => {
    const next = at.slice(k + 1).find((n) => n.index > m.index);
    const rest = s.slice(m.index, next ? undefined : undefined);
    const figure = /(\d+(?:\.\d{1,2})?)\s?(%|€|eur\b|zł|pln\b|£)|(?:€|£)\s?(\d+(?:\.\d{1,2})?)/iu.exec(rest);
    if (!figure) return;
    // The figure belongs to this meal unless another meal stands between them and has no figure of its own before it.
    const value = Number(figure[1] ?? figure[3]);
    const cut = figure[2] === '%' ? { bp: BigInt(Math.round(value * 100)) } : { cents: BigInt(Math.round(value * 100)) };
    if (cuts.cuts[m.meal] === undefined) {
      cuts.cuts[m.meal] = cut;
      found = 1;
    }
  });
  if (found) cuts.texts.push(sentence);
  return found;
}

const PROVIDED = (meal: MealName) => new RegExp(`\\b${meal} provided\\b`, 'i');
const BREAKFAST_LINE = /breakfast|frühstück|fruehstueck|petit[- ]d[ée]jeuner|colazione|desayuno|ontbijt|śniadani|café da manhã|pequeno-almoço/i;

/** The meals provided on a day: marked on its line, or a breakfast a hotel bill in the claim charges on its date. */
function providedOn(text: string, dateText: string | undefined, claimLines: string[]): Set<MealName> {
  const out = new Set<MealName>((['breakfast', 'lunch', 'dinner'] as MealName[]).filter((m) => PROVIDED(m).test(text)));
  if (dateText && !out.has('breakfast')) {
    // "07.10.2025  Frühstücksbuffet   1   19,50   19,50": a dated breakfast line with a price, no day-table row.
    const on = claimLines.find((l) => l.includes(dateText) && BREAKFAST_LINE.test(l) && /\d[.,]\d{2}\s*$/.test(l.trim()) && !/\b(?:nein|ja|no|yes|x)\b/i.test(l));
    if (on) out.add('breakfast');
  }
  return out;
}

export function mealCutCheck(results: ItemResult[], policy: Policy, claimText: string, m: (cents: bigint) => string): void {
  const cuts = policy.mealCuts;
  const rates = policy.perDiem;
  if (!cuts || !rates?.full || Object.keys(cuts.cuts).length === 0) return;
  const lines = claimText.split(/\r?\n/);
  const days = results.filter((r) => r.item.category === 'per diem' && r.open);
  const dates = days.map((r) => r.item.date).filter((d): d is string => d !== undefined).sort();
  for (const r of days) {
    const text = r.item.text ?? r.item.evidence ?? r.item.label;
    const edge = rates.partial !== undefined && dates.length > 1 && (r.item.date === dates[0] || r.item.date === dates[dates.length - 1]);
    const rate = edge ? rates.partial! : rates.full;
    const meals = providedOn(text, r.item.dateText, lines);
    if (meals.size === 0) continue;
    let less = 0n;
    const parts: string[] = [];
    for (const meal of meals) {
      const c = cuts.cuts[meal] ?? (meal === 'dinner' ? cuts.cuts.lunch : meal === 'lunch' ? cuts.cuts.dinner : undefined);
      if (!c) continue;
      const cents = c.cents ?? (rates.full * c.bp! + 5000n) / 10000n;
      less += cents;
      parts.push(`${meal} ${m(cents)}`);
    }
    const due = less >= rate ? 0n : rate - less;
    if (r.allowed <= due) continue;
    const over = r.allowed - due;
    const sources: Src[] = [...r.item.at, ...rates.text.map((t) => policySource(policy, t)), ...cuts.texts.map((t) => policySource(policy, t))];
    r.findings.push({
      severity: 'flag', kind: 'allowance not reduced', sources,
      text: `the day's allowance on ${r.item.date ?? r.item.label} is ${m(rate)} less the meals provided (${parts.join(', ')}) = ${m(due)}; claimed ${m(r.allowed)}, ${m(over)} not reimbursed`,
      arithmetic: `${m(rate)} − ${m(less)} = ${m(due)}; ${m(r.allowed)} − ${m(due)} = ${m(over)}`,
    });
    r.allowed = due;
  }
}

/** "llegada miércoles 23/10/2024 13:30", "Returned 23/10/2024 13:30": the time of return on the day's date. */
function returnTime(claimLines: string[], dateText: string | undefined): number | undefined {
  if (!dateText) return undefined;
  for (const l of claimLines) {
    const at = l.indexOf(dateText);
    if (at < 0 || !/llegada|regreso|return|arriv|ankunft|reiseende|chegada|regresso|przyjazd|ende\b|end\b/i.test(l)) continue;
    const t = /(?<![\d:])([01]?\d|2[0-3])[:.h]([0-5]\d)(?![\d:])/.exec(l.slice(at + dateText.length));
    if (t) return Number(t[1]) * 60 + Number(t[2]);
  }
  return undefined;
}

/** The claim's last allowance day, a return without an overnight stay: its partial rate after the cut-off, else nothing. */
export function returnDayCheck(results: ItemResult[], policy: Policy, claimText: string, m: (cents: bigint) => string): void {
  const rule = policy.returnDay;
  if (rule?.cutoff === undefined) return;
  const days = results.filter((r) => r.item.category === 'per diem' && r.open && r.item.date !== undefined);
  if (days.length < 2) return;
  const last = days.map((r) => r.item.date!).sort().at(-1);
  const sources = (r: ItemResult): Src[] => [...r.item.at, ...rule.texts.map((t) => policySource(policy, t))];
  const hh = (min: number) => `${String(Math.floor(min / 60)).padStart(2, '0')}:${String(min % 60).padStart(2, '0')}`;
  for (const r of days.filter((d) => d.item.date === last)) {
    const back = returnTime(claimText.split(/\r?\n/), r.item.dateText);
    if (back === undefined) {
      r.findings.push({ severity: 'flag', kind: 'allowance not worked out', sources: sources(r),
        text: `the return day's allowance depends on the time of return (cut-off ${hh(rule.cutoff)}), which the claim does not state: ${m(r.allowed)} withheld until a reviewer sees it` });
      r.allowed = 0n;
      r.open = false;
      continue;
    }
    const due = back > rule.cutoff ? rule.partial ?? 0n : 0n;
    if (r.allowed <= due) continue;
    const over = r.allowed - due;
    r.findings.push({ severity: 'flag', kind: 'allowance over rate', sources: sources(r),
      text: `${r.item.date} is the return day without an overnight stay, arriving at ${hh(back)}, ${back > rule.cutoff ? 'after' : 'before'} the ${hh(rule.cutoff)} cut-off: ${due > 0n ? `the partial rate ${m(due)} is due` : 'no allowance is due'}; claimed ${m(r.allowed)}, ${m(over)} not reimbursed`,
      arithmetic: `${m(r.allowed)} − ${m(due)} = ${m(over)}` });
    r.allowed = due;
  }
}
