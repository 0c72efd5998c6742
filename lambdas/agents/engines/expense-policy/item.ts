/**
 * One item against every rule of the policy, in RULES.md order. No rule stops the others, so a reviewer sees all of
 * them; each finding keeps what it rests on (the item's line, the lines of it the finding names, the policy sentence)
 * and, where there is some, its arithmetic.
 */
import { personalWord, phraseIn, thingIn } from './things.js';
import { formatCents } from '../text/amount.js';
import type { Src } from './evidence.js';
import type { Part } from './document.js';
import type { Item } from './expense.js';
import { units } from './mileage.js';
import { policySource, type Policy, type Threshold } from './policy.js';
import { slipRefused } from './proof-rules.js';
import { applies, applyCaps } from './item-caps.js';
import { capsFor } from './scope.js';
import { ALCOHOL } from './words.js';
import { tierFindings } from './tier.js';
import { personalNightsFinding } from './stay-nights.js';

type Severity = 'reject' | 'flag';
export interface Finding {
  severity: Severity;
  /** A short name of the rule broken, e.g. "over cap", for the evidence. */
  kind: string;
  text: string;
  sources: Src[];
  arithmetic?: string;
  /** A reject of some lines of the item (deducted), not of the whole: the rest stays reimbursable. */
  partial?: boolean;
}
export interface Checked {
  /** What the policy allows now. */
  allowed: bigint;
  /** What the item is worth after its own rules, before the claim-level ones (pooled day caps, per diem, duplicates). */
  eligible: bigint;
  /** Whether the claim-level rules may still change `allowed` (no reject, nothing withheld, comparable currency). */
  open: boolean;
  /** Day caps left for the claim-level pass to pool across the day's items. */
  pooled: boolean;
  findings: Finding[];
  /** Set when a missing receipt is the item's only reject reason: what it would be worth with the receipt. */
  withReceipt?: bigint;
}

/** A receipt line as evidence. */
export function partSource(p: { text: string; n?: number }): Src {
  return { field: 'expense', line: p.n, quote: p.text };
}

const SIGNS: Record<string, string> = { USD: '$', EUR: '€', GBP: '£', JPY: '¥' };

/** "$12.50", "€12.50", "12.50 CAD". */
export function money(cents: bigint, currency: string): string {
  const sign = SIGNS[currency];
  return sign ? `${sign}${formatCents(cents)}` : `${formatCents(cents)} ${currency}`;
}

/**
/**
 * Every rule the item breaks, in RULES.md order; no rule stops the others, so a reviewer sees all of them. The
 * allowed amount is worked through all of them: alcohol deducted, then the caps, then nothing if any rule rejects,
 * an approval is pending or the currency differs from the policy's.
 */
