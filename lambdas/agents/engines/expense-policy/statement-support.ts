/**
 * Below a claim's total: a listing closed by the claim's total ("Total claimed (USD) 627.48" = the sum of the listed
 * expenses above it) is the whole claim. What follows it is its support and commentary, not more expenses:
 * - a card statement attached under it ("Attachment: card statement excerpt", "Card statement", the statement lines
 *   with their transaction and posting dates) shows what the card posted for each listed expense. A listed expense
 *   paid abroad is matched to its statement line by the foreign amount both print ("CAD 12.35" on the report,
 *   "12.35 CANADIAN DOLLAR X 0.722267" under the posting); one paid in the claim's currency by its amount. The posted
 *   amount is what the employee paid: a claim above it (converted at a rate of the employee's choosing) is supported
 *   only up to it;
 * - an employee's note or comment ("Used 0.76 for all CAD items") is commentary: a figure in it is no expense.
 * A receipt typed below the total stays a receipt (document.ts matches it to its entry).
 */
import { parseCents } from '../text/amount.js';
import { CLAIM_TOTAL, type Line } from './lines.js';
import type { Entry } from './document.js';
import { inlineReceipt } from './inline-receipt.js';

/** The head of an attached card or bank statement. */
const STATEMENT = /\b(?:card|credit card|bank|account) statement\b|\bstatement (?:excerpt|extract|lines?|of account|screenshot|copy|image|\(attached)|\bposted transactions\b|\b(?:kreditkarten|karten)abrechnung\b|\brelevé (?:de carte|bancaire)\b/i;
/** "12.35 CANADIAN DOLLAR", "CAD 12.35", "12,35 EUR": the foreign amount printed under a statement line. */
const FOREIGN = /(\d[\d,.]*[.,]\d{2}) ?(?:[A-Z]{3}\b|(?:[A-Za-z]+ )?(?:DOLLARS?|Dollars?|dollars?|EUROS?|Euros?|euros?|POUNDS?|Pounds?|pounds?|FRANCS?|Francs?|francs?|KRON[AEO]R?|Kron[aeo]r?|kron[aeo]r?|YEN|Yen|yen|PESOS?|Pesos?|pesos?|RUPEES?|Rupees?|rupees?))|\b[A-Z]{3} ?(\d[\d,.]*[.,]\d{2})/;

const CLAIM_TOTAL_INTL = /\b(?:note de frais|à rembourser|remboursement|antrag|erstattung|abrechnung|reembolso|a reembolsar|rimborso|da rimborsare|declaratie|onkostennota|te vergoeden|terug te betalen|utlägg)\b/u;

/** Drops the lines below a claim's total that are not expenses; records on each listed entry what the card posted. */
export function belowClaimTotal(lines: Line[], kept: Entry[]): void {
  const total = claimTotal(lines, kept);
  if (total === undefined) return;
  const head = lines.find((l) => l.n > total && l.amts.length === 0 && STATEMENT.test(l.text))?.n;
  const listed = kept.filter((e) => e.listed && e.first.n < total);
  const matched = new Set<Entry>();
  receiptDetails(lines, total, listed, kept);
  receiptList(total, listed, kept);
  // An invoice's lines typed out below (the hotel's nights, breakfasts, taxe de séjour), closed by a total equal to a
  // listed expense: that expense's detail, not more expenses.
  for (const t of lines) {
    if (t.n <= total || t.kind !== 'total' || t.amts.length === 0) continue;
    const of = listed.find((e) => !e.backed && [e.amount, e.converted?.amt].some((a) => a?.cents === t.amts[0].cents));
    if (!of) continue;
    const start = Math.max(total, ...lines.filter((l) => l.n < t.n && l.kind === 'total' && l.n > total).map((l) => l.n));
    const block = kept.filter((e) => e.first.n > start && e.first.n < t.n && !e.receipt);
    if (block.length === 0 || block.reduce((a, e) => a + e.amount.cents, 0n) !== t.amts[0].cents) continue;
    of.backed = t.text;
    for (const e of block) kept.splice(kept.indexOf(e), 1);
  }
  for (let k = kept.length - 1; k >= 0; k--) {
    const e = kept[k];
    if (e.first.n <= total || e.receipt) continue;
    if (head !== undefined && e.first.n > head) {
      const entry = postedFor(e, listed.filter((x) => !matched.has(x)));
      if (entry) {
        matched.add(entry);
        entry.posted = { amt: e.amount, text: e.text.replace(/\s*\n\s*/g, ' '), line: e.first.n };
      }
      kept.splice(k, 1);
    } else if (!e.listed) {
      // A note below the total (not a dated or numbered line): commentary.
      kept.splice(k, 1);
    }
  }
}

/** The 1-based line of a claim total equal to the sum of the listed entries above it, two at least. */
function claimTotal(lines: Line[], kept: Entry[]): number | undefined {
  let plain: number | undefined;
  for (const t of lines) {
    if (t.kind !== 'total' || t.amts.length === 0) continue;
    const listed = kept.filter((e) => e.listed && e.first.n < t.n);
    // An entry with an amount in two currencies counts in the total's: either column may be the claim's.
    const want = t.amts[t.amts.length - 1].cents;
    // A settlement form's sections each close on their subtotal ("Razem przejazdy", "Summe Fahrtkosten"); the claim's
    // total is the later one summing every expense above it, dated or not ("RAZEM KOSZTY PODRÓŻY").
    const above = kept.filter((e) => e.first.n < t.n);
    if (above.length >= 2 && above.some((e) => !e.listed) && above.reduce((a, e) => a + e.amount.cents, 0n) === want) {
      plain = t.n;
      continue;
    }
    const sums = [listed.reduce((a, e) => a + e.amount.cents, 0n), listed.reduce((a, e) => a + (e.converted?.amt.cents ?? e.amount.cents), 0n)];
    if (listed.length < 2 || !sums.includes(want)) continue;
    // The claim's total by its words, or by the settlement lines under it ("Avances perçues", "Net à rembourser").
    const settled = lines.slice(t.n, t.n + 3).some((l) => l.kind === 'balance');
    if (CLAIM_TOTAL.test(t.label) || CLAIM_TOTAL_INTL.test(t.label) || settled) return t.n;
    // A plain "Total" ("Total del informe", "Total submitted") equal to the sum of every listed expense above it is
    // the claim's total too; of several (a day's subtotal, then the report's), the last one sums the whole claim.
    plain = t.n;
  }
  return plain;
}

/** The listed entry a statement line posts: by the foreign amount both print, else (no foreign amount) by its amount. */
function postedFor(line: Entry, listed: Entry[]): Entry | undefined {
  const detail = line.text.split('\n').slice(1).join(' ');
  const f = FOREIGN.exec(detail);
  const foreign = f ? parseCents(f[1] ?? f[2]) : undefined;
  if (foreign !== undefined) {
    const found = listed.filter((e) => e.converted !== undefined && (e.converted.amt.cents === foreign || e.amount.cents === foreign));
    return found.length === 1 ? found[0] : undefined;
  }
  const found = listed.filter((e) => e.converted === undefined && e.amount.cents === line.amount.cents);
  return found.length >= 1 ? found[0] : undefined;
}

/** A request or line id: letters and digits ("R-10471", "EXP-0042", "TX88213"), never a date or an amount. */
const ID = /^(?=[^\s]*\d)(?=[^\s]*[A-Za-z])[A-Za-z]{1,5}[-#]?\d{3,}$/;
/** "Pos. 1", "Item 3", "Line 2", "#4": a block below the total about the listed row of that number. */
const POSITION = /^(?:pos\.?|position|item|line|zeile|ligne|nr\.?|no\.?|#)\s*(\d{1,3})\b/i;
/** A company card named in the report's head ("Moss-Karte: Mastercard •••• 4417", "Company card: Visa ****1234"). */
const COMPANY_CARD = /^(?:[\p{L}]+-karte|(?:company|corporate|business|firmen|unternehmens|entreprise|empresa)[- ]?(?:card|karte|kreditkarte|carte|tarjeta))\s*:/iu;
/** The last four digits of a masked card number ("•••• 4417", "**** 4417", "xxxx4417", "...8831"). */
const MASKED = /(?:[*•·x]{2,}|\.{3})\s?(\d{4})\b/i;
const PAYMENT = /\b(?:zahlungsart|zahlweise|bezahlt (?:mit|per)|payment(?: method)?|paid (?:with|by)|réglé|mode de paiement|pagado con|forma de pago)\b/i;

/**
 * The receipts' details typed out below the total, one block per listed row ("Pos. 1  DB Online-Ticket … Zahlungsart:
 * Kreditkarte Mastercard **** 4417"): the row's receipt. A block whose payment line shows the company card the report
 * names in its head is a charge the company already paid, claimed again out of pocket.
 */
function receiptDetails(lines: Line[], total: number, listed: Entry[], kept: Entry[]): void {
  const card = lines.find((l) => l.n < total && COMPANY_CARD.test(l.text) && !/\b(?:privat|private|personal|persönlich)\b/i.test(l.text));
  const last4 = card ? MASKED.exec(card.text)?.[1] : undefined;
  // Notes under the report led by its rows' line numbers ("Line notes": "4  Dinner alone. Receipt: …"), two or more of
  // them naming rows of the report, are those rows' notes.
  const led = (l: Line) => {
    const m = l.n > total ? /^(\d{1,3})\s+(?=\p{L})/u.exec(l.text) : null;
    return m && listed.some((e) => new RegExp(`^${m[1]}\\s`).test(e.first.text)) ? m : null;
  };
  const numbered = lines.filter((l) => led(l) !== null).length >= 2;
  for (let k = 0; k < lines.length; k++) {
    const l = lines[k];
    const pos = l.n > total ? POSITION.exec(l.text) ?? (numbered ? led(l) : null) : null;
    // A block led by a row's own request or line id ("R-10471  Lyft ride receipt …" under "R-10471  11/04/2026  Lyft")
    // is that row's receipt too.
    const id = l.n > total && !pos ? /^\S+/.exec(l.text)?.[0] : undefined;
    const byId = id !== undefined && ID.test(id) ? listed.find((e) => e.first.text.startsWith(`${id} `)) : undefined;
    const row = pos ? listed.find((e) => new RegExp(`^${pos[1]}\\s`).test(e.first.text)) : byId;
    if (!row) continue;
    const block = [l];
    while (k + 1 < lines.length && lines[k + 1].kind !== 'blank' && lines[k + 1].indent > l.indent) block.push(lines[++k]);
    row.backed ??= l.text;
    // What the receipt shows of the expense (its ride or booking number, the arrival and departure) is the row's.
    row.detail = block.map((b) => b.text).join('\n');
    // Its receipt typed out in the note, parts set apart by bars or slashes: the row's receipt.
    const typed = row.receipt ? undefined : inlineReceipt(block);
    if (typed) {
      row.receipt = typed;
      row.differs = typed.total.cents !== row.amount.cents;
      row.typedAt = block.map((b) => b.n);
    }
    for (const b of block) {
      const inside = kept.findIndex((e) => e.first.n === b.n && e !== row);
      if (inside >= 0) kept.splice(inside, 1);
      const paid = PAYMENT.test(b.text) ? MASKED.exec(b.text)?.[1] : undefined;
      if (card && last4 !== undefined && paid === last4) row.companyCard = { text: b.text, line: b.n, card: card.text, cardLine: card.n };
    }
  }
}

/** Words of four letters or more: a merchant's name as a row and its receipt both print it. */
const words = (text: string) => new Set((text.toLowerCase().match(/\p{L}{4,}/gu) ?? []).filter((w) => !GENERIC.has(w)));
const GENERIC = new Set(['hotel', 'receipt', 'ricevuta', 'fattura', 'invoice', 'rechnung', 'beleg', 'total', 'totale', 'summe', 'gesamt']);

/**
 * A list of the receipts typed out below the total, one line or bullet per listed row ("- Trattoria del Pratello 21/04
 * tortellini 14,00 cotoletta 15,00 acqua 3,00 = 32,00"): a line whose sum ("= 32,00", else its last amount) is the
 * amount of one listed row whose merchant it names is that row's receipt, not another expense.
 */
function receiptList(total: number, listed: Entry[], kept: Entry[]): void {
  for (let k = kept.length - 1; k >= 0; k--) {
    const e = kept[k];
    if (e.first.n <= total || e.receipt || listed.includes(e)) continue;
    const amts = e.first.amts;
    if (amts.length === 0) continue;
    const eq = e.first.raw.trim().lastIndexOf('=');
    const sum = eq >= 0 ? amts.find((a) => a.at > eq) : amts[amts.length - 1];
    if (sum === undefined) continue;
    const own = words(e.first.text);
    const rows = listed.filter((x) => x.amount.cents === sum.cents && !x.backed && [...words(x.first.text)].some((w) => own.has(w)));
    if (rows.length !== 1) continue;
    rows[0].backed = e.first.text;
    kept.splice(k, 1);
  }
}
