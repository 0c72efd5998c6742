/**
 * Payment terms that ask for money before delivery as English quotations, pro-forma invoices and e-mails write them
 * (RULES.md rule 7), beyond the fixed phrases of payment.ts: the whole price or a payment tied to the moment the
 * order is placed — "100% payment on confirmation", "full payment with order", "payment due on acceptance of this
 * quotation", "payment in full upon order confirmation", "100% against pro-forma invoice"; the trade abbreviations
 * CIA (cash in advance) and CWO (cash with order) on a terms line; a pro-forma invoice or balance "to be settled
 * before shipment"; "T/T advance"; a non-refundable deposit. A moment after the goods come (delivery, receipt of
 * goods or invoice, acceptance of the goods, confirmation of receipt) is credit, not an advance, and is not read.
 */
import { B, E } from './text.js';

/** The moment the order is placed, confirmed or accepted: before anything is made or shipped. */
const ORDER_MOMENT =
  '(?:the\\s+|your\\s+|our\\s+|this\\s+)?(?:' +
  '(?:order|po|purchase\\s+order)\\s+(?:confirmation|acceptance|placement)' +
  '|confirmation(?:\\s+of\\s+(?:the\\s+|your\\s+|this\\s+)?(?:order|po|purchase\\s+order|booking|quotation|quote|offer))?(?!\\s+of)' +
  '|(?:placing|placement)\\s+(?:of\\s+)?(?:the\\s+|your\\s+|an\\s+)?order' +
  '|(?:order|purchase\\s+order|po|booking|signing|signature|contract\\s+signing)(?!\\s*(?:number|no\\.?|#|ref\\w*))(?!\\s+of\\s+(?:the\\s+)?(?:delivery|receipt|proof|pod|goods|acceptance|completion|handover|installation))' +
  '|acceptance\\s+of\\s+(?:this|the|our|your)\\s+(?:quotation|quote|offer|proposal|estimate|order|purchase\\s+order|po|contract)' +
  '|receipt\\s+of\\s+(?:the\\s+|your\\s+|our\\s+)?(?:order(?:\\s+confirmation)?|purchase\\s+order|po|pro-?\\s?forma(?:\\s+invoice)?)(?!\\s*(?:number|no\\.?|#|ref\\w*))' +
  '|(?:the\\s+)?(?:pro-?\\s?forma|PI)(?:\\s+invoice)?(?!\\s+(?:for|is\\s+for)\\s+customs)' +
  ')';

/** Who pays, and how much: a payment word, the whole price, a share. */
const LEAD =
  '(?:(?:\\d{1,3}\\s*%\\s+)?(?:full\\s+|total\\s+|entire\\s+)?(?:payment|paid|payable|pay)|100\\s*%' +
  '|(?:the\\s+)?(?:full|total|entire|whole)\\s+(?:amount|price|order\\s+value|value|sum|invoice\\s+amount)\\s+(?:is\\s+)?(?:payable|due))';
/** What may sit between them: "is due in full", "of the full amount", "100%", "required". */
const FILL =
  '(?:\\s+(?:is|are|to\\s+be|must\\s+be|shall\\s+be|will\\s+be|be|required|requested|due|payable|made|in\\s+full|100\\s*%' +
  '|of\\s+(?:the\\s+)?(?:full|total|entire|whole)\\s+(?:amount|price|value|sum)|terms?:?))*';

export const UPFRONT_TERMS = new RegExp(
  `${B}(?:` +
    `${LEAD}${FILL}\\s+(?:on|upon|at|with|against)\\s+${ORDER_MOMENT}` +
    // Cash with order / before delivery, written out.
    `|cash\\s+with\\s+order|cash\\s+before\\s+(?:delivery|shipment|dispatch)` +
    // A pro-forma invoice, a balance or an invoice to be settled before the goods leave or are made.
    `|(?:pro-?\\s?forma(?:\\s+invoice)?|invoice|balance|payment|amount|account)\\s+(?:(?:to|must|shall|should|will|needs?\\s+to|has\\s+to|have\\s+to|be|been|is|are|fully|in\\s+full)\\s+)*` +
    `(?:settled|paid|payable|due|cleared|remitted|honou?red)\\s+(?:in\\s+full\\s+)?(?:before|prior\\s+to|ahead\\s+of|in\\s+advance|up-?front)` +
    // Telegraphic transfer in advance, in the shorthand of export quotations: "100% TT advance", "advance T/T".
    `|(?:\\d{1,3}\\s*%\\s+)?(?:t\\/?t|tt|wire|transfer)\\s+(?:in\\s+)?advance|advance\\s+(?:t\\/?t|tt)` +
    // A deposit the buyer cannot get back is money paid before the goods; a returnable-packaging deposit is not.
    `|(?<!(?:pallet|container|crate|keg|bottle|drum|tote|cylinder|packaging)\\s)non-?\\s?refundable\\s+(?:[\\p{L}]+\\s+){0,2}?(?:deposit|down\\s*payment|advance|retainer|booking\\s+fee|reservation\\s+fee)` +
    `|(?<!(?:pallet|container|crate|keg|bottle|drum|tote|cylinder|packaging)\\s)(?:deposit|down\\s*payment|advance\\s+payment)\\s+(?:is\\s+|are\\s+|will\\s+be\\s+)?non-?\\s?refundable` +
    `)${E}`,
  'giu',
);

/**
 * CIA (cash in advance), CWO (cash with order), CBD (cash before delivery): in capitals, as the value of a payment or
 * terms line ("Terms: CIA", "Payment terms | CWO"). Elsewhere the letters mean other things.
 */
export const UPFRONT_CODE = /(?<=^|\n)[^\n]*?(?:[Pp]ayment|PAYMENT|[Tt]erms|TERMS|[Zz]ahlungs|[Pp]aiement)[^\n:|\t]{0,30}(?::|\||\t|\s{3,})\s*(?:[^\n]{0,40}?\s)?(CIA|CWO|CBD)(?![\p{L}\p{N}])/gu;
