/**
 * Red flags in how the vendor wants to be paid (rules 6 and 7 of RULES.md, and payment outside the banking system):
 * a change of bank details or a payee who is not the vendor, money before delivery, gift cards or cryptocurrency.
 * A statement the clause itself negates ("we will never ask you to change our bank details") is not a flag.
 */
import { answeredNo, findAdvanceAbroad } from './advance.js';
import { ASSIGN, findAssignment } from './assignment.js';
import { boxOf } from './questions.js';
import { UPFRONT_CODE, UPFRONT_TERMS } from './terms.js';
import { TRADES_AS, nameTokens } from './names.js';
import { B, E, lineOf, matches, negatedBefore, type Finding } from './text.js';


const W = "[\\p{L}'-]+";

// ---- payment redirection -----------------------------------------------------------------------------------------

export const CHANGE = 'bank-detail change requested';
const THIRD = 'payment to a third party';
const REDIRECT: { re: RegExp; what: string }[] = [
  {
    what: CHANGE,
    re: new RegExp(
      `${B}(?:update|updated|updating|change|changed|changing|amend|amended|modify|modified|replace|replaced|switch|switched|new)\\s+` +
        `(?:(?:to|our|the|your|my|their|all|its|company|company's|vendor|records?|of|in|on\\s+file)\\s+){0,4}` +
        `(?:bank(?:ing)?\\s+(?:details|information|info|account|instructions|coordinates)|(?:remittance|receiving|beneficiary|payee|payment|wire|ach|deposit|settlement)\\s+(?:account|details|instructions|information|bank)|account\\s+(?:details|number|information))${E}`,
      'giu',
    ),
  },
  {
    what: CHANGE,
    re: new RegExp(`${B}(?:bank(?:ing)?|account|remittance|payment|wire)\\s+(?:details|information|info|instructions|account|number)\\s+(?:have|has)\\s+(?:now\\s+)?(?:been\\s+)?(?:changed|updated)${E}`, 'giu'),
  },
  {
    // "has changed banks", "Change of remittance bank", "Banking information update", "pay … to our new account".
    what: CHANGE,
    re: new RegExp(
      `${B}(?:(?:we|we've|has|have|is|are)\\s+(?:recently\\s+|now\\s+)?(?:chang|switch|mov)(?:ed|ing)\\s+(?:our\\s+|its\\s+)?(?:receivables\\s+|remittance\\s+)?(?:banks?|banking|account)` +
        `|(?:change|update)\\s+(?:of|to|in)\\s+(?:our\\s+)?(?:remittance|receiving|payment|bank(?:ing)?)|(?:bank(?:ing)?|remittance|payment)\\s+(?:details|information|instructions)\\s+(?:update|change)|updated\\s+(?:remittance|bank(?:ing)?|payment)\\s+(?:information|details|instructions)` +
        `|(?:pay(?:ments?)?|remit(?:ted)?|send|wire|transfer)(?:\\s+${W}){0,8}?\\s+(?:to|into)\\s+(?:our|the)\\s+(?:new|updated|different)\\s+(?:bank\\s+)?account)${E}`,
      'giu',
    ),
  },
  {
    // The same request in the vendor's own language: Spanish, French, German, Italian, Portuguese (accents folded).
    what: CHANGE,
    re: new RegExp(
      `${B}(?:` +
        `(?:nuev[oa]s|nuestras?\\s+nuevas?)\\s+(?:coordenadas|cuentas?|datos\\s+bancarios)|nuevas?\\s+(?:coordenadas(?:\\s+bancarias)?|cuenta\\s+bancaria|datos\\s+bancarios)` +
        `|cambio\\s+de\\s+(?:cuenta(?:\\s+bancaria)?|banco|datos\\s+bancarios|coordenadas)|actualizacion\\s+de\\s+(?:coordenadas|datos)\\s+(?:de\\s+cobro|bancari[oa]s)` +
        `|changement\\s+de\\s+(?:compte(?:\\s+bancaire)?|banque|coordonnees\\s+bancaires|rib)|chang(?:er|e|eons|ez|ent)\\s+(?:de\\s+|son\\s+|notre\\s+|leur\\s+|nos\\s+|ses\\s+)?(?:compte\\s+bancaire|banque|coordonnees\\s+bancaires|rib)` +
        `|(?:notre|nos|leur)\\s+nouv(?:eau|elles?)\\s+(?:compte|rib|coordonnees)|nouv(?:eau|elles?)\\s+(?:compte\\s+bancaire|rib|coordonnees\\s+bancaires)` +
        `|neue[nrs]?\\s+(?:bankverbindung|kontoverbindung|iban)|(?:unser|unsere)\\s+neue[ns]?\\s+(?:konto|bankverbindung)|(?:anderung|wechsel)\\s+(?:der|unserer)\\s+bankverbindung|geanderte\\s+bankverbindung|kontoanderung` +
        `|nuov[oe]\\s+(?:coordinate\\s+bancarie|conto\\s+corrente|iban)|(?:nostro|nostre)\\s+nuov[oe]\\s+(?:conto|coordinate)|variazione\\s+(?:delle\\s+)?coordinate\\s+bancarie|cambio\\s+(?:di\\s+)?iban` +
        `|nov[oa]s\\s+dados\\s+bancarios|nova\\s+conta(?:\\s+bancaria)?|alteracao\\s+(?:de|dos)\\s+dados\\s+bancarios` +
        // Polish, Turkish, Dutch.
        `|zmian\\p{L}*\\s+(?:numeru\\s+)?(?:rachunku|konta)(?:\\s+bankowego)?|zmian\\p{L}*\\s+banku|now(?:y|ego|ym|e)\\s+(?:numer\\s+)?(?:rachun\\p{L}*|kont[oa]\\p{L}*)` +
        `|yeni\\s+(?:banka\\s+)?(?:hesab\\p{L}*|hesap|iban)|(?:hesap|iban|banka)\\s+(?:bilgi\\p{L}*\\s+)?degisikli\\p{L}*` +
        `|nieuw\\p{L}*\\s+(?:bank)?rekening(?:nummer)?|wijziging\\s+(?:van\\s+)?(?:de\\s+|ons\\s+|onze\\s+)?(?:bank)?rekening(?:nummer)?` +
        `)${E}` +
        // Japanese, Korean, Chinese, without spaces.
        `|(?:振込先(?:の)?変更|口座(?:の)?変更|新しい口座|계좌\\s*변경|변경된\\s*계좌|새\\s*계좌|变更(?:收款)?账户|更改(?:银行)?账户|新(?:银行)?账户)`.normalize('NFD'),
      'giu',
    ),
  },
  {
    // "Updated legal name and banking", "new banking details", "banking update": banking as the thing that changed.
    what: CHANGE,
    re: new RegExp(
      `${B}(?:(?:updated?|new|revised|changed?)\\s+(?:(?:legal\\s+name|name|address|remittance|company|contact)\\s+(?:and|&)\\s+)?banking|banking\\s+(?:update|change)s?)${E}`,
      'giu',
    ),
  },
  {
    what: THIRD,
    re: new RegExp(
      `${B}(?:pay|paid|payment|payments|remit|remittance|wire|transfer|send|deposit|funds)(?:\\s+${W}){0,5}?\\s+(?:to|into|via|through)\\s+(?:(?:the|our|my|a|an|his|her|their)\\s+)?` +
        `(?:partner|partners|partner's|affiliate|affiliate's|agent|agent's|sister\\s+company|parent\\s+company|related\\s+company|associate|director|director's|owner|owner's|ceo|ceo's|personal|private|individual|third[- ]party|nominee|friend|relative|cousin|brother|wife|husband|factor|factoring|another\\s+company|different\\s+company|offshore)${E}`,
      'giu',
    ),
  },
  {
    what: THIRD,
    re: new RegExp(
      `${B}(?:third[- ]party\\s+(?:account|payee|beneficiary|bank|payment)|account\\s+(?:is\\s+)?(?:held\\s+)?(?:in|under)\\s+(?:the\\s+)?name\\s+of\\s+(?:our|a|the|my)\\s+(?:partner|director|owner|affiliate|agent|parent|sister)|(?:account\\s+holder|beneficiary)(?:\\s+name)?\\s+(?:is|will\\s+be|differs|is\\s+different|does\\s+not\\s+match))${E}`,
      'giu',
    ),
  },
];

