/**
 * A purchase order's terms, read as rules from its free text (memos, shipping instructions, /C comment lines, JSON
 * notes and custom fields): ship complete or partials accepted, freight terms, tax exemption, a stated price
 * tolerance, a ban on substitutions or on over-shipping. Each rule keeps the sentence it was read from, for evidence.
 */
export interface Rule {
  quote: string;
}
export interface Terms {
  shipComplete?: Rule;
  partialsAllowed?: Rule;
  /** "freight prepaid, do not invoice freight" / "freight collect": freight on the invoice is not payable. */
  freightNotBillable?: Rule;
  /** "prepay & add", "freight may be invoiced": freight (and a carrier fuel surcharge) is billable. */
  freightBillable?: Rule;
  /** "freight … not to exceed $150.00": billable freight is capped at this amount (all freight charges together). */
  freightCap?: Rule & { amount: bigint };
  taxExempt?: Rule;
  /**
   * "an over/under delivery tolerance of +/-10% applies to line 1", "Überlieferungstoleranz 5 %": a quantity above the
   * PO's by at most this share (thousandths of a percent) is accepted, on the lines named (all when none is).
   */
  quantityTolerance?: Rule & { over: bigint; lines?: number[] };
  /** "±2% or $5.00, whichever is less" of the line's value. */
  tolerance?: Rule & { percent: bigint; amount?: bigint; lesser: boolean; onTotal?: boolean };
  noSubstitutions?: Rule;
  /** The PO's total is stated net of tax ("excl. VAT", "ohne MwSt", "net value"). */
  totalExcludesTax?: Rule;
  /** A fee the PO approves in its notes ("your drop-ship fee of $25.00 is approved and may be billed"), up to its amount. */
  approvedCharges?: (Rule & { label: string; amount: bigint })[];
  /** A fee the PO says never applies ("no restocking fee applies to defective returns"). */
  refusedCharges?: (Rule & { label: string })[];
  /** A blanket PO's amount still open ("Remaining USD 27,000.00"): an invoice's goods must fit in it. */
  remaining?: Rule & { amount: bigint };
}

/** Sentences (or comment lines) of the text, whitespace-collapsed. */
function sentences(text: string): string[] {
  return text
    .replace(/<[^>]{0,200}>/g, ' ')
    .split(/(?<=[.;!])\s+|\n\s*\n|\n(?=\s*\/C\b)|\n(?=[A-Z][A-Za-z ]{2,30}:)/)
    .map((s) => s.replace(/\s+/g, ' ').replace(/^\/C\s+/i, '').trim())
    .filter((s) => s.length > 0 && s.length < 400);
}

/**
 * Ship complete, as buyers write it in English, German, Dutch, French, Italian and Spanish ("SHIP COMPLETE",
 * "Komplettlieferung - Teillieferungen sind nicht zulässig", "geen deelleveringen", "livraisons partielles non
 * acceptées", "consegne parziali non ammesse", "no se aceptan entregas parciales"); read before the permissive form.
 */
