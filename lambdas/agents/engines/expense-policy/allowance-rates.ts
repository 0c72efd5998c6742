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

export interface MealCuts {
  /** Per meal, the cut in cents or basis points of the full day's rate. */
  cuts: Partial<Record<MealName, { cents?: bigint; bp?: bigint }>>;
  texts: string[];
}

const ALLOWANCE = /pauschale|verpflegungsmehraufwand|tagegeld|per diem|daily (?:meal )?allowance|subsistence|\bdiet[ay]?\b|ajudas? de custo|indemnit|\bdietas?\b|vma\b/iu;
const FULL_DAY = /24\s*(?:stunden|std\.?|hours|h|godzin|horas|heures)|vollen kalendertag|full (?:calendar )?day|pełną dobę|dia completo|journée complète/iu;
const PART_DAY = /an-\s*und\s*(?:den\s*)?abreisetag|anreise|abreisetag|arrival and departure|first and last day|mehr als 8 stunden|more than 8 hours|ponad 8 godzin/iu;
const CUT = /kürz|gekürzt|reduced|deduct|cut\b|zmniejsza|potrąc|reduz|réduit|reducid|descont/iu;
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
  if (CUT.test(s) || MEALS.some(([, re]) => re.test(s))) return 0;
  const amounts = [...s.matchAll(new RegExp(AMOUNT.source, 'giu'))];
  if (amounts.length !== 1) return 0;
  const cents = BigInt(Math.round(Number(amounts[0][1] ?? amounts[0][2]) * 100));
  const full = FULL_DAY.test(s);
  const part = PART_DAY.test(s);
  if (full === part) return 0;
  policy.perDiem ??= { text: [] };
  if (full) policy.perDiem.full ??= cents;
  else policy.perDiem.partial ??= cents;
  policy.perDiem.text.push(sentence);
  return 1;
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