/**
 * The redirection findings. `isSuccessor` says whether the buyer's own record shows a payee to be the vendor's
 * successor by amalgamation or merger (successor.ts): such a payee is the vendor under its new name, so paying it is
 * a change of payee and bank to verify (CHANGE), not a payment to someone else; its name is returned in `successors`.
 */
export function findPaymentRedirection(text: string, vendorNames: string[] = [], isSuccessor?: (payee: string) => boolean): Finding[] & { successors?: string[] } {
  const found = new Map<string, { at: number; end: number }>();
  for (const { re, what } of REDIRECT) {
    if (found.has(what)) continue;
    for (const m of matches(re, text)) {
      if (negatedBefore(text, m.index, false, true)) continue;
      found.set(what, { at: m.index, end: m.index + m[0].length });
      break;
    }
  }
  let payee = payeeMismatch(text, vendorNames);
  const successors: string[] = [];
  // Each payee the record shows to be the vendor's successor joins the vendor's names; any other still mismatches.
  while (payee !== undefined && isSuccessor?.(payee.payee) && !successors.includes(payee.payee)) {
    successors.push(payee.payee);
    const next = payeeMismatch(text, [...vendorNames, ...successors]);
    if (next === undefined && !found.has(CHANGE)) found.set(`${CHANGE} (the new payee, ${payee.payee}, is the vendor's successor by amalgamation or merger on the buyer's register search)`, payee);
    payee = next;
  }
  if (payee !== undefined && !found.has(THIRD)) found.set(THIRD, payee);
  const assigned = findAssignment(text, vendorNames);
  if (assigned !== undefined && !found.has(THIRD)) found.set(ASSIGN, assigned);
  const out: Finding[] & { successors?: string[] } = [...found].map(([what, { at, end }]) => ({ detail: `${what} ("${lineOf(text, at)}")`, at, end }));
  out.successors = successors;
  return out;
}