const SHIP_COMPLETE = new RegExp([
  String.raw`\bship\s+complete\b|\bno\s+partial\s+(?:shipments|deliveries)\b|\bpartial\s+(?:shipments|deliveries)\s+(?:are\s+)?not\s+(?:accepted|allowed|permitted)`,
  String.raw`komplettlieferung|\bkeine\s+teillieferung|teillieferungen\s+(?:sind\s+)?(?:nicht\s+(?:zul(?:ä|ae)ssig|gestattet|erlaubt|m(?:ö|oe)glich)|unzul(?:ä|ae)ssig)`,
  String.raw`\bgeen\s+deelleveringen|deelleveringen\s+(?:zijn\s+)?niet\s+(?:toegestaan|toegelaten)`,
  String.raw`livraison\s+compl(?:è|e)te|pas\s+de\s+livraisons?\s+partielles?|livraisons?\s+partielles?\s+(?:ne\s+sont\s+pas|non)\s+(?:autoris|accept|admis)`,
  String.raw`consegne\s+parziali\s+non\s+(?:ammesse|consentite|accettate)|nessuna\s+consegna\s+parziale`,
  String.raw`no\s+se\s+aceptan\s+entregas\s+parciales|entregas\s+parciales\s+no\s+(?:permitidas|aceptadas)|\bentrega\s+completa|no\s+se\s+admiten\s+entregas\s+parciales`,
  // Norwegian, Danish, Swedish: "Delleveranse: Ikke tillatt", "dellevering er ikke tilladt", "delleveranser ej tillåtna".
  String.raw`\bdellever(?:anse|ans|ing)(?:r|er)?\s*:?\s*(?:er\s+|är\s+)?(?:ikke|ikkje|inte|ej)\s+(?:tillatt|tilladt|tillåtn?a?|akseptert|accepteras)|\bingen\s+dellever|\bkomplett\s+leverans\b`,
].join('|'));
const PARTIALS_ALLOWED = new RegExp([
  String.raw`\bpartial\s+(?:shipments|deliveries)\s+(?:are\s+)?(?:accepted|allowed|ok|permitted)|\bpartials?\s+(?:ok|accepted|allowed)`,
  String.raw`teillieferungen\s+(?:sind\s+)?(?:zul(?:ä|ae)ssig|gestattet|erlaubt|m(?:ö|oe)glich)|deelleveringen\s+(?:zijn\s+)?toegestaan`,
  String.raw`livraisons?\s+partielles?\s+(?:sont\s+)?(?:autoris|accept|admis)|consegne\s+parziali\s+(?:sono\s+)?(?:ammesse|consentite)`,
  // "Delleveranse: Tillatt", "dellevering tilladt", "delleveranser tillåtna" (read after the forbidding form above).
  String.raw`\bdellever(?:anse|ans|ing)(?:r|er)?\s*:?\s*(?:er\s+|är\s+)?(?:tillatt|tilladt|tillåtn?a?|ok|akseptert|accepteras)`,
].join('|'));

/**
 * Freight the vendor bears, in other words and languages: "no fuel surcharge or freight will be paid", Spanish
 * "portes pagados" and "no se admitirán cargos por portes", French "franco de port", German "frei Haus", Italian
 * "porto franco", Norwegian, Swedish and Danish "frakt inkludert i prisene", "frakt ingår", "fragt inkluderet", "fri
 * frakt", "fritt levert", Japanese 送料 貴社負担 (shipping at the supplier's charge) or 送料無料.
 */
const FREIGHT_NOT_BILLED = /\bno\s+(?:[\w-]+\s+){0,3}(?:or\s+|and\s+)?freight\s+(?:will|shall|is\s+to|may)\s+(?:be\s+)?(?:paid|accepted|billed|invoiced)|portes\s+pagados|no\s+se\s+admitir[aá]n\s+cargos\s+por\s+portes|sin\s+cargos?\s+(?:de|por)\s+portes|franco\s+de\s+port|\bport\s+pay[ée]|frei\s+haus|frachtfrei|porto\s+franco|\bfrakt\s+(?:er\s+)?(?:inkludert|inkl\.?|ingår|inkluderad)|\bfragt\s+(?:er\s+)?inkluderet|\bfri\s+frakt\b|\bfraktfritt|\bfritt\s+levert|送\s*料\s*:?\s*(?:貴社|御社|弊社以外|売主)負担|送料無料/;

/** "the invoiced unit price of a line may exceed the PO unit price by at most 2.0%": a tolerance, named or not. */
const PRICE_MAY_EXCEED = /\bprices?\b[^.;]{0,80}\b(?:may|can|is\s+allowed\s+to|are\s+allowed\s+to)\s+(?:exceed|vary\s+from|differ\s+from|deviate\s+from)\b[^.;]{0,60}\bby\s+(?:at\s+most|up\s+to|no\s+more\s+than|not\s+more\s+than|a\s+maximum\s+of)\s+\d+(?:[.,]\d+)?\s?%/;

