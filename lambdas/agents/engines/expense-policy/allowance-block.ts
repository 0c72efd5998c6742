/**
 * An allowance worked out in labelled lines under its heading, as settlement forms print it (a Polish delegacja's
 * "Diety" block: "Stawka diety: 45,00 zł", "Należność z tytułu diet: 112,50 zł", "Potrącenia …: 0,00 zł", "Dieta do
 * wypłaty: 112,50 zł"; a German "Verpflegungsmehraufwand" block with its Pauschale, Kürzung and Erstattung): the
 * rate, the gross and the deductions are the working, the block's last figure is what is claimed. A reviewer pays
 * the bottom line once, not each line of the sum, and keeps the working with it (its text) to check it.
 */
import type { Entry } from './document.js';
import type { Line } from './lines.js';
import { categoriesIn } from './words.js';

const LABELLED = /^[\p{L}][^:]{1,60}:\s/u;
/** The daily rate's label ("stawka diety", "rate", "Tagessatz", "tarifa", "taux"). */
const RATE = /(?<![\p{L}])(?:stawka|rate|tagessatz|satz|tarifa|taux|tasso|sazba)(?![\p{L}])/u;

/** Replaces the entries of each such block by one: its last line, the block's lines its text. */
export function allowanceBlocks(lines: Line[], entries: Entry[]): Entry[] {
  const drop = new Set<Entry>();
  for (let h = 0; h < lines.length; h++) {
    const head = lines[h];
    // A heading may state the rate it works with ("DIETY (stawka diety: 45,00 zł)", "Per diem (rate: 59.00)"): the
    // rate is the working's, not a claim.
    const rated = head.amts.length > 0 && RATE.test(head.lower) && head.amts.every((a) => RATE.test(head.raw.trim().slice(Math.max(0, a.at - 30), a.at).toLowerCase()));
    if ((head.kind !== 'plain' && !rated) || (head.amts.length > 0 && !rated) || head.text.length > 60 || !categoriesIn(head.lower).includes('per diem')) continue;
    // The block: the labelled lines right under the heading, up to a blank line; under a rated heading, also the lines
    // indented under it (the working: full and part days, the deductions dated by the meal provided).
    const block: Line[] = [];
    const under = (l: Line) => rated && l.indent > head.indent && (!l.dated || l.amts.every((a) => a.cents < 0n));
    for (let k = h + 1; k < lines.length && lines[k].kind !== 'blank' && ((!lines[k].dated && LABELLED.test(lines[k].text)) || under(lines[k])); k++) block.push(lines[k]);
    if (rated) block.unshift(head);
    const own = entries.filter((e) => block.some((l) => l.n === e.first.n));
    const lastLine = [...block].reverse().find((l) => l.amts.length > 0);
    // Under a rated heading the heading's own entry (its rate) may be the only one: its bottom line is still the claim.
    if (own.length < (rated ? 1 : 2) || !lastLine) continue;
    const keep = own.find((e) => e.first.n === lastLine.n) ?? own[own.length - 1];
    // The last line was taken as a repeat of the gross above it: the bottom line is the claim, at its own figure.
    keep.amount = lastLine.amts[lastLine.amts.length - 1];
    keep.first = lastLine;
    keep.text = block.map((l) => l.text).join('\n');
    for (const e of own) if (e !== keep) drop.add(e);
  }
  return entries.filter((e) => !drop.has(e));
}