export function checkItem(item: Item, policy: Policy, assumptions: Set<string>): Checked {
  const findings: Finding[] = [];
  // Each finding cites the item's own line, any line of it the finding names, and the policy sentences it breaks.
  const cite = (rules: (string | undefined)[], lines: Src[] = []): Src[] =>
    [...item.at, ...lines, ...rules.filter((t): t is string => t !== undefined).map((t) => policySource(policy, t))];
  const reject = (kind: string, text: string, sources: Src[], arithmetic?: string) => findings.push({ severity: 'reject', kind, text, sources, arithmetic });
  const flag = (kind: string, text: string, sources: Src[], arithmetic?: string) => findings.push({ severity: 'flag', kind, text, sources, arithmetic });
  const m = (cents: bigint) => money(cents, item.currency ?? policy.currency);
  const category = item.category;
  if (category === undefined && policy.caps.length > 0) {
    assumptions.add(`no category recognised for "${item.label}", so no category cap applied to it`);
  }

  if (category !== undefined && policy.forbiddenCategories.has(category)) {
    const quoted = item.evidence && category === 'fines' ? ` ("${item.evidence.slice(0, 160)}" is a fine)` : '';
    const rule = policy.forbiddenCategories.get(category)!;
    reject('forbidden category', `${category} is not reimbursable ("${rule}")${quoted}`, cite([rule]));
  }
  if (policy.scope && category === undefined) {
    reject('outside policy scope', `not covered by this policy ("${policy.scope}"): "${(item.evidence ?? item.label).slice(0, 160)}" is none of the expenses it describes`, cite([policy.scope]));
  }
  if (item.unreconciled) {
    reject('receipt does not reconcile', `receipt does not reconcile: ${item.unreconciled}; the amount spent cannot be determined, so nothing is reimbursed until a corrected receipt is provided`,
      cite([], (item.parts ?? []).filter((p) => p.kind !== 'item').map(partSource)), item.unreconciled);
  }
  let withheld = false;
  if (item.fareClass !== undefined && item.fareClass !== 'economy') {
    const c = item.fareClass;
    if (policy.forbiddenClasses.has(c)) {
      reject('forbidden fare class', `${c} class is not allowed ("${policy.forbiddenClasses.get(c)}")`, cite([policy.forbiddenClasses.get(c)]));
    } else if (policy.approvalClasses.has(c)) {
      const rule = policy.approvalClasses.get(c)!;
      flag('fare class needs approval', `${c} class requires ${rule.approver}; ${m(item.cents)} withheld until approved`, cite([rule.text]));
      withheld = true;
    } else if (policy.allowedClasses && !policy.allowedClasses.classes.has(c)) {
      reject('fare class not allowed', `${c} class breaks "${policy.allowedClasses.text}"`, cite([policy.allowedClasses.text]));
    }
  }
  // Amount limits need the policy's currency; without a conversion they are not checked (a receipt rule with no
  // amount still is).
  let comparable = true;
  const currency = item.currency ?? policy.currency;
  if (item.foreign?.own && currency !== policy.currency) {
    flag('own currency conversion', `${item.foreign.currency} ${formatCents(item.foreign.cents)} converted by the employee ("${item.foreign.text.slice(0, 160)}"); ` +
      `the amount charged in ${policy.currency} is not shown, so the conversion cannot be checked and the expense is held until it is provided`,
    cite([], [{ field: 'expense', quote: item.foreign.text.split('\n')[0] }]));
    comparable = false;
  } else if (policy.caps.length + policy.receipts.length + policy.approvals.length > 0 || currency !== policy.currency) {
    if (item.currency === undefined) assumptions.add(`amounts without a currency are in ${policy.currency}`);
    if (currency !== policy.currency) {
      flag('foreign currency', `amount is in ${currency} but the policy limits are in ${policy.currency}; limits not checked, nothing reimbursed`,
        cite([policy.currencyText ?? [...policy.caps, ...policy.receipts, ...policy.approvals][0]?.text]));
      comparable = false;
    }
  }
  if (item.foreign && !item.foreign.own && comparable) {
    assumptions.add(`${item.label}: the ${policy.currency} amount charged to the card ("${item.foreign.text.slice(0, 120)}") is the claim, not the ${item.foreign.currency} receipt figure`);
  }
  // A per diem or a mileage log is claimed without receipts unless a rule names it.
  const receiptRule = policy.receipts.find((rule) => (comparable || rule.cents === 0n) && applies(rule, item) &&
    !(item.category !== undefined && rule.except.includes(item.category)) &&
    !((item.category === 'per diem' || item.category === 'mileage') && !rule.categories.includes(item.category)));
  const noReceipt = receiptRule !== undefined && item.receipt !== true;
  if (noReceipt) {
    const why = item.illegible ? `only a receipt whose amount cannot be read ("${item.illegible.text}"), so the amount claimed is not confirmed`
      : item.receipt === false ? 'no receipt' : 'no receipt indicated';
    const unread: Src[] = item.illegible ? [{ field: 'expense', line: item.illegible.line, quote: item.illegible.text }] : [];
    // A policy saying an item missing its receipt is flagged for review (not refused) holds it: nothing paid until
    // the receipt is produced, the report flagged.
    const flagged = policy.missingReceiptFlagged;
    if (flagged) {
      flag('missing receipt', `receipt required ("${receiptRule.text}"): ${m(item.cents)} with ${why}; flagged for review ("${flagged}"), withheld until the receipt is provided`, cite([receiptRule.text, flagged], unread));
      withheld = true;
    } else reject('missing receipt', `receipt required ("${receiptRule.text}"): ${m(item.cents)} with ${why}`, cite([receiptRule.text], unread));
  } else if (item.receipt === true) {
    const refused = slipRefused(item, policy, (rule) => (comparable || rule.cents === 0n) && applies(rule, item));
    if (refused) reject('missing receipt', refused.text, cite([refused.rule], refused.proof));
  }
  let eligible = item.cents;
  let computable = true;
  // Claimed out of pocket though its receipt shows the company card: the company paid it; paying it again would pay
  // it twice. Held for a reviewer (the employee may have repaid the card), nothing reimbursed.
  if (item.companyCard) {
    flag('paid by company card', `its receipt shows the company card ("${item.companyCard.text}"; the report's company card: "${item.companyCard.card}"): ` +
      `already paid by the company, claimed again; ${m(eligible)} not reimbursed`,
    cite([], [{ field: 'expense', line: item.companyCard.line, quote: item.companyCard.text }, { field: 'expense', line: item.companyCard.cardLine, quote: item.companyCard.card }]));
    eligible = 0n;
  }
  // Asked for more than the receipt shows: the receipt's amount is what is supported.
  if (item.supported && item.supported.cents < eligible) {
    const over = eligible - item.supported.cents;
    const by = item.supported.by ?? 'the receipt totals';
    flag('claim exceeds receipt', `claimed ${m(eligible)} but ${by} ${m(item.supported.cents)}; ${m(over)} is not supported by ${item.supported.by ? 'it' : 'the receipt'}`,
      cite([], [{ field: 'expense', line: item.supported.line, quote: item.supported.text }]), `${m(eligible)} − ${m(item.supported.cents)} = ${m(over)} unsupported`);
    eligible = item.supported.cents;
  }
  if (policy.alcoholForbidden !== undefined && item.alcohol !== undefined) {
    if (item.alcohol === 'unknown') {
      reject('alcohol not itemised', `alcohol is not reimbursable ("${policy.alcoholForbidden}") and its amount is not itemised`, cite([policy.alcoholForbidden]));
      computable = false;
    } else {
      const deducted = item.alcohol > eligible ? eligible : item.alcohol;
      const lines = item.alcoholLines ? ` (${item.alcoholLines.map((l) => `"${l}"`).join(' + ')})` : '';
      const parts = (item.parts ?? []).filter((p) => p.kind === 'item' && ALCOHOL.test(p.text.toLowerCase()));
      // A policy that refuses the alcohol ("The alcohol on a meal receipt is refused") rejects it, the rest still paid;
      // one that only does not reimburse it has it deducted (policy-types.ts `alcoholRefused`).
      const rule = policy.alcoholRefused ?? policy.alcoholForbidden;
      findings.push({ severity: policy.alcoholRefused ? 'reject' : 'flag', partial: policy.alcoholRefused ? true : undefined, kind: 'alcohol',
        text: `alcohol is not reimbursable ("${rule}")${lines}: ${m(deducted)} ${policy.alcoholRefused ? 'refused and ' : ''}deducted`, sources: cite([rule], parts.map(partSource)),
        arithmetic: parts.length > 1 ? `${parts.map((p) => m(p.cents)).join(' + ')} = ${m(deducted)} deducted` : `${m(deducted)} deducted` });
      eligible -= deducted;
    }
  }
  let [personal, setAside]: Part[][] = [[], []];
  if (policy.personal.size > 0 && item.parts) {
    personal = item.parts.filter((p) => p.kind === 'item' && [...policy.personal.keys()].some((w) => personalWord(w).test(p.text.toLowerCase())));
    const sum = personal.reduce((a, p) => a + p.cents, 0n);
    // Personal lines the employee already left out of the request (what was set aside covers them) are not claimed.
    if (personal.length > 0 && item.setAside !== undefined && sum <= item.setAside) {
      assumptions.add(`${personal.map((p) => `"${p.text}"`).join(' + ')} set aside by the employee, not claimed`);
      setAside = personal;
      personal = [];
    }
    if (personal.length > 0) {
      const rule = policy.personal.get([...policy.personal.keys()].find((w) => personal.some((p) => personalWord(w).test(p.text.toLowerCase())))!)!;
      const text = `personal charges are not reimbursable ("${rule}"): ${personal.map((p) => `"${p.text}"`).join(' + ')} = ${m(sum)} deducted`;
      const working = `${personal.map((p) => m(p.cents)).join(' + ')} = ${m(sum)} deducted`;
      // Where the policy returns a claim that includes a personal charge, claiming it is refused (the rest still counts).
      if (policy.personalRefused) {
        findings.push({ severity: 'reject', partial: true, kind: 'personal charge claimed', text: `${text}; a claim including a personal charge is returned ("${policy.personalRefused}")`,
          sources: cite([rule, policy.personalRefused], personal.map(partSource)), arithmetic: working });
      } else flag('personal charges', text, cite([rule], personal.map(partSource)), working);
      eligible -= sum > eligible ? eligible : sum;
    }
  }
  // Things the policy refuses by name: on a receipt's lines they are deducted and the claim rejected as submitted
  // (the employee must take them out); named by the expense itself, the whole item is refused.
  const taken = new Set<Part>(personal);
  for (const thing of policy.forbiddenThings) {
    if (thing.tier) continue;
    const named = phraseIn(thing.phrase);
    // "Charges on the hotel folio that are personal … are not reimbursed" says how a folio is paid (less those lines),
    // not that claiming it is refused: a line it already deducted is not refused a second time.
    const deducting = /\b(?:folio|hotel bill)\b/i.test(thing.text);
    // A receipt line is read with the heading it is printed under ("Economy Plus® Seat Upgrade" above "UA960 … 169.00").
    const lines = (item.parts ?? []).filter((p) => p.kind === 'item' && named.test(`${p.heading ?? ''}\n${p.text}`.toLowerCase()) && !(deducting && personal.includes(p)) && !setAside.includes(p));
    if (lines.length > 0) {
      // A line is deducted once, whichever rules name it (the personal rule, "spa", "spa services").
      const sum = lines.filter((p) => !taken.has(p)).reduce((a, p) => a + p.cents, 0n);
      for (const p of lines) taken.add(p);
      findings.push({ severity: 'reject', partial: true, kind: 'refused item', sources: cite([thing.text], lines.map(partSource)),
        text: `${thing.phrase} is not reimbursable ("${thing.text}"): ${lines.map((p) => `"${p.heading ? `${p.heading}: ` : ''}${p.text}"`).join(' + ')}${sum > 0n ? ` = ${m(sum)} deducted` : ', already deducted'}`,
        arithmetic: `${m(eligible)} − ${m(sum)} = ${m(eligible - (sum > eligible ? eligible : sum))}` });
      eligible -= sum > eligible ? eligible : sum;
    } else if (!item.parts && thingIn(thing.phrase, `${item.heading ?? ''}\n${item.evidence ?? item.label}`.toLowerCase())) {
      const what = [item.heading, item.evidence ?? item.label].filter((x) => x !== undefined).join(': ');
      reject('refused item', `${thing.phrase} is not reimbursable ("${thing.text}"): "${what.slice(0, 160)}"`,
        cite([thing.text], item.heading ? [{ field: 'expense', quote: item.heading }] : []));
      break;
    }
  }
  const stay = personalNightsFinding(item, policy, eligible, cite, m);
  if (stay.finding) findings.push(stay.finding);
  eligible = stay.eligible;
  // A ride's tier ("Category: Premium") refused by name, or named by a refusal not read: the whole ride.
  const tier = tierFindings(item, policy, cite);
  findings.push(...tier.findings);
  withheld ||= tier.withheld;
  if (policy.tipCap && item.tip && item.tip.base > 0n) {
    const max = (item.tip.base * policy.tipCap.bp + 5000n) / 10000n;
    if (item.tip.cents > max) {
      const excess = item.tip.cents - max;
      const working = `${pct(policy.tipCap.bp)} × ${m(item.tip.base)} = ${m(max)}; tip ${m(item.tip.cents)} → ${m(excess)} over`;
      flag('tip over cap', `tip ${m(item.tip.cents)} exceeds ${pct(policy.tipCap.bp)} of the ${m(item.tip.base)} pre-tax subtotal ` +
        `("${policy.tipCap.text}"): ${pct(policy.tipCap.bp)} × ${m(item.tip.base)} = ${m(max)}; ${m(excess)} deducted`,
      cite([policy.tipCap.text], (item.parts ?? []).filter((p) => p.kind === 'tip').map(partSource)), working);
      eligible -= excess > eligible ? eligible : excess;
    }
  }
  if (item.mileage) {
    const { trip, allowance } = item.mileage;
    if (!allowance) {
      reject('no mileage rate', `mileage in ${trip.unit}s but the policy states no rate per ${trip.unit}; the amount cannot be worked out`, cite(policy.mileage.map((r) => r.text)));
      computable = false;
    } else {
      const tiers = (allowance.conversion ? `${allowance.conversion}; ` : '') + allowance.tiers.map((t) => `${t.text} = ${m(t.cents)}`).join(' + ');
      const ytd = trip.ytd !== undefined ? ` (${trip.ytd} ${trip.unit}s already claimed this year)` : '';
      const stated = trip.statedTotal !== undefined && trip.statedTotal !== trip.tenths
        ? `; the log's total ${units(trip.statedTotal)} differs from its legs' ${units(trip.tenths)}` : '';
      if (stated) {
        reject('mileage log does not reconcile', `mileage log does not reconcile ("${trip.evidence}")${stated}; the distance cannot be worked out`, cite([]),
          `stated ${units(trip.statedTotal!)} ≠ legs ${units(trip.tenths)}`);
        computable = false;
      } else if (trip.claimed !== undefined && trip.claimed > allowance.cents) {
        const rate = trip.claimedRate ? ` at ${trip.claimedRate} per ${trip.unit}` : '';
        flag('mileage over the rate', `mileage claimed${rate} (${m(trip.claimed)}, "${trip.evidence}"); the policy pays ${tiers}${ytd} ` +
          `("${policy.mileage.map((r) => r.text).join('"; "')}"): ${m(trip.claimed - allowance.cents)} not reimbursed`,
        cite(policy.mileage.map((r) => r.text)), `${tiers}; claimed ${m(trip.claimed)} → ${m(trip.claimed - allowance.cents)} over`);
        eligible = allowance.cents;
      } else {
        eligible = trip.claimed !== undefined && trip.claimed < allowance.cents ? trip.claimed : allowance.cents;
        assumptions.add(`mileage ${tiers}${ytd}`);
      }
    }
  }
  // With alcohol of unknown amount the part a cap would apply to is unknown too. Day caps on a dated item are pooled
  // with the day's other items of the category by the claim-level pass.
  // An item spanning several days ("3 days" of airport parking) is held to its own cap × its days, not pooled.
  const pooled = item.date !== undefined && (item.days ?? 1n) <= 1n && capsFor(item, policy).some((c) => c.period === 'day' && !c.perPerson);
  if (comparable && computable) eligible = applyCaps(item, eligible, policy, (text, rule, working) => flag('over cap', text, cite([rule]), working), assumptions, pooled);
  if (comparable) {
    for (const rule of policy.approvals) {
      if (!applies(rule, item) || withheld) continue;
      const pre = item.preapproval;
      if (pre?.approved && (pre.limit === undefined || item.cents <= pre.limit)) {
        assumptions.add(`${item.label}: pre-approval ${pre.id} is recorded (${pre.text}), so "${rule.text}" is met`);
        continue;
      }
      flag('approval required', `${rule.approver} required ("${rule.text}"): ${m(item.cents)} withheld until approved`, cite([rule.text]));
      withheld = true;
    }
  }
  if (item.category === 'airfare' && item.fareClass === undefined && policy.allowedClasses) {
    assumptions.add('economy where an airfare names no fare class');
  }
  const rejects = findings.filter((f) => f.severity === 'reject' && !f.partial).length;
  const open = !(rejects > 0 || withheld || !comparable);
  const allowed = open ? eligible : 0n;
  const withReceipt = noReceipt && rejects === 1 && comparable && !withheld ? eligible : undefined;
  if (item.companyPaid !== undefined) {
    assumptions.add(`"${item.label}" is paid as "${item.companyPaid}": settled by the company, not reimbursed to the employee`);
    return { allowed: 0n, eligible: 0n, open: false, pooled: false, findings, withReceipt: undefined };
  }
  return { allowed, eligible, open, pooled: pooled && comparable && computable, findings, withReceipt };
}

/** 1800n → "18%", 1850n → "18.5%". */
function pct(bp: bigint): string {
  return `${bp / 100n}${bp % 100n === 0n ? '' : `.${(bp % 100n).toString().padStart(2, '0').replace(/0$/, '')}`}%`;
}