// ---- payee name ---------------------------------------------------------------------------------------------------

// A JSON or CSV export writes its keys camel- or snake-cased and quotes its values: '"payeeName": "Acme Inc",',
// '"nameOnAccount": "ACME INC"', 'beneficiary_name,'; the key reads as the label does, the value inside its quotes.
const PAYEE =
  /(?<![\p{L}])(?<!exempt\s+)(?:payee|beneficiary|account[\s_]*(?:name|holder)|name[\s_]*on[\s_]*account)(?:[\s_]*name)?(?![\s_]*(?:bank|address|country|code|type|id)(?![\p{L}]))("?\s*[:-])?\s*"?([^\n;()|"]{3,80})/giu;

/**
 * A payee or account holder whose name is not the vendor's: paying it pays someone else. Compared word by word with
 * every name the document gives the vendor (legal name, trading name, sender, signature), legal-form words aside;
 * when the document names no vendor nothing is compared.
 */
const TRADES_AS_SPLIT = new RegExp(`\\s+${TRADES_AS}\\s+`, 'iu');

export function payeeMismatch(text: string, vendorNames: string[]): { at: number; end: number; payee: string } | undefined {
  const vendors = vendorNames.map(nameTokens).filter((t) => t.length > 0);
  if (vendors.length === 0) return undefined;
  for (const m of matches(PAYEE, text)) {
    const named = m[2].replace(/\s+(?:-|–)\s+.*$/, '').replace(/,\s*(?:account|acct|iban|bank|routing|aba|sort\s+code|bsb|transit|swift|bic|ifsc|clabe).*$/i, '');
    // "Sipho Ndlovu t/a Kloof Brewing": the account is the person's, whatever name they trade under; the legal
    // name before the trading name is the payee.
    const payee = nameTokens(named.split(TRADES_AS_SPLIT)[0]);
    if (payee.length === 0 || /\d/.test(payee.join(''))) continue;
    if (/^(?:the\s+)?(?:company|vendor|supplier|llc|same)/i.test(m[2].trim())) continue;
    // Without a colon or dash the name must follow as a name does, capitalised ("account name Acme Ltd"); a
    // sentence about the payee ("beneficiary name on the cheque = legal name") names no one.
    if (m[1] === undefined && !/^[\p{Lu}\p{N}]/u.test(m[2])) continue;
    const same = vendors.some((v) => payee.every((w) => v.includes(w)) || v.every((w) => payee.includes(w)));
    // The payee's name ends where a lower-case clause starts after a comma ("… Inc., same transit as the e-mail").
    if (!same) return { at: m.index, end: m.index + m[0].length, payee: named.split(TRADES_AS_SPLIT)[0].replace(/,\s+\p{Ll}.*$/u, '').trim() };
  }
  return undefined;
}

// ---- upfront payment ---------------------------------------------------------------------------------------------

const UPFRONT = new RegExp(
  `${B}(?:` +
    `100\\s*%\\s*(?:of\\s+(?:the\\s+)?(?:total|order|invoice|contract)\\s+(?:value\\s+|amount\\s+)?)?(?:payment\\s+)?(?:pre-?payment|prepaid|advance|in\\s+advance|up-?front|deposit|before|prior|on\\s+order|with\\s+order|at\\s+order)` +
    `|(?:payment|paid|pay|payable|funds|wire|wired|transfer|transferred|remitted|cash)\\s+(?:(?:is|are|must|be|to|required|due|in\\s+full|made|sent)\\s+)*(?:in\\s+advance|up-?front|before\\s+(?:shipment|shipping|delivery|dispatch|production|work|we\\s+ship|goods|release)|prior\\s+to\\s+(?:shipment|shipping|delivery|dispatch|production|work|release))` +
    `|\\d{1,3}\\s*%\\s+of\\s+(?:the\\s+|this\\s+|our\\s+|your\\s+|each\\s+)?(?:first\\s+)?(?:total|order|invoice|contract|amount|po|purchase\\s+order|price)\\s+(?:value\\s+|amount\\s+)?(?:in\\s+advance|up-?front)` +
    `|(?:advance|up-?front)\\s+payments?|pre-?payments?|prepaid\\s+(?:orders?\\s+)?only|cash\\s+in\\s+advance` +
    `|(?:\\d{1,3}\\s*%\\s+)?(?:t\\/?t|telegraphic\\s+transfer|wire(?:\\s+transfer)?|bank\\s+transfer|ach)\\s+(?:payment\\s+)?(?:in\\s+advance|up-?front|before\\s+(?:shipment|shipping|delivery|dispatch|production))` +
    `|\\d{1,3}\\s*%\\s+(?:payable\\s+|due\\s+)?(?:on|upon|at|with)\\s+(?:order|signing|contract|po|purchase\\s+order|order\\s+confirmation|confirmation)` +
    `|(?:deposit|down\\s*payment)\\s+(?:(?:of\\s+\\d+\\s*%|is|required|due|payable)\\s+)*(?:before|prior\\s+to|upon\\s+order|with\\s+(?:the\\s+)?order|to\\s+start)` +
    `|\\d{1,3}\\s*%\\s+(?:deposit|down\\s*payment|advance)` +
    `)${E}`,
  'giu',
);
const DISCOUNT_FOR = /discount\s+(?:for|on)\s+$/iu;
/**
 * A tax the vendor prepays to the state, and the register of those who do ("prepayment register", Finnish
 * ennakkoperintärekisteri, "tax prepayment", "prepayment of income tax"): a registry entry about the vendor's
 * own taxes, which a trade-register extract prints, asks the buyer for nothing.
 */
const TAX_PREPAYMENT_AFTER = /^\s*(?:\(?\s*tax\s*\)?\s*)?(?:register|registry|registration|of\s+(?:income\s+|corporate\s+|withholding\s+)?tax(?:es)?|tax(?:es)?(?![\p{L}])(?!\s*invoice))/iu;
const TAX_PREPAYMENT_BEFORE = /(?:tax|taxes|withholding|income[- ]tax|ennakkoperint\p{L}*|f-?skatt\p{L}*|ennakkovero\p{L}*)\s*\(?\s*$/iu;

export function findUpfrontPayment(text: string): Finding | undefined {
  for (const re of [UPFRONT, UPFRONT_TERMS]) {
    for (const m of matches(re, text)) if (isDemand(text, m.index, m[0])) return foundAt(text, m.index, m[0]);
  }
  for (const m of matches(UPFRONT_CODE, text)) {
    const at = m.index + m[0].length - m[1].length;
    if (isDemand(text, at, m[1])) return foundAt(text, at, m[1]);
  }
  return findAdvanceAbroad(text);
}

const foundAt = (text: string, at: number, words: string): Finding => ({
  detail: `"${words.replace(/\s+/g, ' ')}" ("${lineOf(text, at)}")`,
  at,
  end: at + words.length,
});

/** The words at `at` ask for money before delivery unless negated, offered as a discount, a tax, unticked or answered no. */
function isDemand(text: string, at: number, words: string): boolean {
  if (negatedBefore(text, at, true)) return false;
  if (DISCOUNT_FOR.test(text.slice(Math.max(0, at - 20), at))) return false;
  const after = text.slice(at + words.length, at + words.length + 40);
  if (/pre-?pay/i.test(words) && (TAX_PREPAYMENT_AFTER.test(after) || TAX_PREPAYMENT_BEFORE.test(text.slice(Math.max(0, at - 40), at)))) return false;
  // "[ ] Advance payment   [x] 30 days": an option the form offers and the vendor did not tick is no demand.
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  const nl = text.indexOf('\n', at);
  const line = text.slice(lineStart, nl < 0 ? text.length : nl);
  if (boxOf(line, at - lineStart, at - lineStart + words.length) === 'empty') return false;
  // "Deposit or prepayment required? No": the form asked, the vendor answered no.
  return !answeredNo(text, at, at + words.length);
}

// ---- payment outside the banking system --------------------------------------------------------------------------

/**
 * Ways of being paid that put the money beyond recall and outside any account in the vendor's name: gift cards
 * (bearer value e-mailed to one person), cryptocurrency (an irreversible transfer to a wallet nobody can tie to the
 * company), a money-transfer service collected in cash. A business that asks for them is a fraud indicator, whatever
 * else it says.
 */
const CHANNELS: { what: string; re: RegExp }[] = [
  {
    what: 'gift cards',
    re: new RegExp(`${B}(?:(?:e-?)?gift\\s*(?:cards?|codes?|vouchers?|certificates?)|(?:itunes|google\\s+play|steam|prepaid)\\s+(?:gift\\s+)?cards?)${E}`, 'giu'),
  },
  {
    what: 'cryptocurrency',
    re: new RegExp(`${B}(?:crypto(?:currenc(?:y|ies)|s)?|bitcoins?|BTC|ethereum|ether|USDT|USDC|tether|stablecoins?|TRC-?20|ERC-?20|(?:crypto|bitcoin|digital|usdt|btc)\\s+wallet|wallet\\s+address)${E}`, 'gu'),
  },
  { what: 'a money-transfer service', re: new RegExp(`${B}(?:western\\s+union|money\\s*gram|ria\\s+money\\s+transfer)${E}`, 'giu') },
];
/** Being paid: "pay(ment) in", "paid by", "settlement in", "How would you like to be paid?", "accept only". */
const PAID = /(?<![\p{L}])(?:pay|paid|payment|payments|payable|remit|remittance|settle|settlement|compensat\w*|accept(?:s|ed)?\s+only|prefer(?:s|red)?)(?![\p{L}])(?!\s+for(?![\p{L}]))/giu;

/** Each way of being paid outside the banking system that the vendor asks for, with where it is asked. */
export function findPaymentChannels(text: string): (Finding & { what: string })[] {
  const out: (Finding & { what: string })[] = [];
  for (const { what, re } of CHANNELS) {
    for (const m of matches(re, text)) {
      // The payment words must lead up to it on its line, within a few words, no sentence between.
      const lineStart = text.lastIndexOf('\n', m.index - 1) + 1;
      const before = text.slice(Math.max(lineStart, m.index - 160), m.index);
      let asked = false;
      for (const p of matches(PAID, before)) {
        const between = before.slice(p.index + p[0].length);
        if (!/[.;!](?:\s|$)/.test(between) && between.split(/\s+/).filter(Boolean).length <= 10) asked = true;
      }
      if (!asked || negatedBefore(text, m.index)) continue;
      out.push({ what, detail: `"${m[0]}" ("${lineOf(text, m.index)}")`, at: m.index, end: m.index + m[0].length });
      break;
    }
  }
  return out;
}
