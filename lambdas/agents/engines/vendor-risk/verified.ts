/**
 * A bank-detail change the buyer has already verified (RULES.md rule 6, "A change already verified"). A practitioner
 * releases a change once accounts payable records that it called the vendor back at the number already on file and
 * the vendor confirmed, with a second control beside it (a micro-deposit confirmed, a second approver, a bank letter
 * or void cheque in the vendor's name). The engine takes that record only where the buyer wrote it: the top message
 * of an internal e-mail (its sender on the buyer's own domain, not failing authentication), above the forwarded
 * request; a record in the vendor's own message, or in a pasted note whose author cannot be told, verifies nothing.
 * The call must be done (a past call, not negated: "I have not called them yet" is no record; "please call them back"
 * is a request), to the number on file (not one in the request), and confirmed; and the record must say the new
 * account is in the vendor's own name (the engine cannot always tell whose a payee is).
 */
import { baseDomain, type EmailFacts } from './email.js';
import { appendedNote, pointedNote } from './appended.js';
import { nameTokens } from './names.js';
import { lineOf, matches, negatedBefore, type Finding } from './text.js';

/** The first line of a forwarded or quoted message: the buyer's own words end there. */
const QUOTE_START =
  /^(?:[ \t]*-{2,}[ \t]*(?:original\s+message|forwarded\s+message|message\s+(?:transfere|d'origine|original)|mensaje\s+(?:original|reenviado)|urspr[u]ngliche\s+nachricht|weitergeleitete\s+nachricht)[ \t]*-*|[ \t]*begin\s+forwarded\s+message:?|[ \t]*>|[ \t]*(?:from|de|von|da)[ \t]*:[ \t]*\S.*@|[ \t]*on\s.{5,80}\swrote:|[ \t]*le\s.{5,80}\sa\s+ecrit\s*:)/im;

/** A call made, in English, French, Spanish, German (accents folded): "called back", "spoke to", "Rappel le 19 nov.", "angerufen". */
const CALL =
  /(?<![\p{L}])(?:called(?:\s+back)?|call(?:ed)?[- ]?back\s+(?:done|completed|made|performed|on|at|to)|phoned|rang|telephoned|spoke\s+(?:to|with)|rappel(?:e)?|appele|telephone|parle\s+a|llame|llamamos|hablamos\s+con|hable\s+con|ruckruf|angerufen|telefoniert)(?![\p{L}])/giu;
/** What makes it a plan or a request, not a record: "will call", "please call", "need to call back". */
const INTENT = /(?<![\p{L}])(?:will|shall|to|please|going\s+to|need\s+to|must|should|before|vais|allons|devons|voy\s+a|vamos\s+a|werde|werden|bitte)\s+(?:[\p{L}'-]+\s+){0,2}$/iu;
/** The number the buyer already holds, not one the request gives. */
const ON_FILE =
  /(?<![\p{L}])(?:on\s+file|(?:vendor|supplier)\s+master|master\s+(?:file|data|record)|our\s+records|(?:known|existing|independently\s+(?:sourced|obtained))\s+(?:phone\s+)?number|fichier\s+(?:maitre|fournisseurs?)|notre\s+fichier|au\s+dossier|numero\s+(?:inscrit|connu)|nuestros\s+registros|maestro\s+de\s+proveedores|hinterlegt\w*|stammdaten)(?![\p{L}])/iu;
/**
 * The buyer's record that the new account is the vendor's own: the holder's name matches the vendor master ("Account
 * name matches our vendor master", "Nom du titulaire identique à notre fichier", "Kontoinhaber stimmt überein"), or
 * the account is in the vendor's own name. Without it the engine cannot tell the payee is the vendor.
 */
const HOLDER_MATCH =
  /(?<![\p{L}])(?:(?:account\s+(?:holder|name)|holder(?:'s)?\s+name|beneficiary(?:\s+name)?|name\s+on\s+the\s+account|nom\s+du\s+titulaire|titulaire|kontoinhaber|titular)[^.\n]{0,50}?(?:match(?:es|ed)?|identical|identique|same\s+as|conforme|correspond\w*|stimmt|identisch|ubereinstimm\w*|coincide\w*)|in\s+the\s+(?:vendor|supplier|company)'s\s+(?:own\s+|legal\s+)?name|au\s+nom\s+(?:du\s+fournisseur|de\s+l'entreprise))(?![\p{L}])/iu;
/**
 * The record names the account holder, and the name is the vendor's ("RBC letter, account holder Northbridge Label
 * Group Inc."): compared word by word with the vendor's names, legal form aside; "is not …" names no one.
 */
const HOLDER_NAMED =
  /(?<![\p{L}])(?:account\s+holder|holder(?:'s)?\s+name|account\s+name|beneficiary(?:\s+name)?|name\s+on\s+the\s+account|titulaire(?:\s+du\s+compte)?|kontoinhaber|titular)\s*(?:is\s+|:\s*|=\s*|-\s+)?([^,;\n()]{3,80})/giu;
function holderNamed(own: string, names: string[]): boolean {
  const vendors = names.map(nameTokens).filter((t) => t.length > 0);
  for (const m of matches(HOLDER_NAMED, own)) {
    if (/^(?:not|no|never|different|another|other|pas|nicht|kein)(?![\p{L}])/iu.test(m[1])) continue;
    const holder = nameTokens(m[1]);
    if (holder.length > 0 && vendors.some((v) => v.length === holder.length && v.every((w) => holder.includes(w)))) return true;
  }
  return false;
}
/** A call the vendor made to the buyer proves nothing: caller ID is no identity. */
const INBOUND_BEFORE = /(?<![\p{L}])(?:nous|m'|me|vous)\s*(?:a|ont|avons)\s+$/iu;
const INBOUND_AFTER = /^\s+(?:us|me|in|our|into)(?![\p{L}])/iu;
/** The number on file named, and not denied ("not on file", "pas au dossier"). */
function onFile(text: string): boolean {
  for (const m of matches(new RegExp(ON_FILE.source, 'giu'), text)) {
    if (/(?<![\p{L}])(?:not|no|pas|nicht|kein\w*|isn't|wasn't)\s+(?:[\p{L}'-]+\s+){0,3}$/iu.test(text.slice(Math.max(0, m.index - 40), m.index))) continue;
    // "master-data number 204-633-5100 not called yet", "number on file: not reached": named as the one not dialled.
    if (/^[^.;\n]{0,40}?(?<![\p{L}])(?:not|never)\s+(?:yet\s+)?(?:called|dialled|dialed|phoned|tried|reached|contacted|used)(?![\p{L}])/iu.test(text.slice(m.index + m[0].length, m.index + m[0].length + 70))) continue;
    return true;
  }
  return false;
}
const CONFIRMED = /(?<![\p{L}])(?:confirmed|verified|a\s+confirme|ont\s+confirme|confirmo|confirmaron|bestatigt\w*)(?![\p{L}])/iu;
/** A call that reached no one confirms nothing. */
const UNREACHED =
  /(?<![\p{L}])(?:no\s+answer|no\s+reply|voicemail|voice\s+mail|left\s+a\s+message|(?:unable|could\s+not|couldn't|did\s+not|didn't)\s+(?:to\s+)?(?:reach|get\s+through|answer|confirm)|not\s+(?:reached|available)|pas\s+de\s+reponse|boite\s+vocale|message\s+laisse|injoignable|sin\s+respuesta|buzon\s+de\s+voz|nicht\s+erreich\w*|keine\s+antwort|mailbox)(?![\p{L}])/iu;
/** The vendor's confirmation on the call: not negated, not "confirmed by e-mail" (the channel under suspicion). */
function confirmedOnCall(text: string): boolean {
  if (UNREACHED.test(text)) return false;
  for (const m of matches(new RegExp(CONFIRMED.source, 'giu'), text)) {
    const before = text.slice(Math.max(0, m.index - 30), m.index);
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 30);
    if (/(?<![\p{L}])(?:not|never|pas|nicht|no|nie)\s+(?:[\p{L}'-]+\s+){0,2}$/iu.test(before)) continue;
    if (/^\s*(?:by|via|per|in\s+(?:an?|the|their|her|his))?\s*(?:e-?mail|mail|reply|letter|courriel|correo|lettre)/iu.test(after)) continue;
    if (/^\s*(?:par|por|en)\s+(?:courriel|e-?mail|correo|lettre|carta)/iu.test(after)) continue;
    return true;
  }
  return false;
}
/** A second control beside the call-back. */
const SECOND =
  /(?<![\p{L}])(?:micro-?deposits?|micro-?depots?|test\s+(?:deposit|payment|transfer)|penny\s+test|depot\s+test|second(?:e)?\s+(?:approver|approval|approbation|validation|signature|review|reviewer)|deuxieme\s+(?:approbation|validation)|dual\s+(?:approval|control)|four[- ]eyes|vier-?augen\w*|zweite\s+freigabe|segunda\s+aprobacion|specimen\s+de\s+cheque|void(?:ed)?\s+(?:cheque|check)|bank\s+(?:letter|confirmation)|confirmation\s+of\s+payee|(?:account\s+)?name\s+check|lettre\s+(?:de\s+la\s+)?banque|attestation\s+bancaire|bankbestatigung|letter\s+on\s+(?:the\s+bank's\s+|bank\s+|its\s+)?letterhead|(?:bank|account)\s+(?:confirmation|verification)\s+letter|letter[^.\n]{0,40}?account\s+holder)(?![\p{L}])/iu;

/** The buyer's own words in an e-mail (`own`, at offset `base` of the prose) and the vendor's request beside them. */
export interface BuyerRecord {
  own: string;
  base: number;
  request: string;
}

/**
 * Where the buyer's own words stand in an e-mail: its top message, when the buyer sent it, above the forwarded
 * request; the notes that top message points to at the bottom of the forward (pointednote in appended.ts); or its
 * note appended under the vendor's message (appended.ts). None when the e-mail fails authentication.
 */
export function buyerRecords(prose: string, email: EmailFacts | undefined): BuyerRecord[] {
  if (!email) return [];
  const a = email.auth;
  if (a.dmarc === 'fail' || ((a.spf === 'fail' || a.spf === 'softfail') && a.dkim !== 'pass')) return [];
  const body = prose.slice(email.bodyStart);
  const from = /[\p{L}\p{N}._%+-]+@([\p{L}\p{N}.-]+)/u.exec(email.headers.get('from') ?? '')?.[1];
  if (from && email.buyerDomains.has(baseDomain(from))) {
    const quote = QUOTE_START.exec(body);
    const end = quote ? quote.index : body.length;
    const top = { own: body.slice(0, end), base: email.bodyStart, request: body.slice(end) };
    const pointed = pointedNote(body, end);
    if (!pointed) return [top];
    return [top, { own: body.slice(pointed.at), base: email.bodyStart + pointed.at, request: body.slice(end, pointed.at) }];
  }
  const note = appendedNote(body, email.buyerDomains);
  return note ? [{ own: body.slice(note.at), base: email.bodyStart + note.at, request: body.slice(0, note.at) }] : [];
}

/**
 * The record of a verified change, or undefined when the document holds none the engine can rely on. `prose` is
 * the text the detectors read (offsets as the profile's); `names` are the vendor's names (and a successor's the
 * buyer's record shows), against which an account holder the record names is compared.
 */
export function verifiedChange(prose: string, email: EmailFacts | undefined, names: string[] = []): Finding | undefined {
  for (const r of buyerRecords(prose, email)) {
    const found = recordOf(prose, r.base, r.own, r.request, names);
    if (found) return found;
  }
  return undefined;
}

/**
 * The record in `own` (the buyer's words, at offset `base` of the prose), read against `request` (the rest: the
 * vendor's words). The call-back must reach a number the request does not print: a number the request gives is the
 * requester's own, whoever answers it — unless the record says the number it dialled has been on file since before
 * ("on the number in our vendor master since 2017 (519 756 3300)"): a genuine vendor's letters print its long-held
 * number too.
 */
function recordOf(prose: string, base: number, own: string, request: string, names: string[]): Finding | undefined {
  if (!SECOND.test(own) || !(HOLDER_MATCH.test(own) || holderNamed(own, names))) return undefined;
  const requested = new Set(phoneNumbers(request));
  // Each paragraph or numbered item is one record: the call, the number on file and the confirmation together.
  for (const block of blocks(own)) {
    if (fromRequest(block.text)) continue;
    for (const m of matches(CALL, block.text)) {
      const at = base + block.at + m.index;
      const before = block.text.slice(Math.max(0, m.index - 40), m.index);
      const after = block.text.slice(m.index + m[0].length, m.index + m[0].length + 12);
      if (negatedBefore(prose, at) || INTENT.test(before) || INBOUND_BEFORE.test(before) || INBOUND_AFTER.test(after)) continue;
      // The number dialled: the first one written after the call ("Called back on +47 55 22 81 40").
      const reach = block.text.slice(m.index, m.index + 80);
      const dialled = phoneNumbers(reach)[0];
      if (dialled !== undefined && requested.has(dialled) && !boundToFile(reach)) continue;
      if (onFile(block.text) && confirmedOnCall(block.text)) return { detail: lineOf(prose, at), at, end: at + m[0].length };
    }
  }
  return undefined;
}

/** "the number in the e-mail", "the number given in her signature", "number provided in the request": the requester's. */
const NUMBER_FROM_REQUEST =
  /(?<![\p{L}])(?:number|phone|tel\.?|telephone|cell|mobile|cellphone)\s+(?:(?:as\s+)?(?:given|provided|stated|shown|listed|printed|quoted|supplied)\s+)?(?:in|on|from)\s+(?:the|this|that|her|his|their|its|the\s+vendor's|the\s+same)\s+(?:same\s+)?(?:e-?mail|mail|message|request|letter|signature|footer|notice)(?![\p{L}])/giu;

function fromRequest(text: string): boolean {
  for (const m of matches(NUMBER_FROM_REQUEST, text)) {
    // "(not the number in the e-mail)" says where the call did not go.
    if (!/(?<![\p{L}])(?:not|never|rather\s+than|instead\s+of)\s+(?:the\s+|a\s+|any\s+)?$/iu.test(text.slice(Math.max(0, m.index - 24), m.index))) return true;
  }
  return false;
}

/**
 * The record ties the number it dialled to the file as it stood before the request: the words naming the number on
 * file, with the time it has been held ("since 2017", "for years"), stand between the call and the number ("called …
 * on the number in our vendor master since 2017 (519 756 3300)") or in the bracket right after it. "(vendor master)"
 * alone is not enough when the request prints that number: a master record updated from the request says so too.
 */
const HELD_SINCE =
  /(?<![\p{L}])(?:since|as\s+of|seit|depuis|desde|sinds)\s+(?:[\p{L}.]+\s+)?(?:19|20)\d{2}(?![\p{N}])|(?<![\p{L}])(?:for|over)\s+(?:\d+|many|several|some)\s+years(?![\p{L}])|(?<![\p{L}])long[- ](?:held|standing)(?![\p{L}])/iu;
const heldOnFile = (text: string) => onFile(text) && HELD_SINCE.test(text);
function boundToFile(reach: string): boolean {
  const number = /\+?\(?\d[\d ().-]{5,18}\d/.exec(reach.replace(/(?<![\p{N}])(?:19|20)\d{2}(?![\p{N}])/gu, (y) => 'y'.repeat(y.length)));
  if (!number) return false;
  const before = reach.slice(0, number.index);
  const after = /^[^(\n]{0,3}\(([^)\n]{0,60})\)/.exec(reach.slice(number.index + number[0].length))?.[1] ?? '';
  return heldOnFile(before) || heldOnFile(after);
}

/**
 * Numbers written in a text as phone numbers are (seven digits or more, spaces, dots, dashes between; a bracket only
 * round an area code), as their digits. A year before a bracketed number ("since 2017 (519 756 3300)") is no part of it.
 */
function phoneNumbers(text: string): string[] {
  return [...text.matchAll(/(?<![\p{L}\p{N}])(?:\+\d{1,3}[ .-]?)?(?:\(\d{1,4}\)[ .-]?)?\d[\d .-]{4,16}\d(?![\p{N}])/gu)]
    .map((m) => m[0].replace(/\D/g, '').replace(/^00/, ''))
    .filter((d) => d.length >= 7 && d.length <= 15);
}

/** Paragraphs (split at blank lines) and numbered items ("2. Rappel le 19 nov. …") of the buyer's own words. */
export function blocks(text: string): { text: string; at: number }[] {
  const out: { text: string; at: number }[] = [];
  const starts = [0];
  for (const m of text.matchAll(/\n[ \t]*\n|\n(?=[ \t]*(?:\d{1,2}[.)]|[-•*])[ \t]+\S)/g)) starts.push(m.index! + m[0].length);
  starts.push(text.length);
  for (let i = 0; i + 1 < starts.length; i++) out.push({ text: text.slice(starts[i], starts[i + 1]), at: starts[i] });
  return out;
}