const MONEY = /(?:\$|€|£|USD|EUR|GBP)\s?(\d+(?:[.,]\d{1,2})?)|(\d+(?:[.,]\d{1,2})?)\s?(?:\$|€|£|USD|EUR|GBP|dollars)/i;

/**
 * A JSON document's words: each string value is a text of its own, read under its key ("invoice-price-tolerance":
 * "… may exceed the PO unit price by at most 2.0%"), so the key names what the sentence is about and a quote is the
 * buyer's sentence, not the JSON around it. Undefined when the text is not JSON.
 */
function jsonTexts(text: string): { topic: string; text: string }[] | undefined {
  if (!/^\s*[[{]/.test(text)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const out: { topic: string; text: string }[] = [];
  const walk = (v: unknown, topic: string, depth: number): void => {
    if (depth > 12) return;
    if (typeof v === 'string') {
      if (/[A-Za-z]{2}/.test(v)) out.push({ topic, text: v });
    } else if (Array.isArray(v)) v.forEach((x) => walk(x, topic, depth + 1));
    else if (typeof v === 'object' && v !== null) {
      for (const [k, x] of Object.entries(v)) walk(x, k.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[-_.]+/g, ' ').toLowerCase(), depth + 1);
    }
  };
  walk(parsed, '', 0);
  return out;
}

export function readTerms(text: string): Terms {
  const terms: Terms = {};
  const texts = jsonTexts(text) ?? [{ topic: '', text }];
  for (const t of texts) readText(t.text, t.topic, terms);
  return terms;
}

function readText(text: string, topic: string, terms: Terms): void {
  // A sentence may continue on the next printed line: join wrapped lines first.
  const joined = text.replace(/\r/g, '').replace(/([^.\n:])\n(?=[a-z(])/g, '$1 ');
  for (const s of sentences(joined)) {
    const l = s.toLowerCase();
    // What the sentence is about where a JSON key says it ("tax-status": "exempt"); positions are taken from `l` alone.
    const keyed = topic ? `${topic}: ${l}` : l;
    const quote = s.length > 160 ? `${s.slice(0, 157)}…` : s;
    if (SHIP_COMPLETE.test(keyed)) terms.shipComplete ??= { quote };
    else if (PARTIALS_ALLOWED.test(keyed)) terms.partialsAllowed ??= { quote };
    if (/freight\s+collect|do\s+not\s+(?:invoice|bill|charge)\s+freight|no\s+freight\s+(?:charges?|to\s+be\s+invoiced)|do\s+not\s+prepay\s+and\s+add|freight\s+(?:included|prepaid\s+-?\s*do\s+not)|free\s+freight|freight\s+included|no\s+separate\s+freight|(?:price|rate)s?\s+(?:are\s+)?inclusive\s+of\s+freight|fob\s+destination|freight\s+prepaid(?!\s*(?:&|and)\s*add)/.test(l) || FREIGHT_NOT_BILLED.test(l)) {
      terms.freightNotBillable ??= { quote };
    } else if (/prepay\s*(?:&|and)\s*add|freight\s+(?:may|will|to)\s+be\s+(?:invoiced|billed|added)|add\s+freight/.test(l)) {
      terms.freightBillable ??= { quote };
    }
    const cap = /\b(?:(?:not\s+to|(?:shall|must|may|will|does|do)\s+not)\s+exceed|n\.?t\.?e\.?|up\s+to|max(?:imum)?\.?(?:\s+of)?|capped\s+at|cap\s+of|no\s+more\s+than)\s*:?\s*(?:\$|€|£|USD|EUR|GBP)\s?(\d{1,3}(?:,\d{3})*(?:\.\d{2})?|\d+(?:\.\d{2})?)/i.exec(s);
    // The cap must be freight's own ("freight … not to exceed $150.00"), not the order's ("total not to exceed
    // $5,000.00 including freight"); it makes freight billable only where the sentence allows adding it.
    const freightAt = l.search(/freight|shipping|carriage|delivery/);
    if (cap && freightAt >= 0 && freightAt < cap.index && !terms.freightNotBillable) {
      terms.freightCap ??= { quote, amount: BigInt(Math.round(Number(cap[1].replace(/,/g, '')) * 100)) * 10_000n };
      if (/prepay|\b(?:may|can|will)\s+(?:be\s+)?(?:add|added|invoiced|billed|charged)\b/.test(l)) terms.freightBillable ??= { quote };
    }
    if (/tax[\s-]+exempt|exempt\s+from\s+(?:sales\s+)?tax|do\s+not\s+charge\s+(?:sales\s+)?tax|tax[\s-]*status"?:?\s*"?exempt|sales\s+tax:\s*exempt/.test(keyed)) {
      terms.taxExempt ??= { quote };
    }
    if (/no\s+substitut|substitutions?\s+(?:are\s+)?not\s+(?:accepted|allowed|permitted)/.test(l)) terms.noSubstitutions ??= { quote };
    const delivery = quantityTolerance(s, keyed);
    if (delivery) {
      if (delivery.over !== undefined) terms.quantityTolerance ??= { quote, over: delivery.over, lines: delivery.lines };
      if (!/\bprice/.test(l)) continue;
    }
    // "±2% or $5.00, whichever is less" (both), or a percent alone ("Preistoleranz: … je Position um höchstens ± 2 %").
    if (/toleran/.test(keyed) || /whichever\s+is\s+(?:less|lower|greater|higher)/.test(l) || PRICE_MAY_EXCEED.test(l)) {
      const pct = /(?:±|\+\/-|\+-|plus or minus)?\s*(\d+(?:[.,]\d+)?)\s?%/.exec(s);
      const amt = MONEY.exec(s);
      if (pct) {
        const percent = BigInt(Math.round(Number(pct[1].replace(',', '.')) * 1000)); // thousandths of a percent
        const amount = amt ? BigInt(Math.round(Number((amt[1] ?? amt[2]).replace(',', '.')) * 100)) * 10_000n : undefined;
        // Stated on the order's total ("within 2% of the PO total") rather than per line or item.
        const onTotal = /\btotal\b|gesamt(?:betrag|wert|summe)|overall|order value|totaal|totale/.test(keyed) && !/\b(?:per|each|every)\s+(?:line|item|position)|line[\s-]+item|je\s+position|pro\s+position|per\s+riga|per\s+regel|\bof\s+a\s+line\b/.test(keyed);
        terms.tolerance ??= { quote, percent, amount, lesser: !/greater|higher/.test(l), onTotal };
      }
    }
    const open = /\bremaining(?:\s+(?:amount|balance|value))?\s*:?\s*(?:USD|EUR|GBP|CAD|\$|€|£)?\s*(\d{1,3}(?:,\d{3})*\.\d{2}|\d+\.\d{2})\b/i.exec(s);
    if (open) terms.remaining ??= { quote: open[0], amount: BigInt(open[1].replace(/[,.]/g, '')) * 10_000n };
    const refused = /\bno\s+((?:[a-z][\w-]*\s+){0,2}(?:fee|charge|surcharge))s?\s+(?:applies|apply|will\s+apply|is\s+(?:charged|allowed|accepted)|may\s+be\s+(?:charged|billed))/i.exec(s);
    if (refused) (terms.refusedCharges ??= []).push({ quote, label: refused[1] });
    // "No surcharges or fees (fuel, environmental, handling, hazmat, small-order) will be paid": the listed kinds.
    const listed = /\bno\s+(?:sur)?(?:charges?|fees?)(?:\s+(?:or|and)\s+(?:sur)?(?:charges?|fees?))?\s*\(([^)]{3,160})\)[^.]{0,40}\b(?:will\s+be\s+paid|(?:are|is|be)\s+(?:accepted|allowed|permitted|paid))/i.exec(s);
    if (listed) (terms.refusedCharges ??= []).push({ quote, label: `${listed[1]} fee` });
    const fee = approvedCharge(s);
    if (fee) (terms.approvedCharges ??= []).push({ ...fee, quote });
    if (/excl\.?\s*(?:of\s+)?(?:tax|vat|btw|mwst|gst)|ohne\s+mwst|excluding\s+(?:tax|vat)|net\s+of\s+(?:tax|vat)|prices?\s+(?:are\s+)?(?:net|excl)|before\s+tax/.test(l)) {
      terms.totalExcludesTax ??= { quote };
    }
  }
}

/**
 * A tolerance on the quantity delivered, as buyers and ERPs word it: over/under delivery (SAP's Überlieferungs- and
 * Unterlieferungstoleranz), over-shipment or over-receipt, in English, German, French and Spanish. `over` is the share
 * above the PO's quantity that is accepted (undefined for an under-delivery tolerance alone); `lines` the PO lines the
 * sentence limits it to ("applies to line 1", "lines 2 and 3").
 */
const DELIVERY_TOLERANCE = /\b(?:over\s*(?:\/|-|and|or)?\s*under|under\s*(?:\/|-|and|or)?\s*over|over|under)[\s-]*(?:deliver(?:y|ies)|shipments?|shipping|receipts?|receiving)\b|\bquantity\s+(?:tolerance|variance)|\bquantities\s+may\s+(?:vary|differ)|(?:über|unter|ueber)lieferung|mengentoleranz|tol[ée]rance\s+(?:de\s+)?(?:quantit[ée]|livraison)|tolerancia\s+(?:de\s+)?(?:cantidad|entrega|suministro)|sobre[\s-]?entrega/i;
function quantityTolerance(s: string, keyed: string): { over?: bigint; lines?: number[] } | undefined {
  if (!DELIVERY_TOLERANCE.test(keyed)) return undefined;
  const l = s.toLowerCase();
  // "Unterlieferungstoleranz 10 %, Überlieferungstoleranz 5 %": the percent after the over-delivery word is its own.
  const overAt = l.search(/\bover[\s-]*(?:deliver|ship|receipt)|über|ueber/);
  const percent = /(\+\/-|±|\+-|plus or minus|\+)?\s*(\d+(?:[.,]\d+)?)\s?%/;
  const pct = (overAt > 0 ? percent.exec(s.slice(overAt)) : null) ?? percent.exec(s);
  if (!pct) return undefined;
  const underOnly = /\bunder[\s-]*deliver|unterlieferung/.test(l) && !/\bover|über|ueber|\+\/-|±|\+-/.test(l);
  const over = underOnly ? undefined : BigInt(Math.round(Number(pct[2].replace(',', '.')) * 1000));
  const named = [...l.matchAll(/\b(?:lines?|items?|positions?|pos\.?)\s+(\d{1,5}(?:\s*(?:,|and|&|y|und|et)\s*\d{1,5})*)/g)]
    .flatMap((m) => m[1].split(/\s*(?:,|and|&|y|und|et)\s*/).map(Number));
  return { over, lines: named.length > 0 ? [...new Set(named)] : undefined };
}

/**
 * "Your standard drop-ship fee of $25.00 per order is approved for this PO": a named fee or charge, an amount, and
 * words that approve billing it. A sentence that refuses it ("no restocking fee applies") approves nothing.
 */
function approvedCharge(s: string): { label: string; amount: bigint } | undefined {
  const l = s.toLowerCase();
  if (!/\b(?:approved|may be (?:billed|invoiced|charged|added)|is (?:allowed|accepted|authori[sz]ed)|will be paid)\b/.test(l)) return undefined;
  if (/\b(?:no|not|never)\b[^.]{0,40}\b(?:fee|charge|surcharge)/.test(l)) return undefined;
  const m = /((?:[A-Za-z][\w-]*\s+){1,3}(?:fee|charge|surcharge))\s+(?:of\s+)?(?:\$|€|£|USD\s?|EUR\s?|GBP\s?)(\d{1,7}(?:[.,]\d{2})?)/i.exec(s);
  if (!m) return undefined;
  const label = m[1].replace(/^(?:your|our|a|an|the|standard|usual)\s+/gi, '').replace(/^(?:your|our|a|an|the|standard|usual)\s+/gi, '').trim();
  return { label, amount: BigInt(Math.round(Number(m[2].replace(',', '.')) * 100)) * 10_000n };
}
